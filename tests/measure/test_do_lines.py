"""gcov's line counts of DO loops that sad check-counts models (GCC 12, -O0): a step of -1 is tested at each
trip on the DO line like a step of 1; a loop closed by END DO charges its exit to the body's last line."""
from __future__ import annotations

from sad.cli.main import main


def _checked(tmp_path, capsys, monkeypatch, name: str, source: str, options: tuple[str, ...] = ()) -> dict:
    """`sad check-counts NAME.f --require-bound -- ./NAME` on the program (exit 0, no MISMATCH): per line of
    the table, the modelled and the measured count as printed."""
    (tmp_path / f"{name}.f").write_text(source)
    monkeypatch.chdir(tmp_path)
    rc = main(["check-counts", f"{name}.f", *options, "--require-bound", "--", f"./{name}"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out
    return {r.split()[0]: r.split()[1:3] for r in out.splitlines() if r.startswith(f"{name}.f:")}


SOURCE = """      PROGRAM DOLINE
      CALL S(10)
      END
      SUBROUTINE S(N)
      INTEGER N, I, K
      K = 0
      DO 10 I = N - 1, 1, -1
         K = K + I
   10 CONTINUE
      DO 20 I = N - 1, 1, -2
         K = K + I
   20 CONTINUE
      DO I = N, 1, -1
         K = K + I
      END DO
      DO I = 1, N
         K = K + I
         IF (K .GT. 1000) K = 0
      END DO
      DO I = 1, N, 3
         K = K + I
      END DO
      DO I = 1, MOD(N, 7)
         K = K - I
      END DO
      DO I = 1, N
         K = K + I
         IF (K .GT. 1000) THEN
            K = 0
         END IF
      END DO
      WRITE (6, *) K
      END
"""


def test_do_lines_with_step_minus_one_and_end_do_equal_gcov(tmp_path, capsys, monkeypatch):
    """Before: the DO line of `DO 10 I = N-1, 1, -1` was modelled as 1 (gcov: 10), and the last line of an
    END DO body as its trips (gcov: trips + 1, `K = K + I` 11 at N = 10)."""
    rows = _checked(tmp_path, capsys, monkeypatch, "doline", SOURCE, ("-D", "P_S_IF2=0"))
    assert rows["doline.f:7"] == ["10", "10"]      # DO 10 I = N - 1, 1, -1: entry + 9 trips
    assert rows["doline.f:10"] == ["1", "1"]       # step -2: the trip count is precomputed
    assert rows["doline.f:14"] == ["11", "11"]     # the END DO loop's exit on its last line
    assert rows["doline.f:18"] == ["11", "11"]     # ... a logical IF as well
    assert rows["doline.f:21"] == ["4", "4"]       # step 3: no exit test on the body's line
    assert rows["doline.f:28"] == ["11", "11"]     # an IF block last: its IF line


CALL_LAST = """      PROGRAM CALLST
      INTEGER S, K
      S = 0
      DO K = 5, 9
         CALL EVERY(K, 2, S)
      END DO
      PRINT *, S
      END
      SUBROUTINE EVERY(K, MB, S)
      INTEGER K, MB, S, I
      DO I = 1, K, MB
         CALL BUMP(S)
      END DO
      END
      SUBROUTINE BUMP(S)
      INTEGER S
      S = S + 1
      END
"""


def test_a_call_last_in_an_end_do_loop_of_a_step_carries_its_exit(tmp_path, capsys, monkeypatch):
    """`DO I = 1, K, MB; CALL BUMP(S); END DO` (DGEMLQT's blocked loops end so): a call ends its basic block,
    so gfortran tests the precomputed trip count on the DO line at each trip and charges the exit to the
    call's line, as for a unit step. K = 5 to 9, MB = 2: 3+3+4+4+5 = 19 calls, 5 entries; gcov shows 24 on
    both lines. Before: the call line was modelled as its 19 runs (a MISMATCH)."""
    rows = _checked(tmp_path, capsys, monkeypatch, "callst", CALL_LAST)
    assert rows["callst.f:11"] == ["24", "24"]     # the DO line: trips and entries
    assert rows["callst.f:12"] == ["24", "24"]     # the call: its runs and the loop's exits


EARLY_RETURN = """      PROGRAM RETLST
      INTEGER S, K
      S = 0
      DO K = 5, 9
         CALL LAST(K, S)
         CALL NEXT(K, S)
      END DO
      PRINT *, S
      END
      SUBROUTINE LAST(N, S)
      INTEGER N, S, J
      IF (N .LE. 0) RETURN
      DO J = 1, N
         S = S + J
      END DO
      END
      SUBROUTINE NEXT(N, S)
      INTEGER N, S, J
      IF (N .LE. 0) RETURN
      DO J = 1, N
         S = S + J
      END DO
      RETURN
      END
"""


def test_an_end_do_loop_ending_a_routine_with_a_return_leaves_by_its_end(tmp_path, capsys, monkeypatch):
    """A routine with a RETURN (`IF (N .LE. 0) RETURN`) whose last statement is an END DO loop: gfortran jumps
    from the loop's exit to the return block, on the END line, so the body's last line shows its 35 trips
    (N = 5 to 9); with a statement after the loop (an explicit RETURN, as LAPACK writes) it shows 35 + 5
    exits. Before: both were modelled as 40 (a MISMATCH in the first)."""
    rows = _checked(tmp_path, capsys, monkeypatch, "retlst", EARLY_RETURN)
    assert rows["retlst.f:14"] == ["35", "35"]     # the loop ends the routine: its exit is not here
    assert rows["retlst.f:21"] == ["40", "40"]     # a RETURN after the loop: the exit on the body's line


LOCAL_PASSED = """      PROGRAM LOCPAS
      INTEGER K
      DOUBLE PRECISION A(10)
      DO K = 5, 9
         CALL BYLOC(K, A)
         CALL BYFORM(K, A)
      END DO
      PRINT *, A(1)
      END
      SUBROUTINE BYLOC(N, A)
      INTEGER N, J
      DOUBLE PRECISION A(*), S
      IF (N .LE. 0) RETURN
      DO J = 2, N
         S = A(J)
         CALL BUMP(S)
         A(J) = S
      END DO
      END
      SUBROUTINE BYFORM(N, A)
      INTEGER N, J
      DOUBLE PRECISION A(*)
      IF (N .LE. 0) RETURN
      DO J = 2, N
         CALL BUMP(A(J))
         A(J) = 2.0D0*A(J)
      END DO
      END
      SUBROUTINE BUMP(S)
      DOUBLE PRECISION S
      S = S + 1.0D0
      END
"""


def test_a_routine_passing_its_own_variable_charges_the_exit_to_the_body(tmp_path, capsys, monkeypatch):
    """The same last loop with a RETURN before it (30 trips of J = 2 .. N for N = 5 to 9): where the routine
    passes its own S to a call, gfortran ends S's life at the return and the exit comes back to the body's
    last line (30 + 5, DTPQRT2's form); where it passes only its formal's elements, the line shows the 30
    trips. Before: both 30 (a MISMATCH in the first)."""
    rows = _checked(tmp_path, capsys, monkeypatch, "locpas", LOCAL_PASSED)
    assert rows["locpas.f:17"] == ["35", "35"]     # S passed to BUMP: the exit on the body's last line
    assert rows["locpas.f:26"] == ["30", "30"]     # only A(J) passed: the trips alone
