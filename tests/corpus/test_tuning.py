"""corpus/tuning: the programs build and run, tuning parameters change the time and not the result, variants
compute the same answers, their SADs have the hand-derived shape, and `sad tune --validate` runs the real
program at the points it reports."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
import sympy

from sad.analysis.pipeline import analyze
from sad.cli.main import main
from sad.measure.validate import compile_program

ROOT = Path(__file__).resolve().parents[2]
TUNING = ROOT / "corpus" / "tuning"


def _run(exe: Path, stdin: str) -> str:
    return subprocess.run([str(exe)], input=stdin, text=True, capture_output=True, check=True).stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    work = tmp_path_factory.mktemp("tuning")
    return {p.stem: compile_program(p, ["-O0", "-Wall"], work) for p in sorted(TUNING.glob("*.c"))
            if "mpi.h" not in p.read_text()}  # the MPI pipeline is built with mpicc below


def test_tile_size_does_not_change_the_result(built):
    sums = {re.search(r"checksum = (\S+)", _run(built["matmul_tiled"], f"64 {ts}\n")).group(1)
            for ts in (1, 2, 8, 16, 64)}
    assert len(sums) == 1
    assert "ts = 32" in _run(built["matmul_tiled"], (TUNING / "matmul_tiled.in").read_text())


def test_rangesum_variants_agree(built):
    for stdin in ((TUNING / "rangesum_direct.in").read_text(), "5000 17 301\n"):
        direct = float(re.search(r"total = (\S+)", _run(built["rangesum_direct"], stdin)).group(1))
        prefix = float(re.search(r"total = (\S+)", _run(built["rangesum_prefix"], stdin)).group(1))
        assert direct == pytest.approx(prefix, abs=1e-6)


def _counts(path: str) -> dict[str, sympy.Expr]:
    from sad.analysis.description import group_blocks
    from sad.predict.mapper import operation_totals
    return operation_totals(group_blocks(analyze([path]).counts))


def _at(expr: sympy.Expr, values: dict[str, int]) -> sympy.Expr:
    return expr.xreplace({s: sympy.Integer(values[s.name]) for s in expr.free_symbols})


def test_tiled_inner_statement_runs_n_cubed_times():
    adds = _counts("corpus/tuning/matmul_tiled.c")["add.double"]
    # c[i][j] += aik*b[k][j] runs n**3 times when ts divides n, the checksum's check += ... n**2 times
    for nv, tv in ((64, 8), (96, 32), (128, 128)):
        assert _at(adds, {"n": nv, "ts": tv}) == nv ** 3 + nv ** 2


def test_rangesum_counts_are_the_hand_derived_ones():
    direct = _counts("corpus/tuning/rangesum_direct.c")
    prefix = _counts("corpus/tuning/rangesum_prefix.c")
    at = {"n": 1000, "len": 10, "q": 77}
    assert _at(direct["add.double"], at) == 77 * 10 + 77          # s + x[...] per element, total + s per query
    assert _at(prefix["add.double"], at) == 1000 + 77              # the prefix pass, total + (...) per query
    assert _at(prefix["sub.double"], at) == 1000 + 77              # x[i] = ... - 6.0, then p[...] - p[start]


def test_tune_validate_runs_the_program(capsys, tmp_path):
    code = main(["tune", "corpus/tuning/matmul_tiled.c", "-m", "sparc2", "--vary", "ts=4:64", "--fix", "n=64",
                 "--constraint", "n % ts == 0", "--validate", "--runs", "1", "--points", "8", "--format", "json",
                 "--", "echo {n} {ts} | ./matmul_tiled"])
    out, err = capsys.readouterr()
    assert code == 0, err
    doc = json.loads(out)
    check = doc["validation"]
    run = sorted(int(p["point"]["ts"]) for p in check["points"])
    assert run == [4, 8, 16, 32, 64]                               # every feasible tile of the small grid
    assert check["chosen"] == doc["best"]
    best = min(check["points"], key=lambda p: sorted(p["runs_s"])[len(p["runs_s"]) // 2])
    assert check["best_measured"] == best["point"]
    assert check["loss"] == pytest.approx((check["chosen_measured_s"] - check["best_measured_s"])
                                          / check["best_measured_s"])


def test_tune_validate_needs_the_placeholders(capsys):
    code = main(["tune", "corpus/tuning/matmul_tiled.c", "-m", "sparc2", "--vary", "ts=4:8", "--fix", "n=64",
                 "--validate", "--", "echo 64 8 | ./matmul_tiled"])
    _, err = capsys.readouterr()
    assert code == 2 and "{ts}" in err


def test_pipeline_runs_under_mpi_with_any_grain_and_buffer(tmp_path):
    exe = tmp_path / "pipeline_gb"
    subprocess.run(["mpicc", "-O0", "-Wall", str(TUNING / "pipeline_gb.c"), "-o", str(exe)], check=True)
    totals = set()
    for np, stdin in ((1, "64 64 8 16\n"), (2, "64 64 8 16\n"), (2, "64 64 32 64\n"), (2, "64 64 4 1\n")):
        out = subprocess.run(["mpirun", "--oversubscribe", "--allow-run-as-root", "-np", str(np), str(exe)],
                             input=stdin, text=True, capture_output=True, check=True, timeout=120).stdout
        totals.add(re.search(r"total = (\S+)", out).group(1))
    assert len(totals) == 1                                        # grain and buffer change the time only


def test_pipeline_tune_takes_the_slowest_rank_and_is_exact():
    from sad.common.exprparse import parse_condition
    from sad.machine.model import load_machine
    from sad.predict.job import predict_analysis
    from sad.predict.sweep import parse_range
    from sad.predict.tune import Problem, solve
    analysis = analyze(["corpus/tuning/pipeline_gb.c"])
    fixed = {"m": sympy.Integer(256), "n": sympy.Integer(256), "P_main_IF4": sympy.Integer(1)}
    formula = predict_analysis(analysis, load_machine("paragon"), fixed).prediction.time
    assert "RANK" in {s.name for s in formula.free_symbols}            # rank 0 does no receive
    axes = [parse_range("NPROCS", "1:8"), parse_range("g", "1:32"), parse_range("b", "1:64")]
    constraints = [parse_condition("n % (g*NPROCS) == 0"), parse_condition("m % b == 0")]
    problem = Problem(formula, axes, {"m": 256.0, "n": 256.0, "P_main_IF4": 1.0}, constraints)
    full, bnb = solve(problem, method="exhaustive"), solve(problem, method="bnb")
    assert full.best == bnb.best and full.time == bnb.time and full.near == bnb.near
    best = {k: int(v) for k, v in full.best.items()}
    at = {**{k: sympy.Integer(v) for k, v in best.items()}, **fixed}
    single = predict_analysis(analysis, load_machine("paragon"), at).prediction.time_value
    assert full.time == pytest.approx(single, rel=1e-12)                # sad analyze's slowest rank, same value


def test_tune_validate_refuses_an_unknown_placeholder(capsys):
    code = main(["tune", "corpus/tuning/matmul_tiled.c", "-m", "sparc2", "--vary", "ts=4:8", "--fix", "n=64",
                 "--validate", "--", "echo {n} {tile} | ./matmul_tiled"])
    _, err = capsys.readouterr()
    assert code == 2 and "unknown placeholder {tile}" in err
