      PROGRAM DEEP
C     DSYTRD's shape: TOP's blocked loop calls MID on each panel, and
C     TOP's counts summed over the loop are the large formula; each
C     call of TOP passes numbers.
      DOUBLE PRECISION W(8)
      INTEGER I
      DO 10 I = 1, 8
         W(I) = 0.0D0
   10 CONTINUE
      CALL TOP(30, W)
      CALL TOP(17, W)
      PRINT *, W(1)
      END

      SUBROUTINE TOP(N, W)
      INTEGER N, I
      DOUBLE PRECISION W(*)
      DO 10 I = 1, N, 4
         CALL MID(N - I + 1, MIN(4, N - I + 1), W)
   10 CONTINUE
      END

      SUBROUTINE MID(M, K, W)
      INTEGER M, K, J, L
      DOUBLE PRECISION W(*)
      IF (M .LE. 2) RETURN
      DO 20 J = 1, K
         DO 10 L = 1, MOD(M, 3)
            W(L) = W(L) + 1.0D0
   10    CONTINUE
         IF (M - J .GT. 5) W(1) = W(1) + 2.0D0
   20 CONTINUE
      END
