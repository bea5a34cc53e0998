"""Floors and ceilings of rational forms as integer divisions, for formulas evaluated with numpy.

Data flow: a count or a time with ``floor(n/3 + 2/3)`` in it (a strip-mined or unrolled loop's trips, a test
of MOD(I, K)) → ``exact_divisions`` → ``FloorDiv(n + 2, 3)`` → ``sympy.lambdify(..., modules=[numpy_functions(),
"numpy"])``. Used where a formula is compiled for numpy: an open sum's terms added at once
(sad.analysis.counting.evaluate_sums) and a sweep's grid (sad.predict.sweep). numpy.floor of the float
quotient is wrong where the rational is an integer the float misses by one rounding: floor(11/6 + 1/6) is
1.9999999999999998 → 1, not 2 (an open sum of ``[MOD((I+1)/6, 3) = 0]`` over 31 trips came out 12 for 11).
"""
from __future__ import annotations

from typing import Any

import sympy


class FloorDiv(sympy.Function):
    """floor(num/den) for an integer numerator polynomial and an integer den, computed as numpy.floor_divide:
    exact for integers, where numpy.floor(n/3 + 2/3) can give 3.9999999999999996 → 3."""


class CeilDiv(sympy.Function):
    """ceiling(num/den), exactly, as FloorDiv."""


def numpy_functions() -> dict[str, Any]:
    """lambdify's module entries for FloorDiv and CeilDiv (numpy imported on first use)."""
    import numpy
    return {"FloorDiv": numpy.floor_divide, "CeilDiv": lambda n, d: -numpy.floor_divide(-n, d)}


def exact_divisions(expr: sympy.Expr) -> sympy.Expr:
    """floor/ceiling of a ratio with integer coefficients → FloorDiv/CeilDiv of its numerator and denominator."""
    def rewrite(e: sympy.Expr) -> sympy.Expr:
        num, den = sympy.fraction(sympy.together(e.args[0]))
        if not den.is_Integer or den <= 1 or not all(c.is_Integer for c in sympy.expand(num).atoms(sympy.Number)):
            return e
        return (FloorDiv if isinstance(e, sympy.floor) else CeilDiv)(sympy.expand(num), den)
    return expr.replace(lambda e: isinstance(e, (sympy.floor, sympy.ceiling)), rewrite)
