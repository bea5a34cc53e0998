      SUBROUTINE RESTRT(IOPT, N, T)
C     a GOTO loop entered at its top and, when IOPT > 0, in its middle (FITPACK restarts its knot
C     iteration so with IOPT = 1): no statement of the cycle dominates the others
      INTEGER IOPT, N, I
      DOUBLE PRECISION T(*)
      IF (IOPT .GT. 0) GO TO 80
   40 I = 1
      T(1) = 0.0D0
      T(2) = 0.0D0
      T(3) = 0.0D0
      T(4) = 0.0D0
   80 T(5) = T(5) + 1.0D0
      T(6) = T(5)
      T(7) = T(6)
      T(8) = T(7)
      IF (T(8) .GT. 10.0D0) GO TO 300
      N = N + 1
      GO TO 40
  300 RETURN
      END
      PROGRAM RESTART
      INTEGER IOPT, N
      DOUBLE PRECISION T(8)
      READ *, IOPT
      N = 0
      T(5) = 0.0D0
      CALL RESTRT(IOPT, N, T)
      PRINT *, N
      END
