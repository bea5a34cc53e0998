"""Conditional assignments backtraced to Min/Max/Piecewise (sad.analysis.conditional): the loop a guarded
value bounds is counted exactly, checked against hand-derived closed forms and, for one program, against
gcov on a real run."""
from __future__ import annotations

from pathlib import Path

import pytest
import sympy

from sad.analysis import values
from sad.analysis.pipeline import analyze
from sad.cli.main import main
from tests.analysis.fixtures import gcov_rows, line_of

N = sympy.Symbol("N", integer=True)
K = sympy.Symbol("K", integer=True)


def _fortran(body: str, decls: str = "INTEGER N, K, M, I, S") -> str:
    lines = ["      PROGRAM T", f"      {decls}", "      READ (5, *) N, K"]
    lines += [f"      {line}" if not line[:1].isdigit() else "{:>5} {}".format(*line.split(None, 1))
              for line in body.strip().splitlines()]
    lines += ["      S = 0", "      DO 90 I = 1, M", "         S = S + I", "   90 CONTINUE",
              "      WRITE (6, *) S", "      END"]
    return "\n".join(lines) + "\n"


def _body_count(tmp_path: Path, source: str, suffix: str = ".f", marker: str = "S = S + I"):
    path = tmp_path / f"t{suffix}"
    path.write_text(source)
    analysis = analyze([str(path)])
    line = next(k for k, text in enumerate(source.splitlines(), 1) if marker in text)
    counts = [c for e, c in analysis.counts.items() if e.loc.line == line and e.role == "stmt"]
    assert len(counts) == 1, counts
    return counts[0], analysis


def _values(expr, points):
    return [int(expr.subs({N: n, K: k})) for n, k in points]


POINTS = [(n, k) for n in (-3, 0, 1, 7, 80, 81, 82, 200, 1000) for k in (-1, 0, 5, 150)]


@pytest.mark.parametrize("guard", ["IF (M .GT. 40) M = 40", "IF (40 .LT. M) M = 40", "IF (M .GE. 40) M = 40",
                                   "IF (M .GT. 40) THEN\nM = 40\nENDIF"])
def test_guarded_reassignment_is_a_min(tmp_path, guard):
    count, analysis = _body_count(tmp_path, _fortran(f"M = N / 2\n{guard}"))
    assert count.has(sympy.Min) and not count.has(sympy.Piecewise)
    assert _values(count, POINTS) == [max(0, min(int(n / 2), 40)) for n, _ in POINTS]
    assert [p.name for p in analysis.table.unresolved()] == ["N"]


@pytest.mark.parametrize("guard", ["IF (M .LT. K) M = K", "IF (K .GT. M) M = K"])
def test_guarded_reassignment_is_a_max(tmp_path, guard):
    count, _ = _body_count(tmp_path, _fortran(f"M = N - 3\n{guard}"))
    assert count.has(sympy.Max)
    assert _values(count, POINTS) == [max(0, max(n - 3, k)) for n, k in POINTS]


def test_if_else_and_else_if_are_a_piecewise(tmp_path):
    body = """M = 1
IF (N .GT. 100) THEN
M = 2*N
ELSE IF (N .EQ. 7 .OR. K .LT. 0) THEN
M = N + K
ELSE
M = 3
ENDIF"""
    count, _ = _body_count(tmp_path, _fortran(body))
    assert count.has(sympy.Piecewise)

    def by_hand(n, k):
        m = 2 * n if n > 100 else (n + k if n == 7 or k < 0 else 3)
        return max(0, m)
    assert _values(count, POINTS) == [by_hand(n, k) for n, k in POINTS]


def test_nested_guards(tmp_path):
    body = """M = N
IF (M .GT. 50) THEN
IF (K .GT. 0) M = 50
ENDIF
IF (M .LT. 2) M = 2"""
    count, _ = _body_count(tmp_path, _fortran(body))

    def by_hand(n, k):
        m = n
        if m > 50 and k > 0:
            m = 50
        return max(0, max(m, 2))
    assert _values(count, POINTS) == [by_hand(n, k) for n, k in POINTS]


def test_use_between_the_definitions_sees_the_value_there(tmp_path):
    source = _fortran("M = N\nDO 5 I = 1, M\nS = S + 1\n5 CONTINUE\nIF (M .GT. 3) M = 3")
    count, _ = _body_count(tmp_path, source, marker="S = S + 1")
    assert count == sympy.Max(0, N)
    count, _ = _body_count(tmp_path, source)
    assert _values(count, POINTS) == [max(0, min(n, 3)) for n, _ in POINTS]


