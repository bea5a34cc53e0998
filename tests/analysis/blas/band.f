C     DPBTF2's shape: a loop over the columns for each triangle, each left
C     by GO TO 30 where a pivot is not positive; the index J is read after
C     it. Following the pivot AJJ (set in both loops, tested in each) to
C     tell whether a loop leaves early asked for AJJ again, without end.
      PROGRAM BAND
      INTEGER N, KD, LDAB
      PARAMETER (N = 8, KD = 2, LDAB = KD + 1)
      DOUBLE PRECISION AB(LDAB, N)
      INTEGER INFO, I, J
      DO 20 J = 1, N
         DO 10 I = 1, LDAB
            AB(I, J) = 0.25D0
   10    CONTINUE
         AB(KD + 1, J) = 4.0D0
         AB(1, J) = 4.0D0
   20 CONTINUE
      CALL FACT('U', N, KD, AB, LDAB, INFO)
      CALL FACT('L', N, KD, AB, LDAB, INFO)
      PRINT *, INFO
      END

      SUBROUTINE FACT(UPLO, N, KD, AB, LDAB, INFO)
      CHARACTER UPLO
      LOGICAL UPPER
      INTEGER N, KD, LDAB, INFO, J, KN
      DOUBLE PRECISION AB(LDAB, *), AJJ
      INFO = 0
      UPPER = UPLO .EQ. 'U'
      IF (UPPER) THEN
         DO 10 J = 1, N
            AJJ = AB(KD + 1, J)
            IF (AJJ .LE. 0.0D0) GO TO 30
            AJJ = SQRT(AJJ)
            AB(KD + 1, J) = AJJ
            KN = MIN(KD, N - J)
            IF (KN .GT. 0) THEN
               CALL SCAL(KN, 1.0D0 / AJJ, AB(KD, J + 1), LDAB - 1)
            END IF
   10    CONTINUE
      ELSE
         DO 20 J = 1, N
            AJJ = AB(1, J)
            IF (AJJ .LE. 0.0D0) GO TO 30
            AJJ = SQRT(AJJ)
            AB(1, J) = AJJ
            KN = MIN(KD, N - J)
            IF (KN .GT. 0) THEN
               CALL SCAL(KN, 1.0D0 / AJJ, AB(2, J), 1)
            END IF
   20    CONTINUE
      END IF
      RETURN
   30 CONTINUE
      INFO = J
      END

      SUBROUTINE SCAL(N, A, X, INCX)
      INTEGER N, INCX, I
      DOUBLE PRECISION A, X(*)
      DO 10 I = 1, N
         X(1 + (I - 1) * INCX) = A * X(1 + (I - 1) * INCX)
   10 CONTINUE
      END
