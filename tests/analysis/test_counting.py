"""Exact loop counting against hand-derived closed forms (Fortran 77 trip-count rule, exact sums)."""
from __future__ import annotations

import sympy

from sad.analysis import counting
from sad.analysis.counting import evaluate_sums, sum_over_index, trip_count

N = sympy.Symbol("N", integer=True)
M = sympy.Symbol("M", integer=True)
I = sympy.Symbol("I", integer=True)  # noqa: E741  (the loop index, named as in the Fortran)
K = sympy.Symbol("K", integer=True)


def values(expr, symbol, points):
    return [expr.subs(symbol, p) for p in points]


def test_trip_count_rule_including_negative_steps_and_empty_ranges():
    assert trip_count(1, 10, 1) == 10
    assert trip_count(10, 1, 1) == 0                      # empty range runs zero times
    assert trip_count(10, 1, -1) == 10
    assert trip_count(1, 10, 3) == 4                      # 1, 4, 7, 10
    assert trip_count(10, 1, -2) == 5                     # 10, 8, 6, 4, 2
    assert trip_count(1, 0, 1) == 0
    by_hand = [max(0, (n - 1 + 3) // 3) for n in range(-3, 12)]
    assert values(trip_count(1, N, 3), N, range(-3, 12)) == by_hand
    assert values(trip_count(N, 1, -2), N, range(-3, 12)) == [max(0, (1 - n - 2) // -2) for n in range(-3, 12)]


def test_triangular_nest_is_summed_exactly():
    inner = trip_count(I, N, 1)                           # DO I = 1, N / DO J = I, N
    total = sum_over_index(inner, I, 1, N, 1)
    assert total == sympy.Max(0, N) * (sympy.Max(0, N) + 1) / 2
    assert values(total, N, [-2, 0, 1, 2, 10, 100]) == [0, 0, 1, 3, 55, 5050]


def test_strictly_lower_triangle_and_lu_cube():
    lower = sum_over_index(trip_count(1, I - 1, 1), I, 1, N, 1)       # forward substitution
    assert values(lower, N, [0, 1, 2, 5, 40]) == [n * (n - 1) // 2 for n in [0, 1, 2, 5, 40]]
    # LU: DO K=1,N / DO I=K+1,N / DO J=K+1,N  → Σ (N-K)^2 = (N-1)N(2N-1)/6
    inner = sum_over_index(trip_count(K + 1, N, 1), I, K + 1, N, 1)
    cube = sum_over_index(inner, K, 1, N, 1)
    assert values(cube, N, [0, 1, 2, 3, 10]) == [(n - 1) * n * (2 * n - 1) // 6 if n > 0 else 0
                                                 for n in [0, 1, 2, 3, 10]]


def test_dependent_upper_bound_and_reverse_outer_loop():
    doubled = sum_over_index(trip_count(I, 2 * I, 1), I, 1, N, 1)   # DO J = I, 2*I: I+1 trips
    assert values(doubled, N, [0, 1, 4, 1000]) == [0, 2, 14, 1000 * 1003 // 2]
    backwards = sum_over_index(trip_count(I, N, 1), I, N, 1, -1)    # DO I = N, 1, -1 / DO J = I, N
    assert values(backwards, N, [0, 1, 3, 10]) == [0, 1, 6, 55]


def test_literal_bounds_sum_to_numbers_and_two_parameters_stay_symbolic():
    assert sum_over_index(trip_count(I, 10, 1), I, 1, 10, 1) == 55
    rect = sum_over_index(trip_count(1, M, 1), I, 1, N, 1)
    assert rect == sympy.Max(0, N) * sympy.Max(0, M)


def test_stepped_triangle_falls_back_to_an_exact_unevaluated_sum():
    total = sum_over_index(trip_count(I, N, 1), I, 1, N, 2)         # DO I = 1, N, 2 / DO J = I, N
    for n in (0, 1, 5, 8):
        by_hand = sum(max(0, n - i + 1) for i in range(1, n + 1, 2))
        value = total.subs(N, n)
        assert evaluate_sums(value) == by_hand


def test_conditions_on_the_loop_index_are_counted_exactly():
    e = sympy.Symbol("E", integer=True)
    k = sympy.Symbol("K", integer=True, positive=True)

    def indicator(cond):
        return sympy.Piecewise((1, cond), (0, True))

    cases = [(sympy.Le(I, e), lambda i, ev, kv: i <= ev), (sympy.Gt(I, e), lambda i, ev, kv: i > ev),
             (sympy.Eq(I, e), lambda i, ev, kv: i == ev), (sympy.Ne(I, e), lambda i, ev, kv: i != ev),
             (sympy.Eq(sympy.Mod(I, k), 0), lambda i, ev, kv: i % kv == 0)]
    for cond, holds in cases:
        total = sum_over_index(2 * indicator(cond) + 1, I, 1, N, 1)
        assert not total.has(sympy.Sum), cond
        for n, ev, kv in [(10, 4, 3), (10, 0, 2), (0, 3, 2), (7, 7, 7), (12, 20, 5)]:
            by_hand = sum(2 * holds(i, ev, kv) + 1 for i in range(1, n + 1))
            assert total.subs({N: n, e: ev, k: kv}) == by_hand, (cond, n, ev, kv)


def test_leftover_sums_evaluate_exactly_not_approximately():
    kk = sympy.Symbol("k", integer=True)
    both = sympy.Piecewise((1, sympy.And(sympy.Eq(sympy.Mod(kk, 3), 0), sympy.Eq(sympy.Mod(kk, 5), 0))), (0, True))
    assert evaluate_sums(sympy.Sum(both, (kk, 0, 2999))) == 200   # sympy's float() of it says 8


def _brute(f, index, lo, hi, values):
    """Σ f over index = lo..hi by enumeration, at the given values of the other symbols."""
    lo_v, hi_v = int(sympy.sympify(lo).subs(values)), int(sympy.sympify(hi).subs(values))
    return sum(f.subs(values).subs(index, i) for i in range(lo_v, hi_v + 1))


def test_nested_conditions_on_the_index_are_counted_in_closed_form():
    """IF (I .EQ. N/2) inside IF (I .LE. N/2) (two indicator factors), a callee's count under such a condition
    (Piecewise((NPART, ...), (0, True))), and a range I >= 3 ∧ I <= 7: closed forms with no Sum (an open
    Sum with a Piecewise body lets sympy lift the condition, bound index and all, out of the Sum when the
    count is later used in a condition), equal to enumeration at every n."""
    i = sympy.Symbol("i", integer=True)
    n = sympy.Symbol("n", integer=True)
    npart = sympy.Symbol("NPART", integer=True, nonnegative=True)
    half = sympy.floor(n / 2)
    pinned = sympy.Piecewise((1, sympy.Eq(i, half)), (0, True)) * sympy.Piecewise((1, i <= half), (0, True))
    callee = sympy.Piecewise((npart, sympy.Eq(i, half) & (i <= half)), (0, True))
    window = sympy.Piecewise((1, (i >= 3) & (i <= 7)), (0, True))
    for f in (pinned, callee, window):
        total = sum_over_index(f, i, 1, n, 1)
        assert not total.has(sympy.Sum)
        for value in range(0, 12):
            at = {n: value, npart: 5}
            assert total.subs(at) == _brute(f, i, 1, n, at), (f, value)
    assert sum_over_index(window, i, 1, n, 1).subs(n, 10) == 5
    assert sum_over_index(callee, i, 1, n, 1).subs({n: 10, npart: 5}) == 5


def test_unbounded_linear_forms_are_not_nonnegative_without_simplify():
    from sad.analysis.counting import _nonnegative, _unbounded_below
    P = sympy.Symbol("P", integer=True, positive=True)
    Z = sympy.Symbol("Z", integer=True, nonnegative=True)
    # M - 1 is -1 at M = 0; 5 - Z is negative for Z > 5; 2M + P + 3 for M very negative
    for e in (M - 1, 1 - M, 5 - Z, 2 * M + P + 3, M / 2, -P):
        assert _unbounded_below(e) and not _nonnegative(e)
        assert not sympy.simplify(e).is_nonnegative                       # what the slow path answers
    # bounded below on their domains, or not linear: left to the assumptions and simplify
    for e in (P - 1, Z - 1, M * N - 1, M ** 2, P + Z):
        assert not _unbounded_below(e)
    assert _nonnegative(P - 1) and _nonnegative(M ** 2) and not _nonnegative(Z - 1)


def test_max0_of_a_form_of_either_sign_is_the_unevaluated_max():
    from sad.analysis.counting import _unbounded_both_ways, max0
    X = sympy.Symbol("X", nonnegative=True)  # a loop count
    R = sympy.Symbol("R", real=True)
    third = sympy.Rational(1, 3)
    for raw in (N, N - I + 1, 2 * R - 3, N / 4 + sympy.Rational(3, 4), N + X, 2 * N,
                # multiples of 3 among 0..N-1, and other floors of forms of either sign
                sympy.floor(N / 3 - third) + 1, sympy.floor(N / 4), sympy.floor(N / 2) + sympy.floor(I / 3) - 5,
                X + sympy.floor(N / 2), sympy.floor((N + I) / 2) - 1, sympy.floor(R) + 1):
        assert _unbounded_both_ways(raw) and raw.is_nonnegative is None and raw.is_nonpositive is None
        assert max0(raw) == sympy.Max(0, raw, evaluate=False) == sympy.Max(0, raw)
    # bounded on one side, or a symbol in two terms (N - floor(N/2)): left to the assumptions
    for raw in (X + 1, X - 1, N * I, N ** 2, sympy.floor(X / 4) + 1, sympy.floor(N / 2) - N, sympy.floor(N * I)):
        assert not _unbounded_both_ways(raw)
        assert max0(raw) == sympy.Max(0, raw)
    assert max0(X + 1) == X + 1 and max0(-X - 1) == 0 and max0(sympy.Integer(-3)) == 0
    strip = sympy.Min(32, N - I + 1)  # a strip's width, MIN(32, N - JJ + 1)
    assert strip.is_nonnegative is None and strip.is_nonpositive is None
    assert max0(strip) == sympy.Max(0, strip, evaluate=False)
    assert max0(sympy.Min(4, X)) == sympy.Min(4, X)


def test_max0_is_sympys_max_where_only_factoring_shows_the_sign():
    """sympy.Max(0, x) looks at factor_terms(x) when x's own sign is unknown; max0 must too (it stands for
    sympy.Max in the index counts): A*B - A = A*(B - 1) >= 0 for A >= 0 and B >= 1."""
    from sad.analysis.counting import max0
    A = sympy.Symbol("A", integer=True, nonnegative=True)
    B = sympy.Symbol("B", integer=True, positive=True)
    assert (A * B - A).is_nonnegative is None
    for raw in (A * B - A, A - A * B, A * B - A + N, 2 * A * B - 2 * A + 1, sympy.Min(B, N) - A + 1):
        assert max0(raw) == sympy.Max(0, raw)
    assert max0(A * B - A) == A * B - A and max0(A - A * B) == 0


def test_floor_of_linear_forms_is_sympys_floor():
    import random

    from sad.analysis.counting import floor
    Z = sympy.Symbol("Z", integer=True, nonnegative=True)
    P = sympy.Symbol("P", integer=True, positive=True)
    symbols = [N, M, Z, P, sympy.Symbol("R", real=True), sympy.Symbol("E", integer=True, even=True)]
    assert floor(N / 32 + sympy.Rational(31, 32)) == sympy.floor(N / 32 + sympy.Rational(31, 32))
    assert floor(N / 2 + M + sympy.Rational(1, 2)) == M + sympy.floor(N / 2 + sympy.Rational(1, 2), evaluate=False)
    dot = (N - sympy.Mod(N, 4) + 3) / 4  # DOT's unrolled loop: DO I = MOD(N,4)+1, N, 4
    assert floor(dot) == sympy.floor(dot, evaluate=False)
    rng = random.Random(11)

    def fraction(denominators):
        return sympy.Rational(rng.randint(-9, 9), rng.choice(denominators))

    for _ in range(250):  # the same tree (srepr), not only an equal value
        terms = [fraction([1, 2, 3, 4, 32]) * rng.choice(symbols) for _ in range(rng.randint(0, 2))]
        for _ in range(rng.randint(0, 2)):
            inner = sympy.Add(*[rng.randint(-3, 3) * rng.choice(symbols[:4]) for _ in range(rng.randint(1, 2))],
                              rng.randint(-5, 5))
            terms.append(fraction([1, 2, 4]) * sympy.Mod(inner, rng.choice([2, 3, 4])))
        arg = sympy.Add(*terms, fraction([1, 2, 4]))
        assert sympy.srepr(floor(arg)) == sympy.srepr(sympy.floor(arg)), arg


def test_signs_at_points_are_signs_the_form_takes():
    from sad.analysis.counting import _signs_at_points
    Z = sympy.Symbol("Z", integer=True, nonnegative=True)
    dot = sympy.floor((N - sympy.Mod(N, 4) + 3) / 4, evaluate=False)  # DOT's unrolled trip count
    assert _signs_at_points(dot, {-1, 1}) >= {-1, 1}                 # N = 10**6 and N = -10**6
    assert _signs_at_points(99 - Z, {-1, 1}) >= {-1, 1}              # Z = 0 and Z = 10**6
    assert _signs_at_points(sympy.floor((-Z - sympy.Mod(3 * Z, 4) + 99) / 4) + 1, {-1, 1}) >= {-1, 1}
    assert -1 not in _signs_at_points(Z + 1, {-1, 1}) and -1 not in _signs_at_points(N ** 2, {-1, 1})
    assert _signs_at_points(sympy.Mod(N, 4) - 4, {1}) == {-1}        # never positive: every point tried
    # a symbol of another kind (even) or a function it does not evaluate: nothing seen, left to sympy
    assert _signs_at_points(sympy.Symbol("E", integer=True, even=True) - 1, {-1, 1}) == set()
    assert _signs_at_points(sympy.sin(N) - 2, {-1, 1}) == set()
    assert _signs_at_points(1 / N, {-1, 1}) == {-1, 1}               # N = 0 skipped (no value there)


def test_max0_and_nonnegative_where_points_show_both_signs_are_sympys():
    """A form seen to take both signs at integer points gives the unevaluated Max without the assumptions;
    sympy.Max(0, x) and simplify, being sound, come to the same on random forms of floors, Mods, Min and
    products over symbols of every kind (the tree compared, not only the value)."""
    import random

    from sad.analysis.counting import _nonnegative, _signs_at_points, max0
    kinds = [N, M, sympy.Symbol("Z", integer=True, nonnegative=True), sympy.Symbol("P", integer=True, positive=True),
             sympy.Symbol("R", real=True), sympy.Symbol("X", nonnegative=True),
             sympy.Symbol("E", integer=True, even=True), sympy.Symbol("Q", integer=True, negative=True)]
    rng = random.Random(7)

    def linear():
        return sympy.Add(rng.randint(-5, 5), *[rng.choice([-3, -2, -1, 1, 2, 3]) * x
                                               for x in rng.sample(kinds, rng.randint(1, 2))])

    def form(depth=0):
        choice = rng.randint(0, 7 if depth < 2 else 0)
        if choice == 1:
            return sympy.floor(linear() / rng.choice([2, 3, 4, 32]))
        if choice == 2:
            return sympy.Mod(linear(), rng.choice([2, 3, 4]))
        if choice == 3:
            return form(depth + 1) + form(depth + 1)
        if choice == 4:
            return rng.choice([-1, 2, sympy.Rational(1, 4)]) * form(depth + 1)
        if choice == 5:
            return sympy.Min(rng.randint(1, 40), form(depth + 1))
        if choice == 6:
            return form(depth + 1) * form(depth + 1)
        if choice == 7:
            return sympy.floor(form(depth + 1) / 4) + rng.randint(-2, 2)
        return linear()

    both = 0
    for _ in range(60):
        raw = form()
        signs = _signs_at_points(raw, {-1, 1})
        if {-1, 1} <= signs:
            both += 1
            assert sympy.srepr(max0(raw)) == sympy.srepr(sympy.Max(0, raw)), raw
        if -1 in signs:
            assert not _nonnegative(raw) and not sympy.simplify(raw).is_nonnegative, raw
    assert both >= 20  # the shortcut was exercised


def test_a_periodic_summand_is_left_as_a_sum_as_sympy_leaves_it():
    """A loop calling an unrolled kernel on a shrinking range (GEQR2 calling NRM2 on M - J + 1 elements) has
    the remainder trips MOD(M - J + 1, 4) as summand: sympy finds no closed form for such a single step-shaped
    term, so the sum stays a Sum without asking sympy (tens of milliseconds each). A sum of terms is still
    given to sympy, which may pair two of them: Mod(k + 1, 4) - Mod(k, 4) telescopes."""
    k, tau = counting._K, counting._TAU
    m, n = sympy.symbols("G.M G.N", integer=True)
    j = sympy.Symbol("J", integer=True)
    for term in [sympy.Mod(m - k, 4), 3 * m * sympy.Mod(k, 2), k * sympy.floor((m - k) / 4),
                 sympy.ceiling(k / 3) * sympy.Max(0, m)]:
        assert counting._periodic_term(term)
        assert sympy.summation(term, (k, 0, tau - 1)).has(sympy.Sum)  # what the rule stands for
    assert not counting._periodic_term(sympy.Mod(k + 1, 4) - sympy.Mod(k, 4))
    assert sympy.summation(sympy.Mod(k + 1, 4) - sympy.Mod(k, 4), (k, 0, tau - 1)) == sympy.Mod(tau, 4)
    assert not counting._periodic_term(sympy.Mod(m, 4) * k)  # no k inside: a polynomial in k
    summed = counting.sum_over_index(sympy.Mod(m - j + 1, 4), j, 1, n, 1)
    assert summed == sympy.Sum(sympy.Mod(m - k, 4), (k, 0, sympy.Max(0, n) - 1))


def test_linear_in_k_as_sympys_poly_decides():
    k = counting._K
    m = sympy.Symbol("G.M", integer=True)
    forms = [m - k - 1, 2 * k, sympy.Max(0, m) * k + 3, k * (k + 1), k ** 2 - k ** 2 + k, (k + 1) * (m - 2),
             sympy.Mod(m - k, 4), sympy.floor(m / 4) * k, k * sympy.Max(0, k), sympy.Integer(7)]
    for form in forms:
        expected = form.is_polynomial(k) and sympy.Poly(form, k).degree() <= 1
        assert counting._linear_in_k(form) == bool(expected), form   # sympy's None (Mod) is no: False
        assert counting.polynomial_in(form, k) == bool(form.is_polynomial(k)), form


def test_mod_of_an_integer_symbol_is_sympys_mod():
    """counting.mod builds Mod(N, q) itself for an integer symbol of unknown parity: the same tree as sympy's
    Mod for every kind of symbol and divisor (where the parity or the divisor decides, sympy decides)."""
    kinds = [{"integer": True}, {"integer": True, "nonnegative": True}, {"integer": True, "positive": True},
             {"integer": True, "negative": True}, {"integer": True, "nonpositive": True},
             {"integer": True, "even": True}, {"integer": True, "odd": True}, {"integer": True, "zero": True},
             {"real": True}, {}, {"integer": True, "nonzero": True}, {"prime": True}]
    built = 0
    for kind in kinds:
        n = sympy.Symbol("S.N", **kind)
        for q in [1, 2, 3, 4, 7, 32, -4]:
            expected = sympy.Mod(n, q)
            assert sympy.srepr(counting.mod(n, sympy.Integer(q))) == sympy.srepr(expected), (kind, q)
            built += isinstance(expected, sympy.Mod)
    assert built >= 25
    m = sympy.Symbol("G.M", integer=True)
    assert counting.mod(m - 3, sympy.Integer(4)) == sympy.Mod(m - 3, 4) == sympy.Mod(m + 1, 4)  # sympy's own


def test_mod_of_a_linear_form_is_sympys_mod():
    """counting.mod on random linear forms c + a·x + b·y in symbols of every kind: the same tree as
    sympy.Mod, whether built directly or by sympy (constants outside 0..q-1, coefficients that are multiples
    of q, a common factor, known parity or sign all change sympy's answer)."""
    import random
    rng = random.Random(11)
    kinds = [{"integer": True}] * 5 + [{"integer": True, "nonnegative": True}, {"integer": True, "positive": True},
                                     {"integer": True, "negative": True}, {"integer": True, "even": True},
                                     {"integer": True, "odd": True}, {"real": True}]
    direct = 0
    for case in range(250):
        x = sympy.Symbol(f"F{case}.M", **rng.choice(kinds))
        y = sympy.Symbol(f"J_F{case}", **rng.choice(kinds))
        form = rng.randint(-9, 9) + rng.randint(-9, 9) * x + rng.choice([0, rng.randint(-9, 9)]) * y
        q = sympy.Integer(rng.choice([2, 3, 4, 5, 6, 8, 32]))
        expected = sympy.Mod(form, q)
        assert sympy.srepr(counting.mod(form, q)) == sympy.srepr(expected), (form, q)
        direct += bool(form.is_Add and int(q) >= 3 and counting._reduced_linear_form(form, int(q)))
    assert direct >= 18  # the direct construction was exercised, not only sympy's


def test_ramps_sum_in_closed_form_as_term_by_term():
    """Σ_{k<X} of a polynomial plus c·Max(0, a - k) or c·Max(0, k - a) (a an integer, c free of k), on random
    forms: the closed form equals the sum added term by term for every X and N tried."""
    import random
    k = counting._K
    x = sympy.Symbol("X", integer=True, nonnegative=True)
    rng = random.Random(1)
    closed = 0
    for _ in range(80):
        a = rng.randint(-4, 9) + rng.choice([0, N])
        c = rng.choice([1, 2, sympy.Rational(1, 2), N])
        ramp = sympy.Max(0, a - k) if rng.random() < 0.5 else sympy.Max(0, k - a)
        f = c * ramp + rng.choice([0, k, 3, k ** 2])
        total = counting._ramp_sum(f, x)
        if not f.has(sympy.Max):   # the ramp was 0 or a - k throughout: a polynomial, summed elsewhere
            assert total is None
            continue
        closed += 1
        assert not total.has(sympy.Sum)
        for n in range(-3, 6):
            for trips in range(0, 8):
                assert total.subs({N: n, x: trips}) == sum(f.subs(N, n).subs(k, j) for j in range(trips)), f
    assert closed > 50
    assert counting._ramp_sum(sympy.Max(0, N - 2 * k), x) is None          # a slope of 2: floors, left open
    assert counting._ramp_sum(k * sympy.Max(0, N - k), x) is None          # the index outside the ramp


def _faulhaber_by_poly(f_k: sympy.Expr) -> sympy.Expr:
    """Σ_{k=0}^{τ-1} f_k with the coefficients from sympy.Poly (what _polynomial_sum did before reading them
    off the terms)."""
    total = sympy.Integer(0)
    for (power,), coeff in sympy.Poly(f_k, counting._K).terms():
        b = sympy.bernoulli(power + 1, counting._TAU) - sympy.bernoulli(power + 1, 0)
        total += coeff * sympy.expand(b / (power + 1))
    return sympy.expand(total)


def test_polynomial_sums_are_polys_tree_for_tree():
    """_polynomial_sum reads the coefficients of k off the terms of a form multiplied out in k (Poly for any
    other): the same tree as with Poly's coefficients, with probabilities, a Max count, a Mod, a fraction and
    numbers in them, and for forms not multiplied out; Faulhaber's values checked by hand at τ = 4."""
    k, tau = counting._K, counting._TAU
    m, n = sympy.Symbol("G.M", integer=True), sympy.Symbol("G.N", integer=True)
    p, q = sympy.Symbol("P_G_IF1"), sympy.Symbol("P_G_IF2")
    forms = [sympy.Integer(3), k, k ** 3, 2 * k ** 2 - k + 5, p * k + q * k + p * q * k ** 2 + 1,
             (1 - p) * (1 - q) * k + sympy.Max(0, m - 1) * k ** 2, sympy.Mod(n, 4) * k + sympy.Rational(1, 2),
             k / m + k * n / m, (k + 1) ** 2 * p, (k + m) * (k - n), sympy.Float(0.5) * k + p, sympy.sqrt(2) * k * p,
             sympy.pi * k + p * k ** 2, k * sympy.sqrt(m) + sympy.I * k]
    for form in forms:
        ours = counting._polynomial_sum(form)
        assert sympy.srepr(ours) == sympy.srepr(_faulhaber_by_poly(form)), form
    assert counting._polynomial_sum(k ** 2 * p + 1).subs(tau, 4) == 14 * p + 4  # 0 + 1 + 4 + 9; four ones
    assert counting._coefficients_in_k(3 * k ** 2 + p * k + q * k) == [(2, 3), (1, p + q)]


def test_terms_grouped_by_their_factors_of_k_add_up_as_one_at_a_time():
    """_by_terms adds each group's coefficients at once: the same sums, tree for tree, as adding them one at
    a time in the order of the terms (Float and Rational coefficients, probabilities, a repeated factor)."""
    import random

    from sad.analysis.counting import _K, _by_terms
    rng = random.Random(30)
    p = sympy.symbols("P0:4", positive=True)
    n = sympy.Symbol("N", integer=True)
    factors = [sympy.Integer(1), _K, _K ** 2, sympy.Piecewise((1, sympy.Le(_K, n)), (0, True)), sympy.Max(0, n - _K)]
    for _ in range(40):
        terms = [rng.choice([sympy.Float(rng.choice([0.25, 1.5e-7, 3.0])), sympy.Rational(rng.randint(1, 5), 3)])
                 * rng.choice(p) * rng.choice(factors) for _ in range(rng.randint(1, 12))]
        f_k = sympy.Add(*terms)
        one_at_a_time: dict = {}
        for term in sympy.Add.make_args(f_k):
            coeff, dependent = term.as_independent(_K, as_Add=False)
            one_at_a_time[dependent] = one_at_a_time.get(dependent, sympy.Integer(0)) + coeff
        assert [(sympy.srepr(c), d) for c, d in _by_terms(f_k)] == \
            [(sympy.srepr(c), d) for d, c in one_at_a_time.items()]



def test_a_bodys_probabilities_and_option_tests_multiply_its_sum():
    # DO I = 1, N / IF (P1) / IF (.NOT. P2) / IF (LSAME(HOWMNY, 'S')) then DO J = I, N and two statements
    p1, p2 = sympy.symbols("P_A_IF1 P_A_IF2", positive=True)
    howmny = sympy.Symbol("A.HOWMNY", integer=True)
    coefficient = p1 * (1 - p2) * sympy.Piecewise((1, sympy.Eq(howmny, 83)), (0, True))
    total = sum_over_index(coefficient * (trip_count(I, N, 1) + 2), I, 1, N, 1)
    assert not total.has(sympy.Sum)
    # outside the closed form, as written (not multiplied out into it and factored again)
    assert set(sympy.Mul.make_args(coefficient)) <= set(sympy.Mul.make_args(total))
    for n, a, b, h in [(0, 0.5, 0.25, 83), (1, 0.5, 0.25, 83), (7, 0.3, 0.9, 83), (7, 0.3, 0.9, 82),
                       (40, 1, 0, 83)]:
        by_hand = a * (1 - b) * (h == 83) * (n * (n + 1) / 2 + 2 * n)
        got = float(total.subs({N: n, p1: a, p2: b, howmny: h}))
        assert abs(got - by_hand) < 1e-9 * max(1.0, by_hand)


def test_an_open_sum_keeps_its_probabilities_unexpanded_and_exact():
    # six tests of the index whose sum has no closed form (Mod of a quotient), each under a product of
    # probabilities: grouped by test, the coefficients as written, the value that of the loop run by hand
    p = sympy.symbols("P_B_IF1:7", positive=True)
    tests = [sympy.Piecewise((1, sympy.Eq(sympy.Mod(sympy.floor(I / (j + 2)), 3), 0)), (0, True))
             for j in range(6)]
    body = sum(((1 - p[j]) * p[(j + 1) % 6] * tests[j] for j in range(6)), sympy.Integer(0))
    total = sum_over_index(body, I, 1, N, 1)
    assert total.has(sympy.Sum)
    assert (1 - p[0]) * p[1] in [term.as_independent(sympy.Sum, as_Add=False)[0]
                                 for term in sympy.Add.make_args(total)]
    values = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
    for n in (0, 5, 31):
        by_hand = sum((1 - values[j]) * values[(j + 1) % 6] * ((i // (j + 2)) % 3 == 0)
                      for i in range(1, n + 1) for j in range(6))
        got = float(evaluate_sums(total.subs({N: n, **dict(zip(p, values))})))
        assert abs(got - by_hand) < 1e-9 * max(1.0, by_hand)


def test_an_open_sum_of_floors_is_added_up_exactly():
    # DO I = 1, 31 with IF (MOD(I/6, 3) .EQ. 0): I/6 = 0 for I < 6 (five trips), 3 for I = 18..23 (six):
    # 11. As k/6 + 1/6 in floating point, floor(11/6 + 1/6) was 1.9999999999999998 -> 1, and the sum 12.
    k = sympy.Symbol("k", integer=True, nonnegative=True)
    test = sympy.Piecewise((1, sympy.Eq(sympy.Mod(sympy.floor(k / 6 + sympy.Rational(1, 6)), 3), 0)), (0, True))
    assert evaluate_sums(sympy.Sum(test, (k, 0, 30))) == 11
    ceiling = sympy.ceiling(k / 6 - sympy.Rational(5, 6))  # = floor(k / 6) for whole k
    assert evaluate_sums(sympy.Sum(ceiling, (k, 0, 30))) == sum(i // 6 for i in range(31))


def test_nothing_summed_is_zero_not_a_sum_holding_the_loops_symbols():
    # a callee's count under IF (X .EQ. 1), bound where X is 0: the loop's count is 0, and the symbols of
    # its limits (and the probabilities a caller multiplies it by) leave the count
    x = sympy.Symbol("X", integer=True)
    k = sympy.Symbol("k", integer=True, nonnegative=True)
    count = sympy.Sum(sympy.Piecewise((1, sympy.Eq(x, 1)), (0, True)) * k, (k, 0, N - 1))
    assert counting.substitute(count, {x: 0}) == 0
    assert counting.substitute(count, {x: 1}).free_symbols == {N}
    assert counting.open_sum(sympy.Piecewise((0, k < M), (0, True)), (k, 0, N - 1)) == 0


def test_a_choice_sympy_cannot_simplify_once_bound_is_folded_as_it_is():
    """DLASYF's counts bound to DSYTRF's block size NB (MAX(1, LWORK/N) under tests of N and LWORK): sympy
    folds the bound choice by simplifying `Max(1, floor(LWORK/N)) < 8`, puts 0 for every symbol in it and
    refuses Max(1, nan) with a ValueError, which once took DSYTRF's whole build down as an internal error,
    and later made the call Unbindable (deferred to where the values are numbers). sad.analysis.foldmemo now
    keeps such a relation as it is, and the fold binds: at each point the count NB's value there gives."""
    lwork, n, k, nb, big = sympy.symbols("LWORK N k NB K", integer=True)
    small = sympy.Max(1, sympy.floor(lwork / n)) < 8
    bound = sympy.Piecewise((n, sympy.ITE((n > 64) & (lwork < 64 * n), small, False)), (64, True))
    count = sympy.Piecewise((1, k * nb - nb * sympy.floor((big - 1) / nb) > 0), (0, True))
    bound_count = counting.substitute(count, {nb: bound})
    points = [{lwork: 280, n: 70, k: 2, big: 65}, {lwork: 280, n: 70, k: 0, big: 65},
              {lwork: 10 ** 4, n: 70, k: 2, big: 65}, {lwork: 10 ** 4, n: 70, k: 1, big: 65}]
    values = [bound_count.subs(point) for point in points]
    assert values == [count.subs({nb: bound.subs(point)}).subs(point) for point in points] == [1, 0, 1, 0]
    assert counting.substitute(count, {nb: 64, k: 2, big: 65}) == 1


def test_resum_keeps_an_inner_sums_index_apart_from_the_outer_one():
    """An inner sum over k1 whose summand holds the outer index k (a callee's loop bound in its caller's
    blocked loop, summed over each block): closed as a polynomial in its own index, which _polynomial_sum
    calls k, the outer k must not be taken for it (Σ_k Σ_k1 (32k + k1 + 104) came out as Σ (33k + 104))."""
    k = sympy.Symbol("k", integer=True, nonnegative=True)
    k1 = sympy.Symbol("k1", integer=True, nonnegative=True)
    rows = sympy.Max(0, sympy.Min(32, 96 - 32 * k))
    nest = sympy.Sum(sympy.Sum(32 * k + k1 + 104, (k1, 0, rows - 1)), (k, 0, 2))
    by_hand = sum(32 * b + r + 104 for b in range(3) for r in range(32))
    assert counting.resum(nest) == nest.doit() == by_hand == 14544


def test_an_if_then_else_of_tests_binds_only_the_branch_its_test_takes():
    """sympy writes a choice inside a relation as ITE(test, then, else). DGEQR's `TSIZE < MAX(1, NB*N*NBLCKS
    + 5)` with NBLCKS = (M - N)/(MB - N) only where MB > N became such a choice; bound where MB = N, the branch
    not taken divides by 0. Bound test first it is the other branch; before, the whole count was Unbindable."""
    mb, tsize = sympy.symbols("MB TSIZE", integer=True)
    test = sympy.ITE(mb > N, tsize < N * (M - N) / (mb - N) + 5, tsize < N + 5)
    assert counting.substitute(test, {mb: 40, N: 40, M: 42, tsize: 44}) is sympy.true    # 80/0 not taken
    assert counting.substitute(test, {mb: 40, N: 40, M: 42, tsize: 45}) is sympy.false
    assert counting.substitute(test, {mb: 41, N: 40, M: 42, tsize: 84}) is sympy.true    # 84 < 40*2/1 + 5
    assert counting.substitute(test, {mb: 41, N: 40, M: 42, tsize: 85}) is sympy.false
