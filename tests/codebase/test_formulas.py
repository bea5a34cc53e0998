"""A routine's formula at a reference point (sad.codebase.formulas): exact sums of loop trips."""
from __future__ import annotations

import pytest
import sympy
from sympy.core.basic import Basic

from sad.codebase.formulas import _numeric, complexity, evaluate


def test_a_sum_over_loop_trips_evaluates_at_float_sizes():
    """A triangular nest whose inner count stays a Sum (GEQR2's shape): Σ_{k=0}^{N-1} Max(0, M-1-k) at
    M = N = 1000 is Σ_{j=0}^{999} j = 499500, also when the point's values are the floats 1000.0."""
    m, n, k = sympy.symbols("G.M G.N k", integer=True)
    expr = 2.0 * sympy.Sum(sympy.Max(0, m - 1 - k), (k, 0, -1 + sympy.Max(0, n))) + 3
    assert evaluate(expr, {"G.M": 1000.0, "G.N": 1000.0}) == 2.0 * 499500 + 3
    assert evaluate(expr, {"G.M": 10.0, "G.N": 4.0}) == 2.0 * (9 + 8 + 7 + 6) + 3
    assert evaluate(expr, {"G.M": 10.0, "G.N": 0.0}) == 3.0  # no trips
    assert complexity(expr, {"G.M": 1.0, "G.N": 1.0}, ["G.M", "G.N"]) == "n^2"



def test_mod_is_the_floored_remainder_at_a_point():
    """An unrolled loop's remainder trips, MOD(N, 4) + 3 * floor(N / 4): at N = 10 that is 2 + 6, at
    N = -5 sympy's (floored) Mod is 3 and floor(-5/4) is -2."""
    n = sympy.Symbol("D.N", integer=True)
    expr = sympy.Mod(n, 4) + 3 * sympy.floor(n / 4)
    assert evaluate(expr, {"D.N": 10.0}) == 8.0
    assert evaluate(expr, {"D.N": -5.0}) == 3.0 - 6.0
    assert evaluate(sympy.Mod(n, 0, evaluate=False), {"D.N": 3.0}) is None  # no remainder by zero


def test_a_sum_with_a_branch_in_its_body():
    """Σ_{k=1}^{N} (2 if k ≤ M else 5) + Mod(k, 3): at N = 10, M = 4 that is 4·2 + 6·5 + (1+2+0)·3 + 1."""
    n, m, k = sympy.symbols("S.N S.M k", integer=True)
    body = sympy.Piecewise((2, k <= m), (5, True)) + sympy.Mod(k, 3)
    expr = sympy.Sum(body, (k, 1, n))
    assert evaluate(expr, {"S.N": 10.0, "S.M": 4.0}) == 8 + 30 + 10
    assert evaluate(expr, {"S.N": 0.0, "S.M": 4.0}) == 0.0  # an empty range
    # a branch that holds for no trip has no value, as at a single point
    never = sympy.Sum(sympy.Piecewise((1, k > m)), (k, 1, n))
    assert evaluate(never, {"S.N": 3.0, "S.M": 5.0}) is None


def test_a_long_sum_is_added_in_pieces():
    """Σ_{k=0}^{N-1} k over 3·2^20 + 5 trips (more than one piece of the vectorised walk) is N(N-1)/2,
    exact below 2^53."""
    n, k = sympy.symbols("L.N k", integer=True)
    size = 3 * 2 ** 20 + 5
    assert evaluate(sympy.Sum(k, (k, 0, n - 1)), {"L.N": float(size)}) == size * (size - 1) / 2


def test_a_sum_of_a_sum():
    """Σ_{k=0}^{N} Σ_{j=0}^{k} (j + 1), whose inner bound is the outer index (sympy merges the two into one
    Sum with two limits): at N = 3 that is 1 + 3 + 6 + 10. A sum inside a sum's body, not merged, is added
    up trip by trip: Σ_{k=0}^{3} (2 Σ_{j=0}^{k} j + 1) = 1 + 3 + 7 + 13."""
    n, k, j = sympy.symbols("T.N k j", integer=True)
    assert evaluate(sympy.Sum(sympy.Sum(j + 1, (j, 0, k)), (k, 0, n)), {"T.N": 3.0}) == 20.0
    assert evaluate(sympy.Sum(2 * sympy.Sum(j, (j, 0, k)) + 1, (k, 0, n)), {"T.N": 3.0}) == 24.0


