      DOUBLE PRECISION FUNCTION NRM2(N, X)
C     the Euclidean norm of X, through DOT
      INTEGER N
      DOUBLE PRECISION X(*)
      DOUBLE PRECISION DOT
      EXTERNAL DOT
      NRM2 = SQRT(DOT(N, X, X))
      RETURN
      END
