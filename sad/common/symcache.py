"""The size of sympy's own cache for a process that runs sad's analyses: the `sad` command
(sad.cli.main.console).

Why: sympy remembers the results of its constructors (Add, Mul, Pow, every Function's eval) and of many
queries in one LRU cache per function (sympy.core.cache.cacheit), 1 000 entries each by default. An analysis
builds the same products, sums and conditions again and again (a callee's counts bound at each call, a loop
body's counts summed over each index), far more than 1 000 of them live at once, so the default size evicts
them before they come back: on the 194-file sample of Reference LAPACK the default left `sad check` about
3 % slower (medians of 3-4 pinned runs; peak RSS 701 -> 756 MB with SIZE).

Only the size changes, never an answer: a cached result is the one the constructor returns for equal
arguments, as with the default size (the cache is keyed by the arguments and their types, and bounded).
sympy reads SYMPY_CACHE_SIZE once, when it is first imported, so `use` must run before that; a size the user
set in the environment is kept. Only the process's entry point calls it: tests and embedding callers keep
sympy's cache as they set it.
"""
from __future__ import annotations

import os
import sys

SIZE = 20_000  # entries per cached function (sympy's default: 1 000)


def use() -> None:
    """Let sympy, when it is first imported by this process, keep SIZE entries per cached function."""
    if "sympy" not in sys.modules:
        os.environ.setdefault("SYMPY_CACHE_SIZE", str(SIZE))
