C     A stored zero reaching a callee's scalar argument through an array
C     element (DORG2L's DLARF(..., TAU(I), ...)): REFL leaves TAU = 0
C     where its length is 1. Upward (UP: REFL(I, ...) for I = N - 1 down
C     to 1, as DSYTD2's upper reduction) the zero is TAU(1); downward (DN:
C     REFL(N - I, ...) for I = 1 to N - 1) it is TAU(N - 1). USE passes
C     each element to SCALE, whose `TAU.NE.0` must not be taken as true
C     for data: a probability where no rule tells the element (UP), the
C     element's index test where one does (DN).
      PROGRAM ELEMNT
      INTEGER N
      PARAMETER (N = 6)
      DOUBLE PRECISION A(N), UP(N), DN(N), S
      INTEGER I
      DO 10 I = 1, N
         A(I) = DBLE(I) / 7.0D0
   10 CONTINUE
      DO 20 I = N - 1, 1, -1
         CALL REFL(I, A(I), UP(I))
   20 CONTINUE
      DO 30 I = 1, N - 1
         CALL REFL(N - I, A(I), DN(I))
   30 CONTINUE
      S = 0.0D0
      CALL USE(N - 1, UP, S)
      CALL USE(N - 1, DN, S)
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

      SUBROUTINE USE(K, TAU, S)
      INTEGER K, I
      DOUBLE PRECISION TAU(K), S
      DO 10 I = 1, K
         CALL SCALE(TAU(I), S)
   10 CONTINUE
      END

      SUBROUTINE SCALE(TAU, S)
      DOUBLE PRECISION TAU, S
      IF (TAU .NE. 0.0D0) THEN
         S = S + TAU
      END IF
      END
