C     Conjugate gradients for A x = b, one iteration, after Brehm 1999,
C     Fig. 6.17 ("Simple"): the N x N matrix (psize N = 1024) in row
C     blocks of NB = N / NPROCS rows; the search vector P is collected
C     at rank 0 and broadcast to every rank, then q = A p is formed
C     locally; two global sums per iteration (p.q and r.r). Simple: rank
C     0 receives from ranks 1 ... NPROCS - 1 one after another and sends
C     to them one after another.
C     A = ones + diag(N + MOD(i, 7)) (symmetric positive definite),
C     b = ones, x0 = 0, so r0 = p0 = b and r0.r0 = N without a message.
C     Rank 0 prints the residual norm after NITER iterations.
      PROGRAM CGSIMP
      INCLUDE 'mpif.h'
      INTEGER N, NITER
      PARAMETER (N = 1024, NITER = 1)
      DOUBLE PRECISION AT(N, N), X(N), R(N), PV(N), Q(N)
      DOUBLE PRECISION RHO, RHONEW, PQ, ALPHA, BETA
      INTEGER ME, NPROCS, NB, I0, I, K, IT, IERR
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPROCS, IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      NB = N / NPROCS
      I0 = ME*NB
C     Local rows I0+1 ... I0+NB of A, transposed: AT(K, I) = A(I0+I, K).
      DO 20 I = 1, NB
         DO 10 K = 1, N
            AT(K, I) = 1.0D0
   10    CONTINUE
         AT(I0 + I, I) = 1.0D0 + N + MOD(I0 + I, 7)
         X(I) = 0.0D0
         R(I) = 1.0D0
         PV(I0 + I) = 1.0D0
   20 CONTINUE
      RHO = N
      DO 90 IT = 1, NITER
         CALL VCOLL(PV, ME, NPROCS, NB)
         PQ = 0.0D0
         DO 40 I = 1, NB
            Q(I) = 0.0D0
            DO 30 K = 1, N
               Q(I) = Q(I) + AT(K, I)*PV(K)
   30       CONTINUE
            PQ = PQ + PV(I0 + I)*Q(I)
   40    CONTINUE
         CALL GSUM(PQ, ME, NPROCS)
         ALPHA = RHO / PQ
         RHONEW = 0.0D0
         DO 50 I = 1, NB
            X(I) = X(I) + ALPHA*PV(I0 + I)
            R(I) = R(I) - ALPHA*Q(I)
            RHONEW = RHONEW + R(I)*R(I)
   50    CONTINUE
         CALL GSUM(RHONEW, ME, NPROCS)
         BETA = RHONEW / RHO
         RHO = RHONEW
         DO 60 I = 1, NB
            PV(I0 + I) = R(I) + BETA*PV(I0 + I)
   60    CONTINUE
   90 CONTINUE
      IF (ME .EQ. 0) WRITE (*, '(A, 1PE12.4)') 'residual', SQRT(RHO)
      CALL MPI_FINALIZE(IERR)
      END

C     The search vector PV(1 ... N) on every rank: rank 0 receives each
C     other rank's block of NB values in turn, then sends all N values to
C     each other rank in turn.
      SUBROUTINE VCOLL(PV, ME, NPROCS, NB)
      INCLUDE 'mpif.h'
      INTEGER N
      PARAMETER (N = 1024)
      DOUBLE PRECISION PV(N)
      INTEGER ME, NPROCS, NB, I, IERR, STAT(MPI_STATUS_SIZE)
      IF (ME .EQ. 0) THEN
         DO 10 I = 1, NPROCS - 1
            CALL MPI_RECV(PV(I*NB + 1), NB, MPI_DOUBLE_PRECISION, I, 1,
     &           MPI_COMM_WORLD, STAT, IERR)
   10    CONTINUE
         DO 20 I = 1, NPROCS - 1
            CALL MPI_SEND(PV(1), N, MPI_DOUBLE_PRECISION, I, 2,
     &           MPI_COMM_WORLD, IERR)
   20    CONTINUE
      ELSE
         CALL MPI_SEND(PV(ME*NB + 1), NB, MPI_DOUBLE_PRECISION, 0, 1,
     &        MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(PV(1), N, MPI_DOUBLE_PRECISION, 0, 2,
     &        MPI_COMM_WORLD, STAT, IERR)
      END IF
      END

C     S = the sum of S over all ranks, on every rank: rank 0 receives the
C     partial sums one after another and sends the total to each rank.
      SUBROUTINE GSUM(S, ME, NPROCS)
      INCLUDE 'mpif.h'
      DOUBLE PRECISION S, T
      INTEGER ME, NPROCS, I, IERR, STAT(MPI_STATUS_SIZE)
      IF (ME .EQ. 0) THEN
         DO 10 I = 1, NPROCS - 1
            CALL MPI_RECV(T, 1, MPI_DOUBLE_PRECISION, I, 3,
     &           MPI_COMM_WORLD, STAT, IERR)
            S = S + T
   10    CONTINUE
         DO 20 I = 1, NPROCS - 1
            CALL MPI_SEND(S, 1, MPI_DOUBLE_PRECISION, I, 4,
     &           MPI_COMM_WORLD, IERR)
   20    CONTINUE
      ELSE
         CALL MPI_SEND(S, 1, MPI_DOUBLE_PRECISION, 0, 3,
     &        MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(S, 1, MPI_DOUBLE_PRECISION, 0, 4,
     &        MPI_COMM_WORLD, STAT, IERR)
      END IF
      END
