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

      SUBROUTINE ROUT(M, X)
      INTEGER M, I
      DOUBLE PRECISION X(*)
      DO 30 I = 1, M, 2
         CALL LEAF(M - I + 1, X)
   30 CONTINUE
      END

      SUBROUTINE LEAF(K, X)
      INTEGER K, L, R
      DOUBLE PRECISION X(*)
      IF (K.LE.1) RETURN
      R = MOD(K, 3)
      DO 40 L = 1, R
         X(L) = X(L) + 1.0D0
   40 CONTINUE
      DO 50 L = R + 1, K, 3
         IF (L.GT.4) THEN
            X(L) = X(L) * 0.5D0
         END IF
   50 CONTINUE
      END
