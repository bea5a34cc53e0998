C     DLARFGP's XNORM = DNRM2(N-1, X, 1): DNRM2 returns ZERO where its
C     N <= 0, so at the last call (N = 1) XNORM.EQ.ZERO holds. As data
C     alone the test was decided false for every call (the ELSE counted
C     5 times where it runs 4, the THEN 0 where it runs once).
      PROGRAM FNZERO
      INTEGER I
      DOUBLE PRECISION X(5), S
      DO 10 I = 1, 5
         X(I) = DBLE(I) / 3.0D0
   10 CONTINUE
      S = 0.0D0
      DO 20 I = 5, 1, -1
         CALL REFL(I, X, S)
   20 CONTINUE
      PRINT *, S
      END

      SUBROUTINE REFL(N, X, S)
      INTEGER N
      DOUBLE PRECISION X(N), S, XNORM, XNRM
      EXTERNAL XNRM
      XNORM = XNRM(N - 1, X)
      IF (XNORM .EQ. 0.0D0) THEN
         S = S + 1.0D0
      ELSE
         S = S + XNORM
      END IF
      END

      DOUBLE PRECISION FUNCTION XNRM(N, X)
      INTEGER N, I
      DOUBLE PRECISION X(*), T
      XNRM = 0.0D0
      IF (N .LE. 0) RETURN
      T = 0.0D0
      DO 30 I = 1, N
         T = T + X(I)**2
   30 CONTINUE
      XNRM = SQRT(T)
      END
