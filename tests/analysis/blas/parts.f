C     A work array partitioned as LAPACK's drivers do (DGELS: TAU in
C     WORK(1), DORMQR's workspace from WORK(MN+1)): FACTOR leaves an
C     exact zero in its TAU, APPLY fills its own part with data and
C     tests it. The zero is in the first part only.
      PROGRAM PARTS
      INTEGER N
      PARAMETER (N = 5)
      DOUBLE PRECISION WORK(2*N), X(N)
      INTEGER I
      DO 10 I = 1, N
         X(I) = DBLE(I) / 7.0D0
   10 CONTINUE
      CALL SOLVE(N, X, WORK)
      END

      SUBROUTINE SOLVE(N, X, WORK)
      INTEGER N, K
      DOUBLE PRECISION X(N), WORK(*)
      K = N
      CALL FACTOR(N, X, WORK(1))
      CALL APPLY(N, X, WORK(K+1))
      END

      SUBROUTINE FACTOR(N, X, TAU)
      INTEGER N, I
      DOUBLE PRECISION X(N), TAU(N)
      DO 10 I = 1, N
         CALL REFL(N - I + 1, X(I), TAU(I))
   10 CONTINUE
      END

      SUBROUTINE REFL(M, ALPHA, TAU)
      INTEGER M
      DOUBLE PRECISION ALPHA, TAU
      IF (M .LE. 1) THEN
         TAU = 0.0D0
      ELSE
         TAU = ALPHA * 2.0D0
      END IF
      END

      SUBROUTINE APPLY(N, X, W)
      INTEGER N, I
      DOUBLE PRECISION X(N), W(N), S
      S = 0.0D0
      DO 10 I = 1, N
         W(I) = X(I) * 3.0D0
   10 CONTINUE
      DO 20 I = 1, N
         IF (W(I) .NE. 0.0D0) S = S + W(I)
   20 CONTINUE
      PRINT *, S
      END
