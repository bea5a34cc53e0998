      SUBROUTINE WORK(N, M)
      INTEGER N, M, I, J
      DO 20 I = 1, N
         DO 10 J = 1, M*I
            CALL DUMMY
   10    CONTINUE
   20 CONTINUE
      END
      SUBROUTINE DUMMY
      END
      PROGRAM P
      INTEGER NN, MM
      READ *, NN, MM
      CALL WORK(20, 30)
      CALL WORK(NN, 30)
      CALL WORK(MM, 30)
      END