def test_a_sum_in_a_sums_body_is_added_by_the_float_walk():
    """A callee's loop under a test in a caller's loop (SLAQR4's formula): Σ_{k=0}^{N} (2 Σ_{j=0}^{k} j + 1)
    is walked trip by trip in floats, not handed to sympy (which rebuilt the body with numbers for each trip:
    4 s for SLAQR4's formula at one point): 1 + 3 + 7 + 13 at N = 3, Σ_k (k² + k + 1) at N = 999."""
    n, k, j = sympy.symbols("T.N k j", integer=True)
    expr = sympy.Sum(2 * sympy.Sum(j, (j, 0, k)) + 1, (k, 0, n))
    assert _numeric(expr, {"T.N": 3.0}) == 24.0
    assert _numeric(expr, {"T.N": 999.0}) == sum(x * x + x + 1 for x in range(1000))


def test_a_subexpression_free_of_the_index_is_walked_once_for_all_trips():
    """In Σ_{k=0}^{N} (2 Σ_{j=0}^{k} j + c), c = Max(M, 3)·Min(M, 5) does not depend on k: evaluated once at
    the point the sum is taken at, it is the same for every trip (at N = 3, M = 4: 1 + 3 + 7 + 13 - 4 + 4·16)."""
    n, m, k, j = sympy.symbols("T.N T.M k j", integer=True)
    c = sympy.Max(m, 3) * sympy.Min(m, 5)
    expr = sympy.Sum(2 * sympy.Sum(j, (j, 0, k)) + c, (k, 0, n))
    assert _numeric(expr, {"T.N": 3.0, "T.M": 4.0}) == 20.0 + 4 * 16
    assert _numeric(expr, {"T.N": 3.0, "T.M": 4.0}) == _numeric(expr.doit(), {"T.N": 3.0, "T.M": 4.0})


def test_a_branch_no_trip_takes_is_not_walked():
    """A branch of a Piecewise in a sum's body that no trip takes is not evaluated (as at a single point):
    1/M with M = 0 behind k > N has no value, and Σ_{k=1}^{N} (k if k ≤ N else 1/M) is N(N+1)/2."""
    n, m, k = sympy.symbols("B.N B.M k", integer=True)
    body = sympy.Piecewise((k, k <= n), (1 / m, True))
    assert evaluate(sympy.Sum(body, (k, 1, n)), {"B.N": 10.0, "B.M": 0.0}) == 55.0


def test_an_estimate_of_a_sum_walked_trip_by_trip_for_the_complexity_class():
    """Σ_{k=0}^{N} (2 Σ_{j=0}^{k} j + 1) = Σ_k (k² + k + 1), from 64 of its trips at N = 1999 (2 000 walked
    one by one took minutes in STREVC's formula): within 1 % of 2 668 667 000, exact where the sum has no
    more trips than that, and the class n^3 either way."""
    n, k, j = sympy.symbols("T.N k j", integer=True)
    expr = sympy.Sum(2 * sympy.Sum(j, (j, 0, k)) + 1, (k, 0, n - 1))
    exact = sum(x * x + x + 1 for x in range(2000))
    assert evaluate(expr, {"T.N": 2000.0}) == exact
    assert evaluate(expr, {"T.N": 2000.0}, sampled=64) == pytest.approx(exact, rel=0.01)
    assert evaluate(expr, {"T.N": 2000.0}, sampled=64) != exact
    assert evaluate(expr, {"T.N": 50.0}, sampled=64) == sum(x * x + x + 1 for x in range(50))
    assert complexity(expr, {"T.N": 1.0}, ["T.N"]) == "n^3"


def test_floors_and_remainders_of_rational_forms_are_exact():
    """A stepped loop's trips floor(n/3 + 2/3) at n = 100 are 34 (100/3 + 2/3 is 33.99999999999999 in floating
    point, whose floor is 33): corpus/c/stepped.c's main was 6.5e-7 s short at the default point. The same
    for ceiling, Mod of a rational form, and inside a sum's body."""
    n, k = sympy.symbols("S.n k", integer=True)
    third = sympy.Rational(1, 3)
    assert evaluate(sympy.floor(n / 3 + 2 * third), {"S.n": 100.0}) == 34.0
    assert evaluate(sympy.ceiling(n / 3 - third), {"S.n": 100.0}) == 33.0
    assert evaluate(sympy.ceiling(n / 3 + third), {"S.n": 100.0}) == 34.0
    assert evaluate(sympy.Mod(n / 2, 3), {"S.n": 7.0}) == 0.5
    assert evaluate(sympy.Mod(n / 3 + 2 * third, 5), {"S.n": 100.0}) == 4.0  # 34 mod 5
    body = sympy.floor((n - k) / 3 + 2 * third)  # 34, 34, 33 for k = 0, 1, 2 at n = 100 (102/3, 101/3, 100/3)
    assert evaluate(sympy.Sum(body, (k, 0, 2)), {"S.n": 100.0}) == 34 + 33 + 33


