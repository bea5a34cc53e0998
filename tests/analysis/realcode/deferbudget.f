      SUBROUTINE WORK(N, M, X)
      INTEGER N, M, NB, I, J, IBLK
      DOUBLE PRECISION X(*)
      EXTERNAL IBLK
      NB = IBLK(N)
      DO 20 I = 1, N, NB
         DO 10 J = 1, M*I
            X(J) = X(J) + NB
   10    CONTINUE
         X(I) = X(I) * 2.0D0
   20 CONTINUE
      DO 30 I = 1, M
         X(I) = X(I) - 1.0D0
   30 CONTINUE
      END
      SUBROUTINE DRV(K, L, X)
      INTEGER K, L
      DOUBLE PRECISION X(*)
      CALL WORK(K, L, X)
      END
