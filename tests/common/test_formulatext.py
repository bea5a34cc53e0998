"""Formulas as text (sad.common.formulatext): written out in full while short, else with their
repeated parts named once. A formula is a graph: written out as a tree it can double with every IF that
rejoins (ODEPACK's LSODA was 772 MB of JSON; the routine below ran past sad check's 60 s limit)."""
from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import sympy
from sympy.parsing.sympy_parser import parse_expr as sympy_parse  # our own output, in a test only

from sad.cli.main import run
from sad.common.formulatext import WRITTEN_LIMIT, formula_text, written_size
from sad.common.strprinter import QuickStrPrinter

ROOT = Path(__file__).resolve().parents[2]
PRINTER = QuickStrPrinter({"order": "none", "full_prec": False})


def doubling(k: int) -> sympy.Expr:
    """e0 = x, e(i+1) = e(i)*s_i + e(i)*t_i: a graph of 5k + 1 nodes, a tree of 6*2**k - 5."""
    e: sympy.Expr = sympy.Symbol("x")
    for i in range(k):
        e = sympy.Add(sympy.Mul(e, sympy.Symbol(f"s{i}"), evaluate=False),
                      sympy.Mul(e, sympy.Symbol(f"t{i}"), evaluate=False), evaluate=False)
    return e


def test_written_size_counts_the_tree_over_the_graph():
    assert written_size(sympy.Symbol("x")) == 1
    assert written_size(doubling(1)) == 7
    assert written_size(doubling(40)) == 6 * 2 ** 40 - 5   # 6.6e12 nodes, counted over 201


def test_a_short_formula_is_written_out():
    n = sympy.Symbol("F.N")
    expr = 2.5e-7 * sympy.Max(0, n) + 1.0e-6
    assert formula_text(expr, PRINTER) == (PRINTER.doprint(expr), [])


def test_a_long_formula_names_its_repeated_parts_and_keeps_its_value():
    expr = doubling(12)
    assert written_size(expr) == 6 * 2 ** 12 - 5 > WRITTEN_LIMIT
    text, parts = formula_text(expr, PRINTER)
    assert parts and all(name.startswith("_E") for name, _ in parts)
    assert len(text) + sum(len(value) for _, value in parts) < 2_000   # written out: about 90 kB
    rebuilt = sympy_parse(text)
    for name, value in reversed(parts):   # each part is written in the names before it
        rebuilt = rebuilt.subs(sympy.Symbol(name), sympy_parse(value))
    point = {s: sympy.Rational(i + 2, 7) for i, s in enumerate(sorted(expr.free_symbols, key=str))}
    assert rebuilt.xreplace(point) == expr.xreplace(point)


def test_names_taken_by_the_formula_are_skipped():
    taken = sympy.Symbol("_E1")
    expr = doubling(12) * taken
    text, parts = formula_text(expr, PRINTER)
    assert "_E1" not in {name for name, _ in parts}
    assert parts[0][0] == "_E2"


CHAIN = 24  # IFs that rejoin in a row: each doubles the formula written out


def _chain_source() -> str:
    lines = ["      SUBROUTINE CHAIN(N, A, S)", "      INTEGER N", "      REAL A(N), S", "      S = 0.0"]
    for k in range(1, CHAIN + 1):
        lines += [f"      IF (A({k}) .GT. 0.0) GOTO {10 * k}", f"      S = S + A({k})",
                  f"      IF (S .GT. 1.0) GOTO {10 * k}", "      S = S * 2.0", f"{10 * k:5d} CONTINUE"]
    return "\n".join(lines + ["      END"]) + "\n"


def test_check_report_of_a_routine_with_rejoining_ifs_is_short_and_the_same_under_every_hash_seed(tmp_path):
    (tmp_path / "chain.f").write_text(_chain_source())
    outputs = []
    for seed in ("0", "1"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        proc = subprocess.run([sys.executable, "-m", "sad", "check", "chain.f", "--no-cache", "-j", "1",
                               "--format", "json"], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=300)
        assert proc.returncode == 0, proc.stderr
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]
    assert len(outputs[0]) < 50_000   # before the parts were named: past 60 s
    (routine,) = json.loads(outputs[0])["routines"]
    assert routine["name"] == "CHAIN" and len(routine["subexpressions"]) > CHAIN
    assert routine["points"]["default"] > 0


def _value(text: str, parts: dict[str, sympy.Expr]) -> sympy.Expr:
    """A formula of the report at a point: branch probabilities 1/2, loop counts 3, values 1, the named
    parts by their values (dotted names made Python names for sympy's parser)."""
    expr = sympy_parse(re.sub(r"\b([A-Za-z_]\w*)\.([A-Za-z_]\w*)", r"\1__\2", text))
    point = {s: parts[s.name] if s.name in parts else sympy.Rational(1, 2) if s.name.startswith("P_")
             else 3 if s.name.startswith("X_") else 1 for s in expr.free_symbols}
    return expr.xreplace(point)


def test_analyze_json_of_rejoining_ifs_names_parts_shared_by_its_formulas(tmp_path):
    (tmp_path / "chain.f").write_text(_chain_source())
    out = io.StringIO()
    assert run(["analyze", str(tmp_path / "chain.f"), "-m", "sparc2", "--format", "json"], stdout=out,
               stderr=io.StringIO()) == 0
    text = out.getvalue()
    assert len(text) < 1_000_000   # hundreds of MB before the parts were named
    doc = json.loads(text)
    parts: dict[str, sympy.Expr] = {}
    for name, value in doc["subexpressions"]:   # each in the names before it
        parts[name] = _value(value, parts)
    assert len(parts) > CHAIN
    # the time, printed with the parts, is the sum of the blocks' counts times their costs, printed apart
    time = _value(doc["time"], parts)
    blocks = sum(_value(b["count"], parts) * _value(b["seconds_each"], parts) for b in doc["blocks"])
    assert float(time) == pytest.approx(float(blocks), rel=1e-12) and float(time) > 0


def test_sweep_reads_the_parameters_of_a_long_formula_without_writing_it_out(tmp_path):
    """`sad sweep` asks which parameters the formula has: over the graph, not the tree (sympy's own
    free_symbols walked the tree written out and did not end within minutes on this routine)."""
    (tmp_path / "chain.f").write_text(_chain_source())
    proc = subprocess.run([sys.executable, "-m", "sad", "sweep", "chain.f", "-m", "sparc2", "-D", "CHAIN.A_1=0:2"],
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 2
    assert "chain.f: unbound parameters CHAIN.A_10, " in proc.stderr and "P_CHAIN_IF48" in proc.stderr
