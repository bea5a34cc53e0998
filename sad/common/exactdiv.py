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


class FloorLog(sympy.Function):
    """floor(log_c(x)) for x >= 1 and an integer base c >= 2: the passes of a loop that multiplies or divides its
    variable by c (sad.analysis.whileloops), less one. Evaluated in integers where x is a number, for sympy's
    floor(log(x)/log(c)) of a float is wrong at the powers of c: log(256.0)/log(2) is 7.999... and its floor 7,
    so a loop halving 768.0 down to 3 would run 8 times where it runs 9. Printed as floor(log(x, c)), which the
    restricted expression parser (sad.common.exprparse) reads back as the same value."""
    is_integer = True

    @classmethod
    def eval(cls, x, base):  # noqa: D102 (sympy's constructor hook)
        if x.is_Number and base.is_Integer and base >= 2 and x >= 1:
            whole = int(sympy.floor(sympy.Rational(x)))  # a Float's Rational is its exact binary value
            return sympy.Integer(sympy.integer_log(whole, int(base))[0])
        return None

    def _eval_is_nonnegative(self):
        return True if (self.args[0] - 1).is_nonnegative else None

    def _sympystr(self, printer) -> str:
        return f"floor(log({printer._print(self.args[0])}, {printer._print(self.args[1])}))"

    def _latex(self, printer) -> str:
        return rf"\left\lfloor \log_{{{printer._print(self.args[1])}}} {printer._print(self.args[0])} \right\rfloor"


def floor_log_array(x: Any, base: Any) -> Any:
    """FloorLog for numpy: the float quotient of logarithms corrected by one step either way against base**k,
    which is exact in floating point for the powers a loop count can reach."""
    import numpy
    x = numpy.asarray(x, dtype=float)
    k = numpy.floor(numpy.log(x) / numpy.log(base))
    k = numpy.where(numpy.power(float(base), k + 1) <= x, k + 1, k)
    return numpy.where(numpy.power(float(base), k) > x, k - 1, k)


def numpy_functions() -> dict[str, Any]:
    """lambdify's module entries for FloorDiv, CeilDiv and FloorLog (numpy imported on first use)."""
    import numpy
    return {"FloorDiv": numpy.floor_divide, "CeilDiv": lambda n, d: -numpy.floor_divide(-n, d),
            "FloorLog": floor_log_array}


def exact_divisions(expr: sympy.Expr) -> sympy.Expr:
    """floor/ceiling of a ratio with integer coefficients → FloorDiv/CeilDiv of its numerator and denominator."""
    def rewrite(e: sympy.Expr) -> sympy.Expr:
        num, den = sympy.fraction(sympy.together(e.args[0]))
        if not den.is_Integer or den <= 1 or not all(c.is_Integer for c in sympy.expand(num).atoms(sympy.Number)):
            return e
        return (FloorDiv if isinstance(e, sympy.floor) else CeilDiv)(sympy.expand(num), den)
    return expr.replace(lambda e: isinstance(e, (sympy.floor, sympy.ceiling)), rewrite)
