      SUBROUTINE SPRS(N, NZ, IV, NZV)
      INTEGER N, NZ, IV(*), NZV, I, II
      NZV = 0
      I = 0
  100 CONTINUE
      IF (NZV .GE. NZ) GOTO 110
      I = I + 1
      IF (I .GT. N) GOTO 100
      DO 105 II = 1, NZV
         IF (IV(II) .EQ. I) GOTO 100
  105 CONTINUE
      NZV = NZV + 1
      IV(NZV) = I
      GOTO 100
  110 CONTINUE
      RETURN
      END
      PROGRAM MAIN
      INTEGER IV(100), NZV
      CALL SPRS(50, 20, IV, NZV)
      PRINT *, NZV
      END
