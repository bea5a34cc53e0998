"""sympy's Sum normalized once per process for each summand and limits.

Data flow: imported by sad.analysis.counting, whose open sums (sympy.Sum of a loop body over its index) are
rebuilt by every substitution that reaches them: a callee's counts bound to each call's actual values
(sad.analysis.calls), the tests a caller decides, a sum's index bound by an outer loop. Each construction
runs sympy's `_common_new` on the summand: a walk for every Piecewise in it, two xreplace passes and the
Piecewise fold (sad.analysis.sumfold). In SLAQR4's closure of Reference LAPACK 2 459 constructions (17 %
of its `sad check` time) had 1 387 distinct summands and limits.

`_common_new` is a function of the class, the summand, the limits and the `discrete` flag alone
(expressions are immutable; the Dummy masks it makes are removed before it returns), so remembering its
answer gives the same Sum, tree for tree, as normalizing again. Only calls without assumptions whose limits
are hashable are remembered; anything else goes to sympy as it is. The limits come back as a new list each
time: the caller extends its own argument list from it.
"""
from __future__ import annotations

from functools import lru_cache

import sympy.concrete.expr_with_limits as _with_limits

_sympy_common_new = _with_limits._common_new


@lru_cache(maxsize=8192)
def _normalized(cls, function, symbols: tuple, discrete: bool):
    return _sympy_common_new(cls, function, *symbols, discrete=discrete)


def common_new(cls, function, *symbols, discrete, **assumptions):
    """sympy's _common_new(cls, function, *symbols, discrete=...), once per process for each argument list."""
    if assumptions:
        return _sympy_common_new(cls, function, *symbols, discrete=discrete, **assumptions)
    try:
        key = (cls, function, symbols, discrete)
        hash(key)
    except TypeError:  # a limit given as a list
        return _sympy_common_new(cls, function, *symbols, discrete=discrete)
    out = _normalized(*key)
    if isinstance(out, tuple):
        normal, limits, orientation = out
        return normal, list(limits), orientation
    return out


def install() -> None:
    """Let every Sum, Product and Integral be normalized through the memo (idempotent)."""
    _with_limits._common_new = common_new
