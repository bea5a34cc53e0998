"""Pieces of one value are joined by an Or with the disjuncts the others imply left out
(sad.analysis.piecewisejoin): the same Boolean function as sympy's conjunctive normal form, in fewer nodes
than either that form or the Or as built."""
from __future__ import annotations

import itertools

import sympy
import sympy.functions.elementary.piecewise as sympy_piecewise
from sympy import Eq, Gt, Le, Lt, Max, Piecewise, piecewise_fold
from sympy.logic.boolalg import distribute_and_over_or

import sad.analysis.counting  # noqa: F401  (installs the join, as every build does)
from sad.analysis import piecewisejoin, piecewisememo
from sad.analysis.products import tree_size

m, n, k, lda = sympy.symbols("m n k lda", integer=True)


def _indicator(cond):
    return Piecewise((1, cond), (0, True))


def _count():
    """The shape of DGEQR2's count of DLARF's work under its loop: two tests that skip (1 - indicator)
    and two that must hold, on the loop's index k and the formals."""
    return ((1 - _indicator(Eq(m, k) | Le(m - k, 1))) * _indicator(Gt(n, k + 1))
            * (1 - _indicator(Lt(m, k) | Lt(lda, Max(1, m - k)))) * _indicator(Gt(m, k)))


def _folded_with(join):
    """The count folded with sympy's own Piecewise construction, its same-valued pieces joined by `join`."""
    sympy_piecewise.distribute_and_over_or = join
    sympy.Piecewise.__new__ = staticmethod(piecewisememo._new)
    try:
        return piecewise_fold(_count())
    finally:
        piecewisememo.install()
        piecewisejoin.install()


def test_a_disjunct_the_others_imply_is_left_out():
    a, b, c, d = (Lt(s, 0) for s in (m, n, k, lda))
    assert piecewisejoin.absorbed(a | (b & a)) == a  # one of its conjuncts is another disjunct
    assert piecewisejoin.absorbed((b & a) | (b & a & c)) == b & a  # another's conjuncts are a subset
    assert piecewisejoin.absorbed(a | b | (c & (a | b))) == a | b  # a conjunct is an Or of others
    assert piecewisejoin.absorbed(a | (b & c) | (c & d)) == a | (b & c) | (c & d)  # none implied
    assert piecewisejoin.absorbed(a & (b | c)) == a & (b | c)  # not an Or: as it is


def test_the_join_is_sympys_function_in_fewer_nodes():
    ours = piecewise_fold(_count())
    as_built = _folded_with(lambda cond: cond)
    cnf = _folded_with(distribute_and_over_or)
    assert (tree_size([ours]), tree_size([as_built]), tree_size([cnf])) == (40, 266, 126)
    assert str(ours.args[0].cond) == "Eq(k, m) | (k > m) | (k - m >= -1) | (lda < Max(1, -k + m))"  # canonical
    points = 0
    for values in itertools.product(range(-2, 5), repeat=4):
        at = dict(zip((m, n, k, lda), values))
        expected = int(values[0] - values[2] > 1 and values[1] > values[2] + 1
                       and values[3] >= max(1, values[0] - values[2]))
        assert ours.xreplace(at) == as_built.xreplace(at) == cnf.xreplace(at) == expected
        points += expected
    assert points > 0
