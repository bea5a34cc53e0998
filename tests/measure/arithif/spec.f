      INTEGER FUNCTION SPEC(ISPEC)
C     ILAENV's dispatch: a computed GOTO continued over two lines
      INTEGER ISPEC
      GO TO ( 10, 10, 20, 20, 20, 30, 30, 30,
     $        30, 30 )ISPEC
      SPEC = -1
      RETURN
   10 SPEC = 1
      RETURN
   20 SPEC = 2
      RETURN
   30 SPEC = 3
      RETURN
      END
      PROGRAM DISP
      INTEGER K, SPEC
      K = SPEC(1) + SPEC(2) + SPEC(3) + SPEC(4) + SPEC(5) + SPEC(6)
      K = K + SPEC(7)
      PRINT *, K
      END
