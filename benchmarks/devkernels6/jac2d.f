C     Jacobi sweeps over a 2-D grid, column-major, copy back each sweep
      PROGRAM JAC2D
      INTEGER N, I, J, T
      PARAMETER (N = 1200)
      DOUBLE PRECISION U(N, N), V(N, N)
      DO 10 J = 1, N
         DO 5 I = 1, N
            U(I, J) = MOD(I * J, 11) * 0.1D0
            V(I, J) = 0.0D0
    5    CONTINUE
   10 CONTINUE
      DO 50 T = 1, 300
         DO 30 J = 2, N - 1
            DO 20 I = 2, N - 1
               V(I, J) = 0.25D0 * (U(I - 1, J) + U(I + 1, J)
     &                 + U(I, J - 1) + U(I, J + 1))
   20       CONTINUE
   30    CONTINUE
         DO 45 J = 2, N - 1
            DO 40 I = 2, N - 1
               U(I, J) = V(I, J)
   40       CONTINUE
   45    CONTINUE
   50 CONTINUE
      PRINT *, U(N / 2, N / 2)
      END
