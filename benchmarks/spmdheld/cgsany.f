C     CG after Brehm 1999, Fig. 6.17, "Simple", Fortran 77 written the
C     way a PICL port would be: global row numbers in the loop bounds
C     (ME*NLOC+1 ... (ME+1)*NLOC), the local block of A stored as
C     A(NLOC_MAX, N) and indexed by row - offset, rank 0 taking the
C     blocks of the search vector in whatever order they come
C     (MPI_ANY_SOURCE, the place from STATUS(MPI_SOURCE)) and sending
C     the full vector to every other rank in turn; global sums the same.
      PROGRAM CGSANY
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER NN, NIT, MAXP
      PARAMETER (NN = 1024, NIT = 1, MAXP = 1)
      DOUBLE PRECISION A(NN/MAXP, NN), X(NN), R(NN), P(NN), Q(NN)
      DOUBLE PRECISION BUF(NN), RHO, RHO1, PQ, ALPHA, BETA, T
      INTEGER MYID, NUMP, NLOC, IOFF, I, J, K, ITER, IERR, ISRC
      INTEGER STATUS(MPI_STATUS_SIZE)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, MYID, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NUMP, IERR)
      NLOC = NN / NUMP
      IOFF = MYID*NLOC
      DO 20 I = IOFF + 1, IOFF + NLOC
         DO 10 J = 1, NN
            A(I - IOFF, J) = 1.0D0
   10    CONTINUE
         A(I - IOFF, I) = A(I - IOFF, I) + NN + MOD(I - 1, 7)
         X(I) = 0.0D0
         R(I) = 1.0D0
         P(I) = 1.0D0
   20 CONTINUE
      RHO = DBLE(NN)
      DO 100 ITER = 1, NIT
C        Collect P at rank 0, then send it to everybody.
         IF (MYID .EQ. 0) THEN
            DO 30 K = 1, NUMP - 1
               CALL MPI_RECV(BUF, NLOC, MPI_DOUBLE_PRECISION,
     &              MPI_ANY_SOURCE, 100, MPI_COMM_WORLD, STATUS, IERR)
               ISRC = STATUS(MPI_SOURCE)
               DO 25 J = 1, NLOC
                  P(ISRC*NLOC + J) = BUF(J)
   25          CONTINUE
   30       CONTINUE
            DO 35 K = 1, NUMP - 1
               CALL MPI_SEND(P, NN, MPI_DOUBLE_PRECISION, K, 101,
     &              MPI_COMM_WORLD, IERR)
   35       CONTINUE
         ELSE
            CALL MPI_SEND(P(IOFF + 1), NLOC, MPI_DOUBLE_PRECISION, 0,
     &           100, MPI_COMM_WORLD, IERR)
            CALL MPI_RECV(P, NN, MPI_DOUBLE_PRECISION, 0, 101,
     &           MPI_COMM_WORLD, STATUS, IERR)
         END IF
         PQ = 0.0D0
         DO 50 I = IOFF + 1, IOFF + NLOC
            T = 0.0D0
            DO 40 J = 1, NN
               T = T + A(I - IOFF, J)*P(J)
   40       CONTINUE
            Q(I) = T
            PQ = PQ + P(I)*T
   50    CONTINUE
         CALL SUMALL(PQ, MYID, NUMP)
         ALPHA = RHO/PQ
         RHO1 = 0.0D0
         DO 60 I = IOFF + 1, IOFF + NLOC
            X(I) = X(I) + ALPHA*P(I)
            R(I) = R(I) - ALPHA*Q(I)
            RHO1 = RHO1 + R(I)**2
   60    CONTINUE
         CALL SUMALL(RHO1, MYID, NUMP)
         BETA = RHO1/RHO
         RHO = RHO1
         DO 70 I = IOFF + 1, IOFF + NLOC
            P(I) = R(I) + BETA*P(I)
   70    CONTINUE
  100 CONTINUE
      IF (MYID .EQ. 0) PRINT *, 'RHO', RHO
      CALL MPI_FINALIZE(IERR)
      END

C     Global sum, simple: everybody sends to 0, 0 adds and sends back.
      SUBROUTINE SUMALL(S, MYID, NUMP)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      DOUBLE PRECISION S, T
      INTEGER MYID, NUMP, K, IERR, STATUS(MPI_STATUS_SIZE)
      IF (MYID .NE. 0) THEN
         CALL MPI_SEND(S, 1, MPI_DOUBLE_PRECISION, 0, 200,
     &        MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(S, 1, MPI_DOUBLE_PRECISION, 0, 201,
     &        MPI_COMM_WORLD, STATUS, IERR)
         RETURN
      END IF
      DO 10 K = 1, NUMP - 1
         CALL MPI_RECV(T, 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, 200,
     &        MPI_COMM_WORLD, STATUS, IERR)
         S = S + T
   10 CONTINUE
      DO 20 K = 1, NUMP - 1
         CALL MPI_SEND(S, 1, MPI_DOUBLE_PRECISION, K, 201,
     &        MPI_COMM_WORLD, IERR)
   20 CONTINUE
      END
