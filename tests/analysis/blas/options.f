*     Literal options through calls (issue 29): DGEMM with two option sets, DTRSM through SOLVE, whose
*     UPLO is the caller's literal, each with two more. Nothing profiled: every count is exact.
      PROGRAM OPTS
      INTEGER M, N, K, I, J
      PARAMETER (M = 6, N = 5, K = 4)
      DOUBLE PRECISION A(M,M), B(M,M), C(M,M)
      DO 20 J = 1, M
         DO 10 I = 1, M
            A(I,J) = 1.0D0 + 1.0D0/DBLE(I+J)
            B(I,J) = DBLE(I+2*J)
            C(I,J) = 1.0D0
   10    CONTINUE
         A(J,J) = 4.0D0
   20 CONTINUE
      CALL DGEMM('N', 'N', M, N, K, 1.0D0, A, M, B, M, 0.5D0, C, M)
      CALL DGEMM('Transpose', 'n', K, M, N, -1.0D0, A, M, B, M, 0.0D0,
     +           C, M)
      CALL SOLVE('Upper', M, N, A, B)
      CALL SOLVE('l', N, K, A, B)
      WRITE (6, *) C(1,1), B(1,1)
      END
      SUBROUTINE SOLVE(UPLO, M, N, A, B)
      CHARACTER UPLO
      INTEGER M, N
      DOUBLE PRECISION A(6,6), B(6,6)
      CALL DTRSM('Left', UPLO, 'No transpose', 'Non-unit', M, N, 2.0D0,
     +           A, 6, B, 6)
      CALL DTRSM('R', UPLO, 'T', 'U', N, M, 1.0D0, A, 6, B, 6)
      END
