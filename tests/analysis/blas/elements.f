C     Which elements hold a stored zero (DGEQRF's shape): REFL leaves
C     TAU = 0 where its length M is 1; FACT2 calls it for TAU(1..K)
C     with M - I + 1 (the last element of a square factorization is
C     zero); FACT does that by blocks of NB, passing TAU(I) on, and
C     FORMT tests each block's TAU(I).EQ.0 (as DLARFT does). APPLYB
C     reads the factorization's TAU by blocks again (as DORMQR). TAU2,
C     zero at the even elements, has no rule: FORMU, called with TAU2
C     and with TAU, keeps its test a probability at both calls.
      PROGRAM ELEMS
      INTEGER N, NB
      PARAMETER (N = 7, NB = 3)
      DOUBLE PRECISION A(N), TAU(N), TAU2(N), S
      INTEGER I
      DO 10 I = 1, N
         A(I) = DBLE(I) / 7.0D0
   10 CONTINUE
      S = 0.0D0
      CALL FACT(N, N, A, TAU, NB, S)
      CALL APPLYB(N, TAU, NB, S)
      DO 20 I = 1, N
         CALL REFL(MOD(I, 2) + 1, A(I), TAU2(I))
   20 CONTINUE
      CALL FORMU(N, TAU2, S)
      CALL FORMU(N, TAU, S)
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

      SUBROUTINE FACT2(M, N, A, TAU)
      INTEGER M, N, I, K
      DOUBLE PRECISION A(*), TAU(*)
      K = MIN(M, N)
      DO 10 I = 1, K
         CALL REFL(M - I + 1, A(I), TAU(I))
   10 CONTINUE
      END

      SUBROUTINE FACT(M, N, A, TAU, NB, S)
      INTEGER M, N, NB, I, IB, K
      DOUBLE PRECISION A(*), TAU(*), S
      K = MIN(M, N)
      DO 10 I = 1, K, NB
         IB = MIN(K - I + 1, NB)
         CALL FACT2(M - I + 1, IB, A(I), TAU(I))
         CALL FORMT(M - I + 1, IB, TAU(I), S)
   10 CONTINUE
      END

      SUBROUTINE APPLYB(N, TAU, NB, S)
      INTEGER N, NB, I
      DOUBLE PRECISION TAU(*), S
      DO 10 I = 1, N, NB
         CALL FORMT(N - I + 1, MIN(NB, N - I + 1), TAU(I), S)
   10 CONTINUE
      END

      SUBROUTINE FORMT(N, K, TAU, S)
      INTEGER N, K, I
      DOUBLE PRECISION TAU(*), S
      DO 10 I = 1, K
         IF (TAU(I) .EQ. 0.0D0) THEN
            S = S + 1.0D0
         ELSE
            S = S + TAU(I)
         END IF
   10 CONTINUE
      END

      SUBROUTINE FORMU(K, TAU, S)
      INTEGER K, I
      DOUBLE PRECISION TAU(*), S
      DO 10 I = 1, K
         IF (TAU(I) .EQ. 0.0D0) THEN
            S = S + 1.0D0
         ELSE
            S = S + TAU(I)
         END IF
   10 CONTINUE
      END
