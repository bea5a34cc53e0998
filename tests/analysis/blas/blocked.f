C     DGERQF's shape, blocked: FACTBL runs FACTB on blocks of NB going
C     down (I = 5, 3, 1 for K = 6, NB = 2), then FACTB on what is left
C     with MU and NU, set in the blocked arm from where its loop stopped
C     or to M and N in the other. REFL leaves TAU = 0 where its length
C     is 1, so each block's FACTB leaves its zero in its first element:
C     TAU(I) + 0 at I = 1 only, the bound K - N + 1 shifted by I - 1,
C     the same on every trip once MIN(IB, N - K + I + IB - 1) is IB
C     (I >= 1 for TAU(I), K <= N). USE's TAU(I).EQ.0 holds once in 6
C     after each of the two factorizations, blocked and not.
      PROGRAM BLOCKD
      INTEGER N
      PARAMETER (N = 6)
      DOUBLE PRECISION A(N), TAU(N), S
      INTEGER I
      DO 10 I = 1, N
         A(I) = DBLE(I) / 7.0D0
   10 CONTINUE
      S = 0.0D0
      CALL FACTBL(N, N, 2, 1, A, TAU)
      CALL USE(N, TAU, S)
      CALL FACTBL(N, N, 8, 1, A, TAU)
      CALL USE(N, TAU, S)
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

      SUBROUTINE FACTBL(M, N, NB, NX, A, TAU)
      INTEGER M, N, NB, NX, I, IB, K, KI, KK, MU, NU
      DOUBLE PRECISION A(*), TAU(*)
      K = MIN(M, N)
      IF (NB .LT. K .AND. NX .LT. K) THEN
         KI = ((K - NX - 1) / NB) * NB
         KK = MIN(K, KI + NB)
         DO 10 I = K - KK + KI + 1, K - KK + 1, -NB
            IB = MIN(K - I + 1, NB)
            CALL FACTB(IB, N - K + I + IB - 1, A(I), TAU(I))
   10    CONTINUE
         MU = M - K + I + NB - 1
         NU = N - K + I + NB - 1
      ELSE
         MU = M
         NU = N
      END IF
      IF (MU .GT. 0 .AND. NU .GT. 0) CALL FACTB(MU, NU, A, TAU)
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
