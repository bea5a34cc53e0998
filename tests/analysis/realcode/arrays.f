      PROGRAM ARR
      INTEGER GP(3), GRID(3), NX(2), I, K
      DATA GRID /8, 16, 32/
      READ *, NX
      GP(1) = 12
      K = 0
      DO 10 I = 1, GP(1) - 2
         K = K + 1
   10 CONTINUE
      DO 20 I = 1, GRID(3) - 2
         K = K + 1
   20 CONTINUE
      DO 30 I = 1, NX(2)
         K = K + 1
   30 CONTINUE
      PRINT *, K
      END
