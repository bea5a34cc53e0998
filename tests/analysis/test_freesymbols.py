"""freesymbols.free_symbols: sympy's answer (bound indices left out, assumptions kept apart) for every
subexpression, the same however often and in whichever order shared subexpressions are asked; and sympy's
own free_symbols questions answered from it once installed (sad.analysis.counting installs it)."""
from __future__ import annotations

import sympy

from sad.analysis import counting, freesymbols  # noqa: F401 (counting installs the memo in sympy)
from sad.analysis.freesymbols import free_symbols

N = sympy.Symbol("N", integer=True, positive=True)
N_PLAIN = sympy.Symbol("N")  # same name, other assumptions: another symbol
M = sympy.Symbol("M", integer=True, positive=True)
RCUT = sympy.Symbol("RCUT", positive=True)
K = sympy.Symbol("k", integer=True)
BOXL = (N / sympy.Rational(4, 5)) ** sympy.Rational(1, 3)
X, Y = sympy.symbols("x y")
CELLS = sympy.Min(40, sympy.floor(BOXL / sympy.Min(RCUT, BOXL / 2)))
NCELL = sympy.Piecewise((CELLS ** 3, CELLS >= 3), (1, True))


def sympys(expr: sympy.Basic) -> set:
    """expr.free_symbols by sympy's own rules (not the memo installed in its place)."""
    with freesymbols.sympys_rules():
        return expr.free_symbols


def test_a_sum_leaves_out_its_index_and_keeps_its_bounds():
    total = sympy.Sum(K * NCELL, (K, 1, M)) + K
    assert free_symbols(total) == {K, M, N, RCUT} == sympys(total)
    (the_sum,) = [term for term in total.args if isinstance(term, sympy.Sum)]
    assert free_symbols(the_sum) == {M, N, RCUT}


def test_symbols_of_one_name_and_other_assumptions_stay_two():
    assert free_symbols(N + N_PLAIN) == {N, N_PLAIN}
    assert len(free_symbols(N + N_PLAIN)) == 2


def test_numbers_and_symbols():
    assert free_symbols(sympy.Integer(3)) == frozenset() and free_symbols(sympy.Float(2.5)) == frozenset()
    assert free_symbols(N) == {N}
    dummy = sympy.Dummy("d")
    assert free_symbols(dummy * N) == {dummy, N}


def test_shared_subexpressions_answer_like_sympy_in_any_order():
    formulas = [NCELL * M, (1 - NCELL) * RCUT, sympy.Max(0, M - NCELL), NCELL, CELLS + N_PLAIN,
                sympy.Piecewise((1, M > NCELL), (0, True)), sympy.Sum(NCELL, (K, 1, N)), sympy.Integer(7)]
    for order in (formulas, list(reversed(formulas))):
        freesymbols._MEMO.clear()
        assert [free_symbols(f) for f in order] == [sympys(f) for f in order]
        assert [free_symbols(f) for f in order] == [sympys(f) for f in order]   # from the memo


def test_the_memo_is_bounded(monkeypatch):
    monkeypatch.setattr(freesymbols, "LIMIT", 3)
    freesymbols._MEMO.clear()
    exprs = [N + i * M for i in range(1, 10)]
    assert all(free_symbols(e) == {N, M} for e in exprs)
    assert len(freesymbols._MEMO) <= 3


def test_sums_over_symbol_indices_follow_sympys_rule_limit_after_limit():
    k = sympy.Symbol("k", integer=True, nonnegative=True)
    i = sympy.Symbol("I", integer=True)
    summed = sympy.Sum(sympy.Max(0, M - k - 1) * sympy.floor((N - k) / 4), (k, 0, sympy.Max(0, N) - 1))
    formula = 3 * summed + RCUT * sympy.Sum(k * M, (k, 0, 9)) + sympy.Mod(i, 4)
    assert free_symbols(formula) == {M, N, RCUT, i} == sympys(formula)   # k is bound in both sums
    assert free_symbols(sympy.Sum(k, (k, 0, k + N))) == {k, N} == sympys(sympy.Sum(k, (k, 0, k + N)))
    nested = sympy.Sum(k * i, (k, 0, i), (i, 1, M))   # the first limit's bound i is the second's index
    assert free_symbols(nested) == {M} == sympys(nested)


def test_sympys_own_questions_are_answered_from_the_memo_with_a_set_of_their_own():
    freesymbols._MEMO.clear()
    summed = sympy.Sum(K * NCELL, (K, 1, M))
    asked = summed.free_symbols   # as sympy's Sum.is_number and as_independent ask
    assert asked == {M, N, RCUT} == sympys(summed)
    assert summed in freesymbols._MEMO and NCELL in freesymbols._MEMO
    asked.add(K)   # sympy's callers change the set they get (ExprWithLimits removes the indices)
    assert summed.free_symbols == {M, N, RCUT}
    assert not summed.is_number and sympy.Sum(K, (K, 1, 3)).is_number
    assert (M * NCELL).as_independent(M) == (NCELL, M)


def test_a_binder_that_asks_its_parent_class_gets_sympys_answer():
    # Integral's free_symbols calls ExprWithLimits' through super(): answered by sympy's rule, not looped
    assert sympy.Integral(X * Y, (X, 0, 1)).free_symbols == {Y} == sympys(sympy.Integral(X * Y, (X, 0, 1)))
    assert sympy.Integral(X * Y, (X, 0, M)).free_symbols == {Y, M}
    assert sympy.Derivative(X * Y, X).free_symbols == {X, Y}
    assert sympy.Sum(K, (K, 1, sympy.Sum(X, (X, 1, N)))).free_symbols == {N}
