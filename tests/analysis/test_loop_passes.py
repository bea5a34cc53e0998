"""A variable a loop sets in some passes and its entry in the others (sad.analysis.conditional): DORMQR's
`NI = N` before its loop where LEFT, `NI = N - I + 1` in each pass where not, both passed to DLARFB. The use
sees one or the other as the option chooses, so each call's sizes are known and the callee's tests and loops
exact. Counts against gcov."""
from __future__ import annotations

from pathlib import Path

from sad.analysis.pipeline import analyze
from sad.cli.main import main

FIXTURE = str(Path(__file__).resolve().parent / "loopopts" / "sides.f")


def test_sizes_set_before_a_loop_or_in_its_passes_as_the_side_chooses(capsys):
    """APPLY('L', 12, 7) passes SCALE (12, 7), (9, 7), (6, 7): its `IF (N .LE. 7) RETURN` returns from each;
    APPLY('R', 9, 12) passes (9, 12), (9, 9), (9, 6): two run their loops, 9 x (12 + 9) = 189 products.
    Before: SCALE's M and N were not known at the call (NI's value in the loop was the previous pass's or
    the entry's), 4 lines unbound."""
    analysis = analyze([FIXTURE])
    assert not [p.name for p in analysis.table.unresolved()]
    rc = main(["check-counts", FIXTURE, "--require-bound", "--", "./sides"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out
    counts = {row.split()[0].rsplit(":", 1)[1]: row.split()[1:3] for row in out.splitlines()
              if row.startswith(str(Path(FIXTURE))) and " arm " not in row}
    assert counts["46"] == ["189", "189"] and counts["43"] == ["6", "6"], out


def test_a_size_the_previous_pass_sets_is_not_taken_from_the_entry(tmp_path):
    """Both sizes set before the loop, the pass sets one of them after its use: the use in pass 2 sees pass
    1's value, not the entry's. The size stays unknown (SCALE's M a named value), never the entry's."""
    source = tmp_path / "after.f"
    text = Path(FIXTURE).read_text().replace("      IF (LEFT) THEN\n         NI = N\n      ELSE\n         MI = M\n"
                                             "      END IF\n", "      NI = N\n      MI = M\n")
    source.write_text(text.replace(
        "         IF (LEFT) THEN\n            MI = M - I + 1\n         ELSE\n            NI = N - I + 1\n"
        "         END IF\n         CALL SCALE(MI, NI, C)\n",
        "         CALL SCALE(MI, NI, C)\n         IF (LEFT) THEN\n            MI = M - I + 1\n"
        "         ELSE\n            NI = N - I + 1\n         END IF\n"))
    analysis = analyze([str(source)])
    assert "SCALE.M" in {p.name for p in analysis.table.unresolved()}


def test_an_index_after_its_loop_is_the_first_value_past_the_last_trip(capsys):
    """DGEBRD's shape: `DO 30 I = 1, N - NX, NB` then `CALL TAIL(N - I + 1, ...)`, I's only definition the
    loop. BLOCKD(5) runs no trip (TAIL(5): 5 updates), BLOCKD(23) five (I = 21, TAIL(3) returns). Before: I
    after the loop had no value, TAIL's M unbound (DGEBD2's 237 lines in a DGEBRD driver at N = 80)."""
    fixture = str(FIXTURE.replace("sides.f", "after.f"))
    analysis = analyze([fixture])
    assert not [p.name for p in analysis.table.unresolved()]
    rc = main(["check-counts", fixture, "--require-bound", "--", "./after"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out
    rows = [row.split() for row in out.splitlines() if row.startswith(fixture + ":35 ")]
    assert rows and rows[0][1:3] == ["5", "5"], out


def test_a_logical_chosen_in_ifs_is_the_condition_it_holds_under(capsys):
    """DGELS's `TPSD = .TRUE.` then `IF (LSAME(TRANS, 'N')) TPSD = .FALSE.`: TPSD is TRANS not 'N', so
    `IF (TPSD) BROW = N` gives BROW 3 for 'N' and 5 for 'T' (8 PRINTs). Before: a logical chosen in IFs had
    no value, `IF (TPSD)` was a probability and 5 lines unbound."""
    fixture = FIXTURE.replace("sides.f", "tpsd.f")
    analysis = analyze([fixture])
    assert not [p.name for p in analysis.table.unresolved()]
    rc = main(["check-counts", fixture, "--require-bound", "--", "./tpsd"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out
    rows = [row.split() for row in out.splitlines() if row.startswith(fixture + ":18 ")]
    assert rows and rows[0][1:3] == ["8", "8"], out


def test_a_value_set_only_on_the_paths_that_reach_its_use(capsys):
    """LAPACK's workspace query (DGERQF, DGEQLF, DORGQL): NB is set only under `IF (INFO.EQ.0)` where K is
    not 0, in an IF within an IF, and read past `IF (INFO.NE.0) RETURN` and `IF (K.EQ.0) RETURN`. Every
    path that reads it has set it (the undefined pieces of the nested choice dropped), so BLOCKS's tests on
    NB are exact: by hand, NB = 4 at (20, 30, LWORK 100), 5 blocks; cut to LWORK/M = 40/20 = 2 at LWORK 40,
    10 blocks; M = 0 returns before, where NB = LWORK/M would divide by 0: that path's count is 0, and the
    call is still bound (not priced as C_BLOCKS). 15 WORK(I) stores; gcov agrees. Before: the tests on NB
    were probabilities, 4 lines unbound (and every line of DGERQF's blocked loop in a driver)."""
    fixture = FIXTURE.replace("sides.f", "query.f")
    analysis = analyze([fixture])
    assert not [p.name for p in analysis.table.unresolved()]
    assert not [d for d in analysis.diagnostics if "not expanded" in d.message]
    rc = main(["check-counts", fixture, "--require-bound", "--", "./query"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out
    rows = [row.split() for row in out.splitlines() if row.startswith(fixture + ":51 ")]
    assert rows and rows[0][1:3] == ["15", "15"], out
