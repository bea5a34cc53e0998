"""sympy's comparisons of two expressions (is_ge, is_eq) answered once per process for each pair.

Data flow: installed by sad.analysis.counting, before any count is built. Every relation sympy builds with
evaluation (a test's `N >= K` when a callee's formals are bound, the comparisons of Max, Min and Piecewise's
collapse of its conditions) asks `is_ge` or `is_eq` of its two sides, and `is_lt`, `is_le` and `is_gt` ask
`is_ge`. Where no structural rule answers, `is_ge` forms the difference of the sides and asks the assumption
system whether it is nonnegative: on DGEEV's call tree 45 171 calls, 9 % of `sad check`'s time under the
profiler, the same pairs coming back for every term of a sum and every call of a callee.

Without an assumptions argument the answer is a function of the two expressions alone (they are immutable and
a symbol's assumptions are part of the symbol), so remembering it gives what sympy gives. Calls with
assumptions (the new assumption system's `Q` facts) go to sympy as they are. The module is looked up by name:
`import sympy.core.x as y` binds an attribute of sympy.core where one has the module's name
(sad.analysis.assumptionorder).
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import lru_cache

_relational = importlib.import_module("sympy.core.relational")
_is_ge = _relational.is_ge
_is_eq = _relational.is_eq


def _remembered(compare: Callable) -> Callable:
    """sympy's comparison `compare(lhs, rhs, assumptions)`, once per process for each pair where there are no
    assumptions."""
    memo = lru_cache(maxsize=65536)(compare)

    def remembered(lhs, rhs, assumptions=None):
        if assumptions is not None or not _hashable(lhs, rhs):
            return compare(lhs, rhs, assumptions)
        return memo(lhs, rhs)
    remembered.__doc__ = f"sympy's {compare.__name__}, once per process for each pair without assumptions."
    return remembered


is_ge = _remembered(_is_ge)
is_eq = _remembered(_is_eq)


def _hashable(*args: object) -> bool:
    """Whether the arguments can key the memo (sympy's objects can; whatever else is passed goes to sympy)."""
    try:
        hash(args)
    except TypeError:
        return False
    return True


def install() -> None:
    """Let sympy's relations take their comparisons through the memos (idempotent): the module globals its
    relation classes and is_lt, is_le, is_gt look up at each call."""
    vars(_relational)["is_ge"] = is_ge
    vars(_relational)["is_eq"] = is_eq
