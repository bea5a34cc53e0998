"""Interval bounds of a time formula over a box of parameter values: the bounding step of `sad tune`'s branch
and bound (sad.predict.tune).

Data flow: a sympy formula (the mapper's time, fixed parameters bound) and a box {symbol: (low, high)} → an
enclosure (low, high) guaranteed to contain the formula's value at every point of the box; a condition → True,
False or None (undecided on the box).

Hand-written, on purpose: the libraries that do interval arithmetic (mpmath.iv, and sympy's own
AccumulationBounds) do not know the step functions loop counts are made of (floor of a ratio, Max(0, ·),
Piecewise indicators, Mod), and sympy's bounds are symbolic and slow. Every rule here is the textbook enclosure
of its operation; what is not covered (an open Sum, an unknown function) encloses as (-inf, inf), which only
makes the search visit more points, never miss one. Step functions are widened by a relative 1e-9 so that float
rounding of an integer-valued ratio (3.9999999999999996 for 4) cannot make an enclosure too narrow.
"""
from __future__ import annotations

import math
from collections.abc import Mapping

import sympy

Interval = tuple[float, float]
INF = math.inf
EVERYTHING: Interval = (-INF, INF)
_TOL = 1e-9


def _mul(a: float, b: float) -> float:
    return 0.0 if a == 0.0 or b == 0.0 else a * b


def _times(x: Interval, y: Interval) -> Interval:
    products = [_mul(p, q) for p in x for q in y]
    return min(products), max(products)


def _widen(x: float) -> float:
    return _TOL * (1.0 + abs(x)) if math.isfinite(x) else 0.0


def _power(base: Interval, exponent: sympy.Expr) -> Interval:
    lo, hi = base
    if exponent.is_Integer:
        n = int(exponent)
        if n >= 0:
            if n % 2 == 1 or lo >= 0:
                return lo ** n, hi ** n
            if hi <= 0:
                return hi ** n, lo ** n
            return 0.0, max(lo ** n, hi ** n)
        if lo <= 0 <= hi:
            return EVERYTHING
        inner = _power(base, sympy.Integer(-n))
        return 1.0 / inner[1], 1.0 / inner[0]
    if exponent.is_Number and lo >= 0:
        e = float(exponent)
        if e > 0:
            return lo ** e, hi ** e
        if lo > 0:
            return hi ** e, lo ** e
    return EVERYTHING


def _monotone(name: str, x: Interval) -> Interval:
    lo, hi = x
    if name == "log":
        return (math.log(lo) if lo > 0 else -INF), (math.log(hi) if hi > 0 else -INF)
    if name == "exp":
        return math.exp(min(lo, 700.0)), (math.exp(hi) if hi < 700 else INF)
    if name == "sqrt" and lo >= 0:
        return math.sqrt(lo), math.sqrt(hi)
    return EVERYTHING


def bounds(expr: sympy.Basic, box: Mapping[sympy.Symbol, Interval]) -> Interval:
    """An enclosure of `expr` over the box (every free symbol of expr must be in box)."""
    if expr.is_Number:
        v = float(expr)
        return v, v
    if expr.is_Symbol:
        return box[expr]
    args = expr.args
    if isinstance(expr, sympy.Add):
        parts = [bounds(a, box) for a in args]
        return sum(p[0] for p in parts), sum(p[1] for p in parts)
    if isinstance(expr, sympy.Mul):
        out: Interval = (1.0, 1.0)
        for a in args:
            out = _times(out, bounds(a, box))
        return out
    if isinstance(expr, sympy.Pow):
        return _power(bounds(args[0], box), args[1])
    if isinstance(expr, (sympy.Max, sympy.Min)):
        parts = [bounds(a, box) for a in args]
        pick = max if isinstance(expr, sympy.Max) else min
        return pick(p[0] for p in parts), pick(p[1] for p in parts)
    if isinstance(expr, sympy.Piecewise):
        return _piecewise(expr, box)
    if isinstance(expr, sympy.Sum) and len(expr.limits) == 1:
        return _sum(expr, box)
    return _function(expr, box)


def _sum(expr: sympy.Sum, box: Mapping[sympy.Symbol, Interval]) -> Interval:
    """Σ_{k=a}^{b} f(k) lies in (number of terms) × (range of f for k in [a, b])."""
    (k, a, b), = expr.limits
    a_lo, a_hi = bounds(a, box)
    b_lo, b_hi = bounds(b, box)
    if not all(math.isfinite(v) for v in (a_lo, a_hi, b_lo, b_hi)):
        return EVERYTHING
    count = (max(0.0, b_lo - a_hi + 1), max(0.0, b_hi - a_lo + 1))
    if count[1] == 0:
        return 0.0, 0.0
    inner = dict(box)
    inner[k] = (a_lo, b_hi)
    return _times(count, bounds(expr.function, inner))