def test_a_guard_on_data_read_at_run_time_is_a_piecewise_in_that_named_value(tmp_path):
    """A condition on an element read at run time: the value is a Piecewise in that named unknown (A_2),
    exact once it is bound; no branch probability and no folding."""
    source = _fortran("READ (5, *) A\nM = N\nIF (A(2) .GT. 0) M = 5", decls="INTEGER N, K, M, I, S, A(3)")
    count, analysis = _body_count(tmp_path, source)
    a2 = sympy.Symbol("A_2", integer=True)
    assert count.free_symbols == {N, a2}
    assert [int(count.subs({N: 9, a2: a})) for a in (-1, 0, 1)] == [9, 9, 5]
    assert analysis.table.get("A_2").description == "array element set at run time"
    assert not [p for p in analysis.table if p.kind == "branch_probability"]


def test_a_guard_on_a_function_result_stays_unresolved(tmp_path):
    """A condition the backtracer cannot follow (a user function's result) leaves M a run-time value."""
    source = _fortran("M = N\nIF (F(K) .GT. 0) M = 5", decls="INTEGER N, K, M, I, S, F\n      EXTERNAL F")
    count, analysis = _body_count(tmp_path, source)
    assert count.free_symbols == {sympy.Symbol("M", integer=True)}
    assert analysis.table.get("M").cls == "unresolved"


def test_a_routine_called_in_a_loop_does_not_see_its_first_entry_value(tmp_path):
    """A COMMON value a routine updates on every call (a random seed) is not the DATA/initial value on
    the later calls: the guard on it stays a probability, not folded from the first call's value."""
    source = """      PROGRAM T
      INTEGER I, ISEED
      COMMON /R/ ISEED
      ISEED = 4711
      DO 10 I = 1, 100
         CALL STEP
   10 CONTINUE
      END
      SUBROUTINE STEP
      INTEGER ISEED
      COMMON /R/ ISEED
      ISEED = ISEED * 16807 - 2147483647
      IF (ISEED .LT. 0) ISEED = ISEED + 2147483647
      END
"""
    path = tmp_path / "seed.f"
    path.write_text(source)
    analysis = analyze([str(path)])
    assert [p.name for p in analysis.table if p.kind == "branch_probability"] == ["P_STEP_IF1"]


C_SOURCE = """#include <stdio.h>
#define MMAX 40
int main(void) {
    int n, k, m, i, s = 0, big;
    if (scanf("%d %d", &n, &k) != 2) return 1;
    m = n / 2;
    if (m > MMAX)
        m = MMAX;
    big = m >= 3;
    if (big) {
        k = m * m;
    } else {
        k = k > 0 ? k : -k;
    }
    for (i = 0; i < k; i++)
        s += i;
    printf("%d\\n", s);
    return 0;
}
"""


def test_c_guard_if_else_flag_and_ternary(tmp_path):
    n, k = sympy.Symbol("n", integer=True), sympy.Symbol("k", integer=True)
    count, _ = _body_count(tmp_path, C_SOURCE, ".c", marker="s += i")

    def by_hand(nv, kv):
        m = min(int(nv / 2), 40)
        return max(0, m * m if m >= 3 else abs(kv))
    points = [(nv, kv) for nv in (-5, 0, 5, 6, 7, 80, 81, 500) for kv in (-4, 0, 9)]
    assert [int(count.subs({n: nv, k: kv})) for nv, kv in points] == [by_hand(nv, kv) for nv, kv in points]


def test_c_guarded_counts_equal_gcov(capsys, tmp_path):
    """The real run: every line's count from the Min/Piecewise formula equals gcov's."""
    source = tmp_path / "guard.c"
    source.write_text(C_SOURCE)
    for nv, kv in ((9, 4), (100, -7)):
        (tmp_path / "in.txt").write_text(f"{nv} {kv}\n")
        rc = main(["check-counts", str(source), "-D", f"n={nv}", "-D", f"k={kv}", "--require-bound", "--",
                   f"./guard < {tmp_path / 'in.txt'}"])
        out = capsys.readouterr().out
        assert rc == 0, out
        assert "MISMATCH" not in out and " ok " in out


