C     Y = A**T X over a column-major A: the inner loop walks a column (unit
C     stride); then the same product with the inner loop along a row
      PROGRAM ROWWLK
      INTEGER N, I, J, R
      PARAMETER (N = 1800)
      DOUBLE PRECISION A(N, N), X(N), Y(N), S
      DO 10 J = 1, N
         X(J) = 1.0D0 / J
         DO 5 I = 1, N
            A(I, J) = MOD(I + J, 7) * 0.5D0
    5    CONTINUE
   10 CONTINUE
      DO 40 R = 1, 100
         DO 30 I = 1, N
            S = 0.0D0
            DO 20 J = 1, N
               S = S + A(I, J) * X(J)
   20       CONTINUE
            Y(I) = S
   30    CONTINUE
   40 CONTINUE
      PRINT *, Y(1), Y(N)
      END
