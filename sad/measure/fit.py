"""Models of a profiled parameter against problem size, chosen the way Extra-P chooses them.

Data flow: sad.measure.profile derives each unresolved parameter at several runs (one per --size point) → here,
for each parameter, the hypotheses  f(n) = c0 + c1 · n^i · log2(n)^j  (Extra-P's performance model
normal form, one term, i from a fixed set of fractions, j in {0, 1, 2}) and the constant f(n) = c0 are
fitted by least squares and the one with the smallest leave-one-out cross-validation error wins (ties go
to the simpler). The result is a formula text the restricted parser reads back (a params file value).
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


@dataclass
class Fit:
    parameter: str  # the size parameter the model is in (NPART)
    expression: str  # readable by sad.common.exprparse, e.g. "0.93 + 12.1*NPART**(1/3)"
    c0: float
    c1: float
    exponent: Fraction
    log_power: int
    cv_error: float  # leave-one-out: mean relative error of predicting each point from the others
    fit_error: float  # mean relative error over the points used
    points: int

    def __call__(self, n: float) -> float:
        return self.c0 + self.c1 * _term(np.array([n], dtype=float), self.exponent, self.log_power)[0]


def _term(n: np.ndarray, i: Fraction, j: int) -> np.ndarray:
    return n ** float(i) * (np.log2(n) ** j if j else 1.0)


def _relative(pred: np.ndarray, y: np.ndarray) -> float:
    scale = np.maximum(np.abs(y), 1e-12)
    return float(np.mean(np.abs(pred - y) / scale))


def _lstsq(columns: list[np.ndarray], y: np.ndarray) -> np.ndarray:
    a = np.column_stack(columns)
    coef, *_ = np.linalg.lstsq(a, y, rcond=None)
    return coef


def _hypotheses():
    yield (Fraction(0), 0)  # constant
    for i in EXPONENTS:
        for j in LOGS:
            if i == 0 and j == 0:
                continue
            yield (i, j)


def _evaluate(n: np.ndarray, y: np.ndarray, i: Fraction, j: int) -> tuple[np.ndarray, float]:
    """Coefficients on all points and the leave-one-out error of one hypothesis."""
    constant = i == 0 and j == 0

    def cols(x):
        return [np.ones_like(x)] if constant else [np.ones_like(x), _term(x, i, j)]

    coef = _lstsq(cols(n), y)
    if len(n) <= (1 if constant else 2):
        return coef, math.inf if not constant else 0.0
    errors = []
    for k in range(len(n)):
        keep = np.arange(len(n)) != k
        c = _lstsq(cols(n[keep]), y[keep])
        pred = sum(ci * col for ci, col in zip(c, cols(n[k:k + 1])))
        errors.append(abs(pred[0] - y[k]) / max(abs(y[k]), 1e-12))
    return coef, float(np.mean(errors))


def fit(parameter: str, sizes: list[float], values: list[float]) -> Fit:
    """The best single-term model of values against sizes (all sizes > 0)."""
    n = np.asarray(sizes, dtype=float)
    y = np.asarray(values, dtype=float)
    if len(n) < 3:
        i, j = (Fraction(0), 0) if len(n) < 2 or np.allclose(y, y[0]) else (Fraction(1), 0)
        coef = _evaluate(n, y, i, j)[0]
        return _make(parameter, n, y, coef, i, j, math.nan)
    best = None
    for i, j in _hypotheses():
        coef, cv = _evaluate(n, y, i, j)
        # the simpler model wins unless the other is clearly better: ordering of _hypotheses is by
        # complexity, so a strict improvement beyond noise is required
        if best is None or cv < best[1] - 1e-9:
            best = (coef, cv, i, j)
    assert best is not None                  # _hypotheses() is never empty
    coef, cv, i, j = best
    return _make(parameter, n, y, coef, i, j, cv)


def _make(parameter, n, y, coef, i, j, cv) -> Fit:
    c0 = float(coef[0])
    c1 = float(coef[1]) if len(coef) > 1 else 0.0
    pred = c0 + c1 * _term(n, i, j) if len(coef) > 1 else np.full_like(n, c0)
    return Fit(parameter, expression(parameter, c0, c1, i, j), c0, c1, i, j, cv, _relative(pred, y), len(n))


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
    term = "*".join([_num(abs(c1))] + factors)
    sign = "-" if c1 < 0 else "+"
    return f"{_num(c0)} {sign} {term}"
