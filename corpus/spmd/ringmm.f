C     Ring matrix multiply C = A * B with MPI, "version 2" of the PerPreT
C     case study (Brehm 1999, Sec. 6.1.3): A in row blocks and B in
C     column blocks of NB = N / NPROCS over NPROCS processes; NPROCS
C     compute steps of 2*NB*NB*N flops each, and NPROCS - 1 ring shifts
C     in which every process passes its B block (8*N*NB bytes) to its
C     right neighbour and receives the left neighbour's.
C     Each rank prints its rank and the sum of its rows of C.
      PROGRAM RINGMM
      INCLUDE 'mpif.h'
      INTEGER N
      PARAMETER (N = 256)
      DOUBLE PRECISION AT(N, N), B(N, N), C(N, N), S
      INTEGER ME, NPROCS, NB, I0, I, J, K, STEP, JB, JC, RIGHT, LEFT
      INTEGER IERR
      INTEGER STAT(MPI_STATUS_SIZE)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPROCS, IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      NB = N / NPROCS
      RIGHT = MOD(ME + 1, NPROCS)
      LEFT = MOD(ME - 1 + NPROCS, NPROCS)
      I0 = ME*NB
C     Local rows of A (the global rows ME*NB+1 ... ME*NB+NB) are kept
C     transposed, AT(K, I) = A(ME*NB+I, K), so that the inner products
C     run down columns; local columns of B are the global columns
C     ME*NB+1 ... ME*NB+NB.
      DO 20 I = 1, NB
         DO 10 K = 1, N
            AT(K, I) = DBLE(I0 + I - K)
   10    CONTINUE
   20 CONTINUE
      DO 40 J = 1, NB
         DO 30 K = 1, N
            B(K, J) = DBLE(K + I0 + J)
   30    CONTINUE
   40 CONTINUE
C     At step STEP this process holds the B block that started on rank JB.
      DO 90 STEP = 1, NPROCS
         JB = MOD(ME - STEP + 1 + NPROCS, NPROCS)
         DO 80 J = 1, NB
            JC = JB*NB + J
            DO 70 I = 1, NB
               S = 0.0D0
               DO 60 K = 1, N
                  S = S + AT(K, I)*B(K, J)
   60          CONTINUE
               C(I, JC) = S
   70       CONTINUE
   80    CONTINUE
         IF (STEP .LT. NPROCS) THEN
            CALL MPI_SENDRECV_REPLACE(B, N*NB, MPI_DOUBLE_PRECISION,
     &           RIGHT, 1, LEFT, 1, MPI_COMM_WORLD, STAT, IERR)
         END IF
   90 CONTINUE
      S = 0.0D0
      DO 110 J = 1, N
         DO 100 I = 1, NB
            S = S + C(I, J)
  100    CONTINUE
  110 CONTINUE
      WRITE (*, '(A, I4, A, F24.1)') 'rank', ME, ' sum', S
      CALL MPI_FINALIZE(IERR)
      END
