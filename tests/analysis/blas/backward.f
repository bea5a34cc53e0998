C     DGERQF's shape, backward: REFL leaves TAU = 0 where its length is
C     1; FACTB calls it for I = K down to 1 with length N - K + I, so in
C     a square factorization the first element holds the zero (a rule
C     "up to B", B = K - N + 1 = 1). FORMT tests TAU(I).EQ.0 going down,
C     as DLARFT('Backward') does, zeroing column I of T from the
C     diagonal down, and TRM tests T's columns below the diagonal as
C     DTRMM('Lower') does: column 1 is zero, 5 of its 15 tests fail.
C     FORMT's sizes going backward: LASTV left by a search loop at 1
C     (generic data are not 0), PREVLV a running minimum from 1, so
C     J = MAX(LASTV, PREVLV) = 1; they are set in the ELSE of the
C     direction's test, after the forward arm's running maximum, which
C     never runs before them. WORK runs 4 + 3 + 2 + 1 + 0 = 10 times.
      PROGRAM BACKW
      INTEGER N
      PARAMETER (N = 6)
      DOUBLE PRECISION A(N), TAU(N), T(N, N), V(N), S
      INTEGER I
      DO 10 I = 1, N
         A(I) = DBLE(I) / 7.0D0
         V(I) = DBLE(I) / 3.0D0
   10 CONTINUE
      S = 0.0D0
      CALL FACTB(N, N, A, TAU)
      CALL FORMT(.FALSE., N, N, V, TAU, T, N, S)
      CALL TRM(N, T, N, S)
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

      SUBROUTINE FACTB(M, N, A, TAU)
      INTEGER M, N, I, K
      DOUBLE PRECISION A(*), TAU(*)
      K = MIN(M, N)
      DO 10 I = K, 1, -1
         CALL REFL(N - K + I, A(I), TAU(I))
   10 CONTINUE
      END

      SUBROUTINE FORMT(FWD, N, K, V, TAU, T, LDT, S)
      LOGICAL FWD
      INTEGER N, K, LDT, I, J, LASTV, PREVLV
      DOUBLE PRECISION V(N), TAU(*), T(LDT, *), S
      IF (FWD) THEN
         PREVLV = N
         DO I = 1, K
            PREVLV = MAX(I, PREVLV)
            DO LASTV = N, I + 1, -1
               IF (V(LASTV) .NE. 0.0D0) EXIT
            END DO
            J = MIN(LASTV, PREVLV)
            CALL WORK(J - I, V, S)
            PREVLV = MAX(PREVLV, LASTV)
         END DO
      ELSE
         PREVLV = 1
         DO I = K, 1, -1
            IF (TAU(I) .EQ. 0.0D0) THEN
               DO J = I, K
                  T(J, I) = 0.0D0
               END DO
            ELSE
               DO LASTV = 1, I - 1
                  IF (V(LASTV) .NE. 0.0D0) EXIT
               END DO
               DO J = I + 1, K
                  T(J, I) = -TAU(I) * V(J)
               END DO
               J = MAX(LASTV, PREVLV)
               CALL WORK(N - K + I - J - 1, V, S)
               T(I, I) = TAU(I)
               PREVLV = MIN(PREVLV, LASTV)
            END IF
         END DO
      END IF
      END

      SUBROUTINE WORK(M, V, S)
      INTEGER M, L
      DOUBLE PRECISION V(*), S
      DO L = 1, M
         S = S + V(L)
      END DO
      END

      SUBROUTINE TRM(K, T, LDT, S)
      INTEGER K, LDT, J, L
      DOUBLE PRECISION T(LDT, *), S
      DO J = 1, K
         DO L = J + 1, K
            IF (T(L, J) .NE. 0.0D0) THEN
               S = S + T(L, J)
            END IF
         END DO
      END DO
      END
