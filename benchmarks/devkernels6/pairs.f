C     Pair forces with a cutoff, as a molecular dynamics inner loop: SQRT and
C     a division in a branch taken for part of the pairs
      PROGRAM PAIRS
      INTEGER N, I, J, R
      PARAMETER (N = 1500)
      DOUBLE PRECISION X(N), Y(N), Z(N), F(N), DX, DY, DZ, R2, RR, RC2
      DO 10 I = 1, N
         X(I) = MOD(I * 37, 101) * 0.1D0
         Y(I) = MOD(I * 53, 97) * 0.1D0
         Z(I) = MOD(I * 71, 89) * 0.1D0
         F(I) = 0.0D0
   10 CONTINUE
      RC2 = 16.0D0
      DO 40 R = 1, 100
      DO 30 I = 1, N
         DO 20 J = 1, N
            DX = X(I) - X(J)
            DY = Y(I) - Y(J)
            DZ = Z(I) - Z(J)
            R2 = DX * DX + DY * DY + DZ * DZ
            IF (R2 .LT. RC2 .AND. R2 .GT. 0.0D0) THEN
               RR = SQRT(R2)
               F(I) = F(I) + 1.0D0 / (RR * R2)
            END IF
   20    CONTINUE
   30 CONTINUE
   40 CONTINUE
      PRINT *, F(1), F(N)
      END
