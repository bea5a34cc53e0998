      PROGRAM EPS
      DOUBLE PRECISION A, B, C, E
      A = 4.0D0/3.0D0
   10 B = A - 1.0D0
      C = B + B + B
      E = ABS(C - 1.0D0)
      IF (E .EQ. 0.0D0) GO TO 10
      PRINT *, E
      END