def test_shared_subexpressions_are_evaluated_once():
    """e_{i+1} = Max(e_i, y) + Min(e_i, x) shares e_i twice: 40 levels are a tree of 2^40 nodes (a callee's
    counts at each of its call sites, nested), evaluated once per distinct subexpression. At x = 1, y = 2:
    e_1 = 2, then each level adds one."""
    x, y = sympy.symbols("T.x T.y", integer=True)
    e = sympy.Integer(0)
    for _ in range(40):  # built as raw trees: sympy's constructors sort their arguments by walking them whole
        e = sympy.Add._from_args((Basic.__new__(sympy.Max, e, y), Basic.__new__(sympy.Min, e, x)))
    assert evaluate(e, {"T.x": 1.0, "T.y": 2.0}) == 41.0


def test_if_then_else_conditions_are_evaluated():
    """sympy folds Piecewise conditions into ITE(test, then, else); the float walk decides them (it fell back
    to sympy, seconds on a FITPACK routine), lazily: the branch not taken is not evaluated (N = 0 here)."""
    n, m = sympy.symbols("T.N T.M", integer=True)
    cond = sympy.ITE(sympy.Eq(n, 0), m > 3, m / n > 1)
    e = sympy.Piecewise((5, cond), (7, True))
    assert evaluate(e, {"T.N": 0.0, "T.M": 4.0}) == 5.0
    assert evaluate(e, {"T.N": 0.0, "T.M": 2.0}) == 7.0
    assert evaluate(e, {"T.N": 2.0, "T.M": 3.0}) == 5.0
    k = sympy.Symbol("k", integer=True)
    indicator = sympy.Piecewise((1, sympy.ITE(m > 0, k > m, k < 0)), (0, True))
    assert evaluate(sympy.Sum(indicator, (k, 0, n)), {"T.N": 9.0, "T.M": 6.0}) == 3.0   # k = 7, 8, 9


def test_absolute_values_are_evaluated():
    """ABS(MF) in a loop bound (VODE's method flag): the float walk takes Abs instead of leaving the whole
    formula to sympy."""
    mf = sympy.Symbol("V.MF", integer=True)
    assert evaluate(2 * sympy.Abs(mf) + 1, {"V.MF": -21.0}) == 43.0


def test_trips_of_a_loop_left_early_follow_its_exits():
    """X falls through 1 - X·q times per entry: its default is min(10, 1/(2q)) at the point's values, the
    inner loop's first when the outer loop's exits read it; a point that gives X keeps it."""
    from sad.codebase.formulas import early_trips
    p_in, p_out, x_in = sympy.symbols("P_IN P_OUT X_IN", nonnegative=True)
    leaving = {"X_IN": p_in, "X_OUT": x_in * p_in * p_out + p_out / 4}
    defaults = {"P_IN": 0.5, "P_OUT": 0.5}.__getitem__
    # q_in = 1/2: 1 trip; q_out = 1·(1/2)(1/2) + 1/8 = 3/8: 4/3 trips
    got = early_trips({"X_IN": 10.0, "X_OUT": 10.0}, leaving, {"X_IN", "X_OUT"}, 10.0, defaults)
    assert got == {"X_IN": 1.0, "X_OUT": pytest.approx(4 / 3, rel=1e-12)}
    # a rare exit (q = 1/100) keeps the loop-count default; q = 1/10 gives 5 trips
    got = early_trips({"X_IN": 10.0, "P_IN": 0.01}, {"X_IN": p_in}, {"X_IN"}, 10.0, defaults)
    assert got["X_IN"] == 10.0
    assert early_trips({"X_IN": 10.0, "P_IN": 0.1}, {"X_IN": p_in}, {"X_IN"}, 10.0, defaults)["X_IN"] == 5.0
    # the point gives X_IN: kept, and X_OUT reads it (q_out = 7·(1/2)(1/2) + 1/8 = 15/8: 4/15 trips)
    got = early_trips({"X_IN": 7.0, "X_OUT": 10.0}, leaving, {"X_OUT"}, 10.0, defaults)
    assert got == {"X_IN": 7.0, "X_OUT": pytest.approx(4 / 15, rel=1e-12)}
    # no exit at these values (q = 0): the loop-count default
    assert early_trips({"X_IN": 3.0, "P_IN": 0.0}, {"X_IN": p_in}, {"X_IN"}, 10.0, defaults)["X_IN"] == 10.0


