C     CG after Brehm 1999, Fig. 6.17, with MPI collectives, Fortran 77:
C     the search vector is collected at rank 0 with MPI_GATHERV (counts
C     and displacements filled in a loop over the ranks, so any number of
C     ranks divides the rows) and broadcast with MPI_BCAST; each global
C     sum is an MPI_REDUCE to rank 0 followed by an MPI_BCAST.
      PROGRAM CGCRED
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER MAXN, MAXPR, ITMAX
      PARAMETER (MAXN = 1024, MAXPR = 512, ITMAX = 1)
      DOUBLE PRECISION A(MAXN, MAXN), X(MAXN), R(MAXN), P(MAXN)
      DOUBLE PRECISION Q(MAXN), PLOC(MAXN)
      DOUBLE PRECISION RHO, RHON, DOT, GDOT, ALPHA, BETA
      INTEGER ICNT(MAXPR), IDSP(MAXPR)
      INTEGER IAM, NPR, MYN, MYOFF, I, J, K, ITER, IERR
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, IAM, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPR, IERR)
      DO 5 K = 1, NPR
         ICNT(K) = MAXN/NPR
         IF (K .LE. MOD(MAXN, NPR)) ICNT(K) = ICNT(K) + 1
         IF (K .EQ. 1) THEN
            IDSP(K) = 0
         ELSE
            IDSP(K) = IDSP(K - 1) + ICNT(K - 1)
         END IF
    5 CONTINUE
      MYN = ICNT(IAM + 1)
      MYOFF = IDSP(IAM + 1)
      DO 20 I = 1, MYN
         DO 10 J = 1, MAXN
            A(J, I) = 1.0D0
   10    CONTINUE
         A(MYOFF + I, I) = 1.0D0 + MAXN + MOD(MYOFF + I, 7)
         X(I) = 0.0D0
         R(I) = 1.0D0
         PLOC(I) = 1.0D0
   20 CONTINUE
      RHO = MAXN
      DO 90 ITER = 1, ITMAX
         CALL MPI_GATHERV(PLOC, MYN, MPI_DOUBLE_PRECISION, P, ICNT,
     &        IDSP, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, IERR)
         CALL MPI_BCAST(P, MAXN, MPI_DOUBLE_PRECISION, 0,
     &        MPI_COMM_WORLD, IERR)
         DOT = 0.0D0
         DO 40 I = 1, MYN
            Q(I) = 0.0D0
            DO 30 J = 1, MAXN
               Q(I) = Q(I) + A(J, I)*P(J)
   30       CONTINUE
            DOT = DOT + PLOC(I)*Q(I)
   40    CONTINUE
         CALL MPI_REDUCE(DOT, GDOT, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &        MPI_COMM_WORLD, IERR)
         CALL MPI_BCAST(GDOT, 1, MPI_DOUBLE_PRECISION, 0,
     &        MPI_COMM_WORLD, IERR)
         ALPHA = RHO/GDOT
         DOT = 0.0D0
         DO 50 I = 1, MYN
            X(I) = X(I) + ALPHA*PLOC(I)
            R(I) = R(I) - ALPHA*Q(I)
            DOT = DOT + R(I)*R(I)
   50    CONTINUE
         CALL MPI_REDUCE(DOT, RHON, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &        MPI_COMM_WORLD, IERR)
         CALL MPI_BCAST(RHON, 1, MPI_DOUBLE_PRECISION, 0,
     &        MPI_COMM_WORLD, IERR)
         BETA = RHON/RHO
         RHO = RHON
         DO 60 I = 1, MYN
            PLOC(I) = R(I) + BETA*PLOC(I)
   60    CONTINUE
   90 CONTINUE
      IF (IAM .EQ. 0) WRITE (6, 100) RHO
  100 FORMAT (' RHO = ', E14.6)
      CALL MPI_FINALIZE(IERR)
      END
