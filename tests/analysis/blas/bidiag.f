C     DGEBRD's shape: BIDBLK runs PANEL on blocks of NB, then BIDIAG
C     on what is left. Each stores REFL's TAU in TAUP(I); REFL leaves
C     TAU = 0 where its length is at most 1. The lengths differ by the
C     arm of IF (M .GE. N): N - I (zero from N - 1 on, and TAUP(N) set
C     to 0) where M >= N, N - I + 1 (zero from N on, past the last
C     element written) where M < N. So the zeros start at a bound chosen
C     by the arm, N - 1 or N, the same on every block once M - I + 1 >=
C     N - I + 1 is M >= N. USE's TAUP(I).EQ.0 for I = 1 to MIN(M, N):
C     twice after the square call (elements 5 and 6), never after the
C     wide one.
      PROGRAM BIDIAP
      INTEGER N
      PARAMETER (N = 6)
      DOUBLE PRECISION A(N), TAUP(N), S
      INTEGER I
      DO 10 I = 1, N
         A(I) = DBLE(I) / 7.0D0
   10 CONTINUE
      S = 0.0D0
      CALL BIDBLK(N, N, 2, A, TAUP)
      CALL USE(N, TAUP, S)
      CALL BIDBLK(N - 2, N, 2, A, TAUP)
      CALL USE(N - 2, TAUP, S)
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

      SUBROUTINE PANEL(M, N, NB, A, TAUP)
      INTEGER M, N, NB, I
      DOUBLE PRECISION A(*), TAUP(*)
      IF (M .GE. N) THEN
         DO 10 I = 1, NB
            CALL REFL(N - I, A(I), TAUP(I))
   10    CONTINUE
      ELSE
         DO 20 I = 1, NB
            CALL REFL(N - I + 1, A(I), TAUP(I))
   20    CONTINUE
      END IF
      END

      SUBROUTINE BIDIAG(M, N, A, TAUP)
      INTEGER M, N, I
      DOUBLE PRECISION A(*), TAUP(*)
      IF (M .GE. N) THEN
         DO 10 I = 1, N
            IF (I .LT. N) THEN
               CALL REFL(N - I, A(I), TAUP(I))
            ELSE
               TAUP(I) = 0.0D0
            END IF
   10    CONTINUE
      ELSE
         DO 20 I = 1, M
            CALL REFL(N - I + 1, A(I), TAUP(I))
   20    CONTINUE
      END IF
      END

      SUBROUTINE BIDBLK(M, N, NB, A, TAUP)
      INTEGER M, N, NB, I, K
      DOUBLE PRECISION A(*), TAUP(*)
      K = MIN(M, N)
      DO 10 I = 1, K - NB, NB
         CALL PANEL(M - I + 1, N - I + 1, NB, A(I), TAUP(I))
   10 CONTINUE
      CALL BIDIAG(M - I + 1, N - I + 1, A(I), TAUP(I))
      END

      SUBROUTINE USE(N, TAUP, S)
      INTEGER N, I
      DOUBLE PRECISION TAUP(*), S
      DO 10 I = 1, N
         IF (TAUP(I) .EQ. 0.0D0) THEN
            S = S + 1.0D0
         ELSE
            S = S + TAUP(I)
         END IF
   10 CONTINUE
      END
