      SUBROUTINE HALF(N, M, X)
      INTEGER N, M, I, J, K, L
      REAL X(*)
      K = N/2
      DO 10 I = 1, K
         X(I) = 0.0
   10 CONTINUE
      DO 20 I = 1, K
         DO 15 J = 1, MOD(I, 3)
            X(J) = X(J) + 1.0
   15    CONTINUE
   20 CONTINUE
      DO 30 I = 1, MOD(M, 4)
         X(I) = 1.0
   30 CONTINUE
      L = 7
      DO 40 I = 1, L/2 + N/2
         X(I) = 2.0
   40 CONTINUE
      END
