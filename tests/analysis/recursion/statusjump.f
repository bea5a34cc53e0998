      PROGRAM SJUMP
      INTEGER N, INFO, I
      PARAMETER (N = 21)
      DOUBLE PRECISION D(N), E(N), B(N)
      DO 10 I = 1, N
         D(I) = 4.0D0
         E(I) = 1.0D0
         B(I) = DBLE(I)
   10 CONTINUE
      CALL FACTOR(N, D, E, INFO)
      IF (INFO.EQ.0) THEN
         CALL SOLVE(N, D, E, B)
      END IF
      PRINT *, INFO, B(N)
      END

      SUBROUTINE FACTOR(N, D, E, INFO)
      INTEGER N, INFO, I, M
      DOUBLE PRECISION D(*), E(*), T
      INFO = 0
      IF (N.LT.0) THEN
         INFO = -1
         RETURN
      END IF
      M = MOD(N - 1, 3)
      DO 10 I = 1, M
         IF (D(I).LE.0.0D0) THEN
            INFO = I
            GO TO 30
         END IF
         T = E(I)
         E(I) = T / D(I)
         D(I + 1) = D(I + 1) - E(I) * T
   10 CONTINUE
      DO 20 I = M + 1, N - 3, 3
         IF (D(I).LE.0.0D0) THEN
            INFO = I
            GO TO 30
         END IF
         T = E(I)
         E(I) = T / D(I)
         D(I + 1) = D(I + 1) - E(I) * T
         IF (D(I + 1).LE.0.0D0) THEN
            INFO = I + 1
            GO TO 30
         END IF
         T = E(I + 1)
         E(I + 1) = T / D(I + 1)
         D(I + 2) = D(I + 2) - E(I + 1) * T
         IF (D(I + 2).LE.0.0D0) THEN
            INFO = I + 2
            GO TO 30
         END IF
         T = E(I + 2)
         E(I + 2) = T / D(I + 2)
         D(I + 3) = D(I + 3) - E(I + 2) * T
   20 CONTINUE
      IF (D(N).LE.0.0D0) INFO = N
   30 CONTINUE
      RETURN
      END

      SUBROUTINE SOLVE(N, D, E, B)
      INTEGER N, I
      DOUBLE PRECISION D(*), E(*), B(*)
      DO 10 I = 2, N
         B(I) = B(I) - B(I - 1) * E(I - 1)
   10 CONTINUE
      DO 20 I = 1, N
         B(I) = B(I) / D(I)
   20 CONTINUE
      END
