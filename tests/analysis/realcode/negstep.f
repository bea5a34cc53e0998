      PROGRAM NEGST
C     A loop down from N left early on data: its index runs over N, N-1, ...
C     for X trips, which the inner DO J = 1, I is summed over
      INTEGER N, I, J
      PARAMETER (N = 10)
      DOUBLE PRECISION A(N), S
      DO 5 I = 1, N
         A(I) = DBLE(I)
    5 CONTINUE
      S = 0.0D0
      DO 20 I = N, 1, -1
         DO 10 J = 1, I
            S = S + A(J)
   10    CONTINUE
         IF (A(I) .LT. 6.5D0) GOTO 30
   20 CONTINUE
   30 CONTINUE
      PRINT *, S
      END
