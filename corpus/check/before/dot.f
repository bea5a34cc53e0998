      DOUBLE PRECISION FUNCTION DOT(N, X, Y)
C     the inner product of X and Y, unrolled by four
      INTEGER N
      DOUBLE PRECISION X(*), Y(*)
      INTEGER I, M
      DOUBLE PRECISION S
      S = 0.0D0
      M = MOD(N, 4)
      DO 10 I = 1, M
         S = S + X(I)*Y(I)
   10 CONTINUE
      DO 20 I = M + 1, N, 4
         S = S + X(I)*Y(I) + X(I+1)*Y(I+1) + X(I+2)*Y(I+2)
     &         + X(I+3)*Y(I+3)
   20 CONTINUE
      DOT = S
      RETURN
      END
