      PROGRAM CALLER
      INTEGER N, I, IDATA(2)
      DOUBLE PRECISION A, X(1000), Y(1000)
      READ (5, *) N
      A = 2.0D0
      DO 10 I = 1, 1000
         X(I) = DBLE(I)
         Y(I) = 1.0D0
   10 CONTINUE
      CALL DAXPY(100, A, X, 1, Y, 1)
      CALL DAXPY(N, A, X, 2, Y, 1)
      CALL DAXPY(7, A, X, 1, Y, 1)
      WRITE (6, *) Y(1), Y(N)
      END
