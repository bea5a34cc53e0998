"""More library routines for the generated codebase (benchmarks/codebase.py merges them into its families).

Templates in the same convention as codebase.py: `{k}` is the copy's suffix; the C templates go through
str.format, so their braces are doubled. Each file holds one routine, with the kind of header comment real
libraries carry, and compiles with gfortran -std=legacy / gcc -c. BLAS-level vector and matrix kernels
(IAMAX, ASUM, SWAP, strided COPY, ROT, GER, SYMV, TRMV), LAPACK-style drivers that call other files
(LASWP, GETRS through TRSV, GEQR2 through NRM2, POWER through GEMV and NRM2), numerical methods with GOTO
loops (bisection, binary search, SOR sweeps to a tolerance), a blocked transpose with MIN strips, Horner,
Simpson, a matrix one-norm, cubic-spline second derivatives; in C a dot product, a blocked matrix product,
a CSR product, a Jacobi iteration with a while loop and a binary search.
"""
from __future__ import annotations

FORTRAN = {
    "iamax{k}.f": """\
      INTEGER FUNCTION IAMAX{k}(N, X)
C
C     Purpose
C     =======
C     the index of the first element of X with the largest absolute
C     value (0 when N < 1)
C
C     Arguments
C     =========
C     N       (input) the number of elements
C     X       (input) the vector, N elements
C
      INTEGER N
      DOUBLE PRECISION X(*)
      INTEGER I
      DOUBLE PRECISION XMAX
      IAMAX{k} = 0
      IF (N .LT. 1) RETURN
      IAMAX{k} = 1
      XMAX = ABS(X(1))
      DO 10 I = 2, N
         IF (ABS(X(I)) .GT. XMAX) THEN
            IAMAX{k} = I
            XMAX = ABS(X(I))
         END IF
   10 CONTINUE
      RETURN
      END
""",
    "asum{k}.f": """\
      DOUBLE PRECISION FUNCTION ASUM{k}(N, X)
C
C     Purpose
C     =======
C     the sum of the absolute values of the elements of X
C
      INTEGER N
      DOUBLE PRECISION X(*)
      INTEGER I
      DOUBLE PRECISION S
      S = 0.0D0
      DO 10 I = 1, N
         S = S + ABS(X(I))
   10 CONTINUE
      ASUM{k} = S
      RETURN
      END
""",
    "swap{k}.f": """\
      SUBROUTINE SWAP{k}(N, X, Y)
C
C     Purpose
C     =======
C     interchange the vectors X and Y
C
      INTEGER N
      DOUBLE PRECISION X(*), Y(*)
      INTEGER I
      DOUBLE PRECISION TEMP
      DO 10 I = 1, N
         TEMP = X(I)
         X(I) = Y(I)
         Y(I) = TEMP
   10 CONTINUE
      RETURN
      END
""",
    "copy{k}.f": """\
      SUBROUTINE COPY{k}(N, X, INCX, Y, INCY)
C
C     Purpose
C     =======
C     Y := X for vectors stored with the increments INCX and INCY
C     (positive increments)
C
      INTEGER N, INCX, INCY
      DOUBLE PRECISION X(*), Y(*)
      INTEGER I, IX, IY
      IF (N .LE. 0) RETURN
      IX = 1
      IY = 1
      DO 10 I = 1, N
         Y(IY) = X(IX)
         IX = IX + INCX
         IY = IY + INCY
   10 CONTINUE
      RETURN
      END
""",
    "rot{k}.f": """\
      SUBROUTINE ROT{k}(N, X, Y, C, S)
C
C     Purpose
C     =======
C     apply the plane rotation (C, S) to the pairs (X(I), Y(I))
C
      INTEGER N
      DOUBLE PRECISION X(*), Y(*), C, S
      INTEGER I
      DOUBLE PRECISION TEMP
      DO 10 I = 1, N
         TEMP = C*X(I) + S*Y(I)
         Y(I) = C*Y(I) - S*X(I)
         X(I) = TEMP
   10 CONTINUE
      RETURN
      END
""",
    "ger{k}.f": """\
      SUBROUTINE GER{k}(M, N, ALPHA, X, Y, A, LDA)
C
C     Purpose
C     =======
C     the rank-one update A := ALPHA*X*Y' + A of an M by N matrix;
C     columns whose Y(J) is zero are skipped
C
      INTEGER M, N, LDA
      DOUBLE PRECISION ALPHA, X(*), Y(*), A(LDA,*)
      INTEGER I, J
      DOUBLE PRECISION TEMP
      IF (M .EQ. 0 .OR. N .EQ. 0 .OR. ALPHA .EQ. 0.0D0) RETURN
      DO 20 J = 1, N
         IF (Y(J) .NE. 0.0D0) THEN
            TEMP = ALPHA*Y(J)
            DO 10 I = 1, M
               A(I,J) = A(I,J) + X(I)*TEMP
   10       CONTINUE
         END IF
   20 CONTINUE
      RETURN
      END
""",
    "symv{k}.f": """\
      SUBROUTINE SYMV{k}(N, A, LDA, X, Y)
C
C     Purpose
C     =======
C     Y := A*X + Y for a symmetric N by N matrix A of which only the
C     lower triangle is referenced
C
      INTEGER N, LDA
      DOUBLE PRECISION A(LDA,*), X(*), Y(*)
      INTEGER I, J
      DOUBLE PRECISION TEMP1, TEMP2
      DO 20 J = 1, N
         TEMP1 = X(J)
         TEMP2 = 0.0D0
         Y(J) = Y(J) + TEMP1*A(J,J)
         DO 10 I = J + 1, N
            Y(I) = Y(I) + TEMP1*A(I,J)
            TEMP2 = TEMP2 + A(I,J)*X(I)
   10    CONTINUE
         Y(J) = Y(J) + TEMP2
   20 CONTINUE
      RETURN
      END
""",
    "trmv{k}.f": """\
      SUBROUTINE TRMV{k}(N, A, LDA, X)
C
C     Purpose
C     =======
C     X := U*X for an upper triangular N by N matrix U (non-unit
C     diagonal), column by column
C
      INTEGER N, LDA
      DOUBLE PRECISION A(LDA,*), X(*)
      INTEGER I, J
      DOUBLE PRECISION TEMP
      DO 20 J = 1, N
         TEMP = X(J)
         DO 10 I = 1, J - 1
            X(I) = X(I) + TEMP*A(I,J)
   10    CONTINUE
         X(J) = X(J)*A(J,J)
   20 CONTINUE
      RETURN
      END
""",
    "laswp{k}.f": """\
      SUBROUTINE LASWP{k}(N, A, LDA, K1, K2, IPIV)
C
C     Purpose
C     =======
C     apply the row interchanges IPIV(K1), ..., IPIV(K2) to the N
C     columns of A (row K is swapped with row IPIV(K))
C
      INTEGER N, LDA, K1, K2, IPIV(*)
      DOUBLE PRECISION A(LDA,*)
      INTEGER I, IP, J
      DOUBLE PRECISION TEMP
      DO 20 I = K1, K2
         IP = IPIV(I)
         IF (IP .NE. I) THEN
            DO 10 J = 1, N
               TEMP = A(I,J)
               A(I,J) = A(IP,J)
               A(IP,J) = TEMP
   10       CONTINUE
         END IF
   20 CONTINUE
      RETURN
      END
""",
    "getrs{k}.f": """\
      SUBROUTINE GETRS{k}(N, A, LDA, B)
C
C     Purpose
C     =======
C     solve A*X = B with the factors L*U of A computed by LU{k}:
C     forward substitution with L (unit lower, through TRSV{k}), then
C     back substitution with U; B is overwritten by X
C
      INTEGER N, LDA
      DOUBLE PRECISION A(LDA,*), B(*)
      INTEGER I, J
      DOUBLE PRECISION TEMP
      EXTERNAL TRSV{k}
      IF (N .LE. 0) RETURN
      CALL TRSV{k}(N, A, LDA, B)
      DO 20 J = N, 1, -1
         B(J) = B(J)/A(J,J)
         TEMP = B(J)
         DO 10 I = 1, J - 1
            B(I) = B(I) - TEMP*A(I,J)
   10    CONTINUE
   20 CONTINUE
      RETURN
      END
""",
    "geqr2{k}.f": """\
      SUBROUTINE GEQR2{k}(M, N, A, LDA, TAU)
C
C     Purpose
C     =======
C     QR factorization of an M by N matrix A (M >= N) by Householder
C     reflections, unblocked: column J's reflector is formed from its
C     norm (NRM2{k}) and applied to the columns right of it
C
      INTEGER M, N, LDA
      DOUBLE PRECISION A(LDA,*), TAU(*)
      INTEGER I, J, L
      DOUBLE PRECISION ALPHA, BETA, S, NRM2{k}
      EXTERNAL NRM2{k}
      DO 40 J = 1, N
         ALPHA = A(J,J)
         BETA = -SIGN(NRM2{k}(M - J + 1, A(J,J)), ALPHA)
         TAU(J) = (BETA - ALPHA)/BETA
         DO 10 I = J + 1, M
            A(I,J) = A(I,J)/(ALPHA - BETA)
   10    CONTINUE
         A(J,J) = BETA
         DO 30 L = J + 1, N
            S = A(J,L)
            DO 20 I = J + 1, M
               S = S + A(I,J)*A(I,L)
   20       CONTINUE
            S = TAU(J)*S
            A(J,L) = A(J,L) - S
            DO 25 I = J + 1, M
               A(I,L) = A(I,L) - S*A(I,J)
   25       CONTINUE
   30    CONTINUE
   40 CONTINUE
      RETURN
      END
""",
    "power{k}.f": """\
      SUBROUTINE POWER{k}(N, A, LDA, X, Y, TOL, MAXIT, LAMBDA)
C
C     Purpose
C     =======
C     the dominant eigenvalue of A by the power method: Y := A*X
C     (GEMV{k}), X := Y/|Y| (NRM2{k}), at most MAXIT steps, stopping
C     when the estimate changes by less than TOL
C
      INTEGER N, LDA, MAXIT
      DOUBLE PRECISION A(LDA,*), X(*), Y(*), TOL, LAMBDA
      INTEGER I, IT
      DOUBLE PRECISION OLD, NRM2{k}
      EXTERNAL GEMV{k}, NRM2{k}
      LAMBDA = 0.0D0
      DO 20 IT = 1, MAXIT
         OLD = LAMBDA
         DO 5 I = 1, N
            Y(I) = 0.0D0
    5    CONTINUE
         CALL GEMV{k}('N', N, N, 1.0D0, A, LDA, X, Y)
         LAMBDA = NRM2{k}(N, Y)
         DO 10 I = 1, N
            X(I) = Y(I)/LAMBDA
   10    CONTINUE
         IF (ABS(LAMBDA - OLD) .LT. TOL*LAMBDA) GO TO 30
   20 CONTINUE
   30 CONTINUE
      RETURN
      END
""",
    "bisect{k}.f": """\
      DOUBLE PRECISION FUNCTION BISECT{k}(A, B, TOL)
C
C     Purpose
C     =======
C     a root of F(X) = X**3 - 2*X - 5 in [A, B] by bisection, to the
C     interval width TOL (F(A) and F(B) of opposite signs)
C
      DOUBLE PRECISION A, B, TOL
      DOUBLE PRECISION LO, HI, MID, FLO, FMID
      LO = A
      HI = B
      FLO = LO**3 - 2.0D0*LO - 5.0D0
   10 CONTINUE
      IF (HI - LO .LE. TOL) GO TO 20
      MID = 0.5D0*(LO + HI)
      FMID = MID**3 - 2.0D0*MID - 5.0D0
      IF (SIGN(1.0D0, FMID) .EQ. SIGN(1.0D0, FLO)) THEN
         LO = MID
         FLO = FMID
      ELSE
         HI = MID
      END IF
      GO TO 10
   20 CONTINUE
      BISECT{k} = 0.5D0*(LO + HI)
      RETURN
      END
""",
    "bsearch{k}.f": """\
      INTEGER FUNCTION BSEARCH{k}(N, X, V)
C
C     Purpose
C     =======
C     the largest I with X(I) <= V in the ascending vector X (0 if
C     V < X(1)), by bisection of the index range
C
      INTEGER N
      DOUBLE PRECISION X(*), V
      INTEGER LO, HI, MID
      LO = 0
      HI = N + 1
   10 CONTINUE
      IF (HI - LO .LE. 1) GO TO 20
      MID = (LO + HI)/2
      IF (X(MID) .LE. V) THEN
         LO = MID
      ELSE
         HI = MID
      END IF
      GO TO 10
   20 CONTINUE
      BSEARCH{k} = LO
      RETURN
      END
""",
    "sor{k}.f": """\
      SUBROUTINE SOR{k}(N, U, F, OMEGA, TOL, MAXIT)
C
C     Purpose
C     =======
C     successive over-relaxation for the 5-point Laplacian on the
C     interior of an N by N grid, at most MAXIT sweeps, until the
C     largest update is below TOL
C
      INTEGER N, MAXIT
      DOUBLE PRECISION U(N,N), F(N,N), OMEGA, TOL
      INTEGER I, J, IT
      DOUBLE PRECISION R, ERR
      DO 30 IT = 1, MAXIT
         ERR = 0.0D0
         DO 20 J = 2, N - 1
            DO 10 I = 2, N - 1
               R = 0.25D0*(U(I-1,J) + U(I+1,J) + U(I,J-1) + U(I,J+1)
     &             + F(I,J)) - U(I,J)
               U(I,J) = U(I,J) + OMEGA*R
               ERR = MAX(ERR, ABS(R))
   10       CONTINUE
   20    CONTINUE
         IF (ERR .LT. TOL) RETURN
   30 CONTINUE
      RETURN
      END
""",
    "transp{k}.f": """\
      SUBROUTINE TRANSP{k}(M, N, A, LDA, B, LDB)
C
C     Purpose
C     =======
C     B := A' for an M by N matrix A, in column strips of 32 so that
C     the rows of B being written stay in cache
C
      INTEGER M, N, LDA, LDB
      DOUBLE PRECISION A(LDA,*), B(LDB,*)
      INTEGER I, J, JJ, JB
      DO 30 JJ = 1, N, 32
         JB = MIN(32, N - JJ + 1)
         DO 20 I = 1, M
            DO 10 J = JJ, JJ + JB - 1
               B(J,I) = A(I,J)
   10       CONTINUE
   20    CONTINUE
   30 CONTINUE
      RETURN
      END
""",
    "horner{k}.f": """\
      DOUBLE PRECISION FUNCTION HORNER{k}(N, C, X)
C
C     Purpose
C     =======
C     the polynomial C(1) + C(2)*X + ... + C(N+1)*X**N by Horner's rule
C
      INTEGER N
      DOUBLE PRECISION C(*), X
      INTEGER I
      DOUBLE PRECISION P
      P = C(N+1)
      DO 10 I = N, 1, -1
         P = P*X + C(I)
   10 CONTINUE
      HORNER{k} = P
      RETURN
      END
""",
    "simpson{k}.f": """\
      DOUBLE PRECISION FUNCTION SIMPSON{k}(N, H, F)
C
C     Purpose
C     =======
C     the composite Simpson rule for samples F(0:N) at spacing H
C     (N even)
C
      INTEGER N
      DOUBLE PRECISION H, F(0:N)
      INTEGER I
      DOUBLE PRECISION S
      S = F(0) + F(N)
      DO 10 I = 1, N - 1, 2
         S = S + 4.0D0*F(I)
   10 CONTINUE
      DO 20 I = 2, N - 2, 2
         S = S + 2.0D0*F(I)
   20 CONTINUE
      SIMPSON{k} = S*H/3.0D0
      RETURN
      END
""",
    "norm1{k}.f": """\
      DOUBLE PRECISION FUNCTION NORM1{k}(M, N, A, LDA)
C
C     Purpose
C     =======
C     the one-norm of an M by N matrix: its largest column sum of
C     absolute values
C
      INTEGER M, N, LDA
      DOUBLE PRECISION A(LDA,*)
      INTEGER I, J
      DOUBLE PRECISION S, VALUE
      VALUE = 0.0D0
      DO 20 J = 1, N
         S = 0.0D0
         DO 10 I = 1, M
            S = S + ABS(A(I,J))
   10    CONTINUE
         IF (S .GT. VALUE) VALUE = S
   20 CONTINUE
      NORM1{k} = VALUE
      RETURN
      END
""",
    "spline{k}.f": """\
      SUBROUTINE SPLINE{k}(N, X, Y, Y2, U)
C
C     Purpose
C     =======
C     the second derivatives Y2 of the natural cubic spline through
C     (X(I), Y(I)), I = 1..N: a tridiagonal system solved by one
C     forward sweep (workspace U) and back substitution
C
      INTEGER N
      DOUBLE PRECISION X(N), Y(N), Y2(N), U(N)
      INTEGER I
      DOUBLE PRECISION SIG, P
      Y2(1) = 0.0D0
      U(1) = 0.0D0
      DO 10 I = 2, N - 1
         SIG = (X(I) - X(I-1))/(X(I+1) - X(I-1))
         P = SIG*Y2(I-1) + 2.0D0
         Y2(I) = (SIG - 1.0D0)/P
         U(I) = (6.0D0*((Y(I+1) - Y(I))/(X(I+1) - X(I))
     &          - (Y(I) - Y(I-1))/(X(I) - X(I-1)))/(X(I+1) - X(I-1))
     &          - SIG*U(I-1))/P
   10 CONTINUE
      Y2(N) = 0.0D0
      DO 20 I = N - 1, 1, -1
         Y2(I) = Y2(I)*Y2(I+1) + U(I)
   20 CONTINUE
      RETURN
      END
""",
}

