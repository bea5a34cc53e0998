#!/usr/bin/env python3
"""Generate a scientific codebase to check: Fortran 77 and C library routines and a main program.

Usage: python3 benchmarks/codebase.py DIR [--copies N]

Each copy k writes one family of real routines (every file compiles with gfortran -std=legacy / gcc -c), named
with the suffix k so that copies do not collide: vector kernels (AXPY, DOT, SCAL, NRM2 through DOT), a
matrix-vector product with a branch on TRANS, a matrix product whose inner loop calls AXPY in another file,
a triangular solve, an LU factorization, a Jacobi sweep with a GOTO convergence loop, an insertion sort, a
5-point stencil, conjugate gradients through GEMV, AXPY and DOT, a Cholesky factorization, a tridiagonal
solver, a sparse (CSR) matrix-vector product, a Runge-Kutta step and a Lennard-Jones pair-force loop with a
cut-off branch; in C an axpy, a row-major matrix-vector product, a histogram with a data-dependent branch, a
prefix sum and a 2-D stencil; and the routines of benchmarks/codebase_routines.py (more BLAS and LAPACK-style
kernels, GOTO-loop methods, C kernels). Two main programs (`main.f`, `main.c`) call copy 0's routines at
fixed sizes. About 910 lines and 47 files per copy: the tests use 3 copies (143 files, ~2 800 lines),
benchmarks/speed.py enough copies for 200 000 lines.
"""
from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path


