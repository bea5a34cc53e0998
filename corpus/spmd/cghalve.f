C     Conjugate gradients for A x = b, after Brehm 1999, Fig. 6.17, with
C     the tree as recursive halving: the N x N matrix (psize N from the
C     PARAMETER include cgsize.h) in row blocks of NB = N / NPROCS rows.
C     The search vector P is collected at rank 0 in steps K = 1, 2, 4,
C     ...: a rank with MOD(ME, 2K) = K sends the K blocks it holds to
C     ME - K, which appends them; rank 0 then sends the whole vector back
C     down in the reverse steps. Two global sums per iteration (p.q, r.r)
C     the same way. Blocking MPI_SEND / MPI_RECV, receives with
C     MPI_ANY_TAG, the steps as GOTO loops.
C     A = ones + diag(N + MOD(i, 7)), b = ones, x0 = 0.
      PROGRAM CGHALV
      INCLUDE 'mpif.h'
      INCLUDE 'cgsize.h'
      DOUBLE PRECISION AT(N, N), X(N), R(N), PV(N), Q(N)
      DOUBLE PRECISION RHO, RHONEW, PQ, ALPHA, BETA, GSUM
      INTEGER ME, NPROCS, NB, I0, I, K, IT, IERR
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPROCS, IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      NB = N / NPROCS
      I0 = ME*NB
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
         CALL HALVE(PV, ME, NPROCS, NB)
         PQ = 0.0D0
         DO 40 I = 1, NB
            Q(I) = 0.0D0
            DO 30 K = 1, N
               Q(I) = Q(I) + AT(K, I)*PV(K)
   30       CONTINUE
            PQ = PQ + PV(I0 + I)*Q(I)
   40    CONTINUE
         PQ = GSUM(PQ, ME, NPROCS)
         ALPHA = RHO / PQ
         RHONEW = 0.0D0
         DO 50 I = 1, NB
            X(I) = X(I) + ALPHA*PV(I0 + I)
            R(I) = R(I) - ALPHA*Q(I)
            RHONEW = RHONEW + R(I)*R(I)
   50    CONTINUE
         RHONEW = GSUM(RHONEW, ME, NPROCS)
         BETA = RHONEW / RHO
         RHO = RHONEW
         DO 60 I = 1, NB
            PV(I0 + I) = R(I) + BETA*PV(I0 + I)
   60    CONTINUE
   90 CONTINUE
      IF (ME .EQ. 0) WRITE (*, '(A, 1PE12.4)') 'residual', SQRT(RHO)
      CALL MPI_FINALIZE(IERR)
      END

C     PV(1 ... N) on every rank: the blocks up to rank 0 by halving, the
C     vector down again by doubling.
      SUBROUTINE HALVE(PV, ME, NPROCS, NB)
      INCLUDE 'mpif.h'
      INCLUDE 'cgsize.h'
      DOUBLE PRECISION PV(N)
      INTEGER ME, NPROCS, NB, K, M, IERR, STAT(MPI_STATUS_SIZE)
      K = 1
   10 IF (K .LT. NPROCS) THEN
         IF (MOD(ME, 2*K) .EQ. K) THEN
            CALL MPI_SEND(PV(ME*NB + 1), MIN(K, NPROCS - ME)*NB,
     &           MPI_DOUBLE_PRECISION, ME - K, 1, MPI_COMM_WORLD, IERR)
         ELSE IF (MOD(ME, 2*K) .EQ. 0 .AND. ME + K .LT. NPROCS) THEN
            M = MIN(K, NPROCS - ME - K)*NB
            CALL MPI_RECV(PV((ME + K)*NB + 1), M, MPI_DOUBLE_PRECISION,
     &           ME + K, MPI_ANY_TAG, MPI_COMM_WORLD, STAT, IERR)
         END IF
         K = 2*K
         GOTO 10
      END IF
   20 IF (K .GT. 1) THEN
         K = K / 2
         IF (MOD(ME, 2*K) .EQ. K) THEN
            CALL MPI_RECV(PV, N, MPI_DOUBLE_PRECISION, ME - K,
     &           MPI_ANY_TAG, MPI_COMM_WORLD, STAT, IERR)
         ELSE IF (MOD(ME, 2*K) .EQ. 0 .AND. ME + K .LT. NPROCS) THEN
            CALL MPI_SEND(PV, N, MPI_DOUBLE_PRECISION, ME + K, 2,
     &           MPI_COMM_WORLD, IERR)
         END IF
         GOTO 20
      END IF
      END

C     The sum of S over all ranks, on every rank: halving up, doubling down.
      DOUBLE PRECISION FUNCTION GSUM(S, ME, NPROCS)
      INCLUDE 'mpif.h'
      DOUBLE PRECISION S, T
      INTEGER ME, NPROCS, K, IERR, STAT(MPI_STATUS_SIZE)
      GSUM = S
      K = 1
   10 IF (K .LT. NPROCS) THEN
         IF (MOD(ME, 2*K) .EQ. K) THEN
            CALL MPI_SEND(GSUM, 1, MPI_DOUBLE_PRECISION, ME - K, 3,
     &           MPI_COMM_WORLD, IERR)
         ELSE IF (MOD(ME, 2*K) .EQ. 0 .AND. ME + K .LT. NPROCS) THEN
            CALL MPI_RECV(T, 1, MPI_DOUBLE_PRECISION, ME + K,
     &           MPI_ANY_TAG, MPI_COMM_WORLD, STAT, IERR)
            GSUM = GSUM + T
         END IF
         K = 2*K
         GOTO 10
      END IF
   20 IF (K .GT. 1) THEN
         K = K / 2
         IF (MOD(ME, 2*K) .EQ. K) THEN
            CALL MPI_RECV(GSUM, 1, MPI_DOUBLE_PRECISION, ME - K,
     &           MPI_ANY_TAG, MPI_COMM_WORLD, STAT, IERR)
         ELSE IF (MOD(ME, 2*K) .EQ. 0 .AND. ME + K .LT. NPROCS) THEN
            CALL MPI_SEND(GSUM, 1, MPI_DOUBLE_PRECISION, ME + K, 4,
     &           MPI_COMM_WORLD, IERR)
         END IF
         GOTO 20
      END IF
      END
