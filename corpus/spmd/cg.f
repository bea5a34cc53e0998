C     Conjugate gradients with MPI for A x = b, A the periodic 1-D
C     operator (A x)(i) = 2.5 x(i) - x(i-1) - x(i+1) (symmetric positive
C     definite), b(i) = MOD(i, 7): rows in blocks of NLOC = N / NPROCS; each
C     iteration exchanges one halo value with each neighbour (two
C     MPI_SENDRECV of 8 bytes) and forms two global sums.
C     The global sums come in the two variants of Brehm 1999, Sec. 6.1.3:
C     IGSUM = 1, simple collect and broadcast (rank 0 receives NPROCS - 1
C     partial sums one after another and sends the total back to each);
C     IGSUM = 2, tree (MPI_ALLREDUCE, ceil(log2 NPROCS) steps).
C     Input (rank 0, broadcast): N, NITER, IGSUM.
      PROGRAM CG
      INCLUDE 'mpif.h'
      INTEGER MAXN
      PARAMETER (MAXN = 100000)
      DOUBLE PRECISION X(MAXN), R(MAXN), P(0:MAXN+1), Q(MAXN)
      DOUBLE PRECISION RHO, RHONEW, PQ, ALPHA, BETA
      INTEGER N, NITER, NLOC, I, IT, RIGHT, LEFT, IERR
      INTEGER STAT(MPI_STATUS_SIZE)
      INTEGER ME, NPROCS, IGSUM
      COMMON /PAR/ ME, NPROCS, IGSUM
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPROCS, IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      IF (ME .EQ. 0) READ (*, *) N, NITER, IGSUM
      CALL MPI_BCAST(N, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      CALL MPI_BCAST(NITER, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      CALL MPI_BCAST(IGSUM, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      NLOC = N / NPROCS
      RIGHT = MOD(ME + 1, NPROCS)
      LEFT = MOD(ME - 1 + NPROCS, NPROCS)
      RHO = 0.0D0
      DO 10 I = 1, NLOC
         X(I) = 0.0D0
         R(I) = DBLE(MOD(ME*NLOC + I, 7))
         P(I) = R(I)
         RHO = RHO + R(I)*R(I)
   10 CONTINUE
      CALL GSUM(RHO)
      DO 50 IT = 1, NITER
C        Halo: P(NLOC+1) from the right neighbour, P(0) from the left.
         CALL MPI_SENDRECV(P(1), 1, MPI_DOUBLE_PRECISION, LEFT, 1,
     &        P(NLOC+1), 1, MPI_DOUBLE_PRECISION, RIGHT, 1,
     &        MPI_COMM_WORLD, STAT, IERR)
         CALL MPI_SENDRECV(P(NLOC), 1, MPI_DOUBLE_PRECISION, RIGHT, 2,
     &        P(0), 1, MPI_DOUBLE_PRECISION, LEFT, 2,
     &        MPI_COMM_WORLD, STAT, IERR)
         PQ = 0.0D0
         DO 20 I = 1, NLOC
            Q(I) = 2.5D0*P(I) - P(I-1) - P(I+1)
            PQ = PQ + P(I)*Q(I)
   20    CONTINUE
         CALL GSUM(PQ)
         ALPHA = RHO / PQ
         RHONEW = 0.0D0
         DO 30 I = 1, NLOC
            X(I) = X(I) + ALPHA*P(I)
            R(I) = R(I) - ALPHA*Q(I)
            RHONEW = RHONEW + R(I)*R(I)
   30    CONTINUE
         CALL GSUM(RHONEW)
         BETA = RHONEW / RHO
         RHO = RHONEW
         DO 40 I = 1, NLOC
            P(I) = R(I) + BETA*P(I)
   40    CONTINUE
   50 CONTINUE
      IF (ME .EQ. 0) WRITE (*, '(A, 1PE12.4)') 'residual', SQRT(RHO)
      CALL MPI_FINALIZE(IERR)
      END

C     S = the sum of S over all ranks, on every rank.
      SUBROUTINE GSUM(S)
      INCLUDE 'mpif.h'
      DOUBLE PRECISION S, T
      INTEGER I, IERR, STAT(MPI_STATUS_SIZE)
      INTEGER ME, NPROCS, IGSUM
      COMMON /PAR/ ME, NPROCS, IGSUM
      IF (IGSUM .EQ. 1) THEN
         IF (ME .EQ. 0) THEN
            DO 10 I = 1, NPROCS - 1
               CALL MPI_RECV(T, 1, MPI_DOUBLE_PRECISION, I, 7,
     &              MPI_COMM_WORLD, STAT, IERR)
               S = S + T
   10       CONTINUE
            DO 20 I = 1, NPROCS - 1
               CALL MPI_SEND(S, 1, MPI_DOUBLE_PRECISION, I, 8,
     &              MPI_COMM_WORLD, IERR)
   20       CONTINUE
         ELSE
            CALL MPI_SEND(S, 1, MPI_DOUBLE_PRECISION, 0, 7,
     &           MPI_COMM_WORLD, IERR)
            CALL MPI_RECV(S, 1, MPI_DOUBLE_PRECISION, 0, 8,
     &           MPI_COMM_WORLD, STAT, IERR)
         END IF
      ELSE
         CALL MPI_ALLREDUCE(S, T, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &        MPI_COMM_WORLD, IERR)
         S = T
      END IF
      END
