*     A DSYTD2-style caller (issue 29): a loop over I calling DDOT and DAXPY with the length N-I, the
*     callees' clean-up loops (MOD(N,5), MOD(N,4)) and early returns evaluated per call, summed over I.
      PROGRAM TRIDIA
      INTEGER N, I, J
      PARAMETER (N = 13)
      DOUBLE PRECISION A(N,N), W(N), ALPHA, DDOT
      EXTERNAL DDOT
      DO 20 J = 1, N
         W(J) = 1.0D0
         DO 10 I = 1, N
            A(I,J) = 1.0D0/DBLE(I+J)
   10    CONTINUE
   20 CONTINUE
      CALL REDUCE(N, A, N, W)
      CALL REDUCE(N - 4, A, N, W)
      WRITE (6, *) A(1,1), W(1)
      END
      SUBROUTINE REDUCE(N, A, LDA, W)
      INTEGER N, LDA, I
      DOUBLE PRECISION A(LDA,*), W(*), ALPHA, DDOT
      EXTERNAL DDOT
      DO 10 I = N - 1, 1, -1
         ALPHA = -0.5D0*DDOT(N - I, A(I+1,I), 1, W(I+1), 1)
         CALL DAXPY(N - I, ALPHA + 2.0D0, A(I+1,I), 1, W(I+1), 1)
         CALL DAXPY(I, 1.0D0, A(1,I), 1, W, 1)
   10 CONTINUE
      END
