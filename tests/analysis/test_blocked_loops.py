"""Blocked loops whose block size is chosen in several places (LAPACK's DGETRI: NB from a function, cut to
LWORK / LDWORK where the workspace is short, a loop stepping back by NB from NN = ((N-1)/NB)*NB + 1):
the sum over the loop's index is exact, so the block sizes in its body (JB) and the calls they size are
counted at every call. Checked by hand and line by line against gcov."""
from __future__ import annotations

from pathlib import Path

from sad.analysis.description import line_counts
from sad.analysis.pipeline import analyze
from sad.cli.main import main

HERE = Path(__file__).resolve().parent / "blocked"


def _blocks(n: int, lwork: int, nb: int = 8) -> list[tuple[int, int]]:
    """INV's (J, JB) for each trip of its loop DO 50, as the Fortran runs it."""
    if lwork < n * nb:
        nb = lwork // n
    nn = ((n - 1) // nb) * nb + 1
    return [(j, min(nb, n - j + 1)) for j in range(nn, 0, -nb)]


def _upd_updates(n: int, blocks: list[tuple[int, int]]) -> int:
    """Executions of UPD's A(I, J) = ... over INV's calls of UPD(N, N-J-JB+1, ...)."""
    return sum(n * (n - j - jb + 1) for j, jb in blocks if j + jb <= n)


def _lines(files: list[str]):
    analysis = analyze([str(HERE / f) for f in files])
    return {(Path(file).name, line): c for (file, line), c in line_counts(analysis.counts).items()}, analysis


def test_a_block_size_cut_by_the_workspace_gives_exact_counts_at_each_call(capsys):
    """BLKINV calls INV with LWORK = 8N (NB = 8: 7 blocks) and 2N (NB = 2: 25 blocks). The loop's sum used to
    fail in sympy (LWORK/N probed at 0/0) and leave a named trip count X_INV_DO2 with its body unbound."""
    counts, analysis = _lines(["blkinv.f", "inv.f"])
    blocks = _blocks(50, 400) + _blocks(50, 100)
    assert len(_blocks(50, 400)) == 7 and len(_blocks(50, 100)) == 25
    assert counts["inv.f", 26] == len(blocks) == 32                            # JB = MIN(NB, N-J+1)
    assert counts["inv.f", 29] == 2 * sum(50 - jj for jj in range(1, 51))     # A(I, JJ) = 0.0D0
    assert counts["inv.f", 51] == _upd_updates(50, blocks) == 50 * (132 + 600)  # UPD's update
    assert not [p.name for p in analysis.table if p.cls == "unresolved"]
    assert not [d for d in analysis.diagnostics if "named count" in d.message]
    rc = main(["check-counts", str(HERE / "blkinv.f"), str(HERE / "inv.f"), "--require-bound", "--", "./blkinv"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out


def test_the_blocked_loop_in_library_mode_is_a_formula_of_the_formals():
    """INV analyzed alone: its counts are functions of N and LWORK (no trip count named, no stand-in left),
    equal to the hand counts of both workspace choices once bound."""
    counts, analysis = _lines(["inv.f"])
    assert not [p.name for p in analysis.table if p.kind == "loop_count"]
    jb, upd = counts["inv.f", 26], counts["inv.f", 51]
    names = {s.name: s for s in jb.free_symbols | upd.free_symbols}
    assert set(names) == {"INV.N", "INV.LWORK"}, names
    for lwork in (400, 150, 100):  # NB = 8, 3, 2
        bind = {names["INV.N"]: 50, names["INV.LWORK"]: lwork}
        blocks = _blocks(50, lwork)
        assert jb.xreplace(bind).doit() == len(blocks), lwork
        assert upd.xreplace(bind).doit() == _upd_updates(50, blocks), lwork
