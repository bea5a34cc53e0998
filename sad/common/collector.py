"""The garbage collector's thresholds for a process that runs sad's analyses: the `sad` command
(sad.cli.main.console) and the benchmark workers that stand for it.

Why: an analysis allocates sympy objects by the hundred thousand and frees few of them before the process
ends. CPython's default thresholds (a young-generation pass every 700 net allocations, older generations every
10 of those) make the collector look for cycles among them thousands of times: about 6 % of
`sad analyze md1.f` (2.66 -> 2.51 s CPU, median of 4, peak RSS 85.0 -> 85.9 MB). mypy's command line raises
its thresholds for the same reason, to the same values. Only the process's entry point calls `tune`: code
that runs sad in its own process (tests, embedding callers) keeps its collector as it is.
"""
from __future__ import annotations

import gc

THRESHOLDS = (200_000, 30, 30)


def tune() -> None:
    """Set THRESHOLDS for this process."""
    gc.set_threshold(*THRESHOLDS)
