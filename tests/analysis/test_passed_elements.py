"""Elements at constant subscripts that one call leaves and a later call, or the caller, reads
(sad.analysis.passedelements): LAPACK's DGEQR stores its block sizes in T(2) and T(3), DGEMQR reads them,
DGETSLS reads T(1) after a workspace query. Counts cross-checked against gcov (tests/analysis/blas/header.f)."""
from __future__ import annotations

from pathlib import Path

import sympy

from sad.analysis.description import line_counts
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


TSLS = Path(__file__).resolve().parent / "blas" / "tsls.f"


def test_a_header_passed_in_the_workspace_counts_at_both_workspace_sizes(capsys):
    """DGETSLS's way (tests/analysis/blas/tsls.f): SOLVE queries FACT, takes the smaller header where its
    workspace is short, and passes FACT and APPLY the header as W(LW2+1). N = 12: MB = 4, NB = 8 with
    LWORK = 64 (>= TSZO + LWO = 37 + 12); with LWORK = 30 the header has 5 elements, too few for MB*NB + 5,
    and FACT takes NB = 1. APPLY's loops run 4 + 4 and 8 + 1 trips over the two calls."""
    rows = gcov_rows(capsys, str(TSLS), "./tsls")
    assert rows[line_of(str(TSLS), "S = S + DBLE(I)")] == ["8", "8"]
    assert rows[line_of(str(TSLS), "S = S + 1.0D0")] == ["9", "9"]


def test_a_library_routine_passing_its_header_in_the_workspace_is_a_formula_of_its_formals(tmp_path):
    """SOLVE alone (library mode): APPLY's loops are counted in SOLVE.N and SOLVE.LWORK alone. FACT leaves
    T(3) = NB on every path that returns (one that fails a check calls XERBLA, which stops: the IF's first
    arm, though its second only returns), and at the call LW1 is TSZM or TSZO as the test of LWORK chooses,
    FACT's query having stored TSZO = MB*NB + 5 past SOLVE's checks. Hand-derived: N = 12, LWORK = 64: 4 and
    8 trips; LWORK = 30 or 17 (the least SOLVE accepts, TSZM + LWO): 4 and 1; LWORK = 16: SOLVE stops in
    XERBLA, 0; N = 6, LWORK = 100: MB = 2, NB = 4; LWORK = 16 < 13 + 6: NB = 1. Before: APPLY.T_2 and T_3
    were run-time values (DGETSLS's DGEMQRT call was not expanded: 433 lines of its driver unbound)."""
    lib = tmp_path / "lib.f"
    source = TSLS.read_text().splitlines()
    lib.write_text("\n".join(source[line_of(str(TSLS), "SUBROUTINE SOLVE") - 1:]) + "\n")
    analysis = analyze([str(lib)])
    counts = {line: c for (_, line), c in line_counts(analysis.counts).items()}
    inner, outer = counts[line_of(str(lib), "S = S + DBLE(I)")], counts[line_of(str(lib), "S = S + 1.0D0")]
    assert {s.name for s in inner.free_symbols | outer.free_symbols} == {"SOLVE.N", "SOLVE.LWORK"}

    def at(count, n: int, lwork: int) -> sympy.Expr:
        return count.xreplace({s: n if s.name == "SOLVE.N" else lwork for s in count.free_symbols})
    points = [(12, 64), (12, 30), (12, 17), (12, 16), (6, 100), (6, 16)]
    assert [at(inner, n, lw) for n, lw in points] == [4, 4, 4, 0, 2, 2]
    assert [at(outer, n, lw) for n, lw in points] == [8, 1, 1, 0, 4, 1]
