"""Recursion unrolled on known arguments (sad.analysis.recursion): every activation counted with its own
arguments, checked against hand-derived totals and gcov; calls whose arguments only a run can tell keep the
named activation count, with a note."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import sympy

from sad import ir
from sad.analysis import recursion
from sad.analysis.description import Event, line_counts
from sad.analysis.pipeline import analyze
from sad.cli.main import main

HERE = Path(__file__).resolve().parent / "recursion"


def counts_of(path: Path) -> tuple[dict[int, sympy.Expr], object]:
    analysis = analyze([str(path)])
    return {line: c for (_, line), c in line_counts(analysis.counts).items()}, analysis


def test_halving_recursion_in_a_blocked_loop_is_counted_activation_by_activation(capsys, tmp_path):
    """DGETRF's shape: panels of NB = 64 columns of a 150 x 150 matrix (widths 64, 64, 22), each split in
    halves down to single columns. A panel of width n runs 2n - 1 activations (n leaves), so 127 + 127 + 43
    = 297; the leaves are the 150 columns, column c (from 0) with 150 - c rows: 150 * 151 / 2 row updates.
    The panel width JB is set in the iteration (`JB = MIN(MIN(M, N) - J + 1, NB)`), and so is the test
    `J + JB .LE. N` (true for J = 1 and 65, false for J = 129)."""
    counts, analysis = counts_of(HERE / "halving.f")
    assert counts[6] == 297                       # IF (M .EQ. 1 .OR. N .EQ. 1): every activation
    assert counts[8] == 150 * 151 // 2            # W(I) = W(I) + 1: the leaves' rows
    assert counts[13] == counts[14] == 297 - 150  # the calls of the inner nodes
    assert counts[25] == 2                        # W(1) = W(1) + 1 under J + JB .LE. N
    assert not [p for p in analysis.table if p.cls == "unresolved"]
    rc = main(["check-counts", str(HERE / "halving.f"), "--require-bound", "--", "./halving"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out


def test_a_recursion_on_a_value_read_at_run_time_keeps_its_activation_count():
    """FACT(K) with K read: the activations per call are the parameter X_FACT_CALLS (with a note why);
    FACT(5) in the same program is unrolled: five activations, the last one takes the N <= 1 arm."""
    counts, analysis = counts_of(HERE / "readfact.f")
    x, p = sympy.Symbol("X_FACT_CALLS", nonnegative=True), sympy.Symbol("P_FACT_IF1", nonnegative=True)
    assert sympy.expand(counts[3] - (x + 5)) == 0
    assert sympy.expand(counts[4] - (x * p + 1)) == 0
    notes = [d.message for d in analysis.diagnostics if "not unrolled" in d.message]
    assert len(notes) == 1 and "it depends on K;" in notes[0], notes


def test_a_tree_past_the_activation_limit_is_not_unrolled(monkeypatch):
    """A limit of 3 activations: FACT(5) needs 5, so its count stays the parameter, with a note."""
    monkeypatch.setattr(recursion, "ACTIVATION_LIMIT", 3)
    monkeypatch.setattr(recursion.unroll, "__defaults__", (3, None))
    counts, analysis = counts_of(HERE.parent / "realcode" / "f90features.f")
    assert counts[3] == sympy.Symbol("X_FACT_CALLS", nonnegative=True)
    assert any("more than 3 activations" in d.message for d in analysis.diagnostics)


def test_c_recursions_with_known_arguments(capsys):
    """fib(12) by its definition runs 2 F(13) - 1 = 465 activations, F(13) = 233 of them leaves; a binary
    sum over 100 elements splits into 2 * 100 - 1 = 199 activations. Both equal gcov's counts."""
    counts, analysis = counts_of(HERE / "fibs.c")
    assert (counts[5], counts[6], counts[7]) == (465, 233, 232)
    assert (counts[13], counts[14], counts[16]) == (199, 100, 99)
    rc = main(["check-counts", str(HERE / "fibs.c"), "--require-bound", "--", "./fibs"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out


def test_a_value_carried_from_the_pass_before_is_not_taken_as_set_in_this_one():
    """IGL = IGL + IR1*K reads the IGL of the pass before (it starts each outer pass at (IBR-1)*K + 1): after
    IR1 = 0, 1, 2 it is base, base + 3 and base + 9. That is no formula in the indices, so the P loop's start
    stays the one run-time value IGL at every entry (12 entries), as loop bounds assigned in several places
    are; reading IGL + IR1*K as set in the same pass gave IGL, IGL + 3 and IGL + 6 at the three entries."""
    counts, _ = counts_of(HERE / "accum.f")
    igl = sympy.Symbol("ACC.IGL", integer=True)
    assert counts[11] == 12 * sympy.Max(0, 49 - igl)


def test_a_call_passing_values_not_known_there_stands_alone_where_stuck_is_given():
    """Activation 0 (N = 5) runs its statement twice and calls activation 1 with K, which is known nowhere
    (DGESVD's DORGBR passing its LWORK on to DORGLQ). With `stuck`, that call's events are the ones `stuck`
    gives for it, times how often it runs (3 calls per activation, 2 such activations: 6), and the rest is
    unrolled; without, the whole unrolling stops."""
    loc = ir.Loc("t.f", 1)
    statement = Event("A", loc, "stmt", Counter(), 0, 1)
    inner = Event("A", ir.Loc("t.f", 2), "recurse", Counter(), 0, 2)
    standing = Event("A", ir.Loc("t.f", 2), "library", Counter(), 0, 3)
    k = sympy.Symbol("K")

    def counts_of(tag: int, args: tuple) -> list[tuple[Event, sympy.Expr]]:
        return [(statement, sympy.Integer(2)), (inner, 3 * recursion.ACTIVATIONS(sympy.Integer(1), k))]

    given: list[tuple[sympy.Expr, str]] = []

    def stuck(event: Event, count: sympy.Expr, why: str) -> list[tuple[Event, sympy.Expr]]:
        given.append((count, why))
        return [(standing, count.xreplace({m: 1 for m in recursion.markers(count)}))]

    first = [(0, (sympy.Integer(5),), sympy.Integer(2))]
    assert recursion.unroll(first, counts_of, stuck=stuck) == {statement: 4, standing: 6}
    assert given[0][1] == "the call at t.f:2 passes values that are not known there (K)"
    with pytest.raises(recursion.NotUnrolled, match=r"not known there \(K\)"):
        recursion.unroll(first, counts_of)


@pytest.fixture
def deferring_leaf(monkeypatch):
    """deflate.f's LEAF (216 nodes in its K) past the bind limit: WINDOW defers its call (a marker)."""
    from sad.analysis import calls
    monkeypatch.setattr(calls, "BIND_LIMIT", 200)


def test_a_cycle_members_deferred_call_with_a_logical_constant_is_unrolled(deferring_leaf, capsys):
    """DGGES3's shape (DLAQZ0 <-> DLAQZ3, DLAQZ3 passing .TRUE. to DTGEXC, too large to take in): DRIVER(40)
    runs SWEEP on N = 40, 20, 10, 5, 2 and WINDOW on K = 20, 10, 5, 2, each calling LEAF(.TRUE., K). A
    LOGICAL constant is a known value (sympy's true is no number: the call was never unrolled), and WINDOW's
    K is registered before SWEEP's activation build marks its call (the marker passed nothing). LEAF's
    first loop runs MOD(K, 3) = 2 + 1 + 2 + 2 times, its test L > 4 holds for L = 6 ... 18 and 5, 8."""
    files = [str(HERE / "deflatemain.f"), str(HERE / "deflate.f")]
    analysis = analyze(files)
    counts = {(Path(f).name, line): c for (f, line), c in line_counts(analysis.counts).items()}
    assert counts["deflate.f", 13] == 5                         # SWEEP's activations
    assert counts["deflate.f", 22] == 4                         # CALL LEAF in WINDOW's
    assert counts["deflate.f", 30] == 7                         # X(L) = X(L) + 1
    assert not [p.name for p in analysis.table if p.cls == "unresolved"]
    assert not [d for d in analysis.diagnostics if d.severity == "warning"], analysis.diagnostics
    rc = main(["check-counts", *files, "--require-bound", "--", "./deflatemain"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out


def test_a_cycle_members_deferred_call_no_caller_binds_is_its_named_cost(deferring_leaf):
    """The same routines in library mode: the recursion's activations are parameters, and WINDOW's deferred
    call of LEAF, whose arguments no caller binds, is LEAF's named cost once per WINDOW activation, with a
    warning naming both; before, the marker reached the SAD and `sad check` stopped with KeyError 'recurse'."""
    analysis = analyze([str(HERE / "deflate.f")])
    assert not [e for e, c in analysis.counts.items() if e.role == "recurse" and c != 0]
    leaf = [c for e, c in analysis.counts.items() if "cost:C_LEAF" in e.cost]
    assert [str(c) for c in leaf] == ["X_WINDOW_CALLS"]
    warned = [d.message for d in analysis.diagnostics if "LEAF not expanded" in d.message]
    assert len(warned) == 1 and "recursive WINDOW" in warned[0] and "C_LEAF" in warned[0], warned


def test_the_formals_a_cycle_of_calls_writes_are_its_fixpoint(tmp_path):
    """Which formals the routines of a cycle of two may write: before, any routine met again on the way
    was taken to write all its formals, so WINDOW's K (only read) was an output and no call bound it.
    PING(A, B) passes B to PONG, which writes its first formal only when it is not 0 and passes its
    second back to PING: B is written (through PONG), A is not; PONG writes its first, not its second."""
    from sad.analysis.pipeline import build_procedures, load_program
    source = tmp_path / "pingpong.f"
    source.write_text("      RECURSIVE SUBROUTINE PING(A, B)\n      INTEGER A, B\n"
                      "      IF (A .GT. 0) CALL PONG(B, A - 1)\n      END\n"
                      "      RECURSIVE SUBROUTINE PONG(C, D)\n      INTEGER C, D\n"
                      "      IF (C .NE. 0) C = 0\n      CALL PING(D, C)\n      END\n")
    program, failed = load_program([str(source), str(HERE / "deflate.f")], [], {})
    assert not failed
    modified = build_procedures(program)[0].facts.modified
    assert [modified.may_modify(name, pos) for name, pos in
            [("PING", 0), ("PING", 1), ("PONG", 0), ("PONG", 1), ("WINDOW", 0), ("SWEEP", 0)]] == \
        [False, True, True, False, False, False]
