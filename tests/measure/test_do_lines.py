"""gcov's line counts of DO loops that sad check-counts models (GCC 12, -O0): a step of -1 is tested at each
trip on the DO line like a step of 1; a loop closed by END DO charges its exit to the body's last line."""
from __future__ import annotations

from sad.cli.main import main

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
    (tmp_path / "doline.f").write_text(SOURCE)
    monkeypatch.chdir(tmp_path)
    rc = main(["check-counts", "doline.f", "-D", "P_S_IF2=0", "--require-bound", "--", "./doline"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out
    rows = {r.split()[0]: r.split()[1:3] for r in out.splitlines() if r.startswith("doline.f:")}
    assert rows["doline.f:7"] == ["10", "10"]      # DO 10 I = N - 1, 1, -1: entry + 9 trips
    assert rows["doline.f:10"] == ["1", "1"]       # step -2: the trip count is precomputed
    assert rows["doline.f:14"] == ["11", "11"]     # the END DO loop's exit on its last line
    assert rows["doline.f:18"] == ["11", "11"]     # ... a logical IF as well
    assert rows["doline.f:21"] == ["4", "4"]       # step 3: no exit test on the body's line
    assert rows["doline.f:28"] == ["11", "11"]     # an IF block last: its IF line