_SET_UNDER_CHECKS = """      PROGRAM G
      DOUBLE PRECISION A(40)
      CALL SUB('N', 30, A, 5)
      CALL SUB('T', 30, A, 5)
      CALL SUB('N', 12, A, 5)
      PRINT *, A(1)
      END
      SUBROUTINE SUB(TRANS, M, A, N)
      CHARACTER TRANS
      INTEGER M, N, INFO, I
      DOUBLE PRECISION A(*)
      LOGICAL TPSD
      INFO = 0
      IF (M.LT.0) THEN
         INFO = -2
      ELSE IF (N.LT.0) THEN
         INFO = -3
      END IF
      IF (INFO.EQ.0) THEN
         TPSD = .TRUE.
         IF (TRANS.EQ.'N') TPSD = .FALSE.
      END IF
      IF (INFO.NE.0) THEN
         RETURN
      END IF
      IF (.NOT.TPSD) THEN
         DO 10 I = 1, M
            A(I) = 0
   10    CONTINUE
      ELSE
         A(1) = 1
      END IF
      END
"""


def test_a_logical_set_only_past_the_argument_checks_is_known_where_it_is_read(tmp_path):
    """DGELS's TPSD: set under `IF (INFO.EQ.0)`, read past `IF (INFO.NE.0) RETURN`. The path that leaves it
    unset never reaches the read (a conforming program reads no undefined variable), so each call's TRANS
    decides the branch: the loop runs 30 + 12 times over the two 'N' calls, the ELSE arm once."""
    path = tmp_path / "g.f"
    path.write_text(_SET_UNDER_CHECKS)
    analysis = analyze([str(path)])
    lines = _SET_UNDER_CHECKS.splitlines()
    loop_body = next(k for k, text in enumerate(lines, 1) if "A(I) = 0" in text)
    other_arm = next(k for k, text in enumerate(lines, 1) if "A(1) = 1" in text)
    counts = {e.loc.line: c for e, c in analysis.counts.items() if e.role == "stmt"}
    assert counts[loop_body] == 42 and counts[other_arm] == 1
    assert not [p for p in analysis.table if p.kind == "branch_probability"]


def test_log10_of_a_known_value_decides_its_test(tmp_path):
    """DLABAD's `LOG10(LARGE).GT.2000`: LOG10 and LOG of a known number are numbers, their tests exact
    (log10(1e5) = 5: the first guarded update runs on each of the 7 passes; ln(1e5) = 11.51: the second never)."""
    source = _fortran("M = 3\nX = 1.0D5\nDO 5 I = 1, 7\nIF (LOG10(X) .GT. 4.5D0) S = S + 2\n"
                      "IF (LOG(X) .GT. 12.0D0) S = S - 1\n5 CONTINUE",
                      decls="INTEGER N, K, M, I, S\n      DOUBLE PRECISION X")
    count, analysis = _body_count(tmp_path, source, marker="S = S + 2")
    assert count == 7
    line = next(k for k, text in enumerate(source.splitlines(), 1) if "S = S - 1" in text)
    assert sum(c for e, c in analysis.counts.items() if e.loc.line == line and e.role == "stmt") == 0
    assert not [p for p in analysis.table if p.kind == "branch_probability"]


_BACKJUMP = Path(__file__).resolve().parent / "blas" / "backjump.f"


def test_a_value_set_before_a_backward_goto_loop_is_known_in_it(capsys):
    """DLASCL's shape: ITYPE is chosen from the option before `10 CONTINUE ... IF (...) GO TO 10`, and tested
    in the loop. Nothing on the way back assigns ITYPE, so every pass sees the value it entered with: the
    test is exact for each call's option ('G': the column loop, 'U': one element), with nothing bound, and
    every line equals gcov's (before: the whole routine's conditional values refused for the backward jump,
    P_SCALE_IF2 a probability)."""
    fixture = str(_BACKJUMP)
    analysis = analyze([fixture])
    assert not analysis.table.unresolved()
    rows = gcov_rows(capsys, fixture, "./backjump")
    assert rows[line_of(fixture, "A(I) = A(I) * MUL")] == ["16", "16"]
    assert rows[line_of(fixture, "A(1) = A(1) * MUL")] == ["2", "2"]


