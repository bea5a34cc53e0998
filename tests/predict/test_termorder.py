"""termorder.ordered_terms: the order sympy's printers write a sum's terms in, without evalf. It must be
sympy's own order (`as_ordered_terms`) for every sum: the report's text depends on it byte for byte."""
from __future__ import annotations

import random
from pathlib import Path

import sympy

from sad.analysis.bindings import parse_defines
from sad.machine.model import load_machine
from sad.predict.job import Options, run
from sad.predict.termorder import ordered_terms

MD1_C = str(Path(__file__).resolve().parents[2] / "corpus/c/md1.c")
X, Y, N = sympy.symbols("X Y N")
K = sympy.Symbol("K", integer=True)
FACTORS = [sympy.Integer(1), X, X * Y, X**2, Y / N, N**3, sympy.sqrt(N), sympy.pi * X, sympy.Max(0, N - X),
           sympy.floor(N / 3), sympy.Piecewise((1, N > 2), (0, True)) * X, sympy.Sum(K * N, (K, 1, X))]


def _coefficient(rng: random.Random) -> sympy.Expr:
    kind = rng.randrange(6)
    if kind == 0:
        return sympy.Integer(rng.randint(-50, 50))
    if kind == 1:
        return sympy.Rational(rng.randint(-9, 9), rng.randint(1, 9))
    if kind == 2:
        return sympy.Float(rng.uniform(-1e-6, 1e-6), 15)    # machine figures
    if kind == 3:
        return sympy.Float(rng.uniform(-3, 3), 4)           # the report's rounded figures
    if kind == 4:
        return sympy.Float(rng.random(), 30)                # more bits than a double
    return sympy.Integer(10**20 + rng.randint(0, 9))        # more digits than a double


def test_random_sums_in_sympys_order() -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(600):
        expr = sympy.Add(*[_coefficient(rng) * rng.choice(FACTORS) for _ in range(rng.randint(2, 7))])
        if isinstance(expr, sympy.Add):
            assert ordered_terms(expr) == expr.as_ordered_terms(), expr
            checked += 1
    assert checked > 500


def test_special_cases_left_to_sympy() -> None:
    # a positive number and a negated product: sympy writes the number first
    assert ordered_terms(1 - 2 * X) == [1, -2 * X] == (1 - 2 * X).as_ordered_terms()
    assert ordered_terms(X + sympy.O(X**2)) == (X + sympy.O(X**2)).as_ordered_terms()
    assert ordered_terms(X**2 + 3 * X - 1) == [X**2, 3 * X, -1]


def test_a_programs_formulas_in_sympys_order() -> None:
    raw, bindings = parse_defines([])
    result = run([MD1_C], Options([], raw, bindings), load_machine("sparc2"))
    sums = [e for f in result.prediction.operations.values() for e in sympy.preorder_traversal(f)
            if isinstance(e, sympy.Add)]
    sums += [e for bt in result.prediction.blocks for e in sympy.preorder_traversal(bt.block.count)
             if isinstance(e, sympy.Add)]
    assert len(sums) > 100
    for expr in sums:
        assert ordered_terms(expr) == expr.as_ordered_terms(), expr
