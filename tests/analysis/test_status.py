"""A status a call leaves (LAPACK's INFO after DGETRF or DPOTRF) as a known value in the caller: the callee's
value of that argument where it returns, failure returns not taken as the counts assume, argument errors
ending the program (XERBLA's STOP), and recursive callees followed by induction on their activations.
Checked against gcov and against a status that depends on data, which stays a probability."""
from __future__ import annotations

from pathlib import Path

from sad.analysis.description import line_counts
from sad.analysis.pipeline import analyze
from sad.cli.main import main

HERE = Path(__file__).resolve().parent / "recursion"


def _counts(path: Path):
    analysis = analyze([str(path)])
    return {line: c for (_, line), c in line_counts(analysis.counts).items()}, analysis


def test_statuses_left_by_recursive_and_blocked_factorizations_are_known(capsys):
    """SOLVE1 calls FACT (DGETRF2's shape: INFO from two recursive calls, `IF (INFO.EQ.0 .AND. IINFO.GT.0)`),
    SOLVE2 calls BLOCK (DPOTRF's: panels of 4, each factored by CHOL, a recursion with failure returns, and
    `IF (IINFO.NE.0) GO TO 30` out of the loop). On data that pass (no zero, no negative pivot) both leave 0,
    so each APPLY runs once: 2 x 20 additions. FACT(20) runs 2 * 20 - 1 = 39 activations, CHOL five panels of
    7."""
    counts, analysis = _counts(HERE / "status.f")
    assert counts[23] == 1 and counts[39] == 1      # CALL APPLY under IF (INFO.EQ.0), in both solvers
    assert counts[109] == 40                        # S = S + A(I)
    assert counts.get(74, 0) == 0                   # INFO = IINFO + J - 1: the failure path
    assert not [p.name for p in analysis.table if p.cls == "unresolved"]
    rc = main(["check-counts", str(HERE / "status.f"), "--require-bound", "--", "./status"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out


def test_a_status_set_by_a_test_of_data_stays_a_probability():
    """CHECK sets INFO = 1 where A(1) > A(2), an order between two data that the generic-data model leaves
    open, and does not leave: the caller's IF (INFO.EQ.0) keeps its probability."""
    _, analysis = _counts(HERE / "statusdata.f")
    assert [p.name for p in analysis.table if p.cls == "unresolved" and p.name.startswith("P_")] == ["P_SDATA_IF1"]


def test_a_failure_report_that_falls_through_to_the_failure_label_is_not_taken(capsys):
    """FACTOR (DPTTRF's shape: a loop of 21 - 1 mod 3 = 2 clean-up passes, then passes of three, each with a
    failure test of data `INFO = I; GO TO 30`, and a last test `IF (D(N).LE.0) INFO = N` that falls through to
    label 30) leaves INFO 0 on data that pass, as the counts assume: SOLVE runs once, 20 + 21 updates. A run
    that followed the failures' jumps gave up, and the caller's IF (INFO.EQ.0) was a probability."""
    counts, analysis = _counts(HERE / "statusjump.f")
    assert counts[12] == 1                          # CALL SOLVE under IF (INFO.EQ.0)
    assert counts[67] == 20 and counts[70] == 21    # SOLVE's two loops
    assert counts[40] == 6 and counts.get(58) == 1  # passes of three: (21 - 3 - 3) / 3 + 1 = 6
    assert not [p.name for p in analysis.table if p.cls == "unresolved"]
    rc = main(["check-counts", str(HERE / "statusjump.f"), "--require-bound", "--", "./statusjump"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out
