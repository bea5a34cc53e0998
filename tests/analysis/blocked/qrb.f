      SUBROUTINE QRB(M, N, A, LDA, LWORK)
C     A blocked factorization in the shape of LAPACK's DGEQRF: the block
C     size NB and crossover NX are chosen in several places, the blocked
C     loop runs from 1 to K - NX by NB, and the columns it leaves (from
C     the I it exits with, or 1) go to the unblocked code. NBSZ and UPD
C     are inv.f's.
      INTEGER M, N, LDA, LWORK
      DOUBLE PRECISION A(LDA, *)
      INTEGER I, IB, K, NB, NBMIN, NX, LDWORK
      INTEGER NBSZ, NXSZ
      EXTERNAL NBSZ, NXSZ
      K = MIN(M, N)
      NB = NBSZ(N)
      IF (K.EQ.0) RETURN
      NBMIN = 2
      NX = 0
      IF (NB.GT.1 .AND. NB.LT.K) THEN
         NX = MAX(0, NXSZ(N))
         IF (NX.LT.K) THEN
            LDWORK = N
            IF (LWORK.LT.LDWORK*NB) THEN
               NB = LWORK / LDWORK
            END IF
         END IF
      END IF
      IF (NB.GE.NBMIN .AND. NB.LT.K .AND. NX.LT.K) THEN
         DO 10 I = 1, K - NX, NB
            IB = MIN(K-I+1, NB)
            CALL UPD(M-I+1, IB, A(I, I), LDA)
            IF (I+IB.LE.N) CALL UPD(M-I+1, N-I-IB+1, A(I, I+IB), LDA)
   10    CONTINUE
      ELSE
         I = 1
      END IF
      IF (I.LE.K) CALL UPD(M-I+1, N-I+1, A(I, I), LDA)
      RETURN
      END

      INTEGER FUNCTION NXSZ(N)
      INTEGER N
      NXSZ = 16
      RETURN
      END
