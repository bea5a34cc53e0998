"""A routine's formula at a reference point (sad.codebase.formulas): exact sums of loop trips."""
from __future__ import annotations

import sympy

from sad.codebase.formulas import complexity, evaluate


def test_a_sum_over_loop_trips_evaluates_at_float_sizes():
    """A triangular nest whose inner count stays a Sum (GEQR2's shape): Σ_{k=0}^{N-1} Max(0, M-1-k) at
    M = N = 1000 is Σ_{j=0}^{999} j = 499500, also when the point's values are the floats 1000.0."""
    m, n, k = sympy.symbols("G.M G.N k", integer=True)
    expr = 2.0 * sympy.Sum(sympy.Max(0, m - 1 - k), (k, 0, -1 + sympy.Max(0, n))) + 3
    assert evaluate(expr, {"G.M": 1000.0, "G.N": 1000.0}) == 2.0 * 499500 + 3
    assert evaluate(expr, {"G.M": 10.0, "G.N": 4.0}) == 2.0 * (9 + 8 + 7 + 6) + 3
    assert evaluate(expr, {"G.M": 10.0, "G.N": 0.0}) == 3.0  # no trips
    assert complexity(expr, {"G.M": 1.0, "G.N": 1.0}, ["G.M", "G.N"]) == "n^2"

