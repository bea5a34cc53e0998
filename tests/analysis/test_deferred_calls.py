"""Callees too large to take into a routine's own build (DTRTRI and DLAUUM in DPOTRI's): kept as a marker of
the call there and expanded from their own counts where a caller's caller binds the arguments to numbers,
inside the sums over the routine's loops. Checked line by line against gcov."""
from __future__ import annotations

from pathlib import Path

import pytest

from sad.analysis import calls
from sad.analysis.description import line_counts
from sad.analysis.pipeline import analyze
from sad.cli.main import main

HERE = Path(__file__).resolve().parent / "deferred"


@pytest.fixture
def small_limit(monkeypatch):
    """LEAF's counts (216 nodes in its formal K) past the bind limit, ROUT's (with LEAF's marker) within it."""
    monkeypatch.setattr(calls, "BIND_LIMIT", 200)


def _lines(files: list[str]):
    analysis = analyze([str(HERE / f) for f in files])
    return {(Path(file).name, line): c for (file, line), c in line_counts(analysis.counts).items()}, analysis


def test_a_callee_over_the_limit_is_expanded_where_its_arguments_are_numbers(small_limit, capsys):
    """CHAIN calls ROUT(J + 2) for J = 1 ... 40, ROUT calls LEAF(M - I + 1) for I = 1, 3, ... M, and LEAF's
    early RETURN and loops depend on its K: each call's K, counted here by hand, gives every count. Without
    the deferral LEAF's lines are its named call cost C_LEAF, unbound."""
    counts, analysis = _lines(["chain.f", "rout.f"])
    ks = [m - i + 1 for m in range(3, 43) for i in range(1, m + 1, 2)]  # LEAF's K at each of its calls
    runs = [k for k in ks if k > 1]                                      # past IF (K.LE.1) RETURN
    assert counts["rout.f", 5] == counts["rout.f", 12] == len(ks) == 460  # CALL LEAF, IF (K.LE.1) RETURN
    assert counts["rout.f", 13] == len(runs) == 440                      # DO 40 L = 1, MOD(K, 3)
    assert counts["rout.f", 14] == sum(k % 3 for k in runs)              # X(L) = X(L) + 1
    assert counts["rout.f", 17] == sum(len(range(k % 3 + 1, k + 1, 3)) for k in runs)  # IF (L.GT.4) ...
    assert not [p.name for p in analysis.table if p.cls == "unresolved"]
    assert not [d for d in analysis.diagnostics if "not expanded" in d.message]
    rc = main(["check-counts", str(HERE / "chain.f"), str(HERE / "rout.f"), "--require-bound", "--", "./chain"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out


def test_a_callee_over_the_limit_that_no_caller_binds_is_its_named_cost(small_limit):
    """ROUT analyzed alone (library mode): its M is never a number, so LEAF stays its named cost per call,
    C_LEAF, once per call of ROUT's loop ((M + 1) // 2 of them), with the warning."""
    _, analysis = _lines(["rout.f"])
    warned = [d.message for d in analysis.diagnostics if "LEAF not expanded" in d.message]
    assert len(warned) == 1 and "C_LEAF" in warned[0], warned
    calls_of_leaf = [c for e, c in analysis.counts.items() if "cost:C_LEAF" in e.cost]
    assert len(calls_of_leaf) == 1
    m = next(s for s in calls_of_leaf[0].free_symbols if s.name.endswith("M"))
    assert [calls_of_leaf[0].subs(m, v).doit() for v in (1, 2, 5, 6)] == [1, 1, 3, 3]


def test_a_summary_with_a_deferred_call_is_expanded_where_it_is_reused(small_limit, tmp_path):
    """ROUT's summary, built by its own unit with LEAF's call deferred (its marker names LEAF by a number of
    that program), taken into a unit whose CALLER calls ROUT(9): LEAF runs for K = 9, 7, 5, 3, 1, its
    loops past the RETURN four times, as in a fresh build."""
    from sad.analysis.pipeline import build_procedures, load_program
    from sad.analysis.summaries import SummaryStore

    rout = str(HERE / "rout.f")
    caller = tmp_path / "caller.f"
    caller.write_text("      SUBROUTINE CALLER(X)\n      DOUBLE PRECISION X(*)\n      CALL ROUT(9, X)\n      END\n")

    def build(files: list[str], store: SummaryStore | None, fresh: str):
        program, failed = load_program(files, [], {})
        assert not failed
        digests = {path: Path(path).read_text() for path in files}
        return build_procedures(program, summaries=(store, digests, {fresh}) if store is not None else None)[0]

    def leaf_lines(ctx):
        return {line: c for (path, line), c in line_counts(ctx.built["caller"].counts).items()
                if Path(path).name == "rout.f"}

    store = SummaryStore()
    build([rout], store, rout)
    reused = build([str(caller), rout], store, str(caller))
    assert store.reused == 2  # ROUT and LEAF
    counts = leaf_lines(reused)
    assert counts[5] == counts[12] == 5 and counts[13] == 4   # CALL LEAF, its RETURN test, DO 40
    assert counts[14] == sum(k % 3 for k in (9, 7, 5, 3))      # X(L) = X(L) + 1
    assert counts == leaf_lines(build([str(caller), rout], None, str(caller)))


def test_a_routine_past_the_limit_is_expanded_call_by_call_where_a_caller_passes_numbers(monkeypatch, capsys):
    """TOP's counts (392 nodes in its N, MID's 172 summed over its loop) past a bind limit of 300, MID's
    within it: TOP gets a deferring build, its calls of MID kept as markers, which DEEP's calls TOP(30) and
    TOP(17) expand with each panel's numbers. Every line equals gcov's; before, TOP's and MID's lines were
    the named C_TOP per call, unbound (DSYTRD's 1 051 lines in a LAPACK driver)."""
    monkeypatch.setattr(calls, "BIND_LIMIT", 300)
    fixture = str(HERE / "deep.f")
    counts, analysis = _lines(["deep.f"])
    assert not [p.name for p in analysis.table if p.cls == "unresolved"]
    assert not [d for d in analysis.diagnostics if "not expanded" in d.message]
    ms = [n - i + 1 for n in (30, 17) for i in range(1, n + 1, 4)]
    assert counts["deep.f", 19] == len(ms) == 13                              # CALL MID
    assert counts["deep.f", 28] == sum(min(4, m) * (m % 3) for m in ms if m > 2)  # W(L) = W(L) + 1
    rc = main(["check-counts", fixture, "--require-bound", "--", "./deep"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out


def _driver(name: str, calls: int, routine: str) -> str:
    """A program calling `routine(J + 2, MOD(J, 2) .EQ. 0, X)` for J = 1 ... calls, LEAF's X of 60."""
    return f"""      PROGRAM {name}
      INTEGER N, J
      PARAMETER (N = 60)
      DOUBLE PRECISION X(N)
      DO 10 J = 1, N
         X(J) = 1.0D0
   10 CONTINUE
      DO 20 J = 1, {calls}
         CALL {routine}(J + 2, MOD(J, 2) .EQ. 0, X)
   20 CONTINUE
      PRINT *, X(1)
      END

"""


_WIDE = _driver("WIDE", 20, "ROUTW") + """      SUBROUTINE ROUTW(M, WIDE, X)
      INTEGER M, IW
      LOGICAL WIDE
      DOUBLE PRECISION X(*)
      IF (WIDE) THEN
         IW = M
         CALL LEAF(IW + 1, X)
      ELSE
         IW = M / 2
         CALL LEAF(IW + 2, X)
      END IF
      END
"""


def test_a_deferred_call_passing_an_expression_of_a_variable_set_in_several_places(small_limit, tmp_path, capsys):
    """ROUTW passes LEAF IW + 1 and IW + 2, IW set in two arms (DGESVD's LWORK-IWORK+1 at its calls of
    DORGBR, IWORK set in each of its paths): the value at each call, M + 1 and M/2 + 2, binds the deferred
    LEAF at each of the 20 calls, so every line equals gcov's with nothing bound. Taken as not known, the
    arguments left ROUTW its cost per call, C_ROUTW."""
    (tmp_path / "wide.f").write_text(_WIDE)
    analysis = analyze([str(tmp_path / "wide.f"), str(HERE / "rout.f")])
    assert not [d.message for d in analysis.diagnostics if "not expanded" in d.message]
    assert not [p.name for p in analysis.table if p.cls == "unresolved"]
    rc = main(["check-counts", str(tmp_path / "wide.f"), str(HERE / "rout.f"), "--require-bound", "--", "./wide"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out


_SIDES = _driver("SIDES", 10, "ROUTS") + """      SUBROUTINE ROUTS(M, LEFT, X)
      INTEGER M, I, MI, NI
      LOGICAL LEFT
      DOUBLE PRECISION X(*)
      IF (LEFT) THEN
         NI = M
      ELSE
         MI = M
      END IF
      DO 30 I = 1, M, 2
         IF (LEFT) THEN
            MI = M - I + 1
         ELSE
            NI = M - I + 1
         END IF
         CALL LEAF(NI, X)
         X(1) = X(1) + MI
   30 CONTINUE
      END
"""


def test_a_deferred_call_carries_a_choice_too_large_to_bind_into_counts(small_limit, monkeypatch, tmp_path, capsys):
    """ROUTS passes LEAF NI: M set before its loop where LEFT holds, M - I + 1 set in it where not (DORMRQ's
    NI, 102 nodes, passed to DLARFB). With the largest choice bound into counts set below that one, the choice is
    still carried in LEAF's deferred marker and bound where SIDES passes numbers: every line equals gcov's
    with nothing bound. Before, NI was not known there and ROUTS's calls of LEAF were its cost, C_LEAF."""
    monkeypatch.setattr(calls, "_CONDITIONAL_ARGUMENT_NODES", 1)
    (tmp_path / "sides.f").write_text(_SIDES)
    analysis = analyze([str(tmp_path / "sides.f"), str(HERE / "rout.f")])
    assert not [d.message for d in analysis.diagnostics if "not expanded" in d.message]
    assert not [p.name for p in analysis.table if p.cls == "unresolved"]
    rc = main(["check-counts", str(tmp_path / "sides.f"), str(HERE / "rout.f"), "--require-bound", "--",
               "./sides"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out
