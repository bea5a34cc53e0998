C     DGEQRT2's shape: REFL leaves T(I,1) = 0 where its length
C     7 - I is 1 (I = 6), and a copy of its negation is passed to
C     ADDTO, which returns at once where it is zero (DGEMV's
C     IF (ALPHA.EQ.ZERO) RETURN): 5 of the 6 calls go on.
      PROGRAM NEGCP
      DOUBLE PRECISION T(6, 2), S, ALPHA
      INTEGER I
      S = 0.0D0
      DO 10 I = 1, 6
         T(I, 2) = DBLE(I) / 3.0D0
         CALL REFL(7 - I, T(I, 2), T(I, 1))
   10 CONTINUE
      DO 20 I = 1, 6
         ALPHA = -T(I, 1)
         CALL ADDTO(ALPHA, S)
   20 CONTINUE
      PRINT *, S
      END

      SUBROUTINE REFL(M, X, TAU)
      INTEGER M
      DOUBLE PRECISION X, TAU
      IF (M .LE. 1) THEN
         TAU = 0.0D0
         RETURN
      END IF
      TAU = X * 2.0D0
      END

      SUBROUTINE ADDTO(ALPHA, S)
      DOUBLE PRECISION ALPHA, S
      IF (ALPHA .EQ. 0.0D0) RETURN
      S = S + ALPHA
      END
