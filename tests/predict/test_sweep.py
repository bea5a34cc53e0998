"""Ranges, grids and compiled formulas of `sad sweep` (sad.predict.sweep), and the sweep's values against
single analyses."""
from __future__ import annotations

import numpy
import pytest
import sympy

from sad.analysis.description import group_blocks
from sad.analysis.pipeline import analyze
from sad.common.exprparse import parse_expr
from sad.machine.model import load_machine
from sad.predict.mapper import bind, evaluate, predict
from sad.predict.sweep import Grid, RangeError, compile_formula, is_range, parse_range, sweep


@pytest.mark.parametrize("text, values, log", [
    ("100-10000:5log", [100, 316, 1000, 3162, 10000], True),       # Kerncraft: 5 points, log-spaced, rounded
    ("0-100:5", [0, 25, 50, 75, 100], False),                       # Kerncraft: 5 points, linear
    ("64:512:x2", [64, 128, 256, 512], True),
    ("1:3", [1, 2, 3], False),
    ("0:10:4", [0, 4, 8], False),                                   # the stop is not a multiple of the step
    ("8,1,4,2", [1, 2, 4, 8], False),                               # lists are sorted
    ("1,10,100", [1, 10, 100], True),                               # a list spanning decades plots on log axes
    ("0.5:1.5:0.5", [0.5, 1.0, 1.5], False),
    ("1-2:3log", [1, 2], True),                                     # rounding 1, 1.41, 2 drops the duplicate
])
def test_range_notations(text, values, log):
    axis = parse_range("N", text)
    assert axis.values.tolist() == values
    assert axis.log is log
    assert is_range(text)


@pytest.mark.parametrize("text, message", [
    ("", "empty range"),
    ("10-100:0", "empty range"),
    ("100-10:5", "reversed range"),
    ("512:64:x2", "reversed range"),
    ("10:1", "reversed range"),
    ("1:10:0", "step must be positive"),
    ("4:64:x1", "F > 1"),
    ("1,,2", "empty value"),
    ("a,b", "numbers only"),
    ("0-10:3log", "positive ends"),
])
def test_bad_ranges_say_what_is_wrong(text, message):
    with pytest.raises(RangeError, match=message):
        parse_range("N", text)


def test_plain_values_and_expressions_are_not_ranges():
    assert not is_range("1000")
    assert not is_range("MX*MY*MZ")
    assert not is_range("N-10")
    # two numbers and a dash look like Kerncraft's start-stop: refused as a range (reversed, or without its
    # count), never swept as the single point 90 (issue 30)
    assert is_range("100-10") and is_range("10-100")
    assert not is_range("max(1, N)")


def test_grid_columns_first_axis_slowest():
    grid = Grid([parse_range("P", "1,2"), parse_range("N", "10,20,30")])
    cols = grid.columns()
    assert grid.size == 6
    assert cols["P"].tolist() == [1, 1, 1, 2, 2, 2]
    assert cols["N"].tolist() == [10, 20, 30, 10, 20, 30]


def test_a_name_swept_twice_is_refused():
    with pytest.raises(RangeError, match="swept twice: N"):
        Grid([parse_range("N", "1:2"), parse_range("N", "3:4")])


