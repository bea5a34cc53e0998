C     STEPPED -- DO LOOPS WITH NON-UNIT STEPS AND AN EMPTY RANGE.
C     F77 TRIP COUNT: MAX(INT((M2 - M1 + M3)/M3), 0).
C       DO I = 1, N, 3      MAX(0, FLOOR((N + 2)/3))
C       DO I = N, 1, -2     MAX(0, FLOOR((N + 1)/2))
C       DO I = N, 1         MAX(0, 2 - N), ZERO FOR N >= 2
C       DO I = 1, N, K      MAX(0, FLOOR((N - 1 + K)/K)), K > 0
      PROGRAM STEPPD
      INTEGER N, K, I, IS1, IS2, IS3, IS4
C
      READ (5, *) N, K
      IS1 = 0
      DO 10 I = 1, N, 3
         IS1 = IS1 + I
   10 CONTINUE
C
      IS2 = 0
      DO 20 I = N, 1, -2
         IS2 = IS2 + I
   20 CONTINUE
C
C     EMPTY RANGE (FOR N >= 2): THE BODY IS NEVER EXECUTED
C
      IS3 = 0
      DO 30 I = N, 1
         IS3 = IS3 + I
   30 CONTINUE
C
      IS4 = 0
      DO 40 I = 1, N, K
         IS4 = IS4 + I
   40 CONTINUE
      WRITE (6, 9000) IS1, IS2, IS3, IS4
 9000 FORMAT (1X, 'CHECKSUM ', 4I10)
      END
