C     Conjugate gradients for A x = b after Brehm 1999, Fig. 6.17, psize
C     N = 1024, one iteration, written with the collectives a user of
C     MPI reaches for first: every rank gets the whole search vector
C     from MPI_ALLGATHER (no root), and both global sums (p.q and r.r)
C     are MPI_ALLREDUCE. The vectors live in a COMMON block, the matrix
C     vector product is a subroutine with assumed-size arguments, the
C     loops are DO ... END DO.
C     A = ones + diag(N + MOD(i, 7)) (symmetric positive definite),
C     b = ones, x0 = 0, so r0 = p0 = b and r0.r0 = N without a message.
C     Rank 0 prints the residual norm after NITER iterations.
      PROGRAM CGALLG
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER N, NITER
      PARAMETER (N = 1024, NITER = 1)
      DOUBLE PRECISION AT(N, N)
      DOUBLE PRECISION PFULL(N), PLOC(N), XLOC(N), RLOC(N), QLOC(N)
      COMMON /CGVEC/ PFULL, PLOC, XLOC, RLOC, QLOC
      DOUBLE PRECISION RHO, RHONEW, PQ, ALPHA, BETA, SUMS
      INTEGER MYID, NP, NLOC, IOFF, I, K, ITER, IERR
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, MYID, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NLOC = N / NP
      IOFF = MYID*NLOC
      DO I = 1, NLOC
         DO K = 1, N
            AT(K, I) = 1.0D0
         END DO
         AT(IOFF + I, I) = 1.0D0 + N + MOD(IOFF + I, 7)
         XLOC(I) = 0.0D0
         RLOC(I) = 1.0D0
         PLOC(I) = 1.0D0
      END DO
      RHO = N
      DO ITER = 1, NITER
         CALL MPI_ALLGATHER(PLOC, NLOC, MPI_DOUBLE_PRECISION,
     &        PFULL, NLOC, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, IERR)
         CALL MATVEC(AT, N, NLOC, PFULL, QLOC)
         PQ = 0.0D0
         DO I = 1, NLOC
            PQ = PQ + PLOC(I)*QLOC(I)
         END DO
         CALL MPI_ALLREDUCE(PQ, SUMS, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &        MPI_COMM_WORLD, IERR)
         ALPHA = RHO / SUMS
         RHONEW = 0.0D0
         DO I = 1, NLOC
            XLOC(I) = XLOC(I) + ALPHA*PLOC(I)
            RLOC(I) = RLOC(I) - ALPHA*QLOC(I)
            RHONEW = RHONEW + RLOC(I)*RLOC(I)
         END DO
         CALL MPI_ALLREDUCE(RHONEW, SUMS, 1, MPI_DOUBLE_PRECISION,
     &        MPI_SUM, MPI_COMM_WORLD, IERR)
         BETA = SUMS / RHO
         RHO = SUMS
         DO I = 1, NLOC
            PLOC(I) = RLOC(I) + BETA*PLOC(I)
         END DO
      END DO
      IF (MYID .EQ. 0) WRITE (*, '(A, 1PE12.4)') 'residual', SQRT(RHO)
      CALL MPI_FINALIZE(IERR)
      END

C     Q = the local rows of A times the whole vector P (AT: those rows,
C     transposed, one column per row).
      SUBROUTINE MATVEC(AT, N, NLOC, P, Q)
      IMPLICIT NONE
      INTEGER N, NLOC, I, K
      DOUBLE PRECISION AT(N, *), P(*), Q(*)
      DO I = 1, NLOC
         Q(I) = 0.0D0
         DO K = 1, N
            Q(I) = Q(I) + AT(K, I)*P(K)
         END DO
      END DO
      END