def _more_routines():
    """benchmarks/codebase_routines.py, loaded by its path (this file is also loaded by path, by the tests)."""
    spec = importlib.util.spec_from_file_location("codebase_routines", Path(__file__).with_name("codebase_routines.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

FORTRAN = {
    "axpy{k}.f": """\
      SUBROUTINE AXPY{k}(N, A, X, Y)
C     Y := A*X + Y
      INTEGER N
      DOUBLE PRECISION A, X(*), Y(*)
      INTEGER I
      IF (N .LE. 0) RETURN
      IF (A .EQ. 0.0D0) RETURN
      DO 10 I = 1, N
         Y(I) = Y(I) + A*X(I)
   10 CONTINUE
      RETURN
      END
""",
    "dot{k}.f": """\
      DOUBLE PRECISION FUNCTION DOT{k}(N, X, Y)
C     the inner product of X and Y, unrolled by four
      INTEGER N
      DOUBLE PRECISION X(*), Y(*)
      INTEGER I, M
      DOUBLE PRECISION S
      S = 0.0D0
      M = MOD(N, 4)
      DO 10 I = 1, M
         S = S + X(I)*Y(I)
   10 CONTINUE
      DO 20 I = M + 1, N, 4
         S = S + X(I)*Y(I) + X(I+1)*Y(I+1) + X(I+2)*Y(I+2)
     &         + X(I+3)*Y(I+3)
   20 CONTINUE
      DOT{k} = S
      RETURN
      END
""",
    "scal{k}.f": """\
      SUBROUTINE SCAL{k}(N, A, X)
C     X := A*X
      INTEGER N
      DOUBLE PRECISION A, X(*)
      INTEGER I
      DO 10 I = 1, N
         X(I) = A*X(I)
   10 CONTINUE
      RETURN
      END
""",
    "nrm2{k}.f": """\
      DOUBLE PRECISION FUNCTION NRM2{k}(N, X)
C     the Euclidean norm of X, through DOT{k}
      INTEGER N
      DOUBLE PRECISION X(*)
      DOUBLE PRECISION DOT{k}
      EXTERNAL DOT{k}
      NRM2{k} = SQRT(DOT{k}(N, X, X))
      RETURN
      END
""",
    "gemv{k}.f": """\
      SUBROUTINE GEMV{k}(TRANS, M, N, ALPHA, A, LDA, X, Y)
C     Y := ALPHA*A*X + Y or Y := ALPHA*A'*X + Y
      CHARACTER TRANS
      INTEGER M, N, LDA
      DOUBLE PRECISION ALPHA, A(LDA,*), X(*), Y(*)
      INTEGER I, J
      DOUBLE PRECISION TEMP
      IF (TRANS .EQ. 'N') THEN
         DO 20 J = 1, N
            TEMP = ALPHA*X(J)
            DO 10 I = 1, M
               Y(I) = Y(I) + TEMP*A(I,J)
   10       CONTINUE
   20    CONTINUE
      ELSE
         DO 40 J = 1, N
            TEMP = 0.0D0
            DO 30 I = 1, M
               TEMP = TEMP + A(I,J)*X(I)
   30       CONTINUE
            Y(J) = Y(J) + ALPHA*TEMP
   40    CONTINUE
      END IF
      RETURN
      END
""",
    "gemm{k}.f": """\
      SUBROUTINE GEMM{k}(M, N, K, A, LDA, B, LDB, C, LDC)
C     C := C + A*B, one column of C at a time through AXPY{k}
      INTEGER M, N, K, LDA, LDB, LDC
      DOUBLE PRECISION A(LDA,*), B(LDB,*), C(LDC,*)
      INTEGER J, L
      DO 20 J = 1, N
         DO 10 L = 1, K
            CALL AXPY{k}(M, B(L,J), A(1,L), C(1,J))
   10    CONTINUE
   20 CONTINUE
      RETURN
      END
""",
    "trsv{k}.f": """\
      SUBROUTINE TRSV{k}(N, A, LDA, X)
C     solve L*X = B in place, L unit lower triangular
      INTEGER N, LDA
      DOUBLE PRECISION A(LDA,*), X(*)
      INTEGER I, J
      DOUBLE PRECISION TEMP
      DO 20 J = 1, N
         TEMP = X(J)
         DO 10 I = J + 1, N
            X(I) = X(I) - TEMP*A(I,J)
   10    CONTINUE
   20 CONTINUE
      RETURN
      END
""",
    "lu{k}.f": """\
      SUBROUTINE LU{k}(N, A, LDA)
C     LU factorization without pivoting, in place
      INTEGER N, LDA
      DOUBLE PRECISION A(LDA,*)
      INTEGER I, J, K
      DOUBLE PRECISION PIVOT
      DO 30 K = 1, N - 1
         PIVOT = 1.0D0/A(K,K)
         DO 10 I = K + 1, N
            A(I,K) = A(I,K)*PIVOT
   10    CONTINUE
         DO 25 J = K + 1, N
            DO 20 I = K + 1, N
               A(I,J) = A(I,J) - A(I,K)*A(K,J)
   20       CONTINUE
   25    CONTINUE
   30 CONTINUE
      RETURN
      END
""",
    "jacobi{k}.f": """\
      SUBROUTINE JACOBI{k}(N, U, F, W, TOL)
C     Jacobi sweeps on -u'' = f until the update is below TOL
      INTEGER N
      DOUBLE PRECISION U(0:N+1), F(N), W(N), TOL
      INTEGER I
      DOUBLE PRECISION DIFF, H2
      H2 = 1.0D0/DBLE(N+1)**2
  100 CONTINUE
      DIFF = 0.0D0
      DO 10 I = 1, N
         W(I) = 0.5D0*(U(I-1) + U(I+1) + H2*F(I))
         DIFF = MAX(DIFF, ABS(W(I) - U(I)))
   10 CONTINUE
      DO 20 I = 1, N
         U(I) = W(I)
   20 CONTINUE
      IF (DIFF .GT. TOL) GOTO 100
      RETURN
      END
""",
    "isort{k}.f": """\
      SUBROUTINE ISORT{k}(N, A)
C     insertion sort, ascending
      INTEGER N
      DOUBLE PRECISION A(N)
      INTEGER I, J
      DOUBLE PRECISION V
      DO 20 I = 2, N
         V = A(I)
         J = I - 1
   10    IF (J .GE. 1) THEN
            IF (A(J) .GT. V) THEN
               A(J+1) = A(J)
               J = J - 1
               GOTO 10
            END IF
         END IF
         A(J+1) = V
   20 CONTINUE
      RETURN
      END
""",
    "stencil{k}.f": """\
      SUBROUTINE STENCIL{k}(N, U, V)
C     one 5-point Laplacian step on the interior of an N by N grid
      INTEGER N
      DOUBLE PRECISION U(N,N), V(N,N)
      INTEGER I, J
      DO 20 J = 2, N - 1
         DO 10 I = 2, N - 1
            V(I,J) = 0.25D0*(U(I-1,J) + U(I+1,J) + U(I,J-1) + U(I,J+1))
   10    CONTINUE
   20 CONTINUE
      RETURN
      END
""",
    "cg{k}.f": """\
      SUBROUTINE CG{k}(N, A, LDA, B, X, R, P, Q, ITMAX, TOL)
C     conjugate gradients for A*X = B, A symmetric positive definite,
C     at most ITMAX iterations, stops when the residual norm is below TOL
      INTEGER N, LDA, ITMAX
      DOUBLE PRECISION A(LDA,*), B(*), X(*), R(*), P(*), Q(*), TOL
      INTEGER I, IT
      DOUBLE PRECISION ALPHA, BETA, RHO, RHOOLD, DOT{k}
      EXTERNAL DOT{k}
      DO 10 I = 1, N
         X(I) = 0.0D0
         R(I) = B(I)
         P(I) = B(I)
   10 CONTINUE
      RHO = DOT{k}(N, R, R)
      DO 50 IT = 1, ITMAX
         DO 20 I = 1, N
            Q(I) = 0.0D0
   20    CONTINUE
         CALL GEMV{k}('N', N, N, 1.0D0, A, LDA, P, Q)
         ALPHA = RHO/DOT{k}(N, P, Q)
         CALL AXPY{k}(N, ALPHA, P, X)
         CALL AXPY{k}(N, -ALPHA, Q, R)
         RHOOLD = RHO
         RHO = DOT{k}(N, R, R)
         IF (SQRT(RHO) .LT. TOL) RETURN
         BETA = RHO/RHOOLD
         DO 30 I = 1, N
            P(I) = R(I) + BETA*P(I)
   30    CONTINUE
   50 CONTINUE
      RETURN
      END
""",
    "chol{k}.f": """\
      SUBROUTINE CHOL{k}(N, A, LDA, INFO)
C     Cholesky factorization A = L*L', lower triangle, column by column
      INTEGER N, LDA, INFO
      DOUBLE PRECISION A(LDA,*)
      INTEGER I, J, K
      DOUBLE PRECISION S
      INFO = 0
      DO 40 J = 1, N
         S = A(J,J)
         DO 10 K = 1, J - 1
            S = S - A(J,K)*A(J,K)
   10    CONTINUE
         IF (S .LE. 0.0D0) THEN
            INFO = J
            RETURN
         END IF
         A(J,J) = SQRT(S)
         DO 30 I = J + 1, N
            S = A(I,J)
            DO 20 K = 1, J - 1
               S = S - A(I,K)*A(J,K)
   20       CONTINUE
            A(I,J) = S/A(J,J)
   30    CONTINUE
   40 CONTINUE
      RETURN
      END
""",
    "tridiag{k}.f": """\
      SUBROUTINE TRIDIAG{k}(N, A, B, C, D, X, W)
C     the Thomas algorithm for a tridiagonal system with sub-, main and
C     super-diagonals A, B, C and right-hand side D
      INTEGER N
      DOUBLE PRECISION A(N), B(N), C(N), D(N), X(N), W(N)
      INTEGER I
      DOUBLE PRECISION M
      W(1) = C(1)/B(1)
      X(1) = D(1)/B(1)
      DO 10 I = 2, N
         M = B(I) - A(I)*W(I-1)
         W(I) = C(I)/M
         X(I) = (D(I) - A(I)*X(I-1))/M
   10 CONTINUE
      DO 20 I = N - 1, 1, -1
         X(I) = X(I) - W(I)*X(I+1)
   20 CONTINUE
      RETURN
      END
""",
    "csrmv{k}.f": """\
      SUBROUTINE CSRMV{k}(NROW, IA, JA, VAL, X, Y)
C     Y := A*X for A in compressed sparse row storage
      INTEGER NROW, IA(*), JA(*)
      DOUBLE PRECISION VAL(*), X(*), Y(*)
      INTEGER I, J
      DOUBLE PRECISION S
      DO 20 I = 1, NROW
         S = 0.0D0
         DO 10 J = IA(I), IA(I+1) - 1
            S = S + VAL(J)*X(JA(J))
   10    CONTINUE
         Y(I) = S
   20 CONTINUE
      RETURN
      END
""",
    "rk4{k}.f": """\
      SUBROUTINE RK4{k}(N, T, H, Y, K1, K2, K3, K4, W)
C     one classical Runge-Kutta step for y' = -t*y, component-wise
      INTEGER N
      DOUBLE PRECISION T, H, Y(N), K1(N), K2(N), K3(N), K4(N), W(N)
      INTEGER I
      DO 10 I = 1, N
         K1(I) = -T*Y(I)
         W(I) = Y(I) + 0.5D0*H*K1(I)
   10 CONTINUE
      DO 20 I = 1, N
         K2(I) = -(T + 0.5D0*H)*W(I)
         W(I) = Y(I) + 0.5D0*H*K2(I)
   20 CONTINUE
      DO 30 I = 1, N
         K3(I) = -(T + 0.5D0*H)*W(I)
         W(I) = Y(I) + H*K3(I)
   30 CONTINUE
      DO 40 I = 1, N
         K4(I) = -(T + H)*W(I)
         Y(I) = Y(I) + H*(K1(I) + 2.0D0*K2(I) + 2.0D0*K3(I) + K4(I))
     &          /6.0D0
   40 CONTINUE
      RETURN
      END
""",
    "forces{k}.f": """\
      SUBROUTINE FORCES{k}(NP, X, Y, Z, FX, FY, FZ, RCUT, EPOT)
C     Lennard-Jones forces over all pairs within the cut-off radius
      INTEGER NP
      DOUBLE PRECISION X(NP), Y(NP), Z(NP), FX(NP), FY(NP), FZ(NP)
      DOUBLE PRECISION RCUT, EPOT
      INTEGER I, J
      DOUBLE PRECISION DX, DY, DZ, R2, R2I, R6I, FF
      EPOT = 0.0D0
      DO 10 I = 1, NP
         FX(I) = 0.0D0
         FY(I) = 0.0D0
         FZ(I) = 0.0D0
   10 CONTINUE
      DO 30 I = 1, NP - 1
         DO 20 J = I + 1, NP
            DX = X(I) - X(J)
            DY = Y(I) - Y(J)
            DZ = Z(I) - Z(J)
            R2 = DX*DX + DY*DY + DZ*DZ
            IF (R2 .LT. RCUT*RCUT) THEN
               R2I = 1.0D0/R2
               R6I = R2I*R2I*R2I
               FF = 48.0D0*R2I*R6I*(R6I - 0.5D0)
               FX(I) = FX(I) + FF*DX
               FY(I) = FY(I) + FF*DY
               FZ(I) = FZ(I) + FF*DZ
               FX(J) = FX(J) - FF*DX
               FY(J) = FY(J) - FF*DY
               FZ(J) = FZ(J) - FF*DZ
               EPOT = EPOT + 4.0D0*R6I*(R6I - 1.0D0)
            END IF
   20    CONTINUE
   30 CONTINUE
      RETURN
      END
""",
}

C = {
    "c_axpy{k}.c": """\
/* y := a*x + y */
void c_axpy{k}(int n, double a, const double *x, double *y)
{{
    int i;
    for (i = 0; i < n; i++)
        y[i] += a * x[i];
}}
""",
    "c_matvec{k}.c": """\
/* y := A*x for a row-major m by n matrix */
void c_matvec{k}(int m, int n, const double *a, const double *x, double *y)
{{
    int i, j;
    for (i = 0; i < m; i++) {{
        double s = 0.0;
        for (j = 0; j < n; j++)
            s += a[i * n + j] * x[j];
        y[i] = s;
    }}
}}
""",
    "c_histogram{k}.c": """\
/* count keys into nbins bins; keys out of range are dropped */
void c_histogram{k}(int n, const int *keys, int *bins, int nbins)
{{
    int i;
    for (i = 0; i < nbins; i++)
        bins[i] = 0;
    for (i = 0; i < n; i++) {{
        int b = keys[i];
        if (b >= 0 && b < nbins)
            bins[b] += 1;
    }}
}}
""",
    "c_prefix{k}.c": """\
/* in-place inclusive prefix sum */
void c_prefix{k}(int n, double *x)
{{
    int i;
    for (i = 1; i < n; i++)
        x[i] = x[i] + x[i - 1];
}}
""",
    "c_stencil{k}.c": """\
/* one Jacobi step of the 2-D Laplacian on an n by n row-major grid */
void c_stencil{k}(int n, const double *u, double *v)
{{
    int i, j;
    for (i = 1; i < n - 1; i++)
        for (j = 1; j < n - 1; j++)
            v[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j]
                                   + u[i * n + j - 1] + u[i * n + j + 1]);
}}
""",
}

_MORE = _more_routines()
FORTRAN.update(_MORE.FORTRAN)
C.update(_MORE.C)

MAIN = """\
      PROGRAM DRIVER
C     runs the library of copy 0 at fixed sizes
      INTEGER N, NV
      PARAMETER (N = 200, NV = 100000)
      DOUBLE PRECISION A(N,N), B(N,N), C(N,N), X(NV), Y(NV)
      DOUBLE PRECISION U(0:NV+1), F(NV), W(NV)
      DOUBLE PRECISION S, DOT0, NRM20
      EXTERNAL DOT0, NRM20
      INTEGER I, J
      DO 20 J = 1, N
         DO 10 I = 1, N
            A(I,J) = 1.0D0/DBLE(I + J)
            B(I,J) = DBLE(I - J)
            C(I,J) = 0.0D0
   10    CONTINUE
   20 CONTINUE
      DO 30 I = 1, NV
         X(I) = DBLE(I)
         Y(I) = 1.0D0
         F(I) = 1.0D0
         U(I) = 0.0D0
   30 CONTINUE
      U(0) = 0.0D0
      U(NV+1) = 0.0D0
      CALL AXPY0(NV, 2.0D0, X, Y)
      S = DOT0(NV, X, Y)
      S = S + NRM20(NV, X)
      CALL GEMV0('N', N, N, 1.0D0, A, N, X, Y)
      CALL GEMM0(N, N, N, A, N, B, N, C, N)
      CALL LU0(N, C, N)
      CALL TRSV0(N, C, N, X)
      CALL STENCIL0(N, A, B)
      CALL ISORT0(N, X)
      CALL JACOBI0(1000, U, F, W, 1.0D-3)
      WRITE (*, *) S, C(1,1), X(1)
      END
"""


MAIN_C = """\
/* a C driver for copy 0's C routines */
#include <stdio.h>

void c_axpy0(int n, double a, const double *x, double *y);
void c_matvec0(int m, int n, const double *a, const double *x, double *y);
void c_prefix0(int n, double *x);
void c_stencil0(int n, const double *u, double *v);

#define N 300

static double a[N * N], u[N * N], v[N * N], x[N], y[N];

int main(void)
{
    int i;
    for (i = 0; i < N * N; i++) {
        a[i] = 1.0 / (i + 1);
        u[i] = 0.0;
    }
    for (i = 0; i < N; i++) {
        x[i] = i;
        y[i] = 1.0;
    }
    c_axpy0(N, 2.0, x, y);
    c_matvec0(N, N, a, x, y);
    c_prefix0(N, y);
    c_stencil0(N, u, v);
    printf("%g %g\\n", y[N - 1], v[N + 1]);
    return 0;
}
"""


def generate(dest: Path, copies: int) -> list[Path]:
    """Write `copies` families of routines (and the main program) under dest; return the files written."""
    written = []
    for k in range(copies):
        folder = dest / f"lib{k:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        for name, template in {**FORTRAN, **C}.items():
            path = folder / name.format(k=k)
            path.write_text(template.format(k=k) if name.endswith(".c") else template.replace("{k}", str(k)))
            written.append(path)
    for name, text in (("main.f", MAIN), ("main.c", MAIN_C)):
        (dest / name).write_text(text)
        written.append(dest / name)
    return sorted(written)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", type=Path)
    parser.add_argument("--copies", type=int, default=4)
    args = parser.parse_args()
    files = generate(args.dest, args.copies)
    lines = sum(len(p.read_text().splitlines()) for p in files)
    print(f"{len(files)} files, {lines} lines under {args.dest}")


if __name__ == "__main__":
    main()
