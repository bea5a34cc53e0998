"""Models of a profiled parameter against problem size, chosen the way Extra-P chooses them.

Data flow: sad.measure.profile derives each unresolved parameter at several runs (one per --size point) → here,
for each parameter, the hypotheses  f(n) = c0 + c1 · n^i · log2(n)^j  (Extra-P's performance model
normal form, one term, i from a fixed set of fractions, j in {0, 1, 2}) and the constant f(n) = c0 are
fitted by least squares and the one with the smallest leave-one-out cross-validation error wins (ties go
to the simpler). The result is a formula text the restricted parser reads back (a params file value).

Probabilities are fitted in logit space (log(p/(1-p)), the model then 1/(1 + exp(-f(n)))) so that a
prediction far outside the measured sizes stays inside [0, 1]. A loop count is fitted with a lower bound of 0
(`lower`): every hypothesis must stay non-negative at the measured sizes and over the declared range of sizes
(`domain`, e.g. 1 up to the largest size predictions will be made at); least squares under these linear
constraints is solved by a small active-set search (the unconstrained solution if it holds, else the best of the
solutions with one or two constraints held as equalities that satisfies all of them), the leave-one-out error
with the same constraints, so that a hypothesis the bound bends fits worse and loses to one that needs no
bending (`-8823.67 + 1981*log2(N)`, negative below N = 22, does not come out). Nor may a model grow past
what the data allow: a term is taken only where the measured values move its way (at least two steps between
consecutive sizes, the steps against it a quarter of those with it at most); a zig-zag or a single jump is
read as a constant with noise. Each fit records its relative RMS error at the measured sizes.

Coefficients that are numerical noise (a term below NOISE of the values over the measured range, an intercept
of 2e-15) are dropped, so the same measurements give the same text. The measured range is kept (Fit.low,
Fit.high) for the params file and the extrapolation warning.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

EXPONENTS = [Fraction(0), Fraction(1, 4), Fraction(1, 3), Fraction(1, 2), Fraction(2, 3), Fraction(3, 4),
             Fraction(1), Fraction(5, 4), Fraction(4, 3), Fraction(3, 2), Fraction(5, 3), Fraction(7, 4),
             Fraction(2), Fraction(9, 4), Fraction(7, 3), Fraction(5, 2), Fraction(8, 3), Fraction(11, 4),
             Fraction(3)]
LOGS = [0, 1, 2]
NOISE = 1e-9  # relative to the largest value: below it a coefficient is rounding error, not a model term
LOGIT_EPS = 1e-6  # probabilities of exactly 0 or 1 are moved this far inside to take their logit


@dataclass
class Fit:
    """A fitted size model c0 + c1*n^e*log2(n)^k of one parameter, with its errors and measured range."""
    parameter: str  # the size parameter the model is in (NPART)
    expression: str  # readable by sad.common.exprparse, e.g. "0.93 + 12.1*NPART**(1/3)"
    c0: float
    c1: float
    exponent: Fraction
    log_power: int
    cv_error: float  # leave-one-out: mean relative error of predicting each point from the others
    fit_error: float  # mean relative error over the points used
    points: int
    low: float = math.nan  # the measured range of the size parameter
    high: float = math.nan
    logit: bool = False  # fitted in logit space: the value is 1/(1 + exp(-(c0 + c1*term)))
    rms_error: float = math.nan  # relative RMS error at the measured sizes
    bounded: tuple[float, float] | None = None  # sizes over which the model is held >= the lower bound
    bent: bool = False  # the bound changed the chosen model's coefficients (the data alone went below it)

    def __call__(self, n: float) -> float:
        """The fitted model's value at size `n`."""
        f = self.c0 + self.c1 * _term(np.array([n], dtype=float), self.exponent, self.log_power)[0]
        return float(1.0 / (1.0 + math.exp(-f))) if self.logit else float(f)


def _term(n: np.ndarray, i: Fraction, j: int) -> np.ndarray:
    return n ** float(i) * (np.log2(n) ** j if j else 1.0)


def _relative(pred: np.ndarray, y: np.ndarray) -> float:
    scale = np.maximum(np.abs(y), 1e-12)
    return float(np.mean(np.abs(pred - y) / scale))


def _relative_rms(pred: np.ndarray, y: np.ndarray) -> float:
    scale = np.maximum(np.abs(y), 1e-12)
    return float(np.sqrt(np.mean(((pred - y) / scale) ** 2)))


@dataclass(frozen=True)
class _Bound:
    """model(n) >= lower at every n of `points` (the measured sizes and the ends of the declared range)."""
    lower: float
    points: np.ndarray


