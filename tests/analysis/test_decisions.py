"""A one-armed IF is a GOTO loop's two-way decision when its arm's flow out equals its probability P
(sad.analysis.branches.record_decision): the equality test against sympy's answer, and large differences
decided at a sample point instead of by sympy.simplify (which took minutes on a fuzzed routine's IF whose arm
returns from inside loops under exact tests)."""
from __future__ import annotations

import random

import pytest
import sympy

from sad.analysis import branches
from sad.analysis.branches import _equal, _nonzero_somewhere

P, Q = sympy.Symbol("P_F_IF1"), sympy.Symbol("P_F_IF2")
X, Y = sympy.Symbol("X_F_DO1", nonnegative=True), sympy.Symbol("X_F_DO2", nonnegative=True)
M, K = sympy.Symbol("F.M", integer=True), sympy.Symbol("F.K", integer=True)
GE9, GT1 = (sympy.Piecewise((1, M >= 9), (0, True)), sympy.Piecewise((1, K > 1), (0, True)))


@pytest.mark.parametrize("a, b, equal", [
    (P, P, True),
    (P * X / (1 + X) + P / (1 + X), P, True),                      # a rational function equal to P
    ((1 - P) * (1 + X) - X + P * X, 1 - P, True),                # a polynomial, expanded
    (P * (GE9 + 1 - GE9), P, True),                               # indicators that cancel
    (P * (1 - GE9 * GT1), P, False),                              # an arm that returns under M >= 9, K > 1
    (P * X / (1 + X), P, False),
    (P * Q, P, False),
    (GE9 * GE9, GE9, True),                                       # an indicator is its own square
])
def test_equal_is_sympys_answer(a, b, equal):
    assert _equal(a, b) is equal
    assert (sympy.simplify(a - b) == 0) is equal


def test_large_differences_are_decided_without_simplify(monkeypatch):
    """The fuzzed routine's candidate: P times a sum of products of P, X and indicators on the arguments,
    against P. A sample point shows they differ; simplify is not called."""
    rng = random.Random(5)
    factors = [P, Q, X, Y, GE9, GT1, 1 - P, 1 - GE9]
    arm = sympy.Add(*[sympy.Mul(*rng.sample(factors, 4)) for _ in range(40)])
    monkeypatch.setattr(branches.sympy, "simplify", lambda e: pytest.fail(f"simplify called on {e}"))
    assert _nonzero_somewhere(P * arm - P)
    assert _equal(P * arm, P) is False


def test_sample_points_respect_the_symbols_assumptions():
    """An expression that is zero for every integer M but not for M = 1/7 must not be called non-zero."""
    n = sympy.Symbol("F.N", integer=True, nonnegative=True)
    assert not _nonzero_somewhere(sympy.floor(n) - n)
    assert not _nonzero_somewhere(sympy.Piecewise((1, n >= 0), (0, True)) - 1)
    neg = sympy.Symbol("F.D", negative=True)
    assert not _nonzero_somewhere(sympy.Piecewise((1, neg < 0), (0, True)) - 1)
    assert not _nonzero_somewhere(1 / (X - X))                    # undefined at any point: proves nothing


def test_a_logical_arguments_test_is_sampled_true_and_false():
    """`IF (IGNORE) GOTO 20` on a LOGICAL argument: its indicator's condition is the argument's symbol, which
    a sample point sets true or false, not to a number (that raised TypeError in sympy's Piecewise, an
    internal error on LAPACK's DLA_GERFSX_EXTENDED). P·[IGNORE] differs from P where IGNORE is false."""
    ignore = sympy.Symbol("ITER.IGNORE")
    flag = sympy.Piecewise((1, ignore), (0, True))
    assert _nonzero_somewhere(P * flag - P)
    assert _equal(P * flag, P) is False
    assert _equal(P * flag + P * (1 - flag), P) is True


def test_a_large_difference_not_shown_to_differ_is_no_decision(monkeypatch):
    """Zero at every sample point, not a polynomial, and large: not simplified (minutes on a fuzzed routine),
    taken as unequal, so the IF is no loop's decision (its loop is solved without a named count)."""
    zero = X / (1 + X) + 1 / (1 + X) - 1
    guards = sympy.Mul(*[1 - sympy.Piecewise((1, sympy.Eq(M, k)), (0, True)) for k in range(16)])
    assert sympy.count_ops(zero * guards) > branches._SIMPLIFY_OPS
    monkeypatch.setattr(branches.sympy, "simplify", lambda e: pytest.fail("simplify called"))
    assert not _nonzero_somewhere(zero * guards)
    assert _equal(P + zero * guards, P) is False
