      SUBROUTINE DRIVER(N, X)
C     DGGES3's shape: a routine calling into a cycle of recursion with
C     sizes no caller binds (library mode)
      INTEGER N
      DOUBLE PRECISION X(*)
      CALL SWEEP(N, X)
      END
      RECURSIVE SUBROUTINE SWEEP(N, X)
C     DLAQZ0: calls the deflation window, which calls it back
      INTEGER N
      DOUBLE PRECISION X(*)
      IF (N .GT. 4) CALL WINDOW(N / 2, X)
      X(1) = X(1) + 1.0D0
      END
      RECURSIVE SUBROUTINE WINDOW(K, X)
C     DLAQZ3: calls SWEEP on a smaller problem, and LEAF (DTGEXC), a
C     routine too large to take in with its size symbolic, passing it a
C     LOGICAL constant
      INTEGER K
      DOUBLE PRECISION X(*)
      CALL SWEEP(K, X)
      CALL LEAF(.TRUE., K, X)
      END
      SUBROUTINE LEAF(WANT, K, X)
      LOGICAL WANT
      INTEGER K, L
      DOUBLE PRECISION X(*)
      IF (K.LE.1) RETURN
      DO 40 L = 1, MOD(K, 3)
         X(L) = X(L) + 1.0D0
   40 CONTINUE
      DO 50 L = MOD(K, 3) + 1, K, 3
         IF (WANT .AND. L.GT.4) X(L) = X(L) * 0.5D0
   50 CONTINUE
      END
