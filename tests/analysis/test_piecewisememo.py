"""A Piecewise whose pieces were seen before is the one built then (sad.analysis.piecewisememo), it is the
tree sympy's own construction gives, and a sum's index is substituted into one as sympy's subs does."""
from __future__ import annotations

import pytest
import sympy
from sympy.functions.elementary.piecewise import ExprCondPair

import sad.analysis.counting  # noqa: F401  (installs the memo, as every build does)
from sad.analysis import piecewisememo
from sad.analysis.counting import _replace


def test_a_piecewise_is_built_once():
    n, j = sympy.symbols("n j", integer=True)
    pieces = ((1, sympy.Le(j, n - 1)), (0, True))
    first = sympy.Piecewise(*pieces)
    before = piecewisememo._built.cache_info()
    again = sympy.Piecewise(*pieces)
    after = piecewisememo._built.cache_info()
    assert again is first
    assert after.hits == before.hits + 1 and after.misses == before.misses


def _cases():
    n, m, k = sympy.symbols("n m k", integer=True, positive=True)
    return [((1, sympy.Lt(n, 3)), (0, True)),  # kept
            ((n, sympy.Gt(n + 1, n)), (m, True)),  # a condition that holds: its value alone
            ((n, False), (m, sympy.Ge(m, k)), (k, sympy.Ge(m, k)), (0, True)),  # False and a repeat dropped
            ((1, sympy.Eq(sympy.Mod(k, 4), 0)), (2, sympy.Lt(-k, -2)), (0, True))]  # canonical relations


def test_the_build_is_sympys_own():
    cases = _cases()
    ours = [sympy.srepr(sympy.Piecewise(*pieces)) for pieces in cases]
    sympy.Piecewise.__new__ = staticmethod(piecewisememo._new)
    try:
        theirs = [sympy.srepr(sympy.Piecewise(*pieces)) for pieces in cases]
    finally:
        piecewisememo.install()
    assert ours == theirs
    assert ours[1] == "Symbol('n', integer=True, positive=True)"
    assert ours[3].count("ExprCondPair") == 3 and "StrictGreaterThan" in ours[3]


def test_an_index_is_substituted_as_subs_does():
    n, i = sympy.symbols("n i", integer=True)
    k = sympy.Symbol("k", integer=True, nonnegative=True)
    f = (sympy.Piecewise((1, sympy.Le(k, n)), (0, True)) * sympy.Max(0, n - k)
         + sympy.Piecewise((k, sympy.Eq(sympy.Mod(k, 2), 0) & sympy.Gt(n, 0)), (1 / k, sympy.Ne(k, 0)), (0, True)))
    for value in (i + 2 * k, sympy.Integer(0), sympy.Integer(3), n + 1):
        assert _replace(f, k, value) == f.subs(k, value)
    # every condition false: sympy's subs gives Undefined, as the walk does
    g = sympy.Piecewise((k, sympy.Lt(k, 0)), (1, sympy.Gt(k, 5)))
    assert _replace(g, k, sympy.Integer(2)) is sympy.nan is g.subs(k, 2)


def test_a_piece_whose_condition_holds_a_choice_is_built_once_as_sympy_builds_it():
    """A condition on a value that is itself a Piecewise (a bisection's interval end) is folded and rewritten
    by sympy each time a piece is built: remembered, and the same tree as sympy's own."""
    n, m = sympy.symbols("n m", integer=True)
    end = sympy.Piecewise((n, sympy.Gt(n, 2 * m)), (2 * m, True))
    pieces = [((n + 1, sympy.Lt(end, m + 3)), (m, True)), ((end, sympy.Ge(end, 4) & sympy.Lt(n, m)), (0, True))]
    ours = [sympy.srepr(sympy.Piecewise(*p)) for p in pieces]
    before = piecewisememo._built_pair.cache_info()
    again = ExprCondPair(n + 1, sympy.Lt(end, m + 3))
    assert piecewisememo._built_pair.cache_info().hits == before.hits + 1
    assert again is ExprCondPair(n + 1, sympy.Lt(end, m + 3))
    sympy.Piecewise.__new__ = staticmethod(piecewisememo._new)
    ExprCondPair.__new__ = staticmethod(piecewisememo._new_pair)
    try:
        theirs = [sympy.srepr(sympy.Piecewise(*p)) for p in pieces]
    finally:
        piecewisememo.install()
    assert ours == theirs
    assert str(again) == "(n + 1, ITE(n > 2*m, n < m + 3, 2*m < m + 3))"  # the condition folded, as sympy does


def test_a_conditions_set_is_sympys_and_asked_once():
    """Boolean.as_set through the memo: the same set as sympy's own, the second time from the memo; a condition
    sympy cannot turn into a set raises NotImplementedError every time, as sympy's does."""
    x, y = sympy.symbols("x y", real=True)
    cond = sympy.Lt(x, 3) & sympy.Ge(x, -1)
    ours = cond.as_set()
    before = piecewisememo._set_of.cache_info()
    assert cond.as_set() is ours
    assert piecewisememo._set_of.cache_info().hits == before.hits + 1
    assert ours == piecewisememo._as_set(cond) == sympy.Interval.Ropen(-1, 3)
    two = sympy.Lt(x, y)   # two symbols: sympy has no set for it
    for _ in range(2):
        with pytest.raises(NotImplementedError):
            two.as_set()
