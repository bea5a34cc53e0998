C     DLANGE's shape: SCALE = ZERO and SUM = ONE before a loop of calls
C     that pass on what the last call left; SSQ tests both (as DLASSQ).
      PROGRAM REACH
      DOUBLE PRECISION A(5, 4), SCALE, SUM
      INTEGER I, J
      DO 10 J = 1, 4
         DO 5 I = 1, 5
            A(I, J) = DBLE(I + J) / 3.0D0
    5    CONTINUE
   10 CONTINUE
      SCALE = 0.0D0
      SUM = 1.0D0
      DO 20 J = 1, 4
         CALL SSQ(5, A(1, J), SCALE, SUM)
   20 CONTINUE
      PRINT *, SCALE*SQRT(SUM)
      END

      SUBROUTINE SSQ(N, X, SCL, SUMSQ)
      INTEGER N, I
      DOUBLE PRECISION X(N), SCL, SUMSQ
      IF (SUMSQ .EQ. 0.0D0) THEN
         SCL = 1.0D0
      END IF
      IF (SCL .EQ. 0.0D0) THEN
         SCL = 1.0D0
         SUMSQ = 0.0D0
      END IF
      DO 10 I = 1, N
         SUMSQ = SUMSQ + X(I)**2
   10 CONTINUE
      SCL = SCL*2.0D0 + X(1)
      END
