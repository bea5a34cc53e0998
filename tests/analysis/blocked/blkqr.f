      PROGRAM BLKQR
C     QRB with a long workspace (NB = 8: blocks at 1, 9, ..., 33, the
C     rest from 41), a short one (NB = 3: blocks at 1, 4, ..., 34, the
C     rest from 37), and a matrix too small to block (NB = 1: all at 1).
      INTEGER N
      PARAMETER (N = 50)
      DOUBLE PRECISION A(N, N)
      INTEGER I, J
      DO 20 J = 1, N
         DO 10 I = 1, N
            A(I, J) = 1.0D0
   10    CONTINUE
   20 CONTINUE
      CALL QRB(N, N, A, N, 8*N)
      CALL QRB(N, N, A, N, 3*N)
      CALL QRB(10, 10, A, N, 8*N)
      PRINT *, A(N, N)
      END
