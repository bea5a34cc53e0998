C     A tridiagonal solve (Thomas algorithm) repeated: forward elimination
C     and back substitution, each a chain through the previous element
      PROGRAM TRIDG
      INTEGER N, I, R
      PARAMETER (N = 100000)
      DOUBLE PRECISION A(N), B(N), C(N), D(N), CP(N), DP(N), X(N), M
      DO 10 I = 1, N
         A(I) = -1.0D0
         B(I) = 4.0D0
         C(I) = -1.0D0
         D(I) = MOD(I, 13) * 1.0D0
   10 CONTINUE
      DO 40 R = 1, 1000
         CP(1) = C(1) / B(1)
         DP(1) = D(1) / B(1)
         DO 20 I = 2, N
            M = B(I) - A(I) * CP(I - 1)
            CP(I) = C(I) / M
            DP(I) = (D(I) - A(I) * DP(I - 1)) / M
   20    CONTINUE
         X(N) = DP(N)
         DO 30 I = N - 1, 1, -1
            X(I) = DP(I) - CP(I) * X(I + 1)
   30    CONTINUE
         D(1) = D(1) + X(N / 2) * 1.0D-9
   40 CONTINUE
      PRINT *, X(1), X(N)
      END
