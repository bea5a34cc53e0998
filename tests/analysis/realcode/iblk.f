      INTEGER FUNCTION IBLK(N)
      INTEGER N, K, I
      K = 0
      DO 10 I = 1, N
         K = K + I*I
   10 CONTINUE
      IF (K.GT.5000) THEN
         IBLK = 32
      ELSE
         IBLK = 1
      END IF
      END
