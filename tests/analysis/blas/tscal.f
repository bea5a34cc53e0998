C     DLATRS's TSCAL: ONE where TMAX is below BIGNUM (always, for data),
C     else a quotient of data, in three forms. SCALE: a block IF, the
C     test in the ELSE arm of `IF (UP)`, a LOGICAL argument, whose THEN
C     arm jumps to a label of its own (GO TO 50). SCALF: Fortran 66's
C     ELSE, a GO TO over the quotient. Taken for data, `T.NE.1.0` was
C     decided true (the loop counted 0 times where it runs 5); then left
C     open as a choice of data and ONE; T is ONE: the test is false.
      PROGRAM TSCAL
      INTEGER I
      DOUBLE PRECISION X(5), S
      DO 10 I = 1, 5
         X(I) = DBLE(I) / 3.0D0
   10 CONTINUE
      S = 0.0D0
      CALL SCALE(5, X, S, .FALSE.)
      CALL SCALF(5, X, S)
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

      SUBROUTINE SCALF(N, X, S)
      INTEGER N, I
      DOUBLE PRECISION X(N), S, T, TM
      TM = X(2)
      T = 1.0D0
      IF (TM .LE. 1.0D100) GO TO 40
      T = 1.0D0 / TM
   40 CONTINUE
      IF (T .NE. 1.0D0) RETURN
      DO 70 I = 1, N
         S = S + X(I)
   70 CONTINUE
      END
