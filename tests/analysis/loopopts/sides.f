      PROGRAM SIDES
C     DORMQR's shape: the size a side does not cut is set once before the
C     loop, the one it cuts in each pass, both passed to a routine whose
C     tests and loops depend on them.
      DOUBLE PRECISION C(12, 12)
      INTEGER I, J
      DO 20 J = 1, 12
         DO 10 I = 1, 12
            C(I, J) = 1.0D0
   10    CONTINUE
   20 CONTINUE
      CALL APPLY('L', 12, 7, C)
      CALL APPLY('R', 9, 12, C)
      PRINT *, C(1, 1)
      END

      SUBROUTINE APPLY(SIDE, M, N, C)
      CHARACTER SIDE
      INTEGER M, N
      DOUBLE PRECISION C(12, *)
      LOGICAL LEFT, LSAME
      INTEGER I, MI, NI
      EXTERNAL LSAME, SCALE
      LEFT = LSAME(SIDE, 'L')
      IF (LEFT) THEN
         NI = N
      ELSE
         MI = M
      END IF
      DO 10 I = 1, 7, 3
         IF (LEFT) THEN
            MI = M - I + 1
         ELSE
            NI = N - I + 1
         END IF
         CALL SCALE(MI, NI, C)
   10 CONTINUE
      END

      SUBROUTINE SCALE(M, N, C)
      INTEGER M, N, I, J
      DOUBLE PRECISION C(12, *)
      IF (N .LE. 7) RETURN
      DO 20 J = 1, N
         DO 10 I = 1, M
            C(I, J) = 2.0D0 * C(I, J)
   10    CONTINUE
   20 CONTINUE
      END

      LOGICAL FUNCTION LSAME(CA, CB)
      CHARACTER CA, CB
      LSAME = CA .EQ. CB
      END
