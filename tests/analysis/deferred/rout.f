      SUBROUTINE ROUT(M, X)
      INTEGER M, I
      DOUBLE PRECISION X(*)
      DO 30 I = 1, M, 2
         CALL LEAF(M - I + 1, X)
   30 CONTINUE
      END

      SUBROUTINE LEAF(K, X)
      INTEGER K, L
      DOUBLE PRECISION X(*)
      IF (K.LE.1) RETURN
      DO 40 L = 1, MOD(K, 3)
         X(L) = X(L) + 1.0D0
   40 CONTINUE
      DO 50 L = MOD(K, 3) + 1, K, 3
         IF (L.GT.4) X(L) = X(L) * 0.5D0
   50 CONTINUE
      END
