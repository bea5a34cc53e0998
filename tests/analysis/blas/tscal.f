C     DLATRS's TSCAL: ONE where TMAX is below BIGNUM (always, for data),
C     else data. Its value is not followed at the test in the ELSE arm
C     (the THEN arm's GO TO 50), and taken for data alone `T.NE.1.0`
C     was decided true: the loop below counted 0 where it runs 5 times.
      PROGRAM TSCAL
      INTEGER I
      DOUBLE PRECISION X(5), S
      DO 10 I = 1, 5
         X(I) = DBLE(I) / 3.0D0
   10 CONTINUE
      S = 0.0D0
      CALL SCALE(5, X, S, .FALSE.)
      PRINT *, S
      END

      SUBROUTINE SCALE(N, X, S, UP)
      INTEGER N, I
      LOGICAL UP
      DOUBLE PRECISION X(N), S, T, TM
      TM = X(1)
      IF (TM .LE. 1.0D100) THEN
         T = 1.0D0
      ELSE
         T = 1.0D0 / TM
      END IF
      IF (UP) THEN
         IF (T .NE. 1.0D0) GO TO 50
         S = S + 1.0D0
   50    CONTINUE
      ELSE
         IF (T .NE. 1.0D0) GO TO 80
         DO 60 I = 1, N
            S = S + X(I)
   60    CONTINUE
   80    CONTINUE
      END IF
      END
