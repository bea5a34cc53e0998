C     DGGLSE's shape: LSE fills its work array through WRAP's TAU,
C     passing WORK, and reads it back through USE as WORK(1), the same
C     storage from the same element. REFL leaves TAU = 0 where its
C     length M - I + 1 is 1, so TAU holds 0 from element M on: USE's
C     TAU(I).EQ.0 holds once in 6. ZAP writes the array's other part
C     after, so LSE has no rule of its own for WORK: what USE reads is
C     what the call that passed the same start left.
      PROGRAM FIRSTE
      INTEGER N
      PARAMETER (N = 6)
      DOUBLE PRECISION A(N), WORK(2 * N), S
      INTEGER I
      DO 10 I = 1, N
         A(I) = DBLE(I) / 7.0D0
   10 CONTINUE
      S = 0.0D0
      CALL LSE(N, A, WORK, S)
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

      SUBROUTINE FACT(M, A, TAU)
      INTEGER M, I
      DOUBLE PRECISION A(*), TAU(*)
      DO 10 I = 1, M
         CALL REFL(M - I + 1, A(I), TAU(I))
   10 CONTINUE
      END

      SUBROUTINE WRAP(M, A, TAU)
      INTEGER M
      DOUBLE PRECISION A(*), TAU(*)
      CALL FACT(M, A, TAU)
      END

      SUBROUTINE LSE(N, A, WORK, S)
      INTEGER N
      DOUBLE PRECISION A(*), WORK(*), S
      CALL WRAP(N, A, WORK)
      CALL USE(N, WORK(1), S)
      CALL ZAP(N, WORK(N + 1))
      END

      SUBROUTINE ZAP(N, W)
      INTEGER N, I
      DOUBLE PRECISION W(*)
      DO 10 I = 1, N
         W(I) = DBLE(I)
   10 CONTINUE
      END

      SUBROUTINE USE(N, TAU, S)
      INTEGER N, I
      DOUBLE PRECISION TAU(*), S
      DO 10 I = 1, N
         IF (TAU(I) .EQ. 0.0D0) THEN
            S = S + 1.0D0
         ELSE
            S = S + TAU(I)
         END IF
   10 CONTINUE
      END
