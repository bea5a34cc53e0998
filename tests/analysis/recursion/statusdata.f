      PROGRAM SDATA
      INTEGER N, INFO, I
      PARAMETER (N = 20)
      DOUBLE PRECISION A(N), S
      DO 10 I = 1, N
         A(I) = DBLE(N - I)
   10 CONTINUE
      CALL CHECK(N, A, INFO)
      IF (INFO.EQ.0) S = A(1)
      PRINT *, INFO, S
      END

      SUBROUTINE CHECK(N, A, INFO)
      INTEGER N, INFO
      DOUBLE PRECISION A(*)
      INFO = 0
      IF (A(1).GT.A(2)) INFO = 1
      END
