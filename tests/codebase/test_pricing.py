"""A routine's time formula built by sad.codebase.routines: count × seconds without Mul.flatten where that
gives the same tree, compared with sympy's own product."""
from __future__ import annotations

import random

import sympy

from sad.codebase.routines import _plain, _times

N = sympy.Symbol("N", integer=True)
M = sympy.Symbol("M", integer=True)
X = sympy.Symbol("X_L10", nonnegative=True)
P = sympy.Symbol("P_IF2", nonnegative=True)


def _factors():
    branch = sympy.Piecewise((1, N <= 0), (0, True))
    return [N, M, X, P, sympy.Max(0, N, evaluate=False), sympy.Min(32, N - M + 1), branch, 1 - branch,
            1 - P, sympy.Mod(N, 4), sympy.floor(N / 4), sympy.ceiling(M / 3), sympy.Sum(sympy.floor(N / 4), (M, 0, N)),
            N ** 2, sympy.sqrt(2), N - M, sympy.Rational(3, 2), sympy.Integer(-2), sympy.I * N]


def test_times_is_sympys_product_tree_for_tree():
    rng = random.Random(5)
    seconds = [sympy.Float(1.2e-6), sympy.Float(-3.0e-7), sympy.Float(1.0), sympy.Float("0.1", 30),
               sympy.Float(0.0), sympy.Float("inf"), sympy.Integer(2), sympy.Symbol("C_FOO") * sympy.Float(1e-6)]
    factors = _factors()
    direct = 0
    for _ in range(400):
        count = sympy.Mul(*rng.sample(factors, rng.randint(1, 4)))
        if rng.random() < 0.2:  # a product left in the order it was written: flatten would sort it
            count = sympy.Mul(*rng.sample(factors[:8], 3), evaluate=False)
        each = rng.choice(seconds)
        mine = _times(count, each)
        assert sympy.srepr(mine) == sympy.srepr(count * each), (count, each)
        direct += bool(each.is_Float and each.is_finite and not each.is_zero and not count.is_Add
                       and all(_plain(f) for f in sympy.Mul.make_args(count)))
    assert direct > 60  # the direct construction was exercised


def test_times_leaves_what_flatten_changes_to_sympy():
    f = sympy.Float(2.5e-7)
    for count in (1 - P, N ** 2 * M, sympy.Rational(3, 2) * N, sympy.Integer(4), sympy.sqrt(2) * N):
        assert _times(count, f) == count * f
    assert _times(1 - P, f) == f - f * P                                # a sum alone: distributed
    assert _times(sympy.Mul(M, N, evaluate=False), f).args == (f, M, N)  # sorted as flatten sorts
