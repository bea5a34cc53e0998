"""products.times: a block's count × its seconds, the tree sympy builds: 0 for a block that costs nothing,
without sympy's question whether the count is infinite (nan where sympy says nan); a Float times a product of
plain factors without Mul.flatten where that gives the same tree (an integer too: an operation's count per
block). Compared with sympy's own product."""
from __future__ import annotations

import random

import sympy

from sad.analysis.products import _plain, times

N, P = sympy.symbols("N P_X_IF1")
COUNT = P * (1 - sympy.Piecewise((1, sympy.Min(40, sympy.floor(N ** sympy.Rational(1, 3))) >= 3), (0, True))) \
    * sympy.Max(0, N - 1) - P * sympy.Max(0, N - 4)


def test_a_block_that_costs_nothing_is_zero() -> None:
    assert times(COUNT, sympy.S.Zero) is sympy.S.Zero
    assert COUNT * sympy.S.Zero is sympy.S.Zero                      # what sympy says, slowly


def test_other_products_are_sympys() -> None:
    seconds = sympy.Float("1.75e-7", 15)
    assert times(COUNT, seconds) == COUNT * seconds
    assert times(sympy.Integer(12), seconds) == sympy.Float("2.1e-6", 15)
    assert times(COUNT, sympy.Float(0.0)) == COUNT * sympy.Float(0.0)


def test_an_infinite_count_times_zero_is_nan_as_in_sympy() -> None:
    infinite = N + sympy.oo
    assert times(infinite, sympy.S.Zero) is sympy.S.NaN is infinite * sympy.S.Zero


NI = sympy.Symbol("N", integer=True)
M = sympy.Symbol("M", integer=True)
X = sympy.Symbol("X_L10", nonnegative=True)
PI = sympy.Symbol("P_IF2", nonnegative=True)


def _factors():
    branch = sympy.Piecewise((1, NI <= 0), (0, True))
    return [NI, M, X, PI, sympy.Max(0, NI, evaluate=False), sympy.Min(32, NI - M + 1), branch, 1 - branch,
            1 - PI, sympy.Mod(NI, 4), sympy.floor(NI / 4), sympy.ceiling(M / 3),
            sympy.Sum(sympy.floor(NI / 4), (M, 0, NI)),
            NI ** 2, sympy.sqrt(2), NI - M, sympy.Rational(3, 2), sympy.Integer(-2), sympy.I * NI,
            sympy.Max(0, NI + 2) ** 2, (NI + 1) ** -1, sympy.sqrt(M), sympy.Rational(1, 2), sympy.Rational(-1, 6),
            sympy.Integer(-1), 2 ** NI, NI ** M]


def test_float_times_is_sympys_product_tree_for_tree():
    rng = random.Random(5)
    seconds = [sympy.Float(1.2e-6), sympy.Float(-3.0e-7), sympy.Float(1.0), sympy.Float("0.1", 30),
               sympy.Float(0.0), sympy.Float("inf"), sympy.Integer(2), sympy.Integer(1), sympy.Integer(3),
               sympy.Integer(-1), sympy.Symbol("C_FOO") * sympy.Float(1e-6)]
    factors = _factors()
    direct = 0
    for _ in range(2000):
        count = sympy.Mul(*rng.sample(factors, rng.randint(1, 4)))
        if rng.random() < 0.2:  # a product left in the order it was written: flatten would sort it
            count = sympy.Mul(*rng.sample(factors[:8], 3), evaluate=False)
        elif rng.random() < 0.05:  # two factors of one base, left apart: flatten would combine them
            count = sympy.Mul(NI, NI ** 2, evaluate=False)
        each = rng.choice(seconds)
        mine = times(count, each)
        assert sympy.srepr(mine) == sympy.srepr(count * each), (count, each)
        direct += bool((each.is_Float and each.is_finite and not each.is_zero or each.is_Integer and each != 1)
                       and not count.is_Add
                       and all(_plain(f) for f in sympy.Mul.make_args(count)))
    assert direct > 400  # the direct construction was exercised


def test_float_times_leaves_what_flatten_changes_to_sympy():
    f = sympy.Float(2.5e-7)
    for count in (1 - PI, NI ** 2 * M, sympy.Rational(3, 2) * NI, sympy.Integer(4), sympy.sqrt(2) * NI):
        assert times(count, f) == count * f
    assert times(1 - PI, f) == f - f * PI                                # a sum alone: distributed
    assert times(sympy.Mul(M, NI, evaluate=False), f).args == (f, M, NI)  # sorted as flatten sorts


def test_float_times_a_sum_is_sympys_distributed_sum():
    rng = random.Random(8)
    factors = _factors()
    seconds = [sympy.Float(1.75e-7), sympy.Float(-2.5e-6), sympy.Float("0.1", 30), sympy.Integer(3)]
    for _ in range(300):
        terms = [sympy.Mul(*rng.sample(factors, rng.randint(1, 3))) for _ in range(rng.randint(2, 5))]
        count = sympy.Add(*terms, rng.choice([0, 1, -3, sympy.Rational(1, 2)]))
        each = rng.choice(seconds)
        assert sympy.srepr(times(count, each)) == sympy.srepr(count * each), (count, each)
