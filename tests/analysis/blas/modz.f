      PROGRAM MODZ
      INTEGER K, S
      S = 0
      DO K = 38, 42
         CALL BLK(42, 40, K, S)
      END DO
      PRINT *, S
      END
      SUBROUTINE BLK(M, N, MB, S)
      INTEGER M, N, MB, S, NBLCKS, I
      IF (MB.GT.N .AND. M.GT.N) THEN
         IF (MOD(M - N, MB - N).EQ.0) THEN
            NBLCKS = (M - N) / (MB - N)
         ELSE
            NBLCKS = (M - N) / (MB - N) + 1
         END IF
      ELSE
         NBLCKS = 1
      END IF
      DO I = 1, NBLCKS
         S = S + I
      END DO
      END