@pytest.mark.parametrize("where, old, new", [
    ("on the way back", "      IF (PASS .LT. 2) GO TO 10\n",
     "      ITYPE = 1 - ITYPE\n      IF (PASS .LT. 2) GO TO 10\n"),
    ("before the test", "      MUL = CTO / CFROM\n", "      IF (PASS .EQ. 2) ITYPE = 0\n      MUL = CTO / CFROM\n")])
def test_a_value_assigned_between_the_label_and_the_backward_goto_stays_unknown(tmp_path, where, old, new):
    """The same routine with ITYPE also assigned inside the GOTO loop (after the test, or before it): a
    pass may see the value an earlier pass left, which one run in source order does not tell. The test
    on ITYPE stays a probability, as before backward jumps were let through."""
    path = tmp_path / "toggled.f"
    source = _BACKJUMP.read_text()
    assert old in source
    path.write_text(source.replace(old, new))
    analysis = analyze([str(path)])
    line = line_of(str(path), "A(I) = A(I) * MUL")
    count = sum(c for e, c in analysis.counts.items() if e.loc.line == line and e.role == "stmt")
    probabilities = {analysis.table.symbol(p.name) for p in analysis.table.unresolved()
                     if p.kind == "branch_probability" and p.procedure == "SCALE"}
    assert count.free_symbols and count.free_symbols <= probabilities, (where, count)


def test_a_value_assigned_past_the_backward_goto_is_known_in_the_loop(tmp_path):
    """An assignment after the GO TO is not on the way back: every pass of the loop still sees the
    value set before it (the counts are the fixture's, 16 and 2, nothing unbound)."""
    path = tmp_path / "after.f"
    old = "      IF (PASS .LT. 2) GO TO 10\n"
    path.write_text(_BACKJUMP.read_text().replace(old, old + "      ITYPE = 7\n      PRINT *, ITYPE\n"))
    analysis = analyze([str(path)])
    assert not analysis.table.unresolved()
    counts = {e.loc.line: c for e, c in analysis.counts.items() if e.role == "stmt"}
    assert counts[line_of(str(path), "A(I) = A(I) * MUL")] == 16
    assert counts[line_of(str(path), "A(1) = A(1) * MUL")] == 2


@pytest.mark.parametrize("form", ["M = N\nIF (N .GT. K) GO TO 40\nM = K\n40 CONTINUE",
                                  "M = N\nIF (K .LT. N) THEN\nGO TO 40\nEND IF\nM = K\n40 CONTINUE"])
def test_fortran_66_else_is_the_value_before_the_jump_where_its_test_holds(tmp_path, form):
    """`M = N; IF (N .GT. K) GO TO 40; M = K; 40 ...`: the jump brings N where N > K, the run falls
    through with K elsewhere: Max(N, K), as the block IF would give."""
    count, analysis = _body_count(tmp_path, _fortran(form))
    assert count.has(sympy.Max) and not count.has(sympy.Piecewise)
    assert _values(count, POINTS) == [max(0, n, k) for n, k in POINTS]
    assert {p.name for p in analysis.table.unresolved()} == {"N", "K"}


def test_two_forward_jumps_choose_in_the_order_of_their_tests(tmp_path):
    """Two Fortran 66 ELSEs to one label: the first test that holds chooses (N where N > 100, else 7
    where K > 3, else K); the value it brings is the one before its own test."""
    form = "M = N\nIF (N .GT. 100) GO TO 40\nM = 7\nIF (K .GT. 3) GO TO 40\nM = K\n40 CONTINUE"
    count, _ = _body_count(tmp_path, _fortran(form))
    assert _values(count, POINTS) == [max(0, n if n > 100 else 7 if k > 3 else k) for n, k in POINTS]


def test_a_jump_that_leaves_before_the_last_chosen_test_stays_unknown(tmp_path):
    """A jump that brings the value the run falls through with (N, from `IF (K .EQ. 0) GO TO 40`) from
    before a Fortran 66 ELSE's test (`IF (N .GT. K) GO TO 40`, which brings K): on its path the later test
    never ran, and the choice of K where N > K would be wrong there (K = 0 < N gives N, not 0). The value is
    not followed: the loop's count is no formula in N and K alone."""
    form = "M = N\nIF (K .EQ. 0) GO TO 40\nM = K\nIF (N .GT. K) GO TO 40\nM = N\n40 CONTINUE"
    count, _ = _body_count(tmp_path, _fortran(form))
    assert not count.free_symbols <= {N, K}


