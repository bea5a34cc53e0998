C     The start of a backward recurrence, as scipy's specfun MSTA1 finds it (a secant search on ENVJ,
C     logs of base 10): sad's evaluator runs it as gfortran does (136 for X = 3.5, MP = 200).
      SUBROUTINE RECUR(N, X, Y)
      INTEGER N, M, K, MSTA1
      DOUBLE PRECISION X, Y
      M = MSTA1(X, 200)
      IF (M .LT. N) M = N
      DO 10 K = 1, M
         Y = Y + 1.0D0
 10   CONTINUE
      END

      INTEGER FUNCTION MSTA1(X, MP)
      INTEGER MP, N0, N1, NN, IT
      DOUBLE PRECISION X, A0, F0, F1, F, ENVJ
      A0 = DABS(X)
      N0 = INT(1.1D0 * A0) + 1
      F0 = ENVJ(N0, A0) - MP
      N1 = N0 + 5
      F1 = ENVJ(N1, A0) - MP
      DO 10 IT = 1, 20
         NN = N1 - (N1 - N0) / (1.0D0 - F0 / F1)
         F = ENVJ(NN, A0) - MP
         IF (ABS(NN - N1) .LT. 1) GO TO 20
         N0 = N1
         F0 = F1
         N1 = NN
 10   F1 = F
 20   MSTA1 = NN
      END

      DOUBLE PRECISION FUNCTION ENVJ(N, X)
      INTEGER N
      DOUBLE PRECISION X
      ENVJ = 0.5D0 * DLOG10(6.28D0 * N) - N * DLOG10(1.36D0 * X / N)
      END
