"""sympy's Piecewise built once per process for each list of pieces.

Data flow: imported by sad.analysis.counting, whose counts hold the indicators of tests (Piecewise((1,
cond), (0, True))) that every substitution (a sum's index, a callee's formals bound to a call's actuals)
and every Sum (sympy folds the Piecewise of its summand) rebuilds. Piecewise.__new__ puts each condition in
canonical form (sympy's _piecewise_collapse_arguments: every relation's canonical coefficients, the
assumptions on each difference) each time, and the same few Piecewise come back for every term of a sum
and every call of a callee: in DGEEV's closure 47 900 constructions were a fifth of `sad check`'s time.

Building a Piecewise is a function of its class, its pieces and the evaluate flag alone (expressions are
immutable, a symbol's assumptions are part of the symbol), so remembering the answer gives the same
expression, tree for tree, as building it again: what sympy's own cache (sympy.core.cache.cacheit) does
for Add, Mul and every Function whose __new__ it wraps, which Piecewise's is not. Only pieces of sympy
expressions and conditions (Python's ints, True and False taken as sympy's, as ExprCondPair takes them) with no
other options are remembered; anything else goes to sympy as it is.

A piece whose condition holds a Piecewise (a test on a variable whose value is itself a choice: DSTEBZ's
bisection intervals) is remembered on its own too: sympy folds such a condition and rewrites it as an ITE,
deciding the sets its relations cover (solve_univariate_inequality, with a search for periods), and the same
condition came back in piece after piece of different Piecewise: 70 % of DSTEBZ's analysis.

The set a condition covers (Boolean.as_set, which that folding and Piecewise's own canonical form ask for) is
remembered per condition as well, its NotImplementedError included: it is a function of the condition alone, and
DLARRD's bisection asked for the same few sets thousands of times.
"""
from __future__ import annotations

from functools import lru_cache

from sympy import Basic, Integer, S
from sympy.core.parameters import global_parameters
from sympy.functions.elementary.piecewise import ExprCondPair, Piecewise
from sympy.logic.boolalg import Boolean

_new = Piecewise.__new__
_new_pair = ExprCondPair.__new__
_as_set = Boolean.as_set


@lru_cache(maxsize=16384)
def _built(cls: type, pieces: tuple, evaluate: bool):
    return _new(cls, *pieces, evaluate=evaluate)


def _pieces(args: tuple) -> tuple | None:
    """The pieces as (expression, condition) pairs of sympy objects; None when one is anything else."""
    out = []
    for piece in args:
        pair = getattr(piece, "args", piece)
        if not isinstance(pair, tuple) or len(pair) != 2:
            return None
        expr, cond = pair
        if isinstance(cond, bool):
            cond = S.true if cond else S.false
        if type(expr) is int:  # Piecewise((1, cond), (0, True)): sympified as ExprCondPair does
            expr = Integer(expr)
        if not (isinstance(expr, Basic) and isinstance(cond, Basic)):
            return None
        out.append((expr, cond))
    return tuple(out)


def new(cls, *args, **options):
    """Piecewise.__new__(cls, *args, **options), once per process for each class, pieces and evaluate
    flag."""
    pieces = _pieces(args) if args and not set(options) - {"evaluate"} else None
    if pieces is None:
        return _new(cls, *args, **options)
    return _built(cls, pieces, bool(options.get("evaluate", global_parameters.evaluate)))


@lru_cache(maxsize=4096)
def _built_pair(cls: type, expr: Basic, cond: Basic):
    return _new_pair(cls, expr, cond)


def new_pair(cls, expr, cond):
    """ExprCondPair.__new__(cls, expr, cond), once per process for each class, expression and condition
    holding a Piecewise (the others cost less to build than to look up)."""
    if isinstance(expr, Basic) and isinstance(cond, Basic) and cond.has(Piecewise):
        return _built_pair(cls, expr, cond)
    return _new_pair(cls, expr, cond)


@lru_cache(maxsize=8192)
def _set_of(cond: Boolean) -> tuple[bool, object]:
    try:
        return True, _as_set(cond)
    except NotImplementedError as err:
        return False, err.args


def as_set(self: Boolean):
    """Boolean.as_set(self), once per process for each condition (sympy's answer or its NotImplementedError)."""
    found, value = _set_of(self)
    if not found:
        raise NotImplementedError(*value)  # type: ignore[misc]
    return value


def install() -> None:
    """Let every Piecewise, every piece of one whose condition holds a Piecewise, and every condition's set be
    built through the memo (idempotent)."""
    Piecewise.__new__ = staticmethod(new)
    ExprCondPair.__new__ = staticmethod(new_pair)
    Boolean.as_set = as_set
