      SUBROUTINE STEPS(N, T)
C     an inner bound that is an index running in steps of 3: the sum closes
      INTEGER N, I, J, T
      T = 0
      DO 50 I = 1, N, 3
         DO 40 J = 1, I
            T = T + 1
   40    CONTINUE
   50 CONTINUE
      END
