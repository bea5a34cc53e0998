"""sympy's comparisons of two sides answered once per pair (sad.analysis.relationmemo): sympy's answers."""
import importlib

import sympy
from sympy import Q

from sad.analysis import (
    counting,  # noqa: F401  (installs the memos)
    relationmemo,
)

relational = importlib.import_module("sympy.core.relational")


def test_relations_take_their_comparisons_through_the_memo():
    assert relational.is_ge is relationmemo.is_ge
    assert relational.is_eq is relationmemo.is_eq


def test_the_answers_are_sympys():
    n = sympy.Symbol("n", integer=True, nonnegative=True)
    m = sympy.Symbol("m", integer=True, positive=True)
    x = sympy.Symbol("x")
    pairs = [(n, sympy.S.Zero), (sympy.S.Zero, m), (n + m, n), (x, sympy.S.One), (m - 1, sympy.S.Zero),
             (2 * n, n), (m, sympy.S.One)]
    for lhs, rhs in pairs:
        for _ in range(2):   # asked again: from the memo
            assert relationmemo.is_ge(lhs, rhs) is relationmemo._is_ge(lhs, rhs)
            assert relationmemo.is_eq(lhs, rhs) is relationmemo._is_eq(lhs, rhs)
    assert [relationmemo.is_ge(lhs, rhs) for lhs, rhs in pairs] == [True, False, True, None, True, True, True]
    assert sympy.Ge(n + m, n) is sympy.true and isinstance(sympy.Ge(x, 1), sympy.GreaterThan)


def test_a_comparison_under_assumptions_goes_to_sympy():
    x = sympy.Symbol("x")
    assert relationmemo.is_ge(x, sympy.S.Zero) is None
    assert relationmemo.is_ge(x, sympy.S.Zero, Q.positive(x)) is True
