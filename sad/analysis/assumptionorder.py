"""sympy's assumption queries asked in a fixed order instead of a shuffled one.

Data flow: installed by sad.analysis.counting, before any count is built. Every `is_nonnegative`,
`is_integer`, ... that sympy cannot read off an expression goes through `sympy.core.assumptions._ask`, which
queues the related facts that may settle it (integer -> rational, ...) and shuffles each new batch with a
random generator sympy never seeds. The shuffle is there to expose handlers that contradict the inference
rules: with consistent handlers the answer does not depend on the order, and with an inconsistent one it
changes from run to run. A static analyzer must give the same report for the same input, byte for byte, so
the batch is sorted instead (the facts are names). Sorting is in place, as the shuffle is.

The module is looked up by name (importlib), not with ``import sympy.core.assumptions as ...``: sympy.core
exports a function of that name too, and that form of import binds the package's attribute, the function, so
that setting ``shuffle`` on it left sympy's own shuffle in place (so from this module's first version until the
sixty-fourth session, whose figures of no change in time were taken with the shuffle still running). Sorted
for real, DGEEV's call tree in Reference LAPACK (65 files, `sad check -j 1`, old and new code side by side on
the two cores, then swapped) took 108.9 / 105.5 -> 100.2 / 98.3 CPU s, the reports identical byte for byte.
"""
from __future__ import annotations

import importlib

_assumptions = importlib.import_module("sympy.core.assumptions")


def install() -> None:
    """Let sympy's assumption system take its prerequisite facts in sorted order (idempotent)."""
    vars(_assumptions)["shuffle"] = list.sort   # the module's global, which its _ask calls
