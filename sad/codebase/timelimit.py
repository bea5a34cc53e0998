"""A wall-clock limit on one analysis, in whatever thread runs it (a pool process, a Dask worker thread).

Hand-written on purpose: signal.alarm works only in a process's main thread, and Dask runs tasks in worker
threads; killing a pool process would lose the process and its warm imports. A watchdog thread raises
AnalysisTimeout inside the analysing thread (CPython's PyThreadState_SetAsyncExc), which interrupts pure
Python code such as sympy between two bytecodes. AnalysisTimeout derives from BaseException so that the
analyzer's `except Exception` guards (one broken procedure must not stop the others) do not swallow it;
the watchdog repeats the exception once a second until the analysis has ended.
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
    if not seconds or seconds <= 0:
        yield
        return
    target = threading.get_ident()
    done = threading.Event()

    def watchdog() -> None:
        if done.wait(seconds):
            return
        while not done.is_set():
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), ctypes.py_object(AnalysisTimeout))
            done.wait(1.0)

    thread = threading.Thread(target=watchdog, name="sad-time-limit", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        # The watchdog is gone; an exception it raised just as the block ended and that is not delivered
        # yet must not escape into the caller's next statement.
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), None)