def test_floors_of_ratios_are_exact():
    # numpy.floor(10/3 + 2/3) is 3 in float64 (3.9999999999999996); the count is 4.
    f = compile_formula(sympy.floor(sympy.Symbol("n") / 3 + sympy.Rational(2, 3)))
    n = numpy.arange(0, 31, dtype=float)
    assert f({"n": n}, len(n)).tolist() == [float((k + 2) // 3) for k in range(31)]
    g = compile_formula(sympy.ceiling(sympy.Symbol("n") / 7))
    assert g({"n": n}, len(n)).tolist() == [float(-(-k // 7)) for k in range(31)]


def test_formula_of_the_command_line_parser_compiles():
    f = compile_formula(parse_expr("max(0, N - 2) * min(N, 4) + N % 3"))
    n = numpy.arange(6, dtype=float)
    assert f({"N": n}, 6).tolist() == [max(0, k - 2) * min(k, 4) + k % 3 for k in range(6)]


MACHINE = load_machine("sparc2")


def _time(path: str, bindings: dict[str, int]) -> float:
    analysis = analyze([path])
    values = {k: sympy.Integer(v) for k, v in bindings.items()}
    return predict(group_blocks(analysis.counts), MACHINE, values).time_value


@pytest.mark.parametrize("path, axes", [
    ("corpus/kernels/triangular.f", {"N": "0:300:7"}),
    ("corpus/c/stepped.c", {"n": "1:40", "lo": "0,3", "hi": "10,21"}),      # an open Sum in the formula
    ("corpus/kernels/stepped.f", {"N": "1:30", "K": "1:4"}),
])
def test_sweep_values_equal_single_analyses(path, axes):
    analysis = analyze([path])
    formula = predict(group_blocks(analysis.counts), MACHINE, {}).time
    grid = Grid([parse_range(n, r) for n, r in axes.items()])
    out = sweep({"TOTAL": formula}, grid)
    for i in sorted({0, 1, grid.size // 3, grid.size // 2, grid.size - 1}):
        point = {n: int(out[n][i]) for n in grid.names}
        assert out["TOTAL"][i] == pytest.approx(_time(path, point), rel=1e-12)


def test_sweep_names_an_unbound_parameter():
    grid = Grid([parse_range("n", "1:3")])
    with pytest.raises(KeyError, match="nsweeps"):
        sweep({"TOTAL": bind(sympy.Symbol("n") * sympy.Symbol("nsweeps"), {})}, grid)


@pytest.mark.heavy
def test_md1_sweep_matches_the_readme_figure():
    """The README's md1 example (NPART=4000, profiled parameters: 239.4 s) from a sweep over NPART."""
    from sad.measure.params_io import load
    values = load("corpus/md1/md1.params.yaml").values()
    values.pop("NPART", None)
    analysis = analyze(["corpus/md1/md1.f"], overrides={**values, "NPART": sympy.Symbol("NPART")})
    formula = bind(predict(group_blocks(analysis.counts), MACHINE, values).time, values)
    out = sweep({"TOTAL": formula}, Grid([parse_range("NPART", "1000,4000,8000")]))
    single = evaluate(bind(formula, {"NPART": sympy.Integer(4000)}))
    assert out["TOTAL"][1] == pytest.approx(single, rel=1e-12)
    assert round(out["TOTAL"][1], 1) == 239.4


def test_spmd_table_takes_the_slowest_rank_and_gives_speedup_and_efficiency():
    from sad.predict.compare import Series, build_table
    total = parse_expr("100/NPROCS + 3*min(RANK, 2) + 0.5*(NPROCS - 1)")
    series = Series("m", "prog.f", "m", {"TOTAL": total, "COMP": parse_expr("100/NPROCS + 3*min(RANK, 2)"),
                                         "COMM": parse_expr("0.5*(NPROCS - 1)")})
    table = build_table([series], Grid([parse_range("NPROCS", "1,2,4,8")]), {})
    assert list(table.columns) == ["NPROCS", "COMM", "COMP", "TOTAL", "RANK", "SP", "EFF"]
    assert table.columns["RANK"].tolist() == [0, 1, 2, 2]            # ranks 2..P-1 tie: the lowest is named
    assert table.columns["TOTAL"].tolist() == [100, 53.5, 32.5, 22]
    assert table.columns["COMP"].tolist() == [100, 53, 31, 18.5]       # at the slowest rank
    assert table.columns["SP"].tolist() == pytest.approx([1, 100 / 53.5, 100 / 32.5, 100 / 22])
    assert table.columns["EFF"].tolist() == pytest.approx([1, 100 / 53.5 / 2, 100 / 32.5 / 4, 100 / 22 / 8])
