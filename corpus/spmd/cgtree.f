C     Conjugate gradients for A x = b, one iteration, after Brehm 1999,
C     Fig. 6.17 ("Tree"): the N x N matrix (psize N = 1024) in row
C     blocks of NB = N / NPROCS rows; the search vector P is collected
C     at rank 0 and broadcast to every rank, then q = A p is formed
C     locally; two global sums per iteration (p.q and r.r). Tree: the
C     ranks form a binary tree numbered as a heap (the sons of rank R are
C     2R+1 and 2R+2, its father (R-1)/2); values go up to rank 0 and come
C     back down along it.
C     A = ones + diag(N + MOD(i, 7)) (symmetric positive definite),
C     b = ones, x0 = 0, so r0 = p0 = b and r0.r0 = N without a message.
C     Rank 0 prints the residual norm after NITER iterations.
      PROGRAM CGTREE
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

C     The search vector PV(1 ... N) on every rank, along the tree: each
C     rank receives the blocks of its sons' subtrees, adds its own, and
C     sends them to its father, level by level (the ranks of one level of
C     a subtree are consecutive; rank 0's levels are ranks 0 ... NPROCS-1
C     in order); then PV goes down from rank 0 to the leaves.
      SUBROUTINE VCOLL(PV, ME, NPROCS, NB)
      INCLUDE 'mpif.h'
      INTEGER N
      PARAMETER (N = 1024)
      DOUBLE PRECISION PV(N), W(N), B1(N), B2(N)
      INTEGER ME, NPROCS, NB, S1, S2, N1, N2, NSUB, K, K1, K2, L, J
      INTEGER LO, HI, M1, M2, NSZ, IERR, STAT(MPI_STATUS_SIZE)
      S1 = 2*ME + 1
      S2 = 2*ME + 2
      N1 = NSZ(S1, NPROCS)
      N2 = NSZ(S2, NPROCS)
      NSUB = NSZ(ME, NPROCS)
      IF (N1 .GT. 0) CALL MPI_RECV(B1(1), N1*NB, MPI_DOUBLE_PRECISION,
     &     S1, 1, MPI_COMM_WORLD, STAT, IERR)
      IF (N2 .GT. 0) CALL MPI_RECV(B2(1), N2*NB, MPI_DOUBLE_PRECISION,
     &     S2, 1, MPI_COMM_WORLD, STAT, IERR)
      DO 10 J = 1, NB
         W(J) = PV(ME*NB + J)
   10 CONTINUE
C     Level by level: son 1's ranks LO ... HI (below NPROCS), then son
C     2's, the HI - LO + 1 ranks after them.
      K = NB
      K1 = 0
      K2 = 0
      LO = S1
      HI = S1
      DO 40 L = 1, 20
         IF (LO .LT. NPROCS) THEN
            M1 = (MIN(HI, NPROCS - 1) - LO + 1)*NB
            M2 = MAX(0, MIN(2*HI - LO + 1, NPROCS - 1) - HI)*NB
            DO 20 J = 1, M1
               W(K + J) = B1(K1 + J)
   20       CONTINUE
            K = K + M1
            K1 = K1 + M1
            DO 30 J = 1, M2
               W(K + J) = B2(K2 + J)
   30       CONTINUE
            K = K + M2
            K2 = K2 + M2
            LO = 2*LO + 1
            HI = 2*HI + 2
         END IF
   40 CONTINUE
      IF (ME .GT. 0) THEN
         CALL MPI_SEND(W(1), NSUB*NB, MPI_DOUBLE_PRECISION,
     &        (ME - 1)/2, 1, MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(PV(1), N, MPI_DOUBLE_PRECISION, (ME - 1)/2, 2,
     &        MPI_COMM_WORLD, STAT, IERR)
      ELSE
         DO 50 J = 1, NPROCS*NB
            PV(J) = W(J)
   50    CONTINUE
      END IF
      IF (N1 .GT. 0) CALL MPI_SEND(PV(1), N, MPI_DOUBLE_PRECISION, S1,
     &     2, MPI_COMM_WORLD, IERR)
      IF (N2 .GT. 0) CALL MPI_SEND(PV(1), N, MPI_DOUBLE_PRECISION, S2,
     &     2, MPI_COMM_WORLD, IERR)
      END

C     The number of ranks in the subtree of rank R (0 if R >= NPROCS).
      INTEGER FUNCTION NSZ(R, NPROCS)
      INTEGER R, NPROCS, L, LO, HI
      NSZ = 0
      LO = R
      HI = R
      DO 10 L = 1, 20
         IF (LO .LT. NPROCS) THEN
            NSZ = NSZ + MIN(HI, NPROCS - 1) - LO + 1
            LO = 2*LO + 1
            HI = 2*HI + 2
         END IF
   10 CONTINUE
      END

C     S = the sum of S over all ranks, on every rank, along the tree: the
C     partial sums of the sons' subtrees up to rank 0, the total down.
      SUBROUTINE GSUM(S, ME, NPROCS)
      INCLUDE 'mpif.h'
      DOUBLE PRECISION S, T
      INTEGER ME, NPROCS, IERR, STAT(MPI_STATUS_SIZE)
      IF (2*ME + 1 .LT. NPROCS) THEN
         CALL MPI_RECV(T, 1, MPI_DOUBLE_PRECISION, 2*ME + 1, 3,
     &        MPI_COMM_WORLD, STAT, IERR)
         S = S + T
      END IF
      IF (2*ME + 2 .LT. NPROCS) THEN
         CALL MPI_RECV(T, 1, MPI_DOUBLE_PRECISION, 2*ME + 2, 3,
     &        MPI_COMM_WORLD, STAT, IERR)
         S = S + T
      END IF
      IF (ME .GT. 0) THEN
         CALL MPI_SEND(S, 1, MPI_DOUBLE_PRECISION, (ME - 1)/2, 3,
     &        MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(S, 1, MPI_DOUBLE_PRECISION, (ME - 1)/2, 4,
     &        MPI_COMM_WORLD, STAT, IERR)
      END IF
      IF (2*ME + 1 .LT. NPROCS) CALL MPI_SEND(S, 1,
     &     MPI_DOUBLE_PRECISION, 2*ME + 1, 4, MPI_COMM_WORLD, IERR)
      IF (2*ME + 2 .LT. NPROCS) CALL MPI_SEND(S, 1,
     &     MPI_DOUBLE_PRECISION, 2*ME + 2, 4, MPI_COMM_WORLD, IERR)
      END
