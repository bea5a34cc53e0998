"""values._relation: a comparison in a condition is sympy's relational, built unevaluated at once where it is
seen to hold at some values and fail at others (counting.takes_both_signs / takes_zero_and_other), else by
sympy. Compared with sympy's own relational on random sides of every kind of symbol the frontends make."""
from __future__ import annotations

import random

import sympy

from sad.analysis.counting import takes_both_signs, takes_zero_and_other
from sad.analysis.values import _relation

N, M = sympy.symbols("N M", integer=True)
P = sympy.Symbol("P", integer=True, positive=True)
Q = sympy.Symbol("Q", integer=True, nonnegative=True)
R = sympy.Symbol("R", real=True)
X = sympy.Symbol("X")
SIDES = [N, M, P, Q, R, X, 2 * N + 1, sympy.floor(N / 2), sympy.floor(P / 3), sympy.Mod(N, 4), sympy.Max(0, N),
         sympy.Min(P, 40), N * M, P**2, sympy.Integer(3), sympy.Integer(-2), sympy.Rational(1, 2), Q + 1, -P]
KINDS = (sympy.Lt, sympy.Le, sympy.Gt, sympy.Ge, sympy.Eq, sympy.Ne)


def test_relations_are_sympys() -> None:
    rng = random.Random(3)
    for _ in range(300):
        left = rng.choice(SIDES) + rng.choice([0, 1, -1, rng.choice(SIDES)])
        right = rng.choice(SIDES)
        for kind in KINDS:
            want = kind(left, right)
            got = _relation(kind, left, right)
            assert type(got) is type(want) and got == want and got.args == want.args, (kind, left, right)


def test_open_relations_are_seen() -> None:
    # i < j on two integers of either sign, and i == n/2: open; P > 0 and 2N + 1 == 0 are decided by sympy
    assert takes_both_signs(N - M) and takes_both_signs(sympy.floor(N / 2) - 3)
    assert not takes_both_signs(P) and not takes_both_signs(P**2 + 1)
    assert takes_zero_and_other(N - sympy.floor(M / 2)) and not takes_zero_and_other(2 * N + 1)
    assert _relation(sympy.Gt, P, 0) is sympy.true and _relation(sympy.Eq, 2 * N + 1, 0) is sympy.false
    assert _relation(sympy.Lt, N, M) == sympy.Lt(N, M, evaluate=False)
