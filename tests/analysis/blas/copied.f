C     DSYTD2's upper reduction: REFL leaves its result in the scalar
C     TAUI (0 where its length I <= 1), which RED copies into TAU(I)
C     going down, so TAU holds the zero up to element 1. USE tests
C     TAU(I).EQ.0 for I = 1 to N - 1 (DORG2L's DLARF): once in 5.
      PROGRAM COPIED
      INTEGER N
      PARAMETER (N = 6)
      DOUBLE PRECISION A(N), TAU(N), S
      INTEGER I
      DO 10 I = 1, N
         A(I) = DBLE(I) / 7.0D0
   10 CONTINUE
      CALL RED(N, A, TAU)
      S = 0.0D0
      CALL USE(N - 1, TAU, S)
      PRINT *, S
      END

      SUBROUTINE REFL(M, ALPHA, TAU)
      INTEGER M
      DOUBLE PRECISION ALPHA, TAU
      IF (M .LE. 1) THEN
         TAU = 0.0D0
         RETURN
      END IF
      TAU = ALPHA * 2.0D0
      END

      SUBROUTINE RED(N, A, TAU)
      INTEGER N, I
      DOUBLE PRECISION A(*), TAU(*), TAUI
      DO 10 I = N - 1, 1, -1
         CALL REFL(I, A(I), TAUI)
         IF (TAUI .NE. 0.0D0) THEN
            A(I) = A(I) * TAUI
         END IF
         TAU(I) = TAUI
   10 CONTINUE
      END

      SUBROUTINE USE(K, TAU, S)
      INTEGER K, I
      DOUBLE PRECISION TAU(*), S
      DO 10 I = 1, K
         IF (TAU(I) .EQ. 0.0D0) THEN
            S = S + 1.0D0
         ELSE
            S = S + TAU(I)
         END IF
   10 CONTINUE
      END
