C     Ring matrix multiply C = A*B ("version 2", Brehm 1999, Sec.
C     6.1.3), Fortran 77 as written before MPI_SENDRECV was common: A in
C     row blocks, B in column blocks of NB = N/NP; NP compute steps, and
C     between them a ring shift in which even ranks send their B block
C     to the right and then receive from the left, odd ranks the other
C     way round (no deadlock without buffering); the block is received
C     into BT and copied back into B.
      PROGRAM RINGOE
      INCLUDE 'mpif.h'
      INTEGER N, MAXNB
      PARAMETER (N = 256, MAXNB = 256)
      DOUBLE PRECISION A(MAXNB, N), B(N, MAXNB), BT(N, MAXNB)
      DOUBLE PRECISION C(MAXNB, N), S, TOTAL
      INTEGER MYPE, NPES, NB, NEXT, PREV, ISTEP, IBLK, I, J, K, IERR
      INTEGER ISTAT(MPI_STATUS_SIZE)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPES, IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, MYPE, IERR)
      NB = N/NPES
      NEXT = MYPE + 1
      IF (NEXT .EQ. NPES) NEXT = 0
      PREV = MYPE - 1
      IF (PREV .LT. 0) PREV = NPES - 1
      DO 20 K = 1, N
         DO 10 I = 1, NB
            A(I, K) = DBLE(MYPE*NB + I - K)
            B(K, I) = DBLE(K + MYPE*NB + I)
   10    CONTINUE
   20 CONTINUE
      DO 80 ISTEP = 0, NPES - 1
         IBLK = MOD(MYPE + NPES - ISTEP, NPES)
         DO 50 J = 1, NB
            DO 40 I = 1, NB
               S = 0.0D0
               DO 30 K = 1, N
                  S = S + A(I, K)*B(K, J)
   30          CONTINUE
               C(I, IBLK*NB + J) = S
   40       CONTINUE
   50    CONTINUE
         IF (ISTEP .EQ. NPES - 1) GO TO 80
         IF (MOD(MYPE, 2) .EQ. 0) THEN
            CALL MPI_SEND(B, N*NB, MPI_DOUBLE_PRECISION, NEXT, 1,
     &           MPI_COMM_WORLD, IERR)
            CALL MPI_RECV(BT, N*NB, MPI_DOUBLE_PRECISION, PREV, 1,
     &           MPI_COMM_WORLD, ISTAT, IERR)
         ELSE
            CALL MPI_RECV(BT, N*NB, MPI_DOUBLE_PRECISION, PREV, 1,
     &           MPI_COMM_WORLD, ISTAT, IERR)
            CALL MPI_SEND(B, N*NB, MPI_DOUBLE_PRECISION, NEXT, 1,
     &           MPI_COMM_WORLD, IERR)
         END IF
         DO 70 J = 1, NB
            DO 60 K = 1, N
               B(K, J) = BT(K, J)
   60       CONTINUE
   70    CONTINUE
   80 CONTINUE
      TOTAL = 0.0D0
      DO 100 J = 1, N
         DO 90 I = 1, NB
            TOTAL = TOTAL + C(I, J)
   90    CONTINUE
  100 CONTINUE
      WRITE (*, *) 'PE', MYPE, ' SUM', TOTAL
      CALL MPI_FINALIZE(IERR)
      END
