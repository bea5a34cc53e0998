"""Folding a Piecewise whose condition holds a Piecewise (an ITE, from a callee's generic-data test in a loop
bound) simplifies that condition once per process (sad.analysis.foldmemo), and the fold is the tree sympy's
own gives."""
from __future__ import annotations

import sympy

import sad.analysis.counting  # noqa: F401  (installs the memo, as every build does)
from sad.analysis import foldmemo, summemo


def _summand():
    x, k, n = sympy.symbols("x k n", integer=True)
    inner = sympy.Piecewise((1, x + k < 0), (0, True))
    return sympy.Piecewise((k, inner + n > 0), (0, True)) * x, (k, 0, n - 1)


def test_a_condition_is_simplified_once():
    summand, limits = _summand()
    first = sympy.Sum(summand, limits)
    summemo._normalized.cache_clear()  # the Sum's own memo forgotten: the second build folds again
    before = foldmemo.simplify_logic.cache_info()
    again = sympy.Sum(summand, limits)
    after = foldmemo.simplify_logic.cache_info()
    assert again == first
    assert after.hits == before.hits + 1 and after.misses == before.misses


def test_the_fold_is_sympys_own():
    summand, limits = _summand()
    ours = sympy.Sum(summand, limits)
    foldmemo._piecewise.simplify_logic = foldmemo._simplify_logic
    summemo._normalized.cache_clear()
    try:
        theirs = sympy.Sum(summand, limits)
    finally:
        foldmemo.install()
    assert sympy.srepr(ours) == sympy.srepr(theirs)
    assert str(ours.function) == "Piecewise((k*x, ((n > -1) | (k >= -x)) & ((n > 0) | (k < -x))), (0, True))"


def test_a_large_relation_is_its_difference_with_zero_even_at_the_size_limit():
    # sides over the limit whose difference has exactly _SIMPLIFY_NODES nodes: the relation of that
    # difference with 0 is a node or two over the limit, and was sent back to be made smaller, forever
    difference = sympy.Add(*sympy.symbols(f"a0:{foldmemo._SIMPLIFY_NODES - 1}", integer=True))
    assert len(list(sympy.preorder_traversal(difference))) == foldmemo._SIMPLIFY_NODES
    big = sympy.Max(*sympy.symbols("n0:30", integer=True))
    simplified = foldmemo._remembered_simplify(sympy.Gt(big + difference, big))
    assert simplified == sympy.simplify(sympy.Gt(difference, 0))


def test_a_relation_sympy_cannot_simplify_is_kept_as_it_is():
    """DGEMLQT's backward blocked loop `DO I = KF, 1, -MB`, KF = ((K - 1)/MB)*MB + 1, passes IB = MIN(MB,
    K - I + 1) to DLARFB: its trips' sign test over the resummed index k. sympy.simplify tests the sides'
    difference by putting 0 for every symbol, where floor((K - 1)/MB) is nan and Min raises "not
    comparable"; the whole sum failed and the loop's trips became a named count (155 unbound lines in a
    DGELQT + DGEMLQT driver). The relation comes back unsimplified, and a fold over it works."""
    k_, mb, k = sympy.symbols("K MB k", integer=True)
    relation = sympy.Min(mb, k_ + mb * k - mb * sympy.floor((k_ - 1) / mb)) >= 0
    assert foldmemo._remembered_simplify(relation) == relation
    x = sympy.Symbol("x", integer=True)
    assert foldmemo.simplify_logic(sympy.And(relation, x > 0)) == sympy.And(relation, x > 0)


def _rows(places: int, chosen: list[int]) -> list[list[int]]:
    return [[int(bit) for bit in format(row, f"0{places}b")] for row in chosen]


def test_the_rows_are_paired_as_sympy_pairs_them():
    """The same merged rows in the same order as sympy's quadratic pairing, on truth tables of 1 to 9
    variables (rows in table order and shuffled, as the merged rows come back; sympy's own takes seconds on
    the larger ones) and on a hand-worked one:
    rows 000, 001, 011, 111 merge into 00-, 0-1, -11, and those into nothing more."""
    import random
    rng = random.Random(29)
    for _ in range(200):
        places = rng.randint(1, 9)
        rows = _rows(places, rng.sample(range(2 ** places), rng.randint(0, min(2 ** places, 160))))
        if rng.random() < 0.5:
            rng.shuffle(rows)
        assert foldmemo.paired_terms([r[:] for r in rows]) == foldmemo._sympy_pairs([r[:] for r in rows])
    assert foldmemo.paired_terms(_rows(3, [0, 1, 3, 7])) == [[0, 0, 3], [0, 3, 1], [3, 1, 1]]


