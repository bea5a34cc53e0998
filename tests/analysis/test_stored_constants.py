"""Stored constants (sad.analysis.storedconstants): a test of data is not decided for generic data where the
program itself may have stored the constant it compares with. The fixture is DLARFG/DLARFT's shape: REFL
leaves TAU = 0 where its length is 1 (the last call), APPLY tests the array later. Counts against gcov."""
from __future__ import annotations

from pathlib import Path

import sympy

from sad.analysis import genericdata
from sad.analysis.pipeline import analyze
from sad.cli.main import main
from sad.ir import nodes as ir

FIXTURE = str(Path(__file__).resolve().parent / "blas" / "stored.f")


def _equals_gcov(capsys, fixture: str, binding: str, program: str, line: int, count: str) -> None:
    """`check-counts --require-bound` with the one probability bound: every line equal to gcov's, and the
    arm the rule is about counted `count` times by both."""
    rc = main(["check-counts", fixture, "-D", binding, "--require-bound", "--", program])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out
    where = f"{Path(fixture).name}:{line}"
    assert any(row.split()[0].endswith(where) and row.split()[1:3] == [count, count]
               for row in out.splitlines() if row.strip()), out


def test_a_stored_zero_keeps_the_test_open_and_a_data_guarded_one_does_not(capsys):
    """`TAU(I).EQ.0` stays a probability (REFL stores 0 where M <= 1: once in 6); `TAU(I).EQ.1` is still
    decided false (REFL's 1 is guarded by `ALPHA.EQ.0`, false for data), `A(I).NE.0` true (A holds no
    stored constant). Without the rule, line 38 counted 0 where gcov counts 1."""
    analysis = analyze([FIXTURE])
    assert [p.name for p in analysis.table.unresolved()] == ["P_APPLY_IF1"]
    decided = [(loc.line, test, value) for loc, test, value in analysis.generic_decisions if loc.line >= 37]
    assert decided == [(40, "TAU(I).EQ.1.0", False), (43, "A(I).NE.0.0", True)]
    _equals_gcov(capsys, FIXTURE, "P_APPLY_IF1=0.16666666666666666", "./stored", 38, "1")


def test_decided_only_where_each_stored_constant_agrees():
    x = genericdata.datum(ir.Var("X", type="double"))
    zero = frozenset({sympy.Integer(0)})
    held = genericdata.with_constants
    assert genericdata.decide("eq", held(x, frozenset()), 0, "double") is sympy.false
    assert genericdata.decide("eq", held(x, zero), 0, "double") is None
    assert genericdata.decide("eq", held(x, zero), 1, "double") is sympy.false    # 0 is not 1 either
    assert genericdata.decide("gt", held(sympy.Abs(x), zero), 0, "double") is None
    assert genericdata.decide("ne", 1, held(x, zero), "double") is sympy.true
    assert genericdata.decide("gt", held(sympy.Abs(x), frozenset({sympy.Integer(-1)})), 0, "double") \
        is sympy.true  # ABS(-1) > 0 as ABS(data) > 0: the constant stands inside the ABS


def test_in_c_a_zero_left_through_a_pointer_counts_and_one_left_in_a_value_parameter_does_not(capsys):
    """`*tau = 0.0` in refl leaves the zero in the caller's tau[i]: `tau[i] == 0.0` stays open (gcov: 1 of
    6); `x = 0.0` in leave assigns its own copy of y (C passes by value): nothing flows back."""
    fixture = str(Path(FIXTURE).with_name("cstored.c"))
    analysis = analyze([fixture])
    assert [p.name for p in analysis.table.unresolved()] == ["P_main_IF1"]
    assert [(loc.line, test, value) for loc, test, value in analysis.generic_decisions] == \
        [(16, "a[i] != 0.0", True)]
    _equals_gcov(capsys, fixture, "P_main_IF1=0.16666666666666666", "./cstored", 15, "1")


def test_a_constant_the_caller_set_before_its_loop_of_calls_keeps_the_callees_test_open(capsys):
    """DLANGE's shape: `SCALE = 0` and `SUM = 1` before a loop of SSQ calls that pass on what the last one
    left. SSQ's `SCL.EQ.0` holds at the first call only (gcov: 1 of 4): a probability, not false for data;
    `SUMSQ.EQ.0` is false for 1 and for data alike: still decided. Without the rule: 0 against gcov's 1."""
    fixture = str(Path(FIXTURE).with_name("reaching.f"))
    analysis = analyze([fixture])
    assert [p.name for p in analysis.table.unresolved()] == ["P_SSQ_IF2"]
    assert [(loc.line, value) for loc, _, value in analysis.generic_decisions] == [(14, False)]
    _equals_gcov(capsys, fixture, "P_SSQ_IF2=0.25", "./reaching", 26, "1")


def test_either_is_decided_only_where_data_and_each_constant_agree():
    x = genericdata.datum(ir.Var("X", type="double"))
    assert genericdata.decide("eq", genericdata.Either(x, 0), 0, "double") is None
    assert genericdata.decide("eq", genericdata.Either(x, 1), 0, "double") is sympy.false
    assert genericdata.decide("ne", 0, genericdata.Either(x, -1, 2), "double") is sympy.true


def test_a_constant_stored_where_a_stored_constant_leads_is_stored_too(capsys):
    """DLARFT's shape: FORM stores T's column I as zeros where TAU(I) is REFL's exact zero (the last one),
    MULT tests T(I,J).NE.0 as DTRMM tests its triangular factor. The zeros are the program's: the test
    stays a probability (bound here to gcov's 10 of 15), not true for data (before: 15 against gcov's 10,
    a MISMATCH). FILL writes T before it tests it: its test is of its own data, decided (the zero goes
    down only into routines that read T and never write it)."""
    fixture = str(Path(FIXTURE).with_name("factor.f"))
    analysis = analyze([fixture])
    assert [p.name for p in analysis.table.unresolved()] == ["P_FORM_IF1", "P_MULT_IF1"]
    rc = main(["check-counts", fixture, "-D", "P_MULT_IF1=0.6666666666666666", "--", "./factor"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out
    rows = [row.split() for row in out.splitlines() if "factor.f:55 arm" in row]
    assert rows and rows[0][2:4] == ["10", "10"], out
    filled = [row.split() for row in out.splitlines() if "factor.f:70 arm" in row]
    assert filled and filled[0][2:4] == ["15", "15"], out
