      PROGRAM CALLST
C     WORK passes N on to a dummy procedure, which may write it: after the
C     first call N is unknown, but the first call passes the N set here
      EXTERNAL NOOP
      INTEGER N
      DOUBLE PRECISION A(100)
      N = 50
      CALL WORK(N, A, NOOP)
      CALL WORK(N, A, NOOP)
      END

      SUBROUTINE WORK(N, A, OP)
      INTEGER N, I
      DOUBLE PRECISION A(*)
      EXTERNAL OP
      DO 10 I = 1, N
         A(I) = 1.0D0
   10 CONTINUE
      CALL OP(N)
      END

      SUBROUTINE NOOP(N)
      INTEGER N
      END
