C     CG after Brehm 1999, Fig. 6.17, "Tree", Fortran 77: the ranks are
C     the nodes of a binary tree numbered from 1 as in a heap (node
C     ID = MYID + 1 has sons 2*ID and 2*ID + 1 and father ID / 2). A
C     father waits for both sons at once (MPI_IRECV, MPI_WAITALL) and
C     takes the partial sums from whichever son sends first
C     (MPI_ANY_SOURCE). The search vector goes up as each subtree's
C     blocks in heap order and comes down whole.
      PROGRAM CGHEAP
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER N, NITER
      PARAMETER (N = 1024)
      PARAMETER (NITER = 1)
      DOUBLE PRECISION A(N, N), X(N), R(N), P(N), Q(N)
      DOUBLE PRECISION RHO, RHONEW, PQ, ALPHA, BETA, T
      INTEGER MYID, NP, NB, IBEG, I, J, IT, IERR
      COMMON /CGV/ A, X, R, P, Q
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, MYID, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NB = N/NP
      IBEG = MYID*NB
C     A is stored by columns of the local rows: A(J, I) = row IBEG + I.
      DO 20 I = 1, NB
         DO 10 J = 1, N
            A(J, I) = 1.0D0
   10    CONTINUE
         A(IBEG + I, I) = A(IBEG + I, I) + DBLE(N + MOD(IBEG + I, 7))
         X(I) = 0.0D0
         R(I) = 1.0D0
         P(IBEG + I) = 1.0D0
   20 CONTINUE
      RHO = N
      DO 100 IT = 1, NITER
         CALL UPDOWN(MYID, NP, NB)
         PQ = 0.0D0
         DO 40 I = 1, NB
            T = 0.0D0
            DO 30 J = 1, N
               T = T + A(J, I)*P(J)
   30       CONTINUE
            Q(I) = T
            PQ = PQ + T*P(IBEG + I)
   40    CONTINUE
         CALL TSUM(PQ, MYID, NP)
         ALPHA = RHO/PQ
         RHONEW = 0.0D0
         DO 50 I = 1, NB
            X(I) = X(I) + ALPHA*P(IBEG + I)
            R(I) = R(I) - ALPHA*Q(I)
            RHONEW = RHONEW + R(I)*R(I)
   50    CONTINUE
         CALL TSUM(RHONEW, MYID, NP)
         BETA = RHONEW/RHO
         RHO = RHONEW
         DO 60 I = 1, NB
            P(IBEG + I) = R(I) + BETA*P(IBEG + I)
   60    CONTINUE
  100 CONTINUE
      IF (MYID .EQ. 0) WRITE (*, *) 'RHO =', RHO
      CALL MPI_FINALIZE(IERR)
      END

C     Number of nodes in the subtree of heap node ID among NP nodes.
      INTEGER FUNCTION NODES(ID, NP)
      INTEGER ID, NP, LO, HI
      NODES = 0
      LO = ID
      HI = ID
   10 IF (LO .LE. NP) THEN
         NODES = NODES + MIN(HI, NP) - LO + 1
         LO = 2*LO
         HI = 2*HI + 1
         GO TO 10
      END IF
      END

