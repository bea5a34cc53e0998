C     MATMUL -- DENSE MATRIX PRODUCT C = A*B, I-J-K ORDER.
C     THE ORDER N IS READ AT RUN TIME (UNRESOLVED STATICALLY, BIND IT
C     WITH -D N=...).  THE INNERMOST STATEMENT RUNS N**3 TIMES.
      PROGRAM MATMUL
      INTEGER NMAX
      PARAMETER (NMAX = 200)
      DOUBLE PRECISION A(NMAX,NMAX), B(NMAX,NMAX), C(NMAX,NMAX)
      DOUBLE PRECISION S, CHK
      INTEGER N, I, J, K
C
      READ (5, *) N
      IF (N .GT. NMAX) STOP 'MATMUL: N TOO BIG'
      DO 20 I = 1, N
         DO 10 J = 1, N
            A(I,J) = DBLE(I + J) / DBLE(N)
            B(I,J) = DBLE(I - J) / DBLE(N)
   10    CONTINUE
   20 CONTINUE
C
      DO 50 I = 1, N
         DO 40 J = 1, N
            S = 0.0D0
            DO 30 K = 1, N
               S = S + A(I,K)*B(K,J)
   30       CONTINUE
            C(I,J) = S
   40    CONTINUE
   50 CONTINUE
C
      CHK = 0.0D0
      DO 70 J = 1, N
         DO 60 I = 1, N
            CHK = CHK + C(I,J)
   60    CONTINUE
   70 CONTINUE
      WRITE (6, 9000) CHK
 9000 FORMAT (1X, 'CHECKSUM ', F20.6)
      END