def _lstsq(columns: list[np.ndarray], y: np.ndarray, bound: _Bound | None = None,
           at_bound: list[np.ndarray] | None = None) -> np.ndarray:
    """Least squares; with a bound (at_bound: the columns at bound.points), the best coefficients that keep
    every constrained value >= bound.lower (active set: the free solution, else each single constraint and each
    pair held as equalities, the feasible one of least residual)."""
    a = np.column_stack(columns)
    coef, *_ = np.linalg.lstsq(a, y, rcond=None)
    if bound is None or at_bound is None:
        return coef
    b = np.column_stack(at_bound)
    if _feasible(b, coef, bound.lower):
        return coef
    best, best_residual = None, math.inf
    for active in _active_sets(len(b), a.shape[1]):
        candidate = _equality_lstsq(a, y, b[list(active)], bound.lower)
        if candidate is None or not _feasible(b, candidate, bound.lower):
            continue
        residual = float(np.sum((a @ candidate - y) ** 2))
        if residual < best_residual:
            best, best_residual = candidate, residual
    if best is None:  # cannot happen for lower <= 0 (the zero model is feasible); a constant at the bound
        best = np.zeros(a.shape[1])
        best[0] = bound.lower
    return best


def _feasible(b: np.ndarray, coef: np.ndarray, lower: float) -> bool:
    values = b @ coef
    return bool(np.all(values >= lower - 1e-9 * max(1.0, float(np.max(np.abs(values))))))


def _active_sets(constraints: int, unknowns: int):
    for k in range(constraints):
        yield (k,)
    if unknowns > 1:
        for k in range(constraints):
            for m in range(k + 1, constraints):
                yield (k, m)


def _equality_lstsq(a: np.ndarray, y: np.ndarray, rows: np.ndarray, lower: float) -> np.ndarray | None:
    """min |a c - y| subject to rows @ c = lower (null-space method: a particular solution plus the
    least-squares combination of the directions the equalities leave free)."""
    target = np.full(len(rows), lower)
    particular, *_ = np.linalg.lstsq(rows, target, rcond=None)
    if not np.allclose(rows @ particular, target, rtol=1e-9, atol=1e-9 * max(1.0, abs(lower))):
        return None  # inconsistent equalities (two constraints on one point)
    _, sing, vt = np.linalg.svd(rows)
    rank = int(np.sum(sing > 1e-12 * max(1.0, float(sing[0]))))
    free = vt[rank:].T
    if free.shape[1] == 0:
        return particular
    step, *_ = np.linalg.lstsq(a @ free, y - a @ particular, rcond=None)
    return particular + free @ step


def _hypotheses():
    yield (Fraction(0), 0)  # constant
    for i in EXPONENTS:
        for j in LOGS:
            if i == 0 and j == 0:
                continue
            yield (i, j)


def _evaluate(n: np.ndarray, y: np.ndarray, i: Fraction, j: int,
              bound: _Bound | None = None) -> tuple[np.ndarray, float]:
    """Coefficients on all points and the leave-one-out error of one hypothesis (both under the bound)."""
    constant = i == 0 and j == 0

    def cols(x):
        return [np.ones_like(x)] if constant else [np.ones_like(x), _term(x, i, j)]

    at_bound = cols(bound.points) if bound is not None else None
    coef = _lstsq(cols(n), y, bound, at_bound)
    if len(n) <= (1 if constant else 2):
        return coef, math.inf if not constant else 0.0
    errors = []
    for k in range(len(n)):
        keep = np.arange(len(n)) != k
        c = _lstsq(cols(n[keep]), y[keep], bound, at_bound)
        pred = sum(ci * col for ci, col in zip(c, cols(n[k:k + 1])))
        errors.append(abs(pred[0] - y[k]) / max(abs(y[k]), 1e-12))
    return coef, float(np.mean(errors))


def fit(parameter: str, sizes: list[float], values: list[float], probability: bool = False,
        lower: float | None = None, domain: tuple[float, float] | None = None) -> Fit:
    """The best single-term model of values against sizes (all sizes > 0); a probability in logit space
    (unless all values are equal: a constant needs no transform). With `lower` (0 for a loop count) every
    hypothesis is held >= lower at the measured sizes and at the ends of `domain` (default: the measured
    range), where a single-term model, monotone in n >= 1, takes its least values."""
    n = np.asarray(sizes, dtype=float)
    y = np.asarray(values, dtype=float)
    if probability and not np.allclose(y, y[0]):
        p = np.clip(y, LOGIT_EPS, 1 - LOGIT_EPS)
        inner = fit(parameter, sizes, list(np.log(p / (1 - p))))
        return _as_probability(inner, n, y)
    bound = None
    if lower is not None:
        ends = domain if domain is not None else (float(np.min(n)), float(np.max(n)))
        bound = _Bound(lower, np.unique(np.concatenate([n, np.asarray(ends, dtype=float)])))
    if len(n) < 3:
        i, j = (Fraction(0), 0) if len(n) < 2 or np.allclose(y, y[0]) else (Fraction(1), 0)
        coef = _evaluate(n, y, i, j, bound)[0]
        return _make(parameter, n, y, coef, i, j, math.nan, bound)
    best = None
    for i, j in _hypotheses():
        coef, cv = _evaluate(n, y, i, j, bound)
        if len(coef) > 1 and not _supported(n, y, float(coef[1])):
            continue  # the data do not move the model's way: a trend there would be extrapolated noise
        # the simpler model wins unless the other is clearly better: ordering of _hypotheses is by
        # complexity, so a strict improvement beyond noise is required
        if best is None or cv < best[1] - 1e-9:
            best = (coef, cv, i, j)
    assert best is not None                  # _hypotheses() is never empty
    coef, cv, i, j = best
    return _make(parameter, n, y, coef, i, j, cv, bound)


