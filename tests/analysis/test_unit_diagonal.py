"""A floating variable assigned in several places before a test of data in the same pass of a loop (BLAS's
DTRMM: `TEMP = ALPHA; IF (NOUNIT) TEMP = TEMP*A(K,K); IF (TEMP.NE.ONE) ...`): the test is ALPHA's where
DIAG is 'U', data's only where the diagonal multiplies in. It was decided as a test of data (true) for
both, so a DGEQRF driver past ILAENV's crossover, whose DLARFB calls DTRMM with 'Unit' and ONE, had its
scaling loop counted where it never runs. Checked by hand and against gcov."""
from __future__ import annotations

from pathlib import Path

from sad.analysis.description import line_counts
from sad.analysis.pipeline import analyze
from sad.cli.main import main

SCAL = Path(__file__).resolve().parent / "unitdiag" / "scal.f"


def test_a_unit_diagonal_with_alpha_one_scales_nothing(capsys):
    """SCAL('U', 12, 12, ONE, ...) scales no column; SCAL('N', ...) all 12 (the diagonal 3K/7 is never 1):
    B(I, K) = TEMP*B(I, K) runs 12 * 12 times, the test 24 times."""
    counts = {line: c for (_, line), c in line_counts(analyze([str(SCAL)]).counts).items()}
    assert counts[16] == 24 and counts[18] == 144
    rc = main(["check-counts", str(SCAL), "--require-bound", "--", "./scal"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out
