"""A computed GOTO whose selector is known exactly, as an IF's test on run-time values and formal arguments
is (sad.analysis.branches.selections), takes each target by an indicator each call binds; a caller passing
data for the selector falls back to the named probabilities. Counts cross-checked against gcov."""
from __future__ import annotations

from pathlib import Path

from sad.analysis.pipeline import analyze
from tests.analysis.fixtures import gcov_rows, line_of

FIXTURE = str(Path(__file__).resolve().parent / "blas" / "cgoto.f")


def test_a_computed_goto_on_a_formal_is_exact_at_each_call(capsys):
    """tests/analysis/blas/cgoto.f, DLARFX's shape: `GO TO (10, 20, 30) M` with M = 1 to 5 from the caller's
    loop and 2 once more: piece 10 once, 20 twice, 30 once, the general loop twice with 4 + 5 trips (gcov
    agrees on every line). Before: three named probabilities, 12 lines unbound."""
    analysis = analyze([FIXTURE])
    assert not analysis.table.unresolved()
    rows = gcov_rows(capsys, FIXTURE, "./cgoto")
    assert rows[line_of(FIXTURE, "10 S = S + 1.0D0")] == ["1", "1"]
    assert rows[line_of(FIXTURE, "20 S = S + 2.0D0")] == ["2", "2"]
    assert rows[line_of(FIXTURE, "30 S = S + 3.0D0")] == ["1", "1"]
    assert rows[line_of(FIXTURE, "S = S + DBLE(J)")] == ["9", "9"]


def test_a_caller_passing_data_for_the_selector_gets_the_probabilities(tmp_path):
    """The same routine called with an element of an array the program reads: the selector is data there,
    so each target's share is its named probability, P_APPLY_CGOTO1_1 to _3."""
    source = Path(FIXTURE).read_text().replace("      DO 10 I = 1, 5\n         CALL APPLY(I, S)\n",
                                               "      DO 10 I = 1, 5\n         READ (5, *) K(I)\n"
                                               "         CALL APPLY(K(I), S)\n")
    source = source.replace("      INTEGER I\n", "      INTEGER I, K(5)\n", 1)
    path = tmp_path / "cgdata.f"
    path.write_text(source)
    analysis = analyze([str(path)])
    names = {p.name for p in analysis.table.unresolved()}
    assert {"P_APPLY_CGOTO1_1", "P_APPLY_CGOTO1_2", "P_APPLY_CGOTO1_3"} <= names
