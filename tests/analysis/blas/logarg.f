C     LOGICAL arguments: SWEEP is called with .TRUE., .FALSE. and with a
C     flag the caller computes from its sizes; its tests on UP (alone,
C     negated, and with a size) follow each call's value.
      PROGRAM LOGARG
      INTEGER N
      PARAMETER (N = 5)
      DOUBLE PRECISION X(N), S
      LOGICAL BIG
      INTEGER I
      DO 10 I = 1, N
         X(I) = DBLE(I)
   10 CONTINUE
      S = 0.0D0
      BIG = N .GT. 3
      CALL SWEEP(.TRUE., N, X, S)
      CALL SWEEP(.FALSE., N, X, S)
      CALL SWEEP(BIG, N - 2, X, S)
      PRINT *, S
      END

      SUBROUTINE SWEEP(UP, N, X, S)
      LOGICAL UP
      INTEGER N, I
      DOUBLE PRECISION X(N), S
      IF (UP) THEN
         DO 10 I = 1, N
            S = S + X(I)
   10    CONTINUE
      END IF
      IF (.NOT. UP .AND. N .GT. 2) THEN
         DO 20 I = N, 1, -1
            S = S - X(I)
   20    CONTINUE
      END IF
      END
