"""Folding a Piecewise out of a sum keeps the sum's own index bound (sad.analysis.sumfold): sympy's fold, as
Sum builds its summand, pulled `k1 > k` out of the inner sum over k1, leaving k1 free (DTRMV's counts under
DTRTI2 under DTRTRI)."""
from __future__ import annotations

import sympy

from sad.analysis import counting  # noqa: F401  (installs the fold)
from sad.analysis.counting import evaluate_sums

K = sympy.Symbol("k", integer=True, nonnegative=True)
K1 = sympy.Symbol("k1", integer=True, nonnegative=True)
N = sympy.Symbol("N", integer=True, positive=True)


def test_a_sum_of_a_sum_with_a_test_on_both_indices_keeps_its_inner_index_bound():
    """Σ_k (k · Σ_k1 3·[k < k1] + [N > 2]) over k, k1 = 0 ... N: at N = 5, 3·Σ_k k(5 - k) + 6 = 66."""
    inner = sympy.Sum(sympy.Piecewise((3, K < K1), (0, True)), (K1, 0, N))
    total = sympy.Sum(K * inner + sympy.Piecewise((1, N > 2), (0, True)), (K, 0, N))
    assert total.free_symbols == {N}
    assert evaluate_sums(total.subs(N, 5)) == 66


def test_a_test_free_of_the_inner_index_still_folds():
    """[N > 2] inside the inner sum does not depend on k1: folded out as sympy does."""
    inner = sympy.Sum(K1 * sympy.Piecewise((1, N > 2), (0, True)), (K1, 0, N))
    total = sympy.Sum(K + inner, (K, 0, N))
    assert total.free_symbols == {N}
    assert evaluate_sums(total.subs(N, 3)) == 4 * 3 // 2 + 4 * 6


def _sympys(expr):
    """sympy's own fold over the product of pieces (its recursion through the installed fold too)."""
    from sad.analysis import sumfold
    return sumfold._sympy_fold(expr)


def test_a_conjunction_of_choices_on_one_test_folds_as_sympy_does_without_the_product():
    """SORMQR's NQ bound in SORMHR to `NH if LEFT else M`: a test that is a conjunction of clauses, each
    holding the choice, folds to the two choices' tests (sympy's 2**clauses combinations collapse to them)."""
    from sad.analysis.sumfold import _fold
    side, m, nh, k = (sympy.Symbol(s, integer=True) for s in ("SIDE", "M", "NH", "K"))
    left = sympy.Eq(side, 76) | sympy.Eq(side, 108)
    nq = sympy.Piecewise((nh, left), (m, True))
    ni = sympy.Piecewise((m + 1, left), (nh - 1, True))
    clauses = [sympy.Or(sympy.Ne(side, 76 + j), nq < k + j) for j in range(6)] + [sympy.Or(ni > k, sympy.Eq(m, 3))]
    test = sympy.And(*clauses, evaluate=False)
    assert _fold(test) == _sympys(test)
    assert _fold(test).args[0].cond == left
    mixed = sympy.And(nq < k, sympy.Piecewise((m, k > 2), (nh, True)) > 1)  # two tests: sympy's product
    assert _fold(mixed) == _sympys(mixed)
