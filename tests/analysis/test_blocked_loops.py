"""Blocked loops whose block size is chosen in several places (LAPACK's DGETRI: NB from a function, cut to
LWORK / LDWORK where the workspace is short, a loop stepping back by NB from NN = ((N-1)/NB)*NB + 1):
the sum over the loop's index is exact, so the block sizes in its body (JB) and the calls they size are
counted at every call. Checked by hand and line by line against gcov."""
from __future__ import annotations

from pathlib import Path

from sad.analysis import pipeline
from sad.analysis.description import line_counts
from sad.analysis.pipeline import analyze, build_procedures, load_program
from sad.cli.main import main
from tests.analysis.fixtures import gcov_rows, line_of

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


def _qrb_calls(m: int, n: int, lwork: int) -> list[tuple[int, int]]:
    """QRB's calls of UPD (its M, N), as the Fortran runs it (NBSZ: 8, 1 below 16; NXSZ: 16)."""
    k, nb, nx = min(m, n), (8 if n >= 16 else 1), 0
    if 1 < nb < k:
        nx = 16
        if nx < k and lwork < n * nb:
            nb = lwork // n
    calls, i = [], 1
    if 2 <= nb < k and nx < k:
        for i in range(1, k - nx + 1, nb):
            ib = min(k - i + 1, nb)
            calls.append((m - i + 1, ib))
            if i + ib <= n:
                calls.append((m - i + 1, n - i - ib + 1))
        i += nb
    if i <= k:
        calls.append((m - i + 1, n - i + 1))
    return calls


