C     Two loops left by EXIT on a test of data: the first on its first pass
C     (generic data are not 0), the second never; the indices they leave
C     are the first value (50) and the value past the end (N + 1 = 51).
      PROGRAM LEAVE
      DOUBLE PRECISION V(50)
      INTEGER I, L, M, K, N
      N = 50
      DO 10 I = 1, 50
         V(I) = SQRT(DBLE(I))
   10 CONTINUE
      K = 0
      DO L = N, 2, -1
         K = K + 1
         IF (V(L).NE.0.0D0) EXIT
      END DO
      DO M = 1, N
         K = K + 1
         IF (V(M).EQ.0.0D0) EXIT
      END DO
      CALL USE(L, M, V)
      PRINT *, K
      END
      SUBROUTINE USE(L, M, V)
      INTEGER L, M, I
      DOUBLE PRECISION V(*), S
      S = 0
      DO I = 1, L + M
         S = S + V(1)
      END DO
      PRINT *, S
      END
