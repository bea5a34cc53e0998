"""A wall-clock limit on one analysis, in whatever thread runs it (a pool process, a Dask worker thread).

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
from collections.abc import Iterator
from contextlib import contextmanager


class AnalysisTimeout(BaseException):
    """The analysis ran past its time limit."""


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise AnalysisTimeout in this thread if the block runs longer than `seconds` (None: no limit)."""
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

    def watchdog() -> None:
        if done.wait(seconds):
            return
        while not done.is_set():
            fire()
            done.wait(1.0)

    thread = threading.Thread(target=watchdog, name="sad-time-limit", daemon=True)
    deadline = time.monotonic() + seconds
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
    if fired[0] or time.monotonic() > deadline:  # reached only when the block ended without an exception
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