C     Up: the blocks of the subtree (heap order of the subtree, packed in
C     W), down: the whole vector. Heap order of the subtree of ID is
C     ID, its level below (2ID, 2ID+1), ..., so the blocks are gathered
C     level by level from the two sons' packed buffers.
      SUBROUTINE UPDOWN(MYID, NP, NB)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER N
      PARAMETER (N = 1024)
      DOUBLE PRECISION A(N, N), X(N), R(N), P(N), Q(N)
      COMMON /CGV/ A, X, R, P, Q
      DOUBLE PRECISION W(N), WL(N), WR(N)
      INTEGER MYID, NP, NB, ID, NL, NR, NODES, NREQ, IERR, J, K
      INTEGER KL, KR, LO, HI, ML, MR, LEV, NODE
      INTEGER REQ(2), STATS(MPI_STATUS_SIZE, 2)
      INTEGER STAT(MPI_STATUS_SIZE)
      ID = MYID + 1
      NL = NODES(2*ID, NP)
      NR = NODES(2*ID + 1, NP)
      NREQ = 0
      IF (NL .GT. 0) THEN
         NREQ = NREQ + 1
         CALL MPI_IRECV(WL, NL*NB, MPI_DOUBLE_PRECISION, 2*ID - 1, 21,
     &        MPI_COMM_WORLD, REQ(NREQ), IERR)
      END IF
      IF (NR .GT. 0) THEN
         NREQ = NREQ + 1
         CALL MPI_IRECV(WR, NR*NB, MPI_DOUBLE_PRECISION, 2*ID, 21,
     &        MPI_COMM_WORLD, REQ(NREQ), IERR)
      END IF
      IF (NREQ .GT. 0) CALL MPI_WAITALL(NREQ, REQ, STATS, IERR)
      DO 10 J = 1, NB
         W(J) = P(MYID*NB + J)
   10 CONTINUE
      K = NB
      KL = 0
      KR = 0
      LO = 2*ID
      HI = 2*ID
   20 IF (LO .LE. NP) THEN
         ML = (MIN(HI, NP) - LO + 1)*NB
         MR = MAX(0, MIN(2*HI - LO + 1, NP) - HI)*NB
         DO 30 J = 1, ML
            W(K + J) = WL(KL + J)
   30    CONTINUE
         K = K + ML
         KL = KL + ML
         DO 40 J = 1, MR
            W(K + J) = WR(KR + J)
   40    CONTINUE
         K = K + MR
         KR = KR + MR
         LO = 2*LO
         HI = 2*HI + 1
         GO TO 20
      END IF
      IF (ID .GT. 1) THEN
         CALL MPI_SEND(W, K, MPI_DOUBLE_PRECISION, ID/2 - 1, 21,
     &        MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(P, N, MPI_DOUBLE_PRECISION, ID/2 - 1, 22,
     &        MPI_COMM_WORLD, STAT, IERR)
      ELSE
C        The root holds the blocks in heap order = rank order.
         DO 50 J = 1, K
            P(J) = W(J)
   50    CONTINUE
      END IF
      DO 60 NODE = 2*ID, 2*ID + 1
         IF (NODE .LE. NP) CALL MPI_SEND(P, N, MPI_DOUBLE_PRECISION,
     &        NODE - 1, 22, MPI_COMM_WORLD, IERR)
   60 CONTINUE
      LEV = 0
      END

C     S = sum over all ranks, up the heap tree and back down.
      SUBROUTINE TSUM(S, MYID, NP)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      DOUBLE PRECISION S, T
      INTEGER MYID, NP, ID, NSON, K, IERR, STAT(MPI_STATUS_SIZE)
      ID = MYID + 1
      NSON = 0
      IF (2*ID .LE. NP) NSON = NSON + 1
      IF (2*ID + 1 .LE. NP) NSON = NSON + 1
      DO 10 K = 1, NSON
         CALL MPI_RECV(T, 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, 31,
     &        MPI_COMM_WORLD, STAT, IERR)
         S = S + T
   10 CONTINUE
      IF (ID .GT. 1) THEN
         CALL MPI_SEND(S, 1, MPI_DOUBLE_PRECISION, ID/2 - 1, 31,
     &        MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(S, 1, MPI_DOUBLE_PRECISION, ID/2 - 1, 32,
     &        MPI_COMM_WORLD, STAT, IERR)
      END IF
      IF (2*ID .LE. NP) CALL MPI_SEND(S, 1, MPI_DOUBLE_PRECISION,
     &     2*ID - 1, 32, MPI_COMM_WORLD, IERR)
      IF (2*ID + 1 .LE. NP) CALL MPI_SEND(S, 1, MPI_DOUBLE_PRECISION,
     &     2*ID, 32, MPI_COMM_WORLD, IERR)
      END