C = {
    "c_dot{k}.c": """\
/*
 * r := x . y, accumulated in four partial sums so that the additions
 * of consecutive elements do not wait for each other
 */
void c_dot{k}(int n, const double *x, const double *y, double *r)
{{
    int i, m = n - n % 4;
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    for (i = 0; i < m; i += 4) {{
        s0 += x[i] * y[i];
        s1 += x[i + 1] * y[i + 1];
        s2 += x[i + 2] * y[i + 2];
        s3 += x[i + 3] * y[i + 3];
    }}
    for (i = m; i < n; i++)
        s0 += x[i] * y[i];
    *r = (s0 + s1) + (s2 + s3);
}}
""",
    "c_gemm{k}.c": """\
/*
 * c := c + a*b for row-major n by n matrices, in the i-k-j order so that
 * the innermost loop runs along rows of b and c
 */
void c_gemm{k}(int n, const double *a, const double *b, double *c)
{{
    int i, j, k;
    for (i = 0; i < n; i++)
        for (k = 0; k < n; k++) {{
            double aik = a[i * n + k];
            for (j = 0; j < n; j++)
                c[i * n + j] += aik * b[k * n + j];
        }}
}}
""",
    "c_csrmv{k}.c": """\
/*
 * y := A*x for an m-row sparse matrix in compressed sparse row form
 * (row i's entries are val[ptr[i]] .. val[ptr[i+1]-1])
 */
void c_csrmv{k}(int m, const int *ptr, const int *col, const double *val,
                const double *x, double *y)
{{
    int i, p;
    for (i = 0; i < m; i++) {{
        double s = 0.0;
        for (p = ptr[i]; p < ptr[i + 1]; p++)
            s += val[p] * x[col[p]];
        y[i] = s;
    }}
}}
""",
    "c_jacobi{k}.c": """\
/*
 * Jacobi iterations for -u'' = f on n interior points (u[0] and u[n+1]
 * fixed), until the largest update is below tol; w is workspace
 */
void c_jacobi{k}(int n, double *u, const double *f, double *w, double tol)
{{
    int i;
    double err = tol + 1.0;
    while (err >= tol) {{
        err = 0.0;
        for (i = 1; i <= n; i++)
            w[i] = 0.5 * (u[i - 1] + u[i + 1] + f[i]);
        for (i = 1; i <= n; i++) {{
            double d = w[i] - u[i];
            if (d < 0.0)
                d = -d;
            if (d > err)
                err = d;
            u[i] = w[i];
        }}
    }}
}}
""",
    "c_bsearch{k}.c": """\
/*
 * *pos := the number of elements of the ascending array x that are
 * less than or equal to v (the insertion point after equal keys)
 */
void c_bsearch{k}(int n, const double *x, double v, int *pos)
{{
    int lo = 0, hi = n;
    while (lo < hi) {{
        int mid = lo + (hi - lo) / 2;
        if (x[mid] <= v)
            lo = mid + 1;
        else
            hi = mid;
    }}
    *pos = lo;
}}
""",
}