def _supported(n: np.ndarray, y: np.ndarray, slope: float) -> bool:
    """A single-term model is monotone in n (>= 1), the way of the sign of its term's coefficient; the data
    allow it when at least two steps between consecutive sizes go that way and the steps against it add up
    to at most a quarter of those with it. Else the data are a constant with noise (md1's P_FORCE_IF7,
    0.081 0.119 0.070 0.094 0.081, fitted -2.32 - 1.34e-11*NPART**(11/4) in logit space, is 0 at NPART =
    100000), or one step (0.08 four times, then 0.09: 1.44e-14*NPART**3*log2(NPART)**2, 1 at 100000)."""
    if slope == 0.0:
        return True
    steps = np.diff(y[np.argsort(n)]) * math.copysign(1.0, slope)
    noise = NOISE * max(float(np.max(np.abs(y))), 1.0)
    with_it, against = steps[steps > noise], steps[steps < -noise]
    return len(with_it) >= 2 and float(-np.sum(against)) <= 0.25 * float(np.sum(with_it))


def _make(parameter, n, y, coef, i, j, cv, bound: _Bound | None = None) -> Fit:
    c0 = float(coef[0])
    c1 = float(coef[1]) if len(coef) > 1 else 0.0
    scale = max(float(np.max(np.abs(y))) if len(y) else 0.0, 1.0)  # counts and probabilities are O(1)
    if c1 and float(np.max(np.abs(c1 * _term(n, i, j)))) < NOISE * scale:
        c0, c1 = float(np.mean(y)), 0.0  # the term never matters over the measured range
    if abs(c0) < NOISE * scale:
        c0 = 0.0
    if c1 == 0.0:
        i, j = Fraction(0), 0
    pred = c0 + c1 * _term(n, i, j) if c1 else np.full_like(n, c0)
    model = Fit(parameter, expression(parameter, c0, c1, i, j), c0, c1, i, j, cv, _relative(pred, y), len(n),
                float(np.min(n)), float(np.max(n)), rms_error=_relative_rms(pred, y))
    if bound is not None:
        model.bounded = (float(np.min(bound.points)), float(np.max(bound.points)))
        free = _lstsq([np.ones_like(n)] + ([] if i == 0 and j == 0 else [_term(n, i, j)]), y)
        model.bent = not np.allclose(free, coef[:len(free)], rtol=1e-9, atol=1e-12)
    return model


def _as_probability(inner: Fit, n: np.ndarray, y: np.ndarray) -> Fit:
    """A logit-space fit as a probability model: the expression 1/(1 + exp(-(f))), errors in p."""
    linear = expression(inner.parameter, inner.c0, inner.c1, inner.exponent, inner.log_power)
    text = f"1/(1 + exp(-({linear})))" if inner.c1 else _num(1.0 / (1.0 + math.exp(-inner.c0)))
    model = Fit(inner.parameter, text, inner.c0, inner.c1, inner.exponent, inner.log_power, inner.cv_error,
                0.0, inner.points, inner.low, inner.high, logit=True)
    pred = np.array([model(x) for x in n])
    model.fit_error = _relative(pred, y)
    model.rms_error = _relative_rms(pred, y)
    return model


def _num(x: float) -> str:
    text = f"{x:.6g}"
    if float(text) == 0.0:
        return "0"  # never "-0"
    return text if "e" not in text else f"({text})"


def expression(parameter: str, c0: float, c1: float, i: Fraction, j: int) -> str:
    """The fitted model c0 + c1 * P**i * log2(P)**j as an expression text in `parameter`."""
    if c1 == 0.0 or (i == 0 and j == 0):
        return _num(c0)
    factors = []
    if i != 0:
        factors.append(parameter if i == 1 else f"{parameter}**({i.numerator}/{i.denominator})"
                       if i.denominator != 1 else f"{parameter}**{i.numerator}")
    if j:
        factors.append(f"log2({parameter})" + (f"**{j}" if j > 1 else ""))
    term = "*".join(([] if _num(abs(c1)) == "1" and factors else [_num(abs(c1))]) + factors)
    sign = "-" if c1 < 0 else "+"
    if c0 == 0.0:
        return term if c1 > 0 else f"-{term}"
    return f"{_num(c0)} {sign} {term}"
