      SUBROUTINE TRD(N, A, LDA, WORK, LWORK, INFO)
      INTEGER N, LDA, LWORK, INFO
      DOUBLE PRECISION A(LDA, *), WORK(*)
      INTEGER I, J, NB, NX, LDWORK
      INTEGER NBSZ
      EXTERNAL NBSZ
      INFO = 0
      NB = NBSZ(N)
      IF (N.EQ.0) RETURN
      NX = N
      IF (NB.GT.1 .AND. NB.LT.N) THEN
         NX = MAX(NB, 12)
         IF (NX.LT.N) THEN
            LDWORK = N
            IF (LWORK.LT.LDWORK*NB) THEN
               NB = MAX(LWORK / LDWORK, 1)
               IF (NB.LT.2) NX = N
            END IF
         ELSE
            NX = N
         END IF
      ELSE
         NB = 1
      END IF
      DO 40 I = 1, N - NX, NB
         CALL SCL(NB, A(I, I))
         CALL CLN(N-I-NB+1, A(I+NB, I+NB))
         DO 30 J = I, I + NB - 1
            A(J, J) = 2.0D0
   30    CONTINUE
   40 CONTINUE
      RETURN
      END

      INTEGER FUNCTION NBSZ(N)
      INTEGER N
      NBSZ = 8
      IF (N.LT.16) NBSZ = 1
      RETURN
      END

      SUBROUTINE SCL(N, X)
      INTEGER N
      DOUBLE PRECISION X(*)
      X(1) = X(1) * DBLE(N)
      RETURN
      END

      SUBROUTINE CLN(N, X)
      INTEGER N
      DOUBLE PRECISION X(*)
      INTEGER I, M
      IF (N.LE.0) RETURN
      M = MOD(N, 4)
      IF (M.NE.0) THEN
         DO 10 I = 1, M
            X(I) = X(I) * 0.5D0
   10    CONTINUE
         IF (N.LT.4) RETURN
      END IF
      DO 20 I = M + 1, N, 4
         X(I) = X(I) * 0.5D0
         X(I+1) = X(I+1) * 0.5D0
         X(I+2) = X(I+2) * 0.5D0
         X(I+3) = X(I+3) * 0.5D0
   20 CONTINUE
      RETURN
      END
