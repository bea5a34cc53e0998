      PROGRAM BLKINV
C     A blocked sweep in the shape of LAPACK's DGETRI: the block size NB
C     comes from a function, is cut where the workspace is short
C     (NB = LWORK / LDWORK), and steps a loop backwards from NN.
C     Called with a long workspace (NB = 8) and a short one (NB = 2).
      INTEGER N
      PARAMETER (N = 50)
      DOUBLE PRECISION A(N, N), WORK(8*N)
      INTEGER INFO
      CALL INV(N, A, N, WORK, 8*N, INFO)
      CALL INV(N, A, N, WORK, 2*N, INFO)
      PRINT *, INFO, A(1, 1)
      END
