*     What a call leaves behind (issue 29): MKTAU sets TAU to zero exactly where its length is at most one,
*     else to a value of the data; APPLY tests TAU.NE.ZERO, scans back for the last non-zero element (a
*     DO WHILE, then LASTNZ, a function with a RETURN in its scan) and runs a loop to it.
      PROGRAM REFLCT
      INTEGER N, I
      PARAMETER (N = 6)
      DOUBLE PRECISION V(N), T(N), S
      DO 10 I = 1, N
         V(I) = 1.0D0 + DBLE(I)
   10 CONTINUE
      S = 0.0D0
      DO 20 I = 1, N
         CALL MKTAU(N - I + 1, V(I), T(I))
         CALL APPLY(N - I + 1, V(I), T(I), S)
   20 CONTINUE
      WRITE (6, *) S
      END
      SUBROUTINE MKTAU(N, X, TAU)
      INTEGER N
      DOUBLE PRECISION X, TAU
      IF (N .LE. 1) THEN
         TAU = 0.0D0
         RETURN
      END IF
      TAU = 2.0D0/(1.0D0 + X*X)
      END
      SUBROUTINE APPLY(N, V, TAU, S)
      INTEGER N, LAST, I, LASTNZ
      DOUBLE PRECISION V(*), TAU, S
      EXTERNAL LASTNZ
      LAST = 0
      IF (TAU .NE. 0.0D0) THEN
         LAST = N
         DO WHILE (LAST .GT. 0 .AND. V(LAST) .EQ. 0.0D0)
            LAST = LAST - 1
         END DO
         LAST = LASTNZ(LAST, V)
      END IF
      DO 10 I = 1, LAST
         S = S + TAU*V(I)
   10 CONTINUE
      END
      INTEGER FUNCTION LASTNZ(N, V)
      INTEGER N
      DOUBLE PRECISION V(*)
      IF (N .EQ. 0) THEN
         LASTNZ = 0
      ELSE IF (V(N) .NE. 0.0D0) THEN
         LASTNZ = N
      ELSE
         DO LASTNZ = N, 1, -1
            IF (V(LASTNZ) .NE. 0.0D0) RETURN
         END DO
      END IF
      END
