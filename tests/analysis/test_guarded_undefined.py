"""A test or a value undefined where its guard is false (sympy's Mod by 0, a division by 0) is not an error:
the conjunction and the product that hold the guard are false and 0 there (sad.analysis.counting's
substitution). DGEQR's block count `MOD(M - N, MB - N)` under `MB.GT.N`: a driver calling it with MB = N
stopped the whole program's analysis with an internal error. Counts cross-checked against gcov."""
from __future__ import annotations

from pathlib import Path

from sad.analysis.pipeline import analyze
from tests.analysis.fixtures import gcov_rows, line_of

FIXTURE = str(Path(__file__).resolve().parent / "blas" / "modz.f")


def test_a_mod_by_zero_under_a_false_guard_is_counted_exactly(capsys):
    """tests/analysis/blas/modz.f: BLK(42, 40, MB, S) for MB = 38 to 42. MB = 41 and 42 pass the guard
    (MOD(2, 1) = MOD(2, 2) = 0: 2 and 1 blocks), MB = 38, 39 and 40 take NBLCKS = 1; at MB = 40 the MOD's
    divisor is 0. The loop runs 2 + 1 + 3 = 6 trips, and its line shows them with its 5 exits (gcov agrees on
    every line). Before: an internal error, nothing counted."""
    analysis = analyze([FIXTURE])
    assert not [d for d in analysis.diagnostics if d.severity == "error"]
    assert not analysis.table.unresolved()
    rows = gcov_rows(capsys, FIXTURE, "./modz")
    assert rows[line_of(FIXTURE, "IF (MOD(M - N, MB - N).EQ.0) THEN")] == ["2", "2"]
    assert rows[line_of(FIXTURE, "NBLCKS = 1")] == ["3", "3"]
    assert rows[line_of(FIXTURE, "S = S + I")] == ["11", "11"]
