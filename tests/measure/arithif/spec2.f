      INTEGER FUNCTION SPEC2(ISPEC, NAME)
C     ILAENV's dispatch and entry: the computed GOTO over two lines,
C     a CHARACTER*(*) argument copied at label 10
      INTEGER ISPEC
      CHARACTER*( * ) NAME
      CHARACTER*16 SUBNAM
      GO TO ( 10, 10, 10, 80, 90, 100, 110, 120,
     $        130, 140, 150, 160, 160, 160, 160, 160, 160)ISPEC
      SPEC2 = -1
      RETURN
   10 CONTINUE
      SUBNAM = NAME
      SPEC2 = 1
      RETURN
   80 SPEC2 = 2
      RETURN
   90 SPEC2 = 3
      RETURN
  100 SPEC2 = 4
      RETURN
  110 SPEC2 = 5
      RETURN
  120 SPEC2 = 6
      RETURN
  130 SPEC2 = 7
      RETURN
  140 SPEC2 = 8
      RETURN
  150 SPEC2 = 9
      RETURN
  160 SPEC2 = 10
      RETURN
      END
      PROGRAM DISP2
      INTEGER K, SPEC2
      K = SPEC2(1, 'DGEQRF') + SPEC2(3, 'DGEQRF')
      PRINT *, K
      END