def test_an_argument_set_on_some_paths_keeps_the_callers_value_on_the_others(capsys):
    """tests/analysis/blas/inout.f: `IF (IFACT .EQ. 2) M = 3` before `DO 10 I = 1, M`, M an argument. The
    one assignment was taken as M's value wherever it is used after it, so both calls ran 3 trips (6, where
    gcov counts 7 + 3 = 10); and LSAME was passed EQUED = 'N' at both calls of PICKC, its quick return
    counted once where it is taken twice. The caller's value reaches the use where the test fails: every
    line equals gcov's with nothing bound."""
    fixture = str(Path(__file__).resolve().parent / "blas" / "inout.f")
    lsame = str(Path(__file__).resolve().parent / "blas" / "lsame.f")
    rows = gcov_rows(capsys, fixture, "./inout", (lsame,))
    assert rows[line_of(fixture, "K = K + 1")] == ["10", "10"]
    assert rows[line_of(fixture, "IF (LSAME(EQUED, 'Y'))")] == ["2", "2"]


def test_a_chain_of_updates_from_the_own_value_is_followed_to_its_end(tmp_path):
    # DGESVD's workspace sizes: `WRKBL = MAX(WRKBL, N + LWORK_DGEQRF)` ninety times in its arms. Each update
    # reads the value the one before left; following that afresh at every update went past the depth limit
    # (M unresolved here) after a run per update and per use, 10 291 runs of DGESVD's for 90 uses.
    updates = "\n".join(f"M = MAX(M, N + {j})" for j in range(1, 41))
    count, analysis = _body_count(tmp_path, _fortran(f"M = 1\nIF (K .GT. 0) THEN\n{updates}\nELSE\n"
                                                     "M = MAX(M, 2)\nEND IF"))
    assert _values(count, POINTS) == [max(1, n + 40) if k > 0 else 2 for n, k in POINTS]
    assert sorted(p.name for p in analysis.table.unresolved()) == ["K", "N"]


_CHECKED_THEN_LOOPS = """\
      SUBROUTINE W(M, P, INFO)
      INTEGER M, P, INFO, I, K, S
      INFO = 0
      IF (M .LT. 0) THEN
         INFO = -1
      ELSE IF (P .LT. 0 .OR. P .GT. M) THEN
         INFO = -2
      END IF
      K = 1
      IF (INFO .EQ. 0) K = P + 1
      IF (INFO .NE. 0) RETURN
      S = 0
      DO 10 I = 1, K
         S = S + I
   10 CONTINUE
      DO 20 I = 1, K + 1
         S = S + 2*I
   20 CONTINUE
      DO 30 I = 1, 2*K
         S = S + 3*I
   30 CONTINUE
      END
"""


def test_a_test_before_several_loops_is_evaluated_once_for_all_their_bounds(tmp_path, monkeypatch):
    """DORCSD2BY1: the value of each variable its loop bounds read is followed through `IF (INFO.NE.0)
    RETURN`, whose test narrows it. That test was evaluated again for every loop whose bound was asked (1-7 s
    each there, past 20 CPU minutes for the file; 67 s now): what is asked at a statement does not depend on
    which loop asked. Here: once from inside the bounds of all three loops, where it was three times."""
    path = tmp_path / "w.f"
    path.write_text(_CHECKED_THEN_LOOPS)
    asked: list = []
    expr_at = values.ValueResolver.expr_at

    def counted(self, node, stmt, index, depth=0):
        if stmt is not None and stmt.loc is not None and stmt.loc.line == 11 and self._at is not None:
            asked.append(self._at)
        return expr_at(self, node, stmt, index, depth)
    monkeypatch.setattr(values.ValueResolver, "expr_at", counted)
    analysis = analyze([str(path)])
    assert len(asked) == 1
    m, p = sympy.Symbol("W.M", integer=True), sympy.Symbol("W.P", integer=True)
    counts = {e.loc.line: c for e, c in analysis.counts.items() if e.role == "stmt" and e.loc.line in (14, 17, 20)}
    for mv, pv in [(5, 3), (5, 0), (5, 5), (-1, 0), (5, 6), (5, -2)]:
        ok = mv >= 0 and 0 <= pv <= mv
        got = [int(counts[line].subs({m: mv, p: pv})) for line in (14, 17, 20)]
        assert got == ([pv + 1, pv + 2, 2 * pv + 2] if ok else [0, 0, 0])
