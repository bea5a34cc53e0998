"""A Piecewise whose pieces were seen before is the one built then (sad.analysis.piecewisememo), it is the
tree sympy's own construction gives, and a sum's index is substituted into one as sympy's subs does."""
from __future__ import annotations

import sympy

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
