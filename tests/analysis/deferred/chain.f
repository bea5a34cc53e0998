      PROGRAM CHAIN
C     A loop over ROUT, whose loop calls LEAF, whose loops depend on its
C     argument: three levels of sums over loop indices, LEAF over budget.
      INTEGER N, J
      PARAMETER (N = 60)
      DOUBLE PRECISION X(N)
      DO 10 J = 1, N
         X(J) = 1.0D0
   10 CONTINUE
      DO 20 J = 1, 40
         CALL ROUT(J + 2, X)
   20 CONTINUE
      PRINT *, X(1)
      END