def test_the_columns_a_blocked_loop_leaves_are_counted_at_each_call(capsys):
    """BLKQR calls QRB (DGEQRF's shape) with NB = 8, NB = 3 and NB = 1. The last call, UPD(M-I+1, N-I+1)
    with I the index the blocked loop exits with (or 1), used to leave UPD's sizes unbound: its value
    was not followed through the test `IF (I.LE.K)` that guards the call and needs that same value."""
    calls = _qrb_calls(50, 50, 400) + _qrb_calls(50, 50, 150) + _qrb_calls(10, 10, 400)
    assert calls[-1] == (10, 10) and _qrb_calls(50, 50, 150)[-1] == (14, 14) and len(calls) == 37
    counts, analysis = _lines(["blkqr.f", "qrb.f", "inv.f"])
    assert counts["inv.f", 51] == sum(m * n for m, n in calls) == 21570  # UPD's A(I, J) = ...
    assert not [p.name for p in analysis.table if p.cls == "unresolved"]
    rc = main(["check-counts", *(str(HERE / f) for f in ("blkqr.f", "qrb.f", "inv.f")), "--require-bound", "--",
               "./blkqr"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out


def _kept(files: list[str]) -> dict[str, list[str]]:
    """The stand-ins each routine's build keeps in its counts (their values bound at each call)."""
    ctx, _graph = build_procedures(load_program([str(HERE / f) for f in files], [], {})[0])
    return {name: sorted(s.name for s in kept) for name, kept in sorted(ctx.standins.items()) if kept}


def test_stand_ins_are_kept_in_the_callee_and_bound_at_each_call():
    """The stand-ins NB, NX of INV's and QRB's blocked loops stay in the callee's counts (put back at every
    loop, DGEQRF's would need 3.1 million nodes, and rebuilding the choices' Piecewise made a library run
    of LAPACK minutes slower); each call binds them with its arguments: the counts of the drivers above
    are exact with them kept."""
    assert _kept(["blkinv.f", "inv.f"]) == {"inv": ["_NB_INV_DO2", "_NN_INV_DO2"]}
    kept = _kept(["blkqr.f", "qrb.f", "inv.f"])
    assert kept["qrb"][:2] == ["_NB_QRB_DO1", "_NX_QRB_DO1"], kept
    counts, analysis = _lines(["blkqr.f", "qrb.f", "inv.f"])
    assert counts["inv.f", 51] == 21570 and counts["qrb.f", 28] == 5 + 12  # IB = MIN(K-I+1, NB)
    assert not [p.name for p in analysis.table if p.cls == "unresolved"]


def test_stand_ins_no_call_binds_are_named_values(monkeypatch):
    """INV alone with its counts too large to write out with the choices in them (below DGEQRF's 3.1
    million nodes, with the limit lowered here): the stand-ins are named values of the root, indirect
    parameters whose value is the choice, with a note, never a symbol no table knows; bound by hand they
    give the exact counts."""
    monkeypatch.setattr(pipeline, "ROOT_PUT_BACK", 20)
    counts, analysis = _lines(["inv.f"])
    named = {p.name: p for p in analysis.table if p.description == "a loop bound chosen in several places"}
    assert sorted(named) == ["NB_INV_DO2", "NN_INV_DO2"], named  # NN = ((N-1)/NB)*NB + 1 as well
    assert {p.cls for p in named.values()} == {"indirect"}
    nb = named["NB_INV_DO2"].value
    assert {s.name for s in nb.free_symbols} == {"INV.N", "INV.LWORK"}
    assert [nb.subs({s: v for s in nb.free_symbols for v in [{"INV.N": 50, "INV.LWORK": lw}[s.name]]})
            for lw in (400, 150, 100)] == [8, 3, 2]
    assert any(d.message.startswith("INV: NB_INV_DO2 is a parameter") for d in analysis.diagnostics)
    jb = counts["inv.f", 26]
    names = {s.name: s for s in jb.free_symbols}
    assert set(names) <= {"INV.N", "INV.LWORK", *named} and "NB_INV_DO2" in names, names
    bind = {"INV.N": 50, "INV.LWORK": 400, "NB_INV_DO2": 8, "NN_INV_DO2": 49}  # NB = 8: blocks at 49, ..., 1
    assert jb.xreplace({s: bind[name] for name, s in names.items()}).doit() == len(_blocks(50, 400)) == 7


def _trd_lengths(n: int, lwork: int) -> list[int]:
    """The lengths TRD passes to CLN (N-I-NB+1) on each trip of its loop DO 40, as the Fortran runs it."""
    nb, nx = 8, max(8, 12)
    if lwork < n * nb:
        nb = max(lwork // n, 1)
    return [n - i - nb + 1 for i in range(1, n - nx + 1, nb)]


def test_a_callee_sized_by_the_index_and_a_chosen_block_size_is_counted_per_call(capsys):
    """DSYTRD's shape: a forward blocked loop `DO 40 I = 1, N - NX, NB`, NB chosen in several places (cut by
    the workspace) and passed to a routine that only reads it, calls CLN(N-I-NB+1, ...), whose quick return
    and unrolled clean-up loop (M = MOD(N, 4)) test that length. Before: the length had no value at the
    call (NB's choices and the index together), CLN's tests became probabilities and the loop a named count
    (13 of 54 lines unbound). Now each choice stands in for itself, bound at the driver's calls, and every
    line equals gcov's."""
    counts, analysis = _lines(["blktrd.f", "trd.f"])
    lengths = _trd_lengths(50, 400) + _trd_lengths(50, 150)
    assert _trd_lengths(50, 400) == [42, 34, 26, 18, 10] and len(_trd_lengths(50, 150)) == 13
    assert counts["trd.f", 57] == sum(n % 4 for n in lengths) == 31      # the clean-up loop's body
    assert counts["trd.f", 59] == sum(1 for n in lengths if n % 4) == 15  # IF (N.LT.4) RETURN
    assert counts["trd.f", 65] == sum(n // 4 for n in lengths) == 119     # the unrolled loop's body
    assert not [p.name for p in analysis.table if p.cls == "unresolved"]
    rc = main(["check-counts", str(HERE / "blktrd.f"), str(HERE / "trd.f"), "--require-bound", "--", "./blktrd"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out and "unbound" not in out.splitlines()[-1], out


def _rqb_scaled(n: int, nb: int = 8, nx: int = 10) -> int:
    """Executions of SCL's X(I) = 2 * X(I) over RQ(N, N, N, ..., 8N)'s calls of R2, as the Fortran runs it."""
    kk = min(n, ((n - nx + nb - 1) // nb) * nb)

    def r2(m: int, cols: int, k: int) -> int:  # R2's calls of SCL(N - M + II - 1, ...), their trips
        return sum(max(0, cols - m + ii - 1) for ii in range(m - k + 1, m + 1))

    blocks = [(min(nb, n - i + 1), i) for i in range(n - kk + 1, n + 1, nb)]
    return r2(n - kk, n - kk, n - kk) + sum(r2(ib, i + ib - 1, ib) for ib, i in blocks)


def test_a_sum_over_blocks_of_a_sum_over_rows_closes_exactly_at_the_call(capsys):
    """RQB calls RQ (DORGRQ's shape: NB chosen in two places, a first unblocked call of R2, then one per
    block of NB rows); R2 calls SCL with a length that grows with its row. RQ's count of SCL's loop is a
    sum over the blocks (k) of a sum over each block's rows (k1), closed where RQB's numbers are bound
    (counting.resum): the inner one, summed over its own index replaced by k, added up 33k + ... where the
    summand is 32k + k1 + ... (1292 where gcov counts 780; LAPACK's DORGRQ at N = 200: 64444, not 19900)."""
    fixture = str(HERE / "rqb.f")
    rows = gcov_rows(capsys, fixture, "./rqb")
    assert rows[line_of(fixture, "X(I) = 2.0D0 * X(I)")] == [str(_rqb_scaled(40))] * 2 == ["780", "780"]
