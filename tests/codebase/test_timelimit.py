"""The per-file time limit (sad.codebase.timelimit): it stops a runaway analysis, and leaves the interpreter
as it found it — nothing pending afterwards, and no eval breaker left set, which made a later function entry
spin forever under a profiler (`python -m cProfile -m sad check` hung)."""
from __future__ import annotations

import contextlib
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sad.codebase.timelimit import AnalysisTimeout, time_limit

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
        from sad.codebase.timelimit import AnalysisTimeout, time_limit

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
