C     CG after Brehm 1999, Fig. 6.17, "Tree" as a binomial tree written
C     with integer arithmetic only (no bit intrinsics): in step K the
C     ranks with MOD(ME, 2*2**K) = 2**K send their subtree's blocks of
C     the search vector (2**K blocks, fewer at the edge) to ME - 2**K,
C     which receives them after its own; the vector then goes back down
C     the same tree, and each global sum goes up and down it as one
C     double. Labels and GOTO for the step loop, blocks of NB rows in
C     A(NB, N) (row I of the rank is A(I, J)), NITER in a DATA statement.
      PROGRAM CGTMOD
      INCLUDE 'mpif.h'
      INTEGER N, MAXNB
      PARAMETER (N = 1024, MAXNB = 1024)
      DOUBLE PRECISION A(MAXNB, N), X(MAXNB), R(MAXNB), P(N), Q(MAXNB)
      DOUBLE PRECISION RHO, RHONEW, PQ, ALPHA, BETA, DSUM
      INTEGER ME, NP, NB, LO, I, J, IT, NITER, IERR
      DATA NITER /1/
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NB = N / NP
      LO = ME * NB
      DO 20 I = 1, NB
         DO 10 J = 1, N
            A(I, J) = 1.0D0
   10    CONTINUE
         A(I, LO + I) = 1.0D0 + N + MOD(LO + I, 7)
         X(I) = 0.0D0
         R(I) = 1.0D0
         P(LO + I) = 1.0D0
   20 CONTINUE
      RHO = N
      IT = 0
   30 IF (IT .GE. NITER) GOTO 90
      IT = IT + 1
      CALL TGATH(P, ME, NP, NB)
      CALL TBCAST(P, N, ME, NP)
      PQ = 0.0D0
      DO 50 I = 1, NB
         Q(I) = 0.0D0
         DO 40 J = 1, N
            Q(I) = Q(I) + A(I, J)*P(J)
   40    CONTINUE
         PQ = PQ + P(LO + I)*Q(I)
   50 CONTINUE
      ALPHA = RHO / DSUM(PQ, ME, NP)
      RHONEW = 0.0D0
      DO 60 I = 1, NB
         X(I) = X(I) + ALPHA*P(LO + I)
         R(I) = R(I) - ALPHA*Q(I)
         RHONEW = RHONEW + R(I)**2
   60 CONTINUE
      RHONEW = DSUM(RHONEW, ME, NP)
      BETA = RHONEW / RHO
      RHO = RHONEW
      DO 70 I = 1, NB
         P(LO + I) = R(I) + BETA*P(LO + I)
   70 CONTINUE
      GOTO 30
   90 IF (ME .EQ. 0) WRITE (*, *) 'RESIDUAL', SQRT(RHO)
      CALL MPI_FINALIZE(IERR)
      END

C     Rank ME's subtree blocks of P, from ME*NB on, collected at rank 0.
      SUBROUTINE TGATH(P, ME, NP, NB)
      INCLUDE 'mpif.h'
      DOUBLE PRECISION P(*)
      INTEGER ME, NP, NB, K2, M, IERR, STAT(MPI_STATUS_SIZE)
      K2 = 1
  10  IF (K2 .GE. NP) RETURN
      IF (MOD(ME, 2*K2) .EQ. K2) THEN
         CALL MPI_SEND(P(ME*NB + 1), MIN(K2, NP - ME)*NB,
     &        MPI_DOUBLE_PRECISION, ME - K2, 1, MPI_COMM_WORLD, IERR)
         RETURN
      END IF
      IF (MOD(ME, 2*K2) .EQ. 0 .AND. ME + K2 .LT. NP) THEN
         M = MIN(K2, NP - ME - K2)
         CALL MPI_RECV(P((ME + K2)*NB + 1), M*NB,
     &        MPI_DOUBLE_PRECISION, ME + K2, 1, MPI_COMM_WORLD, STAT,
     &        IERR)
      END IF
      K2 = 2*K2
      GOTO 10
      END

C     V(1 ... LEN) from rank 0 to every rank, down the same tree.
      SUBROUTINE TBCAST(V, LEN, ME, NP)
      INCLUDE 'mpif.h'
      DOUBLE PRECISION V(*)
      INTEGER LEN, ME, NP, K2, IERR, STAT(MPI_STATUS_SIZE)
      K2 = 1
  10  IF (K2 .GE. NP) GOTO 20
      K2 = 2*K2
      GOTO 10
  20  K2 = K2 / 2
      IF (K2 .LT. 1) RETURN
      IF (MOD(ME, 2*K2) .EQ. K2) THEN
         CALL MPI_RECV(V, LEN, MPI_DOUBLE_PRECISION, ME - K2, 2,
     &        MPI_COMM_WORLD, STAT, IERR)
      ELSE IF (MOD(ME, 2*K2) .EQ. 0 .AND. ME + K2 .LT. NP) THEN
         CALL MPI_SEND(V, LEN, MPI_DOUBLE_PRECISION, ME + K2, 2,
     &        MPI_COMM_WORLD, IERR)
      END IF
      GOTO 20
      END

C     The sum of S over all ranks, at every rank, up and down the tree.
      DOUBLE PRECISION FUNCTION DSUM(S, ME, NP)
      INCLUDE 'mpif.h'
      DOUBLE PRECISION S, T, V(1)
      INTEGER ME, NP, K2, IERR, STAT(MPI_STATUS_SIZE)
      DSUM = S
      K2 = 1
  10  IF (K2 .GE. NP) GOTO 20
      IF (MOD(ME, 2*K2) .EQ. K2) THEN
         CALL MPI_SEND(DSUM, 1, MPI_DOUBLE_PRECISION, ME - K2, 3,
     &        MPI_COMM_WORLD, IERR)
         GOTO 20
      END IF
      IF (MOD(ME, 2*K2) .EQ. 0 .AND. ME + K2 .LT. NP) THEN
         CALL MPI_RECV(T, 1, MPI_DOUBLE_PRECISION, ME + K2, 3,
     &        MPI_COMM_WORLD, STAT, IERR)
         DSUM = DSUM + T
      END IF
      K2 = 2*K2
      GOTO 10
  20  V(1) = DSUM
      CALL TBCAST(V, 1, ME, NP)
      DSUM = V(1)
      END
