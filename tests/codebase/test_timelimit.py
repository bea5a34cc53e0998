"""The per-file time limit (sad.codebase.timelimit): it stops a runaway analysis, and leaves the interpreter
as it found it — nothing pending afterwards, and no eval breaker left set, which made a later function entry
spin forever under a profiler (`python -m cProfile -m sad check` hung)."""
from __future__ import annotations

import contextlib
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from sad.codebase.timelimit import WALL_FACTOR, AnalysisTimeout, stopped_in, time_limit
from sad.common.cpuaccounts import charged_to

ROOT = Path(__file__).resolve().parents[2]


def _spin() -> None:
    while True:
        pass


def test_a_runaway_block_is_stopped_and_nothing_stays_pending():
    with pytest.raises(AnalysisTimeout), time_limit(0.05):
        _spin()
    total = 0
    for i in range(200_000):  # backward jumps: a pending exception would be delivered here
        total += i
    assert total == 199_999 * 200_000 // 2


def test_the_limit_leaves_a_profiled_interpreter_working():
    """Under cProfile, first a block that ends in time, then one stopped by the limit, then ordinary calls.
    The child is given a minute; the hang it guards against never ends."""
    script = textwrap.dedent("""
        import cProfile
        from sad.codebase.timelimit import WALL_FACTOR, AnalysisTimeout, time_limit

        def spin():
            while True:
                pass

        profiler = cProfile.Profile()
        profiler.enable()
        with time_limit(30):
            sum(range(10))
        try:
            with time_limit(0.05):
                spin()
        except AnalysisTimeout:
            print("stopped")
        print(sorted(str(i) for i in range(3)))
        profiler.disable()
    """)
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split("\n")[:2] == ["stopped", "['0', '1', '2']"]


def test_a_block_that_swallowed_the_exception_is_still_past_the_limit():
    """The watchdog's exception may be lost (Python drops an exception raised in a finalizer); a block that
    ends after its deadline is past the limit all the same."""
    # the exception is lost inside the block, as in a finalizer
    with pytest.raises(AnalysisTimeout), time_limit(0.01), contextlib.suppress(AnalysisTimeout):
        _spin()


def test_a_block_that_ends_in_time_raises_nothing():
    """The check on leaving the block looks at the deadline: a block within its limit is left quietly, also
    when the limit is short."""
    with time_limit(30):
        sum(range(10))
    with time_limit(0.5):
        sum(range(10))


def test_the_limit_counts_the_threads_own_cpu_time_not_the_wall_clock():
    """A block that waits (0.3 s asleep) while another thread of the process computes is within a 0.1 s CPU
    limit: the limit counts what the analysing thread computed, so another job's load does not stop it."""
    stop = threading.Event()

    def busy() -> None:
        while not stop.is_set():
            pass

    other = threading.Thread(target=busy)
    other.start()
    try:
        with time_limit(0.1):
            time.sleep(0.3)
    finally:
        stop.set()
        other.join()


def test_a_block_that_only_waits_is_stopped_by_the_wall_clock_backstop():
    """Waiting computes nothing, so the CPU limit alone would never end it: past WALL_FACTOR times the limit
    (0.02 s -> 0.2 s) it is stopped all the same."""
    assert WALL_FACTOR * 0.02 < 0.5
    with pytest.raises(AnalysisTimeout), time_limit(0.02):
        time.sleep(0.5)


def _compute(seconds: float) -> None:
    """Compute for `seconds` of this thread's CPU time."""
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        pass


def test_each_file_charged_has_a_limit_of_its_own():
    """A unit that builds the routines of two callee files, each under the limit, is not stopped although
    together they pass it: which unit builds a callee first depends on the schedule (sad.common.cpuaccounts)."""
    with time_limit(0.4, own="main.f"):
        with charged_to("dgemm.f"):
            _compute(0.25)
        with charged_to("dtrsm.f"):
            _compute(0.25)
        _compute(0.1)
    assert stopped_in() is None


def test_a_callee_file_past_the_limit_stops_the_unit_and_is_named():
    with pytest.raises(AnalysisTimeout), time_limit(0.2, own="main.f"), charged_to("dgemm.f"):
        _spin()
    assert stopped_in() == "dgemm.f"


def test_the_units_own_file_and_its_own_work_are_one_account():
    with pytest.raises(AnalysisTimeout), time_limit(0.3, own="main.f"):
        _compute(0.2)
        with charged_to("main.f"):
            _spin()
    assert stopped_in() is None
