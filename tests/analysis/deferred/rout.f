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
