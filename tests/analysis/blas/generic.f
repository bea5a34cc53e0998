*     Generic data (issue 29): tests of floating-point data decided as for data in general (not equal to
*     any constant, of ordinary magnitude), each with a note; a value the call passes (SCALE(N, 1.0D0, X))
*     is evaluated exactly, and a comparison of two data values (a maximum search) stays a probability.
      PROGRAM GENER
      INTEGER N, I
      PARAMETER (N = 10)
      DOUBLE PRECISION X(N), T, BIG
      DO 10 I = 1, N
         X(I) = 1.0D0/DBLE(I) - 0.05D0
   10 CONTINUE
      CALL SCALE(N, 2.0D0, X)
      CALL SCALE(N, 1.0D0, X)
      CALL SCALE(N, X(3), X)
      CALL NORMAL(N, X, T, BIG)
      WRITE (6, *) X(1), T, BIG
      END
      SUBROUTINE SCALE(N, DA, X)
      INTEGER N, I
      DOUBLE PRECISION DA, X(*)
      IF (DA .EQ. 1.0D0) RETURN
      DO 10 I = 1, N
         X(I) = DA*X(I)
   10 CONTINUE
      END
      SUBROUTINE NORMAL(N, X, T, BIG)
      INTEGER N, I
      DOUBLE PRECISION X(*), T, BIG, S, SAFMIN
      SAFMIN = TINY(1.0D0)
      S = 0.0D0
      DO 10 I = 1, N
         IF (X(I) .NE. 0.0D0) S = S + X(I)*X(I)
   10 CONTINUE
      S = SQRT(S)
      IF (S .EQ. 0.0D0) THEN
         T = 0.0D0
      ELSE
         IF (ABS(S) .LT. SAFMIN) THEN
            DO 20 I = 1, N
               X(I) = X(I)/SAFMIN
   20       CONTINUE
         END IF
         T = 1.0D0/S
      END IF
      BIG = 0.0D0
      DO 30 I = 1, N
         IF (ABS(X(I)) .GT. BIG) BIG = ABS(X(I))
   30 CONTINUE
      END
