"""Facts a guard leaves: past `IF (INFO.NE.0) THEN; CALL XERBLA(...); RETURN; ELSE IF (LQUERY) RETURN`, the
argument checks that set INFO all failed, so a value assigned under `IF (INFO.EQ.0)` before the guard (the
block size from ILAENV, in LAPACK's shape) is the value the rest of the routine uses. Checked against gcov."""
from __future__ import annotations

from pathlib import Path

from sad.analysis.description import line_counts
from sad.analysis.pipeline import analyze
from sad.cli.main import main

HERE = Path(__file__).resolve().parent / "guards"


def test_a_block_size_set_under_info_zero_is_known_past_the_guard(capsys):
    """BLKD('U', 50, ...) with LWORK = 64 * 50: NB = ILAENV(1, N) = 8 is set under `IF (INFO.EQ.0)` and
    reassigned after the guard (DSYTRF's shape), so the value at `IF (NB.GT.1 .AND. NB.LT.N)` is a choice
    whose other arm (NB not set) the guard rules out. Then 8 < 50 and LWORK = 3200 >= 50 * 8: NB stays 8,
    the blocked loop runs ceil(50 / 8) = 7 blocks and its body 50 times, with nothing left unbound."""
    counts = {line: c for (_, line), c in line_counts(analyze([str(HERE / "blocked.f")]).counts).items()}
    assert counts[45] == 1 and counts[46] == 1 and counts.get(47, 0) == 0   # IF (NB...), NB = MAX(...) not run
    assert counts[53] == 7 and counts[54] == 50                           # the blocks, the body
    rc = main(["check-counts", str(HERE / "blocked.f"), "--require-bound", "--", "./blocked"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out and "unbound" not in out.split("summary:")[1], out
