      PROGRAM NEG
      INTEGER N, I, K
      N = -5
      K = 0
      DO 10 I = 1, MOD(N, 4)
         K = K + 1
   10 CONTINUE
      DO 20 I = N/2, 0
         K = K + 1
   20 CONTINUE
      PRINT *, K
      END
