      SUBROUTINE ACC(N, K, W)
C     DGSVJ0's block start: set per outer pass, then advanced inside
C     the inner loop from its own value on the pass before
      INTEGER N, K, IBR, IR1, IGL, P
      DOUBLE PRECISION W(*)
      DO 20 IBR = 1, N
         IGL = (IBR - 1)*K + 1
         DO 10 IR1 = 0, 2
            IGL = IGL + IR1*K
            DO 5 P = IGL, 48
               W(P) = W(P) + 1.0D0
    5       CONTINUE
   10    CONTINUE
   20 CONTINUE
      END
      PROGRAM ACCUM
      DOUBLE PRECISION W(48)
      INTEGER I
      DO 30 I = 1, 48
         W(I) = 0.0D0
   30 CONTINUE
      CALL ACC(4, 3, W)
      PRINT *, W(48)
      END
