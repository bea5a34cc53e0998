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
    # two tests: each operand its own if-then-else (tests/analysis/test_blocksize.py), true where sympy's is
    mixed = sympy.And(nq < k, sympy.Piecewise((m, k > 2), (nh, True)) > 1)
    assert not _fold(mixed).has(sympy.Piecewise)
    for values in ({side: 76, m: 2, nh: 0, k: 3}, {side: 0, m: 2, nh: 0, k: 3}, {side: 76, m: 0, nh: 2, k: 1}):
        assert _fold(mixed).subs(values) == _sympys(mixed).subs(values)


def _body(terms: int, test: sympy.Basic) -> sympy.Expr:
    """A loop body of `terms` counts c_j·(j + [test]·N): each term's indicator folds to its own choice."""
    return sympy.Add(*[sympy.Symbol(f"c{j}") * (j + N * sympy.Piecewise((1, test), (0, True)))
                       for j in range(terms)])


def test_terms_under_one_test_fold_as_sympy_does():
    """Four terms, each a product holding the same indicator (sympy's 2**4 combinations collapse to two):
    the same choice as sympy's, tree for tree."""
    from sad.analysis.sumfold import _fold
    body = _body(4, K >= N)
    assert _fold(body) == _sympys(body)
    assert _fold(body).args[0].cond == sympy.Le(N, K)


def test_many_terms_under_one_test_fold_to_two_pieces():
    """DTPQRT's blocked loop over DTPRFB: 40 terms under `I >= L` (2**40 combinations for sympy's product).
    Joined piece by piece: Σ c_j·(j + N) where the test holds, Σ c_j·j elsewhere."""
    from sad.analysis.sumfold import _fold
    folded = _fold(_body(40, K >= N))
    c = [sympy.Symbol(f"c{j}") for j in range(40)]
    assert folded == sympy.Piecewise((sum(cj * (j + N) for j, cj in enumerate(c)), K >= N),
                                     (sum(cj * j for j, cj in enumerate(c)), True))


def test_terms_under_two_tests_fold_as_sympy_does():
    """Terms under two different tests, interleaved: the joined choices combine in sympy's order."""
    from sad.analysis.sumfold import _fold
    a, b = _body(3, K >= N), _body(2, K < 3).subs({sympy.Symbol(f"c{j}"): sympy.Symbol(f"d{j}") for j in range(2)})
    body = a + b + 5 * sympy.Piecewise((K, K >= N), (1, True))
    assert _fold(body) == _sympys(body)
    assert len(_fold(body).args) == 4  # both tests, the first alone, the second alone, neither


def test_terms_with_three_pieces_fold_to_the_same_values():
    """Two terms with a choice of three pieces on the same tests, beside a choice on other tests: sympy's
    product also keeps a combination no value reaches (`Eq(M, 0) & (N <= K) & (N < K + M)`, after
    `Eq(M, 0) & (N <= K)` and with the first term's second piece); the joined fold leaves it out, with the
    same value everywhere."""
    from sad.analysis.sumfold import _fold
    m = sympy.Symbol("M", integer=True)
    three = sympy.Piecewise((5, sympy.Eq(m, 0)), (N - K, K + m > N), (m, True))
    other = sympy.Piecewise((K, N <= K), (1, sympy.Eq(m, 0)), (m, True))
    body = N * three + 2 * (m + 1) * three + (m + 1) * other
    folded, sympys = _fold(body), _sympys(body)
    assert len(folded.args) == 6 < len(sympys.args) == 7
    for point in [{K: k, N: n, m: v} for k in range(-2, 4) for n in range(-2, 4) for v in range(-1, 2)]:
        assert folded.subs(point) == sympys.subs(point) == body.subs(point)
