"""A wall-clock limit on one analysis, in whatever thread runs it (a pool process, a Dask worker thread).

Hand-written on purpose: signal.alarm works only in a process's main thread, and Dask runs tasks in worker
threads; killing a pool process would lose the process and its warm imports. A watchdog thread raises
AnalysisTimeout inside the analysing thread (CPython's PyThreadState_SetAsyncExc), which interrupts pure
Python code such as sympy between two bytecodes. AnalysisTimeout derives from BaseException so that the
analyzer's `except Exception` guards (one broken procedure must not stop the others) do not swallow it;
the watchdog repeats the exception once a second until the analysis has ended, and is disarmed
(any undelivered exception cleared) before the block is left.
"""
from __future__ import annotations

import ctypes
import threading
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

    def fire() -> None:
        with lock:
            if armed[0]:
                ctypes.pythonapi.PyThreadState_SetAsyncExc(target, ctypes.py_object(AnalysisTimeout))

    def disarm() -> None:
        with lock:
            armed[0] = False
            # An exception raised just as the block ended and not delivered yet must not escape into
            # the caller's next statement: clear it. After this nothing is pending and nothing can be.
            ctypes.pythonapi.PyThreadState_SetAsyncExc(target, None)

    def watchdog() -> None:
        if done.wait(seconds):
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
