C     Complex multiply-add over vectors: Z = Z * W + C in COMPLEX*16
      PROGRAM ZAXPY
      INTEGER N, I, R
      PARAMETER (N = 4000)
      COMPLEX*16 Z(N), C(N), W
      DO 10 I = 1, N
         Z(I) = DCMPLX(1.0D0 / I, 0.5D0)
         C(I) = DCMPLX(0.001D0, -0.001D0 * I)
   10 CONTINUE
      W = DCMPLX(0.6D0, 0.7D0)
      DO 30 R = 1, 100000
         DO 20 I = 1, N
            Z(I) = Z(I) * W + C(I)
   20    CONTINUE
   30 CONTINUE
      PRINT *, Z(1), Z(N)
      END
