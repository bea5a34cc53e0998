C     Jacobi iteration on an N x N grid, the first KB columns held hot, until the largest change of a
C     sweep is below TOL or MAXIT sweeps are done; prints the sweeps and the last change
      PROGRAM JACOBI
      INTEGER N, NMAX, I, J, IT, MAXIT, KB
      PARAMETER (NMAX = 512)
      DOUBLE PRECISION U(NMAX, NMAX), V(NMAX, NMAX), D, DIFF, TOL
      READ (*, *) N, MAXIT, KB
      TOL = 1.0D-6
      DO 20 J = 1, N
         DO 10 I = 1, N
            U(I, J) = 0.0D0
            V(I, J) = 0.0D0
   10    CONTINUE
         IF (J .LE. KB) THEN
            U(1, J) = 1.0D0
            V(1, J) = 1.0D0
         END IF
   20 CONTINUE
      DO 100 IT = 1, MAXIT
         DIFF = 0.0D0
         DO 40 J = 2, N - 1
            DO 30 I = 2, N - 1
               V(I, J) = 0.25D0 * (U(I-1, J) + U(I+1, J)
     &                   + U(I, J-1) + U(I, J+1))
               D = ABS(V(I, J) - U(I, J))
               IF (D .GT. DIFF) DIFF = D
   30       CONTINUE
   40    CONTINUE
         DO 60 J = 2, N - 1
            DO 50 I = 2, N - 1
               U(I, J) = V(I, J)
   50       CONTINUE
   60    CONTINUE
         IF (DIFF .LT. TOL) GOTO 200
  100 CONTINUE
  200 WRITE (*, *) IT, DIFF
      END
