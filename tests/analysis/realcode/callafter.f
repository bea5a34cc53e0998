      PROGRAM FLOW2
      DOUBLE PRECISION A(100)
      INTEGER N, I, K
      N = 40
      K = 0
      IF (K .NE. 0) THEN
         CALL XERBLA('FLOW2', N)
         STOP
      END IF
      DO 10 I = 1, N
         A(I) = 0.0D0
   10 CONTINUE
      CALL REPORT(N)
      PRINT *, A(1)
      END
