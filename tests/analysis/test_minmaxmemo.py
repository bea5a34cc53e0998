"""A Max or Min whose arguments were seen before is the one built then (sad.analysis.minmaxmemo), and it is
the tree sympy's own construction gives."""
from __future__ import annotations

import sympy

import sad.analysis.counting  # noqa: F401  (installs the memo, as every build does)
from sad.analysis import minmaxmemo


def _arguments():
    n, j = sympy.symbols("n j", integer=True)
    # a strip's width and an inner trip count: sympy compares the pair for a redundant argument
    return (sympy.Integer(32), n - j + 1), (sympy.Integer(0), n - j)


def test_a_max_is_built_once():
    (strip, rest), (zero, trips) = _arguments()
    first = sympy.Min(strip, rest), sympy.Max(zero, trips)
    before = minmaxmemo._built.cache_info()
    again = sympy.Min(strip, rest), sympy.Max(zero, trips)
    after = minmaxmemo._built.cache_info()
    assert again == first
    assert after.hits == before.hits + 2 and after.misses == before.misses


def test_the_build_is_sympys_own():
    n, m = sympy.symbols("n m", integer=True, positive=True)
    cases = [(sympy.Max, (0, n - 1)), (sympy.Max, (n, n + 1)), (sympy.Min, (n, m, n + m)),
             (sympy.Max, (sympy.Integer(0), sympy.Min(n, m), n)), (sympy.Min, (sympy.Integer(3),))]
    ours = [sympy.srepr(cls(*args)) for cls, args in cases]
    sympy.functions.elementary.miscellaneous.MinMaxBase.__new__ = staticmethod(minmaxmemo._new)
    try:
        theirs = [sympy.srepr(cls(*args)) for cls, args in cases]
    finally:
        minmaxmemo.install()
    assert ours == theirs
    assert ours[1] == "Add(Symbol('n', integer=True, positive=True), Integer(1))"
    assert ours[2] == "Min(Symbol('m', integer=True, positive=True), Symbol('n', integer=True, positive=True))"