def test_a_condition_of_many_tests_simplifies_as_sympy_simplifies_it():
    """An ITE over seven tests (the form of CGEMLQT's blocked-loop conditions) gives sympy's own CNF: five
    clauses, the same function as the ITE. By hand its CNF has the clauses (~A | B), (~A | C), (~A | E),
    (A | ~B | F | ~C) and one of (A | ~B | F | G), (~B | F | C | G) (which one follows the order sympy puts
    the tests in, its Dummy symbols' creation order) for ITE(A, B & C & E, F | (G & ~C) | ~B)."""
    a, b, c, d, e, f, g = sympy.symbols("a:g", integer=True)
    condition = sympy.ITE(a > 0, (b > 0) & (c < d) & (e >= 1), (f > 0) | ((g < 0) & (c >= d)) | (b <= 0))
    nnf = condition.to_nnf()
    foldmemo.simplify_logic.cache_clear()
    ours = foldmemo.simplify_logic(nnf, form="cnf")
    theirs = foldmemo._simplify_logic(nnf, form="cnf")
    assert foldmemo._boolalg._simplified_pairs is foldmemo._sympy_pairs  # put back after the call
    # the same clauses but the one that follows the Dummy symbols' order, which what ran before in the
    # process sets (sympy's cache: whether a relation was simplified earlier, by which path)
    either = {sympy.Or(a > 0, b <= 0, f > 0, g < 0), sympy.Or(b <= 0, f > 0, c < d, g < 0)}
    for cnf in (ours, theirs):
        assert isinstance(cnf, sympy.And) and len(cnf.args) == 5
        assert len(set(cnf.args) & either) == 1
    assert set(ours.args) - either == set(theirs.args) - either == {
        sympy.Or(a <= 0, b > 0), sympy.Or(a <= 0, c < d), sympy.Or(a <= 0, e >= 1),
        sympy.Or(a > 0, b <= 0, f > 0, c >= d)}


def test_a_difference_nonzero_at_a_point_of_its_domain_is_not_zero():
    """CGEMLQT's checks of its callees' arguments: `Max(1, M) < Max(1, N)` and the like, whose difference
    sympy's equals(0) takes 0.1-0.3 s to find is not 0. At M = 7, N = 11 it is -10: not identically 0."""
    m, n = sympy.symbols("M N", integer=True)
    assert foldmemo._nonzero_somewhere(sympy.Max(1, m) - sympy.Max(1, n))
    assert foldmemo._decided_equals(sympy.Max(1, m) - sympy.Max(1, n), 0) is False
    # 0 at the point: sympy's own answer (Max(M, 1) - Max(1, M) is 0 as built)
    assert not foldmemo._nonzero_somewhere(sympy.Min(m, n) + sympy.Max(m, n) - m - n)
    # a domain the point is not in: x negative, where Abs(x) + x is 0 everywhere although 14 at x = 7
    x = sympy.Symbol("x", negative=True)
    assert not foldmemo._nonzero_somewhere(sympy.Abs(x - 1) + x - 1 + x)
    y = sympy.Symbol("y", nonpositive=True)
    assert not foldmemo._nonzero_somewhere(sympy.Abs(y) + y)
    assert foldmemo._decided_equals(sympy.Abs(y) + y, 0) is True
    # a point where the difference cannot be worked out (DGELQ's blocks: a Mod by K - 7 at K = 7) decides
    # nothing; the ZeroDivisionError it raised there stopped DGELQ's analysis with an internal error
    k, mb = sympy.symbols("K MB", integer=True)
    assert not foldmemo._nonzero_somewhere(sympy.Mod(mb, k - 7) + 1)
    assert foldmemo._decided_equals(sympy.Mod(mb, k - 7) + 1, 0) is False


def test_relations_simplify_as_sympy_simplifies_them():
    m, n, mb, k_, k, ldc = sympy.symbols("M N MB K k LDC", integer=True)
    relations = [sympy.Max(1, m) < sympy.Max(1, n), sympy.Min(mb, k_ - mb * k) < 0,
                 ldc < sympy.Max(1, m - mb * k - sympy.Min(mb, k_ - mb * k)),
                 m + 2 > m - 1, sympy.Max(1, m) >= sympy.Max(1, m), 2 * m > 4]
    for relation in relations:
        assert foldmemo._simplified(relation, ()) == sympy.simplify(relation)
