"""A character option chosen through IF arms and passed on (LAPACK's DLARFB: TRANST = 'T' where TRANS is
'N', else 'N', then CALL DTRMM(..., TRANST, ...)): the callee's tests on it are bound at each call, as a
literal's are. They were probabilities, and every line under them unbound, in a DGEQRF driver past
ILAENV's crossover. Checked by hand and against gcov."""
from __future__ import annotations

from pathlib import Path

from sad.analysis.description import line_counts
from sad.analysis.pipeline import analyze
from sad.cli.main import main

TRANST = Path(__file__).resolve().parent / "chararg" / "transt.f"


def test_an_option_chosen_in_if_arms_is_bound_at_each_call(capsys):
    """APPLY('N', 7, X) passes 'T' (SWEEP's second arm: 14 halvings), APPLY('T', 7, X) passes 'N' (7
    increments)."""
    analysis = analyze([str(TRANST)])
    counts = {line: c for (_, line), c in line_counts(analysis.counts).items()}
    assert counts[24] == 7 and counts[28] == 14
    assert not [p.name for p in analysis.table if p.kind == "branch_probability"]
    rc = main(["check-counts", str(TRANST), "--require-bound", "--", "./transt"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out
