      PROGRAM STRIP
      INTEGER N, IV, IL, I, K
      READ *, N
      K = 0
      DO 20 IV = 1, N, 64
         IL = MIN(64, N - IV + 1)
         DO 10 I = 1, IL
            K = K + 1
   10    CONTINUE
   20 CONTINUE
      PRINT *, K
      END
