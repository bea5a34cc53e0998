"""`sad check` of a routine with options (issue 29, library mode): no caller binds SIDE and TRANS, so they
stay named parameters with the values the routine tests them against (LSAME), and the report gives the
routine's time for each combination at each reference point."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.codebase.test_check import sad_check

BLAS = Path(__file__).resolve().parents[1] / "analysis" / "blas"

ROUTINE = """      SUBROUTINE SCALE2(SIDE, TRANS, N, A)
      CHARACTER SIDE, TRANS
      INTEGER N, I, J
      DOUBLE PRECISION A(N,N)
      LOGICAL LSAME
      EXTERNAL LSAME
      IF (LSAME(SIDE, 'L')) THEN
         DO 10 I = 1, N
            A(I,1) = 2*A(I,1)
   10    CONTINUE
      ELSE IF (LSAME(SIDE, 'R')) THEN
         DO 30 J = 1, N
            DO 20 I = 1, N
               A(I,J) = 2*A(I,J)
   20       CONTINUE
   30    CONTINUE
      END IF
      IF (LSAME(TRANS, 'T')) THEN
         DO 40 I = 1, N
            A(I,I) = 0
   40    CONTINUE
      ELSE IF (.NOT.LSAME(TRANS, 'N')) THEN
         RETURN
      END IF
      END
"""


ONE_TEST = """      SUBROUTINE ONE(TRANS, N, X)
      CHARACTER TRANS
      INTEGER N, I, J
      DOUBLE PRECISION X(N)
      IF (TRANS .EQ. 'N') THEN
         DO 10 I = 1, N
            X(I) = 0
   10    CONTINUE
      ELSE
         DO 30 J = 1, N
            DO 20 I = 1, N
               X(I) = X(I) + 1
   20       CONTINUE
   30    CONTINUE
      END IF
      END
"""


def test_each_option_combination_is_reported_at_each_point(tmp_path):
    tree = tmp_path / "lib"
    tree.mkdir()
    (tree / "scale2.f").write_text(ROUTINE)
    (tree / "one.f").write_text(ONE_TEST)
    shutil.copy(BLAS / "lsame.f", tree / "lsame.f")
    code, out, err = sad_check(tmp_path, "lib", "--format", "json", "--at", "small:N=10", "--at", "big:N=100",
                               "--cache-dir", str(tmp_path / "cache"))
    assert code == 0, err
    routine = next(r for r in json.loads(out)["routines"] if r["name"] == "SCALE2")
    assert routine["options"] == {"SCALE2.SIDE": ["L", "R"], "SCALE2.TRANS": ["N", "T"]}
    times = routine["by_option"]
    assert sorted(times) == ["SIDE=L TRANS=N", "SIDE=L TRANS=T", "SIDE=R TRANS=N", "SIDE=R TRANS=T"]
    assert routine["points"] == times["SIDE=L TRANS=N"]      # the routine's row: each option's first value
    assert routine["complexity"] == "n"                      # at SIDE=L: the options are no sizes
    for point, n in (("small", 10), ("big", 100)):
        left, right = times["SIDE=L TRANS=N"][point], times["SIDE=R TRANS=N"][point]
        # SIDE=R scales N*N elements, SIDE=L N: the difference grows as N*(N-1) element updates
        assert right > left * n / 2
        # TRANS=T runs an N-trip loop instead of the second LSAME test, whatever SIDE is
        extra_left = times["SIDE=L TRANS=T"][point] - left
        extra_right = times["SIDE=R TRANS=T"][point] - right
        assert abs(extra_left - extra_right) <= 1e-9 * right
    assert times["SIDE=L TRANS=T"]["big"] - times["SIDE=L TRANS=N"]["big"] > \
        times["SIDE=L TRANS=T"]["small"] - times["SIDE=L TRANS=N"]["small"]
    grow = {k: v["big"] / v["small"] for k, v in times.items()}
    assert 50 < grow["SIDE=R TRANS=N"] < 101             # N^2: about 100 times from N = 10 to 100
    assert 2 < grow["SIDE=L TRANS=N"] < 11               # N and the LSAME tests: at most 10 times
    one = next(r for r in json.loads(out)["routines"] if r["name"] == "ONE")
    assert one["options"] == {"ONE.TRANS": ["N", "other"]}       # tested against 'N' only: its ELSE is `other`
    assert one["by_option"]["TRANS=other"]["big"] > 50 * one["by_option"]["TRANS=N"]["big"]
    _, text, _ = sad_check(tmp_path, "lib", "--at", "small:N=10", "--at", "big:N=100",
                           "--cache-dir", str(tmp_path / "cache"))
    assert "  SIDE=R TRANS=T" in text


FLAGGED = """      SUBROUTINE FLAGGD(UP, N, X)
      LOGICAL UP
      INTEGER N, I, J
      DOUBLE PRECISION X(N)
      IF (UP) THEN
         DO 10 I = 1, N
            X(I) = 0
   10    CONTINUE
      ELSE
         DO 30 J = 1, N
            DO 20 I = 1, N
               X(I) = X(I) + 1
   20       CONTINUE
   30    CONTINUE
      END IF
      END
