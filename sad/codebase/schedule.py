"""Which worker process of `sad check -j N` runs which unit: files that share callees on one worker.

Data flow: sad.codebase.runner plans one unit per file (the file and the files it loads) and, with -j N,
hands them to this module's `on_workers`, which yields each unit's result as it comes back. A worker keeps
the routines it built (sad.analysis.summaries) for its later units; a callee built on one worker is built
again on another that needs it too. Dealing units to whichever worker was free spread every routine of
Reference LAPACK over both workers: on a 194-file sample -j 2 used 297 CPU s where -j 1 used 205.

So the units are dealt before the run (`dealt`), largest closure first, each to the worker whose load (the
lines of every file it must build) it raises least: LPT scheduling with a file shared by two units on one
worker counted once there. Reference LAPACK (2 157 files of SRC and BLAS/SRC) comes out as single and
complex precision on one worker, double and double complex on the other, 455 000 lines each, 26 000 lines
(3 %) built on both. Each worker runs its units callees first, as -j 1 does. A worker whose own units are
done takes over a unit of another's that nothing left there loads, where what it must build for it is
fewer lines than the rest of that worker's queue (`Queues._taken_over`). On a dask.distributed cluster
(--scheduler) the units are dealt the same way over its workers (`placed`), each task restricted to its
worker and ranked callees first; the cluster itself moves a task only when its worker is gone.

Lines stand for cost here: a cold run knows nothing better. On that sample -j 2 now takes 116 s wall and
205 CPU s (150 and 297 before); on ten LAPACK routines in all four precisions with their callees (309
files, 98 798 lines), 187 s and 370 CPU s (249 and 492).
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing import get_context

from sad.codebase.results import Unit

TASK_LINES = 200  # lines of a task at least (about 0.15 s of analysis): fewer round trips between processes


def dealt(units: list[Unit], jobs: int) -> list[deque[Unit]]:
    """Each worker's units, callees first. Units are dealt largest closure first (the lines of the file and
    of every file it loads), each to the worker whose load it raises least: a worker's load is the lines of
    every file it must build, so a file loaded on a worker already costs it nothing more (LPT scheduling,
    with the closures' shared files counted once per worker)."""
    lines = {unit.path: unit.lines for unit in units}
    built: list[set[str]] = [set() for _ in range(jobs)]
    load = [0] * jobs
    queues: list[list[Unit]] = [[] for _ in range(jobs)]
    for unit in sorted(units, key=lambda u: (-_fresh(u, set(), lines), u.path)):
        fresh = [_fresh(unit, built[w], lines) for w in range(jobs)]
        least = min(range(jobs), key=lambda w: (load[w] + fresh[w], fresh[w], w))  # a tie: less built twice
        load[least] += fresh[least]
        built[least].update((unit.path, *unit.deps))
        queues[least].append(unit)
    return [deque(sorted(queue, key=_callees_first)) for queue in queues]


def _fresh(unit: Unit, built: set[str], lines: dict[str, int]) -> int:
    """The lines of the unit and of the files it loads that are not in `built`."""
    return sum(lines.get(path, 0) for path in {unit.path, *unit.deps} - built)


def _callees_first(unit: Unit) -> tuple:
    return len(unit.deps), unit.path


def _lines(units) -> int:
    return sum(unit.lines for unit in units)


def placed(units: list[Unit], workers: list[str]) -> list[tuple[Unit, str, int]]:
    """Each unit with the worker (of `workers`, addresses) it is dealt to and its priority there: the units
    of each worker's queue ranked so that a higher priority, run first by dask, is a callee first."""
    out: list[tuple[Unit, str, int]] = []
    for address, queue in zip(sorted(workers), dealt(units, len(workers))):
        out.extend((unit, address, len(queue) - rank) for rank, unit in enumerate(queue))
    return out


class Queues:
    """Each worker's units left, and the files each worker has built (its own units and what they load)."""

    def __init__(self, units: list[Unit], jobs: int) -> None:
        self.left = dealt(units, jobs)
        self.built: list[set[str]] = [set() for _ in range(jobs)]
        self.lines = {unit.path: unit.lines for unit in units}

    def next_task(self, worker: int) -> list[Unit]:
        """The worker's next units: at least TASK_LINES from the front of its own queue; when that is empty,
        a unit taken over from another worker's (`_taken_over`); empty when there is none to take."""
        own = self.left[worker]
        task: list[Unit] = []
        while own and _lines(task) < TASK_LINES:
            task.append(own.popleft())
        if not task:
            task = self._taken_over(worker)
        for unit in task:
            self.built[worker].update((unit.path, *unit.deps))
        return task

    def _taken_over(self, worker: int) -> list[Unit]:
        """A unit of another worker's queue that no unit left there loads (so that worker will not build it
        again), the one that costs this worker least to build (the lines of it and its closure it has not
        built), where that is fewer lines than the rest of that queue: past that, the other worker would
        finish sooner alone (Reference LAPACK's SGEEVX, last of the single-precision queue, built with its
        whole closure on the other worker took 60 s, on its own worker 16)."""
        for victim in sorted(range(len(self.left)), key=lambda w: (-_lines(self.left[w]), w)):
            queue = self.left[victim]
            loaded = {dep for unit in queue for dep in unit.deps}
            fresh = {unit.path: _fresh(unit, self.built[worker], self.lines) for unit in queue
                     if unit.path not in loaded}
            best = min((unit for unit in queue if unit.path in fresh), default=None,
                       key=lambda u: (fresh[u.path], u.path))
            if best is not None and fresh[best.path] < _lines(queue) - best.lines:
                queue.remove(best)
                return [best]
        return []


def on_workers(units: list[Unit], jobs: int, work: Callable[[list[Unit]], list[dict]]
               ) -> Iterator[tuple[Unit, dict]]:
    """Each unit with its result, as tasks finish, from `jobs` forked processes of one worker each (so that
    a task goes to the worker chosen for it); `work` runs a task's units in order in the worker."""
    queues = Queues(units, jobs)
    pools = [ProcessPoolExecutor(max_workers=1, mp_context=get_context("fork")) for _ in range(jobs)]
    running: dict[Future, tuple[int, list[Unit]]] = {}

    def submit_idle() -> None:  # a worker left without work may take some over once others progressed
        busy = {worker for worker, _ in running.values()}
        for worker in range(jobs):
            task = [] if worker in busy else queues.next_task(worker)
            if task:
                running[pools[worker].submit(work, task)] = (worker, task)

    try:
        submit_idle()
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                _, task = running.pop(future)
                yield from zip(task, future.result())
            submit_idle()
    finally:
        for pool in pools:
            pool.shutdown(cancel_futures=True)
