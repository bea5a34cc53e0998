"""A C select `x = c ? a : b` on one line: gcov's branch count is the fall-through edge of the test, and
GCC 12 makes that the else arm where its folding puts the simpler operand second (a constant before
anything else, a variable before an expression; only where the test can be inverted). Before the gcov
reader knew this, `check-counts` showed `i < j ? 1.0 : A[i][j]` as a MISMATCH (435 against 465) and
`sad profile` derived 1 − p for `V[i] > 6 ? 1 : 2 * V[i]`."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from sad import ir
from sad.cli.main import main
from sad.measure.gcov import else_first

HERE = Path(__file__).resolve().parent / "selects"
pytestmark = pytest.mark.skipif(shutil.which("gcc") is None or shutil.which("gcov") is None,
                                reason="gcc and gcov are needed")


def _select(kinds: list[str], op: str = "lt", side: str = "integer") -> ir.If:
    cond = ir.BinOp("lt" if op == "lt" else op, ir.Var("i", type=side), ir.Var("j", type=side), type="integer")
    return ir.If([ir.IfArm(cond, [])], [], select=kinds, loc=ir.Loc("s.c", 1))


@pytest.mark.parametrize("kinds,op,side,expected", [
    (["constant", "other"], "lt", "integer", True),      # i < j ? 1.0 : A[i][j]
    (["constant", "variable"], "lt", "integer", True),   # i < j ? 1.0 : x
    (["variable", "other"], "lt", "integer", True),      # i < j ? s : A[i][j]
    (["other", "variable"], "lt", "integer", False),     # i < j ? A[i][j] : s
    (["variable", "variable"], "lt", "integer", False),  # i < j ? s : t
    (["constant", "constant"], "lt", "integer", False),  # i < j ? 1.0 : 0.5
    (["constant", "other"], "lt", "double", False),      # x < y ? 1.0 : A[i][j]: an ordering of doubles
    (["constant", "other"], "eq", "double", True),       # x == y ? 1.0 : A[i][j]: equality inverts
])
def test_else_first_follows_gccs_operand_order(kinds, op, side, expected):
    assert else_first(_select(kinds, op, side)) is expected


def test_check_counts_arms_of_both_layouts(tmp_path, capsys):
    shutil.copy(HERE / "selects.c", tmp_path)
    rc = main(["check-counts", str(tmp_path / "selects.c"), "--", "./selects"])
    out = capsys.readouterr().out
    arms = {line.split()[0].rsplit("/", 1)[-1]: line.split()[2:5] for line in out.splitlines() if " arm " in line}
    # the fall-through arm's count per line (N = 30: i < j holds 435 times of 900, i + 3 < j 351 times)
    assert arms["selects.c:6"] == ["465", "465", "ok"]     # return i < j ? 0 : i - j: the else arm
    assert arms["selects.c:17"] == ["465", "465", "ok"]    # constant first: swapped
    assert arms["selects.c:18"] == ["465", "465", "ok"]    # variable before an expression: swapped
    assert arms["selects.c:19"] == ["660", "660", "ok"]    # expression before a variable: as written
    assert arms["selects.c:20"] == ["351", "351", "ok"]    # two variables: as written
    assert arms["selects.c:21"] == ["465", "465", "ok"]    # a negated constant first: swapped
    assert arms["selects.c:23"] == ["435", "435", "ok"]    # a cast variable is a conversion: as written
    assert rc == 0, out


def test_profile_derives_the_then_arms_probability(tmp_path, capsys):
    shutil.copy(HERE / "selects.c", tmp_path)
    out = tmp_path / "p.yaml"
    rc = main(["profile", str(tmp_path / "selects.c"), "-o", str(out), "--", "./selects"])
    assert rc == 0, capsys.readouterr().err
    values = {name: p["value"] for name, p in yaml.safe_load(out.read_text())["parameters"].items()}
    taken = sum(1 for i in range(1000) if (i * 37) % 11 > 6)  # V[i] > 6: the then arm
    (prob,) = [v for name, v in values.items() if name.startswith("P")]
    assert prob == pytest.approx(taken / 1000)
