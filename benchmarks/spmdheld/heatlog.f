C     1-D heat equation, explicit Jacobi steps, the N points in blocks
C     over the ranks (the last rank takes the remainder): each step
C     every rank swaps its edge values with both neighbours by
C     MPI_SENDRECV (MPI_PROC_NULL at the ends), and rank 0 writes the
C     step number every NOUT steps: one rank-dependent WRITE inside the
C     time loop. For `sad sweep` over N, NSTEP and NPROCS.
      PROGRAM HEATLG
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER N, NSTEP, NOUT, MAXL
      PARAMETER (N = 100000, NSTEP = 100, NOUT = 10, MAXL = 1000000)
      DOUBLE PRECISION U(0:MAXL + 1), V(0:MAXL + 1), C
      INTEGER ME, NP, NL, LEFT, RIGHT, I, IS, IERR
      INTEGER STAT(MPI_STATUS_SIZE)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NL = N / NP
      IF (ME .EQ. NP - 1) NL = N - (NP - 1) * (N / NP)
      LEFT = ME - 1
      RIGHT = ME + 1
      IF (ME .EQ. 0) LEFT = MPI_PROC_NULL
      IF (ME .EQ. NP - 1) RIGHT = MPI_PROC_NULL
      C = 0.25D0
      DO 10 I = 0, NL + 1
         U(I) = 0.0D0
   10 CONTINUE
      IF (ME .EQ. 0) U(1) = 1.0D0
      DO 40 IS = 1, NSTEP
         CALL MPI_SENDRECV(U(1), 1, MPI_DOUBLE_PRECISION, LEFT, 1,
     &        U(NL + 1), 1, MPI_DOUBLE_PRECISION, RIGHT, 1,
     &        MPI_COMM_WORLD, STAT, IERR)
         CALL MPI_SENDRECV(U(NL), 1, MPI_DOUBLE_PRECISION, RIGHT, 2,
     &        U(0), 1, MPI_DOUBLE_PRECISION, LEFT, 2,
     &        MPI_COMM_WORLD, STAT, IERR)
         DO 20 I = 1, NL
            V(I) = U(I) + C*(U(I - 1) - 2.0D0*U(I) + U(I + 1))
   20    CONTINUE
         DO 30 I = 1, NL
            U(I) = V(I)
   30    CONTINUE
         IF (ME .EQ. 0 .AND. MOD(IS, NOUT) .EQ. 0)
     &        WRITE (*, *) 'step', IS
   40 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
