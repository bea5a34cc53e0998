"""SharedReplace is xreplace, formula for formula, with the subexpressions the formulas share rebuilt once."""
from __future__ import annotations

import random

import sympy

from sad.analysis.sharedreplace import SharedReplace, replaced_all

N, M, K = sympy.symbols("N M K", integer=True)
P = sympy.symbols("P0:6", positive=True)
S = sympy.Symbol("_NB_SGEHRD_L1", integer=True)


def _formula(rng: random.Random, depth: int) -> sympy.Expr:
    leaves = [N, M, S, *P[:3], sympy.Integer(rng.randint(1, 5)), sympy.Rational(1, 3)]
    if depth == 0:
        return rng.choice(leaves)
    kind = rng.randrange(6)
    a, b = _formula(rng, depth - 1), _formula(rng, depth - 1)
    if kind == 0:
        return a + b
    if kind == 1:
        return a * b
    if kind == 2:
        return sympy.Max(0, a - b, evaluate=False)
    if kind == 3:
        return sympy.Piecewise((a, sympy.Le(S, N)), (b, True))
    if kind == 4:
        return sympy.floor(a / 4)
    return sympy.Sum(a * K, (K, 0, b))


def test_each_formula_is_xreplaces_own():
    """A stand-in named, a test replaced by its probability, and a rule keyed by a compound node: every
    result is xreplace's tree (srepr), and a subexpression the formulas share comes back as one object."""
    rng = random.Random(30)
    indicator = sympy.Piecewise((1, sympy.Le(S, N)), (0, True))
    rules = [{S: sympy.Symbol("NB_SGEHRD_L1", integer=True)}, {indicator: P[4]}, {N: 2 * M + 1, P[0]: P[5]}]
    for rule in rules:
        shared = _formula(rng, 3) * indicator
        formulas = [shared + _formula(rng, 3) for _ in range(20)] + [shared * _formula(rng, 2) for _ in range(5)]
        got = replaced_all(formulas, rule)
        assert [sympy.srepr(g) for g in got] == [sympy.srepr(f.xreplace(rule)) for f in formulas]
        replace = SharedReplace(rule)
        assert replace(shared) is replace(shared)  # remembered, not rebuilt


def test_an_empty_rule_gives_each_formula_back():
    formula = N * P[0] + 1
    assert SharedReplace({})(formula) is formula
