"""`sad tune`'s minimizer (sad.predict.tune), its interval bounds (sad.predict.interval) and the condition parser."""
from __future__ import annotations

import itertools
import random

import numpy
import pytest
import sympy

from sad.common.exprparse import ExprError, parse_condition, parse_expr
from sad.predict.interval import bounds, truth
from sad.predict.sweep import compile_formula, parse_range
from sad.predict.tune import Problem, TuneError, solve

# A pipeline-like cost: P stages, grain G, buffer B over N items (the shape of the La Laguna pipeline model).
PIPELINE = parse_expr("1e-6*N**2/P*ceil(N/G) + 3e-4*(P - 1)*ceil(N/G)*(1 + G/B) + 2e-7*G*B + 1e-5*floor(N/B) "
                      "+ max(0, G - B)*1e-6")


def _problem(constraints=("1 <= G <= N/P",), n=1000.0):
    axes = [parse_range("P", "1:32"), parse_range("G", "1:150"), parse_range("B", "1:60")]
    return Problem(PIPELINE, axes, {"N": n}, [parse_condition(c) for c in constraints])


def _brute_force(problem):
    f = compile_formula(problem.objective)
    conds = [compile_formula(sympy.Piecewise((1, c), (0, True))) for c in problem.constraints]
    best = []
    for values in itertools.product(*[a.values for a in problem.axes]):
        point = dict(zip([a.name for a in problem.axes], values))
        cols = {**problem.fixed, **point}
        if all(c(cols, 1)[0] == 1 for c in conds):
            best.append((float(f(cols, 1)[0]), tuple(values)))
    return sorted(best)


def test_exhaustive_and_branch_and_bound_agree_with_brute_force():
    problem = _problem()
    reference = _brute_force(Problem(problem.objective, [parse_range("P", "1:32"), parse_range("G", "1:150:7"),
                                                         parse_range("B", "1:60:5")],
                                     problem.fixed, problem.constraints))
    small = Problem(problem.objective, [parse_range("P", "1:32"), parse_range("G", "1:150:7"),
                                        parse_range("B", "1:60:5")], problem.fixed, problem.constraints)
    for method in ("exhaustive", "bnb"):
        result = solve(small, keep=3, method=method)
        assert result.time == pytest.approx(reference[0][0], rel=1e-12)
        assert tuple(result.best.values()) == reference[0][1]
        assert [t for _, t in result.ranked] == pytest.approx([t for t, _ in reference[:3]], rel=1e-12)
        near5 = sum(1 for t, _ in reference if t <= reference[0][0] * 1.05)
        assert result.near[0.05] == near5


def test_branch_and_bound_is_exact_and_prunes():
    problem = _problem()
    full = solve(problem, keep=5, method="exhaustive")
    bnb = solve(problem, keep=5, method="bnb")
    assert bnb.best == full.best and bnb.time == full.time
    assert [p for p, _ in bnb.ranked] == [p for p, _ in full.ranked]
    assert bnb.near == full.near and bnb.spans == full.spans
    assert bnb.evaluated < full.evaluated / 2          # the bounds cut most of the grid


def test_constraint_is_respected():
    result = solve(_problem(("1 <= G <= N/P", "P >= 8")), method="bnb")
    assert result.best["P"] >= 8 and result.best["G"] <= 1000 / result.best["P"]


def test_no_feasible_point_is_an_error():
    with pytest.raises(TuneError, match="no grid point satisfies"):
        solve(_problem(("G > N",)))


def test_non_integer_domain_is_refused():
    problem = Problem(PIPELINE, [parse_range("G", "0.5:2:0.5")], {"N": 10.0, "P": 2.0, "B": 4.0})
    with pytest.raises(TuneError, match="integer values"):
        solve(problem)


def test_unbound_parameter_is_named():
    with pytest.raises(TuneError, match="unbound parameters: B"):
        solve(Problem(PIPELINE, [parse_range("G", "1:4")], {"N": 10.0, "P": 2.0}))


def test_interval_bounds_enclose_every_point():
    expr = parse_expr("max(0, N - G) * floor((N + 2)/3) + min(G, 7) * N**2 / G + N % 4 - sqrt(G) + ceil(N/G)")
    pw = sympy.Piecewise((expr, sympy.Symbol("G") < 10), (2 * expr, True))
    f = compile_formula(pw)
    rng = random.Random(4)
    n, g = sympy.Symbol("N"), sympy.Symbol("G")
    for _ in range(40):
        nl, gl = rng.randint(-5, 50), rng.randint(1, 30)
        box = {n: (float(nl), float(nl + rng.randint(0, 20))), g: (float(gl), float(gl + rng.randint(0, 20)))}
        lo, hi = bounds(pw, box)
        ns = numpy.arange(box[n][0], box[n][1] + 1)
        gs = numpy.arange(box[g][0], box[g][1] + 1)
        nn, gg = numpy.meshgrid(ns, gs)
        values = f({"N": nn.ravel(), "G": gg.ravel()}, nn.size)
        assert lo <= values.min() + 1e-9 and values.max() <= hi + 1e-9


def test_truth_of_conditions_on_boxes():
    g, n = sympy.Symbol("G"), sympy.Symbol("N")
    cond = parse_condition("1 <= G <= N/4")
    assert truth(cond, {g: (1.0, 10.0), n: (100.0, 100.0)}) is True
    assert truth(cond, {g: (30.0, 40.0), n: (100.0, 100.0)}) is False
    assert truth(cond, {g: (20.0, 30.0), n: (100.0, 100.0)}) is None


def test_conditions_are_parsed_without_eval():
    assert parse_condition("1 <= G <= N/P") == sympy.And(sympy.Le(1, sympy.Symbol("G")),
                                                         sympy.Le(sympy.Symbol("G"),
                                                                  sympy.Symbol("N") / sympy.Symbol("P")))
    for text in ("G + 1", "__import__('os') < 1", "G < [1]", "lambda: 1", "G if N else 1"):
        with pytest.raises(ExprError):
            parse_condition(text)


def test_interval_bounds_of_an_open_sum():
    k, n = sympy.Symbol("k"), sympy.Symbol("n")
    total = sympy.Sum(sympy.Max(0, n - 2 * k), (k, 0, sympy.floor(n / 2)))
    for lo, hi in ((0, 0), (3, 9), (10, 40)):
        b_lo, b_hi = bounds(total, {n: (float(lo), float(hi))})
        for v in range(lo, hi + 1):
            exact = sum(max(0, v - 2 * j) for j in range(v // 2 + 1))
            assert b_lo <= exact <= b_hi
