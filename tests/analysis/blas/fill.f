C     DGEHRD's shape: FACT fills TAU(1:ILO-1) with zeros (outside any
C     test: no source of a stored constant, as an accumulator set to zero
C     is not), then REFL leaves the zero of the last reflector in TAU(N)
C     (its length N - I + 1 <= 1), as DGEHD2 does. GEN passes TAU(I) for
C     I = 1 to N - 1 to SCALE (DORG2R's DLARF under `I.LT.N`): never the
C     zero, so SCALE's `TAU.NE.0` is true at each of its 5 calls, by rule.
      PROGRAM FILL
      INTEGER N
      PARAMETER (N = 6)
      DOUBLE PRECISION A(N), TAU(N), S
      INTEGER I
      DO 10 I = 1, N
         A(I) = DBLE(I) / 7.0D0
   10 CONTINUE
      CALL FACT(N, 1, A, TAU)
      S = 0.0D0
      CALL GEN(N, TAU, S)
      PRINT *, S
      END

      SUBROUTINE FACT(N, ILO, A, TAU)
      INTEGER N, ILO, I
      DOUBLE PRECISION A(N), TAU(N)
      DO 10 I = 1, ILO - 1
         TAU(I) = 0.0D0
   10 CONTINUE
      DO 20 I = ILO, N
         CALL REFL(N - I + 1, A(I), TAU(I))
   20 CONTINUE
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

      SUBROUTINE GEN(N, TAU, S)
      INTEGER N, I
      DOUBLE PRECISION TAU(N), S
      DO 10 I = 1, N
         IF (I .LT. N) CALL SCALE(TAU(I), S)
   10 CONTINUE
      END

      SUBROUTINE SCALE(TAU, S)
      DOUBLE PRECISION TAU, S
      IF (TAU .NE. 0.0D0) THEN
         S = S + TAU
      END IF
      END
