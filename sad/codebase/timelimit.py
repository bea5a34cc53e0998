"""A CPU-time limit on one analysis, in whatever thread runs it (a pool process, a Dask worker thread).

The limit counts the analysing thread's own CPU seconds (its POSIX thread CPU clock), not the wall clock: on
a shared machine the wall clock of the same analysis grows with the other jobs' load, and whether a file is
reported or stopped must not depend on who else runs. Where the
platform has no thread CPU clock, the wall clock is used. A wall-clock backstop (WALL_FACTOR times the limit)
still stops an analysis that waits without computing.

The seconds are kept by account (sad.common.cpuaccounts): the analysis charges the building of another file's
routines to that file, and each account has the whole limit. A unit that builds its callees' routines on a
worker that has not built them yet spends their seconds too, which another schedule spends in the callees'
own units: counted to the unit, whether it passed the limit depended on -j and on the order of the files.
The wall-clock backstop is WALL_FACTOR times the limit or the CPU seconds of all accounts, the longer.

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

from sad.common import cpuaccounts, strprinter


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


_stops = threading.local()


def stopped_in() -> str | None:
    """The account (a file's path) the last limit this thread ran was past in; None: the block's own work."""
    return getattr(_stops, "account", None)


@contextmanager
def time_limit(seconds: float | None, own: str | None = None) -> Iterator[None]:
    """Raise AnalysisTimeout in this thread if the block computes longer than `seconds` of CPU time charged to
    one account (sad.common.cpuaccounts: the block's own work, `own`'s routines among it, or another file's
    routines it builds), or waits longer than WALL_FACTOR times that or than the CPU time of all accounts
    (None: no limit). `stopped_in` then names the account."""
    _stops.account = None
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

    accounts = cpuaccounts.Accounts(_cpu_clock(target.value), own)
    started = time.monotonic()

    where: list[str | None] = [None]   # the account past the limit (set in the watchdog's thread)

    def past(account: str | None, spent: float) -> bool:
        if spent > seconds or time.monotonic() - started > WALL_FACTOR * max(seconds, accounts.total()):
            where[0] = account
            return True
        return False

    def watchdog() -> None:
        # A thread computes at most one CPU second per wall second: sleep the CPU time still left, then look
        # (again after a switch of account, which may have left more)
        while not past(*accounts.charged()):
            if done.wait(max(seconds - accounts.charged()[1], 0.005)):
                return
        while not done.is_set():
            fire()
            done.wait(1.0)

    thread = threading.Thread(target=watchdog, name="sad-time-limit", daemon=True)
    try:
        thread.start()
        with cpuaccounts.opened(accounts):
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
        _stops.account = where[0]
    if fired[0] or past(*accounts.most()):  # reached only when the block ended without an exception
        _stops.account = where[0]
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
