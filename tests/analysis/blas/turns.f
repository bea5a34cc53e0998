C     A start index found by a search on an arc tangent, which sad's evaluator does not take (no exact
C     DATAN of its own): the function's result is not worked out, and a bound time says so.
      SUBROUTINE TURN(N, X, Y)
      INTEGER N, M, K, KTURN
      DOUBLE PRECISION X, Y
      M = KTURN(X, 20)
      IF (M .LT. N) M = N
      DO 10 K = 1, M
         Y = Y + 1.0D0
 10   CONTINUE
      END

      INTEGER FUNCTION KTURN(X, MP)
      INTEGER MP, K
      DOUBLE PRECISION X
      DO 10 K = 1, 100
         IF (K * DATAN(X / K) .GE. MP) GO TO 20
 10   CONTINUE
 20   KTURN = K
      END
