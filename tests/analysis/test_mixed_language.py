"""Files of both languages given together are one program: calls resolve by name with Fortran's
trailing-underscore convention, and by-reference arguments (C's `*n`, `&n`) bind like Fortran's."""
from __future__ import annotations

import subprocess

import sympy

from sad.analysis.description import line_counts
from sad.analysis.pipeline import analyze

FORTRAN_MAIN = """      PROGRAM MIX
      INTEGER N
      DOUBLE PRECISION X(1000), Y(1000)
      READ (5, *) N
      DO 10 I = 1, N
         X(I) = 1.0D0
         Y(I) = 0.0D0
   10 CONTINUE
      CALL AXPY(N, X, Y)
      WRITE (6, *) Y(1) + Y(N)
      END
"""
C_AXPY = """void axpy_(int *n, double *x, double *y)
{
    int i;
    for (i = 0; i < *n; i++)
        y[i] += 2.0 * x[i];
}
"""
C_MAIN = """#include <stdio.h>
void scale_(int *n, double *x);
int main(void)
{
    int n;
    double x[1000];
    if (scanf("%d", &n) != 1)
        return 1;
    scale_(&n, x);
    printf("%f\\n", x[0]);
    return 0;
}
"""
FORTRAN_SCALE = """      SUBROUTINE SCALE(N, X)
      INTEGER N
      DOUBLE PRECISION X(N)
      DO 10 I = 1, 2*N
         X(1) = X(1) + 1.0D0
   10 CONTINUE
      END
"""


def counts(files) -> dict[tuple[str, int], sympy.Expr]:
    analysis = analyze([str(f) for f in files])
    assert not analysis.errors
    return {(f.split("/")[-1], line): c for (f, line), c in line_counts(analysis.counts).items()}, analysis


def test_fortran_main_calls_c_routine(tmp_path):
    main, axpy = tmp_path / "main.f", tmp_path / "axpy.c"
    main.write_text(FORTRAN_MAIN)
    axpy.write_text(C_AXPY)
    lines, analysis = counts([main, axpy])
    n = sympy.Symbol("N", integer=True)
    assert lines[("axpy.c", 5)] == sympy.Max(0, n)          # the C loop's bound is Fortran's N
    assert [p.name for p in analysis.table.unresolved()] == ["N"]
    # and it is a real program: it links and runs
    subprocess.run(["gfortran", "-std=legacy", "-o", str(tmp_path / "mix"), str(main), str(axpy)], check=True)
    out = subprocess.run([str(tmp_path / "mix")], input="5\n", capture_output=True, text=True, check=True)
    assert float(out.stdout.split()[0]) == 4.0


def test_c_main_calls_fortran_routine(tmp_path):
    main, scale = tmp_path / "main.c", tmp_path / "scale.f"
    main.write_text(C_MAIN)
    scale.write_text(FORTRAN_SCALE)
    lines, analysis = counts([main, scale])
    n = sympy.Symbol("n", integer=True)
    assert lines[("scale.f", 5)] == sympy.Max(0, 2 * n)     # SCALE's N is C's n, passed as &n
    assert not [p for p in analysis.table.unresolved() if p.name.startswith("C_")]
    subprocess.run(["gfortran", "-o", str(tmp_path / "mix"), str(main), str(scale)], check=True)
    out = subprocess.run([str(tmp_path / "mix")], input="3\n", capture_output=True, text=True, check=True)
    assert out.returncode == 0
