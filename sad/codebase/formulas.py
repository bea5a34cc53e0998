"""A routine's time formula at a reference point, and its complexity class.

Data flow: a routine's time (a sympy expression, sad.codebase.routines) and the values of its symbols at a
point (sad.codebase.points.values_at) → seconds per call; the ratio at two sizes → `1`, `n`, `n^2`, ….
Kept apart from the points themselves so that a run whose results are all cached imports no sympy.
"""
from __future__ import annotations

import math

import sympy

from sad.analysis.counting import evaluate_sums, substitute
from sad.analysis.freesymbols import free_symbols

# Sizes at which the complexity class is read off: every value parameter at n1, then at n2.
_N1, _N2 = 1000.0, 2000.0


def evaluate(expr: sympy.Expr, values: dict[str, float]) -> float | None:
    """The formula's value with every symbol bound; None if it does not evaluate to a finite number."""
    number: float | None
    try:
        number = _numeric(expr, values)
    except _Fallback:
        number = _sympy_value(expr, values)
    except (ValueError, ZeroDivisionError, OverflowError, KeyError, TypeError):
        return None
    return number if number is not None and math.isfinite(number) else None


class _Fallback(Exception):
    """A node the float walk does not know: evaluate the whole formula with sympy instead."""


_RELATIONS = {sympy.Lt: lambda a, b: a < b, sympy.Le: lambda a, b: a <= b, sympy.Gt: lambda a, b: a > b,
              sympy.Ge: lambda a, b: a >= b, sympy.Eq: lambda a, b: a == b, sympy.Ne: lambda a, b: a != b}


def _numeric(e: sympy.Basic, v: dict[str, float]) -> float:
    """A float walk over the formula's tree: rebuilding a large formula with numbers (xreplace) makes
    sympy re-evaluate every Max and Piecewise on the way, a hundred times slower. Reference points are
    floats anyway; anything unusual (sums, intrinsics) falls back to sympy."""
    if e.is_Number:
        return float(e)
    if e.is_Symbol:
        return float(v[e.name])
    if e.is_Add:
        return math.fsum(_numeric(a, v) for a in e.args)
    if e.is_Mul:
        return math.prod(_numeric(a, v) for a in e.args)
    if e.is_Pow:
        return _numeric(e.base, v) ** _numeric(e.exp, v)
    if isinstance(e, sympy.Max):
        return max(_numeric(a, v) for a in e.args)
    if isinstance(e, sympy.Min):
        return min(_numeric(a, v) for a in e.args)
    if isinstance(e, sympy.floor):
        return float(math.floor(_numeric(e.args[0], v)))
    if isinstance(e, sympy.ceiling):
        return float(math.ceil(_numeric(e.args[0], v)))
    if isinstance(e, sympy.Piecewise):
        for value, cond in e.args:
            if _truth(cond, v):
                return _numeric(value, v)
        raise _Fallback
    raise _Fallback


def _truth(c: sympy.Basic, v: dict[str, float]) -> bool:
    if c is sympy.true:
        return True
    if c is sympy.false:
        return False
    op = _RELATIONS.get(type(c))
    if op is not None:
        return op(_numeric(c.args[0], v), _numeric(c.args[1], v))
    if isinstance(c, sympy.And):
        return all(_truth(a, v) for a in c.args)
    if isinstance(c, sympy.Or):
        return any(_truth(a, v) for a in c.args)
    if isinstance(c, sympy.Not):
        return not _truth(c.args[0], v)
    raise _Fallback


def _sympy_value(expr: sympy.Expr, values: dict[str, float]) -> float | None:
    subs = {s: sympy.Float(values[s.name], 15) for s in free_symbols(expr) if s.name in values}
    if any(not subs.keys().isdisjoint(sympy.Tuple(*limits[1:]).free_symbols)
           for s in expr.atoms(sympy.Sum) for limits in s.limits):
        # a sum over loop trips whose limits hold a bound value (Max(0, N) - 1) is summed only with integer
        # limits: bind the whole-number values as integers (the trips of a loop are whole numbers)
        subs = {s: sympy.Integer(int(values[s.name])) if float(values[s.name]).is_integer() else f
                for s, f in subs.items()}
    bound = substitute(expr, subs)  # xreplace, without sympy.Max's search for comparable arguments
    if bound.has(sympy.Sum):
        bound = evaluate_sums(bound)
    try:
        return float(bound)
    except (TypeError, ValueError):
        return None


def complexity(expr: sympy.Expr, base: dict[str, float], sizes: list[str]) -> str:
    """The growth of the formula when every size parameter grows together: `1`, `n`, `n^2`, … read off
    the ratio of its values at n = 1000 and n = 2000 (exponent rounded to the nearest integer)."""
    if not sizes:
        return "1"
    lo = evaluate(expr, {**base, **{name: _N1 for name in sizes}})
    hi = evaluate(expr, {**base, **{name: _N2 for name in sizes}})
    if lo is None or hi is None or lo <= 0 or hi <= 0:
        return "?"
    exponent = round(math.log2(hi / lo))
    return "1" if exponent <= 0 else ("n" if exponent == 1 else f"n^{exponent}")
