      PROGRAM BLKTRD
C     A forward blocked loop in the shape of LAPACK's DSYTRD (lower):
C     the block size NB comes from a function and is cut where the
C     workspace is short; each trip calls CLN with N-I-NB+1, whose
C     quick return and unrolled clean-up loop test that length.
C     Called with a long workspace (NB = 8) and a short one (NB = 3).
      INTEGER N
      PARAMETER (N = 50)
      DOUBLE PRECISION A(N, N), WORK(8*N)
      INTEGER I, J, INFO
      DO 20 J = 1, N
         DO 10 I = 1, N
            A(I, J) = 1.0D0
   10    CONTINUE
   20 CONTINUE
      CALL TRD(N, A, N, WORK, 8*N, INFO)
      CALL TRD(N, A, N, WORK, 3*N, INFO)
      PRINT *, INFO, A(1, 1)
      END