"""


def test_a_logical_argument_is_an_option_of_true_and_false(tmp_path):
    """A LOGICAL formal its tests read is an option with the values .TRUE. and .FALSE. (not a size valued
    at the point's default, which took UP as true at N's default and never reported the other arm):
    .FALSE. runs the N x N loop, .TRUE. the N loop."""
    tree = tmp_path / "lib"
    tree.mkdir()
    (tree / "flaggd.f").write_text(FLAGGED)
    code, out, err = sad_check(tmp_path, "lib", "--format", "json", "--at", "big:N=100",
                               "--cache-dir", str(tmp_path / "cache"))
    assert code == 0, err
    routine = next(r for r in json.loads(out)["routines"] if r["name"] == "FLAGGD")
    assert routine["options"] == {"FLAGGD.UP": [".TRUE.", ".FALSE."]}
    times = routine["by_option"]
    assert sorted(times) == ["UP=.FALSE.", "UP=.TRUE."]
    assert routine["points"] == times["UP=.TRUE."]               # the routine's row: the first value
    assert times["UP=.FALSE."]["big"] > 50 * times["UP=.TRUE."]["big"]


LEAVES = """      SUBROUTINE ITER(N, IGNORE, X, S)
      LOGICAL IGNORE
      INTEGER N, I
      DOUBLE PRECISION X(N), S
      DO 10 I = 1, N
         S = S + X(I)
         IF (S .GT. 1.0D0) THEN
            IF (IGNORE) GOTO 20
            IF (S .GT. 2.0D0) GOTO 20
         END IF
   10 CONTINUE
   20 CONTINUE
      END
"""


def test_a_logical_argument_that_leaves_a_loop_is_an_option(tmp_path):
    """DLA_GERFSX_EXTENDED's `IF (IGNORE_CWISE) GOTO 666` out of its refinement loop: the loop's exits are
    compared as formulas at sample points, where IGNORE must be true or false (an internal error before).
    Where IGNORE is true the loop is left at the first S > 1, so it is no slower than where it is false."""
    tree = tmp_path / "lib"
    tree.mkdir()
    (tree / "iter.f").write_text(LEAVES)
    code, out, err = sad_check(tmp_path, "lib", "--format", "json", "--cache-dir", str(tmp_path / "cache"))
    assert code == 0, err
    data = json.loads(out)
    assert not [d for d in data["diagnostics"] if d["severity"] == "error"], data["diagnostics"]
    routine = next(r for r in data["routines"] if r["name"] == "ITER")
    times = routine["by_option"]
    assert sorted(times) == ["IGNORE=.FALSE.", "IGNORE=.TRUE."]
    assert times["IGNORE=.TRUE."]["default"] < times["IGNORE=.FALSE."]["default"]
