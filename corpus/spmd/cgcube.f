C     Conjugate gradients for A x = b, one iteration, after Brehm 1999,
C     Fig. 6.17, the tree written for a hypercube (another style than
C     cgtree.f's heap numbering): the N x N matrix (psize N = 1024) in
C     row blocks of NLOC = N / NP rows; the search vector is collected
C     at rank 0 along a binomial tree (at step K the rank whose K lowest
C     bits are zero and bit K set sends its 2**K blocks to its partner
C     IEOR(MYID, 2**K)) and broadcast back down it; the two global sums
C     per iteration by recursive doubling (butterfly) with MPI_SENDRECV.
C     NP a power of 2. Rank 0 prints the residual norm.
      PROGRAM CGCUBE
      INCLUDE 'mpif.h'
      INTEGER N, NITER
      PARAMETER (N = 1024, NITER = 1)
      DOUBLE PRECISION A(N, N), X(N), R(N), P(N), Q(N)
      DOUBLE PRECISION RHO, RHONEW, PQ, ALPHA, BETA
      INTEGER MYID, NP, NLOC, IOFF, I, J, ITER, IERR, LOGP
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, MYID, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NLOC = N / NP
      IOFF = MYID*NLOC
      LOGP = 0
   5  IF (2**LOGP .LT. NP) THEN
         LOGP = LOGP + 1
         GOTO 5
      END IF
      DO 20 J = 1, NLOC
         DO 10 I = 1, N
            A(I, J) = 1.0D0
   10    CONTINUE
         A(IOFF + J, J) = 1.0D0 + N + MOD(IOFF + J, 7)
         X(J) = 0.0D0
         R(J) = 1.0D0
         P(IOFF + J) = 1.0D0
   20 CONTINUE
      RHO = N
      DO 90 ITER = 1, NITER
         CALL GATHP(P, MYID, NP, NLOC, LOGP)
         PQ = 0.0D0
         DO 40 J = 1, NLOC
            Q(J) = 0.0D0
            DO 30 I = 1, N
               Q(J) = Q(J) + A(I, J)*P(I)
   30       CONTINUE
            PQ = PQ + P(IOFF + J)*Q(J)
   40    CONTINUE
         CALL DSUM(PQ, MYID, LOGP)
         ALPHA = RHO / PQ
         RHONEW = 0.0D0
         DO 50 J = 1, NLOC
            X(J) = X(J) + ALPHA*P(IOFF + J)
            R(J) = R(J) - ALPHA*Q(J)
            RHONEW = RHONEW + R(J)*R(J)
   50    CONTINUE
         CALL DSUM(RHONEW, MYID, LOGP)
         BETA = RHONEW / RHO
         RHO = RHONEW
         DO 60 J = 1, NLOC
            P(IOFF + J) = R(J) + BETA*P(IOFF + J)
   60    CONTINUE
   90 CONTINUE
      IF (MYID .EQ. 0) WRITE (*, '(A, 1PE12.4)') 'residual', SQRT(RHO)
      CALL MPI_FINALIZE(IERR)
      END

C     Binomial-tree collect of the blocks at rank 0, then broadcast back.
      SUBROUTINE GATHP(P, MYID, NP, NLOC, LOGP)
      INCLUDE 'mpif.h'
      INTEGER N
      PARAMETER (N = 1024)
      DOUBLE PRECISION P(N)
      INTEGER MYID, NP, NLOC, LOGP, K, MASK, PARTNR, IERR
      INTEGER STAT(MPI_STATUS_SIZE)
      DO 10 K = 0, LOGP - 1
         MASK = 2**K
         PARTNR = IEOR(MYID, MASK)
         IF (MOD(MYID, 2*MASK) .EQ. 0) THEN
            CALL MPI_RECV(P(PARTNR*NLOC + 1), MASK*NLOC,
     &           MPI_DOUBLE_PRECISION, PARTNR, 1, MPI_COMM_WORLD,
     &           STAT, IERR)
         ELSE IF (MOD(MYID, 2*MASK) .EQ. MASK) THEN
            CALL MPI_SEND(P(MYID*NLOC + 1), MASK*NLOC,
     &           MPI_DOUBLE_PRECISION, PARTNR, 1, MPI_COMM_WORLD, IERR)
         END IF
   10 CONTINUE
      DO 20 K = LOGP - 1, 0, -1
         MASK = 2**K
         PARTNR = IEOR(MYID, MASK)
         IF (MOD(MYID, 2*MASK) .EQ. 0) THEN
            CALL MPI_SEND(P, N, MPI_DOUBLE_PRECISION, PARTNR, 2,
     &           MPI_COMM_WORLD, IERR)
         ELSE IF (MOD(MYID, 2*MASK) .EQ. MASK) THEN
            CALL MPI_RECV(P, N, MPI_DOUBLE_PRECISION, PARTNR, 2,
     &           MPI_COMM_WORLD, STAT, IERR)
         END IF
   20 CONTINUE
      END

C     Global sum by recursive doubling (butterfly) with MPI_SENDRECV.
      SUBROUTINE DSUM(S, MYID, LOGP)
      INCLUDE 'mpif.h'
      DOUBLE PRECISION S, T
      INTEGER MYID, LOGP, K, PARTNR, IERR
      INTEGER STAT(MPI_STATUS_SIZE)
      DO 10 K = 0, LOGP - 1
         PARTNR = IEOR(MYID, 2**K)
         CALL MPI_SENDRECV(S, 1, MPI_DOUBLE_PRECISION, PARTNR, 3,
     &        T, 1, MPI_DOUBLE_PRECISION, PARTNR, 3, MPI_COMM_WORLD,
     &        STAT, IERR)
         S = S + T
   10 CONTINUE
      END
