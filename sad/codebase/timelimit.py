"""A CPU-time limit on one analysis, in whatever thread runs it (a pool process, a Dask worker thread).

The limit counts the analysing thread's own CPU seconds (its POSIX thread CPU clock), not the wall clock: on
a shared machine the wall clock of the same analysis grows with the other jobs' load, and whether a file is
reported or stopped must not depend on who else runs. Where the
platform has no thread CPU clock, the wall clock is used. A wall-clock backstop (WALL_FACTOR times the limit)
still stops an analysis that waits without computing.

Hand-written on purpose: signal.alarm works only in a process's main thread, and Dask runs tasks in worker
threads; killing a pool process would lose the process and its warm imports. A watchdog thread raises
AnalysisTimeout inside the analysing thread (CPython's PyThreadState_SetAsyncExc), which interrupts pure
Python code such as sympy between two bytecodes. AnalysisTimeout derives from BaseException so that the
analyzer's `except Exception` guards (one broken procedure must not stop the others) do not swallow it;
the watchdog repeats the exception once a second until the analysis has ended, and is disarmed
before the block is left.

A block that ends after its deadline raises AnalysisTimeout as it is left, even if it ended normally: the
watchdog's exception can be lost (delivered inside a finalizer or a garbage-collector callback, where Python
prints and drops it; or not delivered at all when the block ends before the watchdog thread gets the
interpreter lock), and whether a file counts as past the limit must not depend on where it landed.

An exception the watchdog raised and that was not delivered yet must not escape into the caller's next
statement. It is not cleared with PyThreadState_SetAsyncExc(thread, NULL): up to CPython 3.12 that call
signals the eval breaker without an exception to deliver, and the breaker is then never reset — every
function call and loop of the rest of the process takes the slow pending-work path (about 5 % here), and
under a profiler or tracer (cProfile, coverage) the interpreter spins forever at the next function entry
(`python -m cProfile -m sad check` hung). Instead, when the watchdog has fired, one more exception is
raised on purpose and caught in a loop whose backward jump delivers it, which resets the breaker.
"""
from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sad.common import strprinter


class AnalysisTimeout(BaseException):
    """The analysis ran past its time limit."""


WALL_FACTOR = 10.0
"""The wall-clock backstop, in multiples of the CPU limit: an analysis that waits rather than computes."""


def _cpu_clock(ident: int) -> Callable[[], float]:
    """The CPU seconds of the thread `ident` as the watchdog thread can read them, or the wall clock where
    the platform has no per-thread CPU clock."""
    try:
        clock = time.pthread_getcpuclockid(ident)
        time.clock_gettime(clock)
    except (AttributeError, OSError):
        return time.monotonic
    return lambda: time.clock_gettime(clock)


def _spent(ident: int) -> Callable[[], float]:
    """Seconds the thread `ident` has computed since this call."""
    clock = _cpu_clock(ident)
    start = clock()
    return lambda: clock() - start


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise AnalysisTimeout in this thread if the block computes longer than `seconds` of CPU time, or
    waits longer than WALL_FACTOR times that (None: no limit)."""
    if not seconds or seconds <= 0:
        yield
        return
    target = ctypes.c_ulong(threading.get_ident())
    done = threading.Event()
    lock = threading.Lock()
    armed = [True]
    fired = [False]

    def fire() -> None:
        with lock:
            if armed[0]:
                fired[0] = True
                _raise_in(target)

    def disarm() -> None:
        with lock:
            armed[0] = False
        if fired[0]:  # nothing can be raised any more: deliver one on purpose, swallowing what is pending
            _flush(target)

    spent = _spent(target.value)
    wall_deadline = time.monotonic() + WALL_FACTOR * seconds

    def past() -> bool:
        return spent() > seconds or time.monotonic() > wall_deadline

    def watchdog() -> None:
        # A thread computes at most one CPU second per wall second: sleep the CPU time still left, then look.
        while not past():
            if done.wait(max(seconds - spent(), 0.005)):
                return
        while not done.is_set():
            fire()
            done.wait(1.0)

    thread = threading.Thread(target=watchdog, name="sad-time-limit", daemon=True)
    try:
        thread.start()
        yield
    finally:
        while True:  # the exception may arrive while disarming: disarm again until it held
            try:
                disarm()
                break
            except AnalysisTimeout:
                continue
        done.set()
        thread.join()
        if fired[0]:
            strprinter.release_thread()  # a printing the exception interrupted in its clean-up
    if fired[0] or past():  # reached only when the block ended without an exception
        raise AnalysisTimeout


def _raise_in(target: ctypes.c_ulong) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(target, ctypes.py_object(AnalysisTimeout))


def _flush(target: ctypes.c_ulong) -> None:
    """Deliver an AnalysisTimeout to this thread (the target) and swallow it: afterwards none is pending and
    the interpreter's eval breaker is reset. The loop's backward jump is where the exception arrives."""
    deadline = time.monotonic() + 1.0
    try:
        _raise_in(target)
        while time.monotonic() < deadline:
            pass
    except AnalysisTimeout:
        pass
