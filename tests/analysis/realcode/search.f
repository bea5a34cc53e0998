      PROGRAM SEARCH
C     A DO loop left early on data (the test of A(I)): X trips, the index
C     running over its first X values, so that the callee's size I and the
C     inner loop's lower bound I are summed over them (TRI's M was left a
C     symbol of TRI and the inner loop an unknown count before)
      INTEGER N, I, J
      PARAMETER (N = 12)
      DOUBLE PRECISION A(N), S
      DO 5 I = 1, N
         A(I) = DBLE(N - I)
    5 CONTINUE
      S = 0.0D0
      DO 20 I = 1, N
         CALL TRI(I, A, S)
         DO 10 J = I, N
            S = S + A(J)
   10    CONTINUE
         IF (A(I) .LT. 4.5D0) GOTO 30
   20 CONTINUE
   30 CONTINUE
      PRINT *, S
      END

      SUBROUTINE TRI(M, A, S)
      INTEGER M, L
      DOUBLE PRECISION A(*), S
      DO 40 L = 1, M
         S = S + A(L)
   40 CONTINUE
      END
