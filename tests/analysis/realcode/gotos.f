      PROGRAM GOTOS
      INTEGER N, NZ, NZV, I, II, IV(100)
      READ *, N, NZ
      NZV = 0
      I = 0
  100 CONTINUE
      IF (NZV .GE. NZ) GOTO 110
      I = I + 1
      IF (I .GT. N) GOTO 120
      IF (MOD(I, 3) .EQ. 0) GOTO 100
      DO 105 II = 1, NZV
         IF (IV(II) .EQ. I) GOTO 100
  105 CONTINUE
      NZV = NZV + 1
      IV(NZV) = I
      GOTO 100
  110 CONTINUE
      PRINT *, NZV
  120 CONTINUE
      PRINT *, I
      END
