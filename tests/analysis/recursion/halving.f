      RECURSIVE SUBROUTINE SPLIT(M, N, W)
C     LAPACK's DGETRF2 recursion: the left half of the columns, then
C     the rest, down to one row or one column
      INTEGER M, N, N1, N2, I
      DOUBLE PRECISION W(*)
      IF (M .EQ. 1 .OR. N .EQ. 1) THEN
         DO 10 I = 1, M
            W(I) = W(I) + 1.0D0
   10    CONTINUE
      ELSE
         N1 = MIN(M, N) / 2
         N2 = N - N1
         CALL SPLIT(M, N1, W)
         CALL SPLIT(M - N1, N2, W)
      END IF
      END
      SUBROUTINE PANELS(M, N, NB, W)
C     DGETRF's blocked loop: each panel's width set in the iteration
      INTEGER M, N, NB, J, JB
      DOUBLE PRECISION W(*)
      DO 20 J = 1, MIN(M, N), NB
         JB = MIN(MIN(M, N) - J + 1, NB)
         CALL SPLIT(M - J + 1, JB, W)
         IF (J + JB .LE. N) THEN
            W(1) = W(1) + 1.0D0
         END IF
   20 CONTINUE
      END
      PROGRAM HALVE
      DOUBLE PRECISION W(150)
      INTEGER I
      DO 30 I = 1, 150
         W(I) = 0.0D0
   30 CONTINUE
      CALL PANELS(150, 150, 64, W)
      PRINT *, W(1)
      END
