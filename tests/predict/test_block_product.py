"""mapper.times: a block's count × its seconds, the product sympy builds (0 for a block that costs nothing,
without sympy's question whether the count is infinite; nan where sympy says nan)."""
from __future__ import annotations

import sympy

from sad.predict.mapper import times

N, P = sympy.symbols("N P_X_IF1")
COUNT = P * (1 - sympy.Piecewise((1, sympy.Min(40, sympy.floor(N ** sympy.Rational(1, 3))) >= 3), (0, True))) \
    * sympy.Max(0, N - 1) - P * sympy.Max(0, N - 4)


def test_a_block_that_costs_nothing_is_zero() -> None:
    assert times(COUNT, sympy.S.Zero) is sympy.S.Zero
    assert COUNT * sympy.S.Zero is sympy.S.Zero                      # what sympy says, slowly


def test_other_products_are_sympys() -> None:
    seconds = sympy.Float("1.75e-7", 15)
    assert times(COUNT, seconds) == COUNT * seconds
    assert times(sympy.Integer(12), seconds) == sympy.Float("2.1e-6", 15)
    assert times(COUNT, sympy.Float(0.0)) == COUNT * sympy.Float(0.0)


def test_an_infinite_count_times_zero_is_nan_as_in_sympy() -> None:
    infinite = N + sympy.oo
    assert times(infinite, sympy.S.Zero) is sympy.S.NaN is infinite * sympy.S.Zero
