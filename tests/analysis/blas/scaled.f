C     DGELS's scaling tests: SMLNUM and BIGNUM from DLAMCH-like constants
C     passed through a DLABAD-like routine that changes them only where
C     LOG10(LARGE) > 2000 (never for IEEE double), then the norm of data
C     tested against them, `ANRM.GT.ZERO .AND. ANRM.LT.SMLNUM` first.
      PROGRAM SCALED
      DOUBLE PRECISION S, B, A(10), ANRM, XNORM
      INTEGER I, K
      DO 5 I = 1, 10
         A(I) = SQRT(DBLE(I)) - 1.5D0
    5 CONTINUE
      S = 2.0D0**(-1022) / 2.0D0**(-53)
      B = 1.0D0 / S
      CALL LABAD(S, B)
      ANRM = XNORM(A)
      K = 0
      IF (ANRM.GT.0.0D0 .AND. ANRM.LT.S) THEN
         K = 1
      ELSE IF (ANRM.GT.B) THEN
         K = 2
      END IF
      PRINT *, K
      END
      SUBROUTINE LABAD(SMALL, LARGE)
      DOUBLE PRECISION SMALL, LARGE
      IF (LOG10(LARGE).GT.2000.D0) THEN
         SMALL = SQRT(SMALL)
         LARGE = SQRT(LARGE)
      END IF
      END
      DOUBLE PRECISION FUNCTION XNORM(A)
      DOUBLE PRECISION A(10), V
      INTEGER I
      V = 0
      DO 10 I = 1, 10
         IF (V.LT.ABS(A(I))) V = ABS(A(I))
   10 CONTINUE
      XNORM = V
      END
