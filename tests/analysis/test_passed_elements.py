"""Elements at constant subscripts that one call leaves and a later call, or the caller, reads
(sad.analysis.passedelements): LAPACK's DGEQR stores its block sizes in T(2) and T(3), DGEMQR reads them,
DGETSLS reads T(1) after a workspace query. Counts cross-checked against gcov (tests/analysis/blas/header.f)."""
from __future__ import annotations

from pathlib import Path

from sad.analysis.pipeline import analyze
from tests.analysis.fixtures import gcov_rows, line_of

FIXTURE = str(Path(__file__).resolve().parent / "blas" / "header.f")


def test_a_callee_reads_the_header_an_earlier_call_stored(capsys):
    """APPLY's `MB = INT(T(2))`, `NB = INT(T(3))` after FACT(12, T, 8, ...): MB = 12/3 = 4, NB = 12 - 4 = 8,
    stored where FACT's checks pass (TSIZE = 8 >= 5); FILL(3, T(4)) after them writes from T(4) on. So the
    loops run 4 and 8 trips (their DO lines 5 and 9 with the exit). Before: APPLY.T_2 and APPLY.T_3 were
    run-time values, both loops unbound."""
    analysis = analyze([FIXTURE])
    assert not analysis.table.unresolved()
    rows = gcov_rows(capsys, FIXTURE, "./header")
    assert rows[line_of(FIXTURE, "DO 10 I = 1, MB")] == ["5", "5"]
    assert rows[line_of(FIXTURE, "S = S + DBLE(I)")] == ["4", "4"]
    assert rows[line_of(FIXTURE, "DO 20 I = 1, NB")] == ["9", "9"]


def test_the_caller_reads_what_a_query_stored_over_its_own_value(capsys):
    """The main program stores T(2) = 99, then FACT's query (TSIZE = -1) stores MB = 4 there and returns;
    `K = INT(T(2))` is 4: the loop runs 4 trips. Before: 99 (the assignment before the call, a wrong count
    without a word)."""
    rows = gcov_rows(capsys, FIXTURE, "./header")
    assert rows[line_of(FIXTURE, "DO 10 I = 1, K")] == ["5", "5"]
    assert rows[line_of(FIXTURE, "S = S + 1.0D0")] == ["4", "4"]


def test_a_workspace_size_stored_past_the_returns_is_the_one_read(capsys):
    """W(1) after FACT's query is NB = 8 (stored under `IF (INFO.EQ.0)`, before the IF whose two arms
    return); after the full call it is MB + NB = 12, stored at FACT's end past FILL(N, W), which writes all
    of W. The loops run 8 and 12 trips. Before: W_1 was a run-time value, both loops unbound."""
    rows = gcov_rows(capsys, FIXTURE, "./header")
    assert rows[line_of(FIXTURE, "DO 20 I = 1, L")] == ["9", "9"]
    assert rows[line_of(FIXTURE, "S = S + 2.0D0")] == ["8", "8"]
    assert rows[line_of(FIXTURE, "DO 30 I = 1, L")] == ["13", "13"]
    assert rows[line_of(FIXTURE, "S = S + 3.0D0")] == ["12", "12"]