def _function(expr: sympy.Basic, box: Mapping[sympy.Symbol, Interval]) -> Interval:
    name = type(expr).__name__
    if name in ("floor", "ceiling", "FloorDiv", "CeilDiv"):
        lo, hi = bounds(expr.args[0], box)
        if name.endswith("Div"):  # FloorDiv(num, den), den a positive integer
            den = float(expr.args[1])
            lo, hi = lo / den, hi / den
        up = name.startswith("C") or name == "ceiling"
        step = math.ceil if up else math.floor
        lo, hi = lo - _widen(lo), hi + _widen(hi)
        return (step(lo) if math.isfinite(lo) else lo), (step(hi) if math.isfinite(hi) else hi)
    if isinstance(expr, sympy.Mod) and expr.args[1].is_Number and expr.args[1] > 0:
        lo, hi = bounds(expr.args[0], box)
        m = float(expr.args[1])
        if lo >= 0 and hi < m:
            return lo, hi
        return 0.0, m
    if isinstance(expr, sympy.Abs):
        lo, hi = bounds(expr.args[0], box)
        if lo >= 0:
            return lo, hi
        if hi <= 0:
            return -hi, -lo
        return 0.0, max(-lo, hi)
    if name == "FloorLog" and expr.args[1].is_Number:  # floor(log_c(x)), increasing in x: one step of slack
        lo, hi = bounds(expr.args[0], box)
        if not hi > 0:
            return EVERYTHING
        base = math.log(float(expr.args[1]))
        low = math.floor(math.log(lo) / base) - 1 if lo > 0 and math.isfinite(lo) else -INF
        return low, (math.floor(math.log(hi) / base) + 1 if math.isfinite(hi) else INF)
    if isinstance(expr, (sympy.log, sympy.exp)) and len(expr.args) == 1:
        return _monotone(name, bounds(expr.args[0], box))
    return EVERYTHING


def _piecewise(expr: sympy.Piecewise, box: Mapping[sympy.Symbol, Interval]) -> Interval:
    lo, hi = INF, -INF
    for value, cond in expr.args:
        decided = truth(cond, box)
        if decided is False:
            continue
        v_lo, v_hi = bounds(value, box)
        lo, hi = min(lo, v_lo), max(hi, v_hi)
        if decided is True:
            break
    return (lo, hi) if lo <= hi else EVERYTHING


def truth(cond: sympy.Basic, box: Mapping[sympy.Symbol, Interval]) -> bool | None:
    """True or False when the condition holds (fails) at every point of the box, else None."""
    if cond is sympy.true or cond == sympy.true:
        return True
    if cond is sympy.false or cond == sympy.false:
        return False
    if isinstance(cond, sympy.And):
        parts = [truth(c, box) for c in cond.args]
        return False if False in parts else (True if all(p is True for p in parts) else None)
    if isinstance(cond, sympy.Or):
        parts = [truth(c, box) for c in cond.args]
        return True if True in parts else (False if all(p is False for p in parts) else None)
    if isinstance(cond, sympy.Not):
        inner = truth(cond.args[0], box)
        return None if inner is None else not inner
    if isinstance(cond, sympy.core.relational.Relational):
        return _relation(cond, box)
    return None


def _relation(cond: sympy.core.relational.Relational, box: Mapping[sympy.Symbol, Interval]) -> bool | None:
    a_lo, a_hi = bounds(cond.lhs, box)
    b_lo, b_hi = bounds(cond.rhs, box)
    ends = (a_lo, a_hi, b_lo, b_hi)
    # integer ends are exact; others may carry float rounding, so decide only with a margin
    tol = 0.0 if all(float(v).is_integer() for v in ends) else \
        _widen(max(abs(v) for v in ends) if all(math.isfinite(v) for v in ends) else 0.0)
    op = cond.rel_op
    if op in ("<", ">"):  # a > b is b < a
        (x_lo, x_hi), (y_lo, y_hi) = ((a_lo, a_hi), (b_lo, b_hi)) if op == "<" else ((b_lo, b_hi), (a_lo, a_hi))
        if x_hi < y_lo - tol:
            return True
        if x_lo >= y_hi + tol:
            return False
        return None
    if op in ("<=", ">="):
        (x_lo, x_hi), (y_lo, y_hi) = ((a_lo, a_hi), (b_lo, b_hi)) if op == "<=" else ((b_lo, b_hi), (a_lo, a_hi))
        if x_hi <= y_lo - tol:
            return True
        if x_lo > y_hi + tol:
            return False
        return None
    if op == "==":
        if a_hi < b_lo - tol or a_lo > b_hi + tol:
            return False
        return True if (a_lo == a_hi == b_lo == b_hi) else None
    if op == "!=":
        if a_hi < b_lo - tol or a_lo > b_hi + tol:
            return True
        return False if (a_lo == a_hi == b_lo == b_hi) else None
    return None
