*     A DPOTF2-style factorization (issue 29): a test of data that leaves the loop to report a failure
*     through INFO (the matrix is not positive definite) is assumed not taken, as an error exit is; the
*     argument check INFO = -1 stays an exact test of N. Every count is exact.
      PROGRAM CHOL
      INTEGER N, I, J, INFO
      PARAMETER (N = 7)
      DOUBLE PRECISION A(N,N)
      DO 20 J = 1, N
         DO 10 I = 1, N
            A(I,J) = 1.0D0/DBLE(I+J)
   10    CONTINUE
         A(J,J) = A(J,J) + DBLE(N)
   20 CONTINUE
      CALL POTF(N, A, N, INFO)
      CALL POTF(N - 3, A, N, INFO)
      WRITE (6, *) A(1,1), INFO
      END
      SUBROUTINE POTF(N, A, LDA, INFO)
      INTEGER N, LDA, INFO, I, J
      DOUBLE PRECISION A(LDA,*), AJJ, DDOT
      EXTERNAL DDOT
      INFO = 0
      IF (N.LT.0) THEN
         INFO = -1
         RETURN
      END IF
      DO 10 J = 1, N
         AJJ = A(J,J) - DDOT(J-1, A(1,J), 1, A(1,J), 1)
         IF (AJJ.LE.0.0D0) THEN
            A(J,J) = AJJ
            GO TO 30
         END IF
         AJJ = SQRT(AJJ)
         A(J,J) = AJJ
         DO 5 I = J + 1, N
            A(J,I) = (A(J,I) - DDOT(J-1, A(1,J), 1, A(1,I), 1))/AJJ
    5    CONTINUE
   10 CONTINUE
      GO TO 40
   30 CONTINUE
      INFO = J
   40 CONTINUE
      RETURN
      END
