C     DLARFT's sizes: LASTV is left by a search loop on its first pass
C     (generic data are not 0), PREVLV is a running maximum that starts
C     at N; J = MIN(LASTV, PREVLV) is N on every pass, and WORK, sized
C     J - I, runs N - I times a pass: 8 + 7 + 6 + 5 = 26 for N = 9, K = 4.
      PROGRAM RUNMAX
      INTEGER N
      PARAMETER (N = 9)
      DOUBLE PRECISION V(N)
      INTEGER I
      DO 10 I = 1, N
         V(I) = DBLE(I) / 3.0D0
   10 CONTINUE
      CALL FORM(N, 4, V)
      END

      SUBROUTINE FORM(N, K, V)
      INTEGER N, K, I, J, LASTV, PREVLV
      DOUBLE PRECISION V(N), S
      S = 0.0D0
      PREVLV = N
      DO I = 1, K
         PREVLV = MAX(I, PREVLV)
         DO LASTV = N, I + 1, -1
            IF (V(LASTV) .NE. 0.0D0) EXIT
         END DO
         DO J = 1, I - 1
            S = S + V(J)
         END DO
         J = MIN(LASTV, PREVLV)
         CALL WORK(J - I, V, S)
         IF (I .GT. 1) THEN
            PREVLV = MAX(PREVLV, LASTV)
         ELSE
            PREVLV = LASTV
         END IF
      END DO
      PRINT *, S
      END

      SUBROUTINE WORK(M, V, S)
      INTEGER M, L
      DOUBLE PRECISION V(*), S
      DO L = 1, M
         S = S + V(L)
      END DO
      END
