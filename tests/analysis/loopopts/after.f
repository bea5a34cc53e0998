      PROGRAM AFTER
C     DGEBRD's shape: a blocked loop whose crossover is a choice, then
C     the rest of the matrix to the unblocked routine from the index
C     the loop leaves (1 where it runs no trip).
      DOUBLE PRECISION W(40)
      INTEGER I
      DO 10 I = 1, 40
         W(I) = 0.0D0
   10 CONTINUE
      CALL BLOCKD(5, W)
      CALL BLOCKD(23, W)
      PRINT *, W(1)
      END

      SUBROUTINE BLOCKD(N, W)
      INTEGER N, NB, NX, I
      DOUBLE PRECISION W(*)
      NB = 4
      IF (NB .LT. N) THEN
         NX = MAX(NB, 6)
      ELSE
         NX = N
      END IF
      DO 30 I = 1, N - NX, NB
         CALL TAIL(NB, W)
   30 CONTINUE
      CALL TAIL(N - I + 1, W)
      END

      SUBROUTINE TAIL(M, W)
      INTEGER M, J
      DOUBLE PRECISION W(*)
      IF (M .LE. 4) RETURN
      DO 10 J = 1, M
         W(J) = W(J) + 1.0D0
   10 CONTINUE
      END
