C     DORGRQ's shape: RQ's blocked loop, its step NB chosen in two
C     places, calls R2 for each block of IB rows; R2 calls SCL once per
C     row with a length that grows with the row (DORGR2's DSCAL); SCL
C     runs its strided loop. RQ's count of SCL's loop is a sum over the
C     blocks (index k) of a sum over the rows (k1), open until RQB binds
C     M, N, K: closed then with k1 renamed k, it was Sum(33k + ...),
C     1292 where gcov counts 780.
      PROGRAM RQB
      INTEGER N
      PARAMETER (N = 40)
      DOUBLE PRECISION A(N, N)
      INTEGER I, J
      DO 20 J = 1, N
         DO 10 I = 1, N
            A(I, J) = DBLE(I + J)
   10    CONTINUE
   20 CONTINUE
      CALL RQ(N, N, N, A, N, 8 * N)
      PRINT *, A(N, N)
      END

      SUBROUTINE RQ(M, N, K, A, LDA, LWORK)
      INTEGER M, N, K, LDA, LWORK, NB, KK, I, IB
      DOUBLE PRECISION A(LDA, *)
      NB = 8
      IF (LWORK .LT. M * NB) NB = LWORK / M
      KK = MIN(K, ((K - 10 + NB - 1) / NB) * NB)
      CALL R2(M - KK, N - KK, K - KK, A, LDA)
      DO 50 I = K - KK + 1, K, NB
         IB = MIN(NB, K - I + 1)
         CALL R2(IB, N - K + I + IB - 1, IB, A(M - K + I, 1), LDA)
   50 CONTINUE
      END

      SUBROUTINE R2(M, N, K, A, LDA)
      INTEGER M, N, K, LDA, I, II
      DOUBLE PRECISION A(LDA, *)
      DO 40 I = 1, K
         II = M - K + I
         CALL SCL(N - M + II - 1, A(II, 1), LDA)
   40 CONTINUE
      END

      SUBROUTINE SCL(N, X, INCX)
      INTEGER N, INCX, I, NINCX
      DOUBLE PRECISION X(*)
      IF (N .LE. 0 .OR. INCX .LE. 0) RETURN
      NINCX = N * INCX
      DO 10 I = 1, NINCX, INCX
         X(I) = 2.0D0 * X(I)
   10 CONTINUE
      END
