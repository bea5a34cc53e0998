"""The Fortran frontend never raises: truncated and mangled realistic sources give diagnostics, not tracebacks."""
from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from sad.frontends.fortran import load
from sad.ir import to_jsonable

REALISTIC = """\
C     A small molecular-dynamics style code in the manner of the 1980s.
      PROGRAM MDRUN
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NMAX = 500, NSTEP = 100)
      COMMON /PART/ X(NMAX), Y(NMAX), FX(NMAX), FY(NMAX)
      COMMON /CTRL/ NPART, DT, EPOT
      CHARACTER*16 TITLE
      INTEGER IRET
      DATA TITLE /16HMD RUN, 2D LJ   /
      SQR(A) = A*A
      NPART = 100
      DT = 1.0D-3
      CALL SETUP(NPART)
      ASSIGN 30 TO IRET
      DO 50 ISTEP = 1, NSTEP
         CALL FORCES(*40)
         DO 20 I = 1, NPART
            X(I) = X(I) + DT*FX(I) + 0.5D0*SQR(DT)
            Y(I) = Y(I) + DT*FY(I)
   20    CONTINUE
         IF (MOD(ISTEP, 10) .EQ. 0) WRITE (6, 100) ISTEP, EPOT
         GO TO IRET, (30, 40)
   30    CONTINUE
   40    IF (EPOT) 45, 50, 50
   45    PAUSE
   50 CONTINUE
      PRINT *, TITLE
      STOP
  100 FORMAT (1X, 5HSTEP , I6, 3X, 6HEPOT =, E14.6)
      END
C
      SUBROUTINE SETUP(N)
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NMAX = 500)
      COMMON /PART/ X(NMAX), Y(NMAX), FX(NMAX), FY(NMAX)
      K = 0
      DO 10 I = 1, N
      DO 10 J = 1, 10
         K = K + 1
         IF (K .GT. N) GO TO 20
         X(K) = DBLE(I)
   10 Y(K) = DFLOAT(J)
   20 RETURN
      ENTRY RESET(M)
      DO 30 I = M, 1, -1
         FX(I) = 0.0D0
   30 FY(I) = 0.0D0
      RETURN
      END
C
      SUBROUTINE FORCES(*)
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NMAX = 500)
      COMMON /PART/ X(NMAX), Y(NMAX), FX(NMAX), FY(NMAX)
      COMMON /CTRL/ NPART, DT, EPOT
      EPOT = 0.0D0
      DO 200 I = 1, NPART - 1
         DO 100 J = I + 1, NPART
            DX = X(I) - X(J)
            DY = Y(I) - Y(J)
            R2 = DX**2 + DY**2
            IF (R2 .LT. 1.0D-12) THEN
               RETURN 1
            ELSE IF (R2 .GT. 6.25D0) THEN
               GO TO 100
            ELSE
               R6 = 1.0D0 / R2**3
            END IF
            EPOT = EPOT + 4.0D0*R6*(R6 - 1.0D0)
            F = 24.0D0*R6*(2.0D0*R6 - 1.0D0) / R2
            FX(I) = FX(I) + F*DX
            FY(I) = FY(I) + F*DY
            FX(J) = FX(J) - F*DX
            FY(J) = FY(J) - F*DY
  100    CONTINUE
  200 CONTINUE
      GO TO (210, 220), MIN(2, NPART)
  210 CONTINUE
  220 RETURN
      END
"""


def test_realistic_source_is_clean_and_compiles(tmp_path):
    path = tmp_path / "md.f"
    path.write_text(REALISTIC)
    if shutil.which("gfortran"):
        res = subprocess.run(["gfortran", "-std=legacy", "-o", str(tmp_path / "md"), str(path)],
                             capture_output=True, text=True)
        assert res.returncode == 0, res.stderr
    prog = load(str(path), [], {})
    assert prog.diagnostics == []
    assert [p.name for p in prog.procedures] == ["MDRUN", "SETUP", "RESET", "FORCES"]
    to_jsonable(prog)


def _check(tmp_path, text: str, name: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    prog = load(str(path), [], {})
    internal = [d for d in prog.diagnostics if "internal error" in d.message]
    assert not internal, (text, internal)
    for diag in prog.diagnostics:
        assert diag.loc.line >= 1
    to_jsonable(prog)


@pytest.mark.heavy
def test_truncation_at_random_points_never_raises(tmp_path):
    rng = random.Random(1977)
    points = sorted(rng.sample(range(len(REALISTIC)), 150))
    for cut in points:
        _check(tmp_path, REALISTIC[:cut], "cut.f")


@pytest.mark.heavy
def test_mangled_lines_never_raise(tmp_path):
    rng = random.Random(42)
    lines = REALISTIC.splitlines()
    junk = ["(", ")", "'", "*", "=", ",", "/", "&", "1", " ", "\t", "H", ".AND.", "END", "DO 10 "]
    for _ in range(60):
        mangled = list(lines)
        for _ in range(rng.randint(1, 4)):
            k = rng.randrange(len(mangled))
            line = mangled[k]
            op = rng.random()
            if op < 0.3:
                del mangled[k]
            elif op < 0.7 and line:
                pos = rng.randrange(len(line))
                mangled[k] = line[:pos] + rng.choice(junk) + line[pos:]
            else:
                mangled.insert(k, rng.choice(lines))
        _check(tmp_path, "\n".join(mangled) + "\n", "mangled.f")


@pytest.mark.parametrize("text", ["", "\n\n", "      END\n", "     &X=1\n", "xx\tyy\n", "\x00\x01binary",
                                  "      CALL\n", "      DO 10\n", "      IF (\n", "   10\n      END\n",
                                  "      INCLUDE 'nowhere.h'\n      END\n", "      FORMAT(\n      END\n",
                                  "      X = 1H\n      END\n", "      DATA X /99999999999*1./\n      END\n"])
def test_degenerate_inputs(tmp_path, text):
    _check(tmp_path, text, "deg.f")
