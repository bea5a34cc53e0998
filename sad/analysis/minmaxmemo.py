"""sympy's Max and Min built once per process for each list of arguments.

Data flow: imported by sad.analysis.counting, whose loop counts are full of Max(0, trips) and Min(strip,
rest) that every substitution (a sum's index bound, a callee's formals bound to a call's actuals) rebuilds.
sympy's MinMaxBase.__new__ compares every pair of arguments for a redundant one (_find_localzeros,
_is_connected: factor_terms and the assumption system on each difference), and the same few Max and Min
come back for every term of a sum and every call of a callee: in DGEEV's closure 8 749 constructions were
13 % of `sad check`'s time, and in DTREVC3's closure 2 671 constructions had 481 distinct argument lists.

A pair of large arguments is compared as written only (see connected): sympy's second try, on the factored
difference of the two, walks both whole for every pair and is what made the constructions costly.

Building a Max or Min is a function of its class, its arguments and the evaluate flag alone (expressions
are immutable, a symbol's assumptions are part of the symbol), so remembering the answer gives the same
expression, tree for tree, as building it again: the same thing sympy's own cache (sympy.core.cache.cacheit)
does for Add, Mul and every other Function, which MinMaxBase's own __new__ is not wrapped in. Only
constructions with sympy arguments and no assumptions are remembered; anything else goes to sympy as it is.
"""
from __future__ import annotations

from functools import lru_cache

from sympy import Basic, Max, Min, S
from sympy.core.exprtools import factor_terms
from sympy.core.parameters import global_parameters
from sympy.functions.elementary.miscellaneous import MinMaxBase

from sad.analysis.products import larger_than

_new = MinMaxBase.__new__

# Arguments beyond this many nodes are compared as they are, without factoring their difference. Measured on
# a 66-file sample of Reference LAPACK (blocked loops' MIN(64, ILAENV(...)) bounds under floor and Piecewise):
# the factoring was 59 % of the Max and Min constructions, themselves 22 % of `sad check`'s time.
_CONNECT_NODES = 40


def connected(cls, x, y):
    """MinMaxBase._is_connected(x, y): whether one of two arguments makes the other redundant (Max or Min:
    which one wins; True: they are equal; False: neither is known). sympy's own answer for small arguments;
    for large ones, only the relations x >= y and y >= x as the assumption system decides them. An argument
    kept that sympy would have dropped leaves the value of the Max or Min as it is."""
    if x == y:
        return True
    if not (larger_than(x, _CONNECT_NODES) or larger_than(y, _CONNECT_NODES)):
        return _is_connected(x, y)
    for first, second, winner in ((x, y, Max), (y, x, Min)):
        try:
            decided = first >= second
        except TypeError:  # an argument that is not real
            return False
        if not decided.is_Relational:
            return winner if decided else (Min if winner is Max else Max)
    return False


def _is_connected(x, y):
    """What MinMaxBase._is_connected(x, y) answers (sympy 1.12 to 1.14): the argument that wins as x and y
    are, else as their difference factored is against 0; False where neither is decided or a comparison
    raises (an argument not real). sympy's loop factors the difference once more after its second pass and
    never reads it: on the 194-file LAPACK sample that was half of the factorings (4 949 of 9 898) and of
    their time, nearly half of the Max and Min constructions' (a tenth of `sad check` there)."""
    for first, second in ((x, y), (None, S.Zero)):
        if first is None:
            first = factor_terms(x - y)
        decided = _ordered(first, second)
        if decided is not None:
            return decided
    return False


def _ordered(x, y):
    """True where x == y; the winner (Max, Min) where one of sympy's four comparisons of x and y, in its
    order, is decided; False where a comparison raises; None where none is decided."""
    if x == y:
        return True
    tests = ((lambda: x >= y, Max, Min), (lambda: y >= x, Min, Max), (lambda: y <= x, Max, Min),
             (lambda: x <= y, Min, Max))
    for compare, holds, fails in tests:
        try:
            decided = compare()
        except TypeError:
            return False  # an argument that is not real
        if not decided.is_Relational:
            return holds if decided else fails
    return None


@lru_cache(maxsize=16384)
def _built(cls: type, args: tuple, evaluate: bool):
    return _new(cls, *args, evaluate=evaluate)


def new(cls, *args, **assumptions):
    """MinMaxBase.__new__(cls, *args, **assumptions), once per process for each class, arguments and
    evaluate flag."""
    if set(assumptions) - {"evaluate"} or not all(isinstance(a, Basic) for a in args):
        return _new(cls, *args, **assumptions)
    return _built(cls, args, bool(assumptions.get("evaluate", global_parameters.evaluate)))


def install() -> None:
    """Let every Max and Min be built through the memo (idempotent)."""
    MinMaxBase.__new__ = staticmethod(new)
    MinMaxBase._is_connected = classmethod(connected)