def test_a_logical_argument_tested_as_it_is_is_true_unless_zero():
    """L-BFGS-B's FREEV tests `CNSTND .AND. ITER .GT. 0`, CNSTND a LOGICAL argument: at a point it is true for
    any value but 0 (the default value 100 included), as C's `if (flag)`. The formula had no value."""
    cnstnd, it, n = sympy.symbols("FREEV.CNSTND FREEV.ITER FREEV.N", real=True)
    guard = sympy.Piecewise((1, sympy.And(cnstnd, it > 0)), (0, True))
    expr = 2 + 3 * guard * n + sympy.Piecewise((5, sympy.Or(cnstnd, it > 0)), (0, True))
    assert evaluate(expr, {"FREEV.CNSTND": 100.0, "FREEV.ITER": 1.0, "FREEV.N": 10.0}) == 37.0
    assert evaluate(expr, {"FREEV.CNSTND": 0.0, "FREEV.ITER": 1.0, "FREEV.N": 10.0}) == 7.0
    assert evaluate(expr, {"FREEV.CNSTND": 0.0, "FREEV.ITER": 0.0, "FREEV.N": 10.0}) == 2.0


def test_code_behind_a_flow_of_zero_takes_no_time_even_where_its_region_is_normalised_by_that_flow():
    """LSODA's shape: a block after an entry check, q = 1 - [ITASK invalid], times the visits of its region
    over a flow that has q as a factor. At ITASK = 100 (the default value) q is 0: the term is 0, not a
    division by zero that left the routine without a value. A division by 0 with no zero factor has none."""
    itask, x, p = sympy.symbols("D.ITASK X_D_L10_VISITS P_D_IF2")
    q = 1 - sympy.Piecewise((1, (itask > 5) | (itask < 1)), (0, True))
    flow = sympy.Add(p * q, q * (1 - p) * x, evaluate=False)
    term = sympy.Mul(3, x, q, sympy.Pow(flow, -1), evaluate=False)
    expr = sympy.Add(2, term, evaluate=False)
    point = {"D.ITASK": 100.0, "X_D_L10_VISITS": 10.0, "P_D_IF2": 0.5}
    assert evaluate(expr, point) == 2.0
    assert evaluate(expr, {**point, "D.ITASK": 2.0}) == pytest.approx(2 + 3 * 10 / (0.5 + 0.5 * 10))
    assert evaluate(sympy.Add(2, sympy.Pow(flow, -1), evaluate=False), point) is None


def test_a_nest_of_sums_over_ragged_trips_equals_its_loops():
    """A callee's triangular loop bound at each trip of a caller's triangular nest (tests/codebase/
    test_priced_by_name.py's TOP, MID and LEAF): Σ_{i=1}^{N} Σ_{j=1}^{i} (3 + Σ_{m=j}^{N-j} [m > i]·Max(0, N-j-m)),
    whose inner sums are added over all their trips at once (ragged arrays), equals the loops run in Python,
    also where a limit lies below the other (no trips) and with a subexpression free of the inner indices."""
    n, c, i, j, m = sympy.symbols("R.N R.C i j m", integer=True)
    leaf = sympy.Piecewise((sympy.Max(0, n - j - m), m > i), (0, True))
    expr = sympy.Sum(3 + sympy.Max(c, 2) * sympy.Sum(leaf, (m, j, n - j)), (j, 1, i), (i, 1, n))

    def loops(size: int, scale: float) -> float:
        return sum(3 + scale * sum(max(0, size - jj - mm) for mm in range(jj, size - jj + 1) if mm > ii)
                   for ii in range(1, size + 1) for jj in range(1, ii + 1))
    for size in (0, 1, 7, 40):
        assert evaluate(expr, {"R.N": float(size), "R.C": 5.0}) == loops(size, 5.0)
    assert complexity(expr, {"R.N": 1.0, "R.C": 1.0}, ["R.N"]) == "n^4"


def test_a_nest_whose_trips_divide_by_zero_behind_a_zero_factor_is_added_trip_by_trip():
    """LSODA's shape inside a nest: in Σ_{i=1}^{N} (1 + Σ_{j=1}^{i} (j + 2·q·(1/q))) with q = Max(0, 1 - i), 0 at
    every trip, the term free of j is 0 where the walk takes it trip by trip (code behind a flow of zero, as at a
    point); over the arrays of all trips at once 0·inf is NaN, so such a nest is added trip by trip:
    Σ_i (i(i+1)/2 + 1) = 62 at N = 6."""
    n, i, j = sympy.symbols("Z.N i j", integer=True)
    q = sympy.Max(0, 1 - i)
    behind = sympy.Mul(2, q, sympy.Pow(q, -1), evaluate=False)
    expr = sympy.Sum(1 + sympy.Sum(sympy.Add(j, behind, evaluate=False), (j, 1, i)), (i, 1, n))
    assert evaluate(expr, {"Z.N": 6.0}) == 62.0
