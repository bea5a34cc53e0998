      PROGRAM CY
      INTEGER I, K, N
      N = 10
      K = 0
      DO 30 I = 1, N
         IF (I .GT. 7) EXIT
         IF (MOD(I, 2) .EQ. 0) CYCLE
         K = K + 1
   30 CONTINUE
      DO 40 I = 1, N
         IF (MOD(I, 3) .EQ. 0) CYCLE
         K = K + 1
   40 CONTINUE
      PRINT *, K
      END
