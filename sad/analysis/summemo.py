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
time: the caller extends its own argument list from it. A summand that sympy's normalization would leave as
it is (`_normal`) is not normalized at all.
"""
from __future__ import annotations

from functools import lru_cache

import sympy
import sympy.concrete.expr_with_limits as _with_limits
from sympy.concrete.expr_with_limits import _process_limits

from sad.analysis.freesymbols import free_symbols

_sympy_common_new = _with_limits._common_new


@lru_cache(maxsize=8192)
def _normalized(cls, function, symbols: tuple, discrete: bool):
    if cls is sympy.Sum and isinstance(function, sympy.Expr) and not isinstance(function, sympy.Sum) \
            and function is not sympy.nan:
        limits, orientation = _process_limits(*symbols, discrete=discrete)
        if orientation == 1 and limits and all(len(limit) == 3 for limit in limits) \
                and _normal(function, frozenset(limit[0] for limit in limits)):
            return function, limits, orientation
    return _sympy_common_new(cls, function, *symbols, discrete=discrete)


def _normal(function: sympy.Expr, indices: frozenset) -> bool:
    """Whether sympy's normalization (`_common_new`) leaves a Sum's summand as it is, so that it need not
    run. It folds (piecewise_fold) only the choices that depend on an index of the sum, each other choice
    masked by a Dummy while it folds and put back after; the masking and unmasking rebuild the summand
    twice, each Max and Min in it asking the assumptions again, which made it a third of the analysis of
    DGELSS's file (most sums are rebuilt by a substitution: a callee's counts bound at a call). Two
    summands come out of it as they went in:
    - one with no choice on an index: the fold of an expression without a choice is the expression;
    - a choice on an index whose values hold no such choice and whose conditions no if-then-else (the fold
      rewrites an ITE condition in conjunctive form): the fold rebuilds the Piecewise from its own pieces.
      That rests on the Piecewise constructor giving back the pieces it made: checked against sympy's own
      normalization, tree for tree, it held for each of the 8 467 such summands built in `sad check` of
      a 194-file sample of Reference LAPACK and the 13 875 of DGELSS's closure (and the summands with no
      choice on an index, 5 415 and 4 855, came out as they went in too)."""
    if not _indexed_choice(function, indices):
        return True
    return isinstance(function, sympy.Piecewise) and not any(
        _indexed_choice(value, indices) or cond.has(sympy.ITE) for value, cond in function.args)


def _indexed_choice(expr: sympy.Basic, indices: frozenset) -> bool:
    """Whether a Piecewise in `expr` depends on one of `indices` (the subtrees without them not walked)."""
    if not (free_symbols(expr) & indices):
        return False
    if isinstance(expr, sympy.Piecewise):
        return True
    return any(_indexed_choice(arg, indices) for arg in expr.args)


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
