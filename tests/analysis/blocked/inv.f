      SUBROUTINE INV(N, A, LDA, WORK, LWORK, INFO)
      INTEGER N, LDA, LWORK, INFO
      DOUBLE PRECISION A(LDA, *), WORK(*)
      INTEGER I, J, JB, JJ, NB, NBMIN, LDWORK, NN
      INTEGER NBSZ
      EXTERNAL NBSZ
      INFO = 0
      NB = NBSZ(N)
      IF (LWORK.LT.MAX(1, N)) INFO = -6
      IF (INFO.NE.0) RETURN
      IF (N.EQ.0) RETURN
      NBMIN = 2
      LDWORK = N
      IF (NB.GT.1 .AND. NB.LT.N) THEN
         IF (LWORK.LT.LDWORK*NB) THEN
            NB = LWORK / LDWORK
         END IF
      END IF
      IF (NB.LT.NBMIN .OR. NB.GE.N) THEN
         DO 20 J = N, 1, -1
            A(J, J) = 1.0D0
   20    CONTINUE
      ELSE
         NN = ((N-1) / NB)*NB + 1
         DO 50 J = NN, 1, -NB
            JB = MIN(NB, N-J+1)
            DO 40 JJ = J, J + JB - 1
               DO 30 I = JJ + 1, N
                  A(I, JJ) = 0.0D0
   30          CONTINUE
   40       CONTINUE
            IF (J+JB.LE.N) CALL UPD(N, N-J-JB+1, A(1, J+JB), LDA)
   50    CONTINUE
      END IF
      RETURN
      END

      INTEGER FUNCTION NBSZ(N)
      INTEGER N
      NBSZ = 8
      IF (N.LT.16) NBSZ = 1
      RETURN
      END

      SUBROUTINE UPD(M, N, A, LDA)
      INTEGER M, N, LDA
      DOUBLE PRECISION A(LDA, *)
      INTEGER I, J
      DO 20 J = 1, N
         DO 10 I = 1, M
            A(I, J) = A(I, J) * 0.5D0
   10    CONTINUE
   20 CONTINUE
      RETURN
      END
