      PROGRAM TRIANG
C     a loop bound that is MIN of two indices (L-BFGS-B's FORMT): the sum closes
      INTEGER N, I, J, K, K1, S
      READ *, N
      S = 0
      DO 30 I = 2, N
         DO 20 J = I, N
            K1 = MIN(I, J) - 1
            DO 10 K = 1, K1
               S = S + 1
   10       CONTINUE
   20    CONTINUE
   30 CONTINUE
      PRINT *, S
      END
