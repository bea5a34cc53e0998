      PROGRAM STATUS
      INTEGER N, INFO, I
      PARAMETER (N = 20)
      DOUBLE PRECISION A(N), S
      DO 10 I = 1, N
         A(I) = DBLE(I) + 1.0D0
   10 CONTINUE
      CALL SOLVE1(N, A, S, INFO)
      CALL SOLVE2(N, A, S, INFO)
      PRINT *, INFO, S
      END

      SUBROUTINE SOLVE1(N, A, S, INFO)
      INTEGER N, INFO
      DOUBLE PRECISION A(*), S
      INFO = 0
      IF (N.LT.0) INFO = -1
      IF (INFO.NE.0) THEN
         CALL XERB(-INFO)
         RETURN
      END IF
      CALL FACT(N, A, INFO)
      IF (INFO.EQ.0) CALL APPLY(N, A, S)
      END

      SUBROUTINE SOLVE2(N, A, S, INFO)
      INTEGER N, INFO
      DOUBLE PRECISION A(*), S
      INFO = 0
      IF (N.LT.0) THEN
         INFO = -1
      END IF
      IF (INFO.NE.0) THEN
         CALL XERB(-INFO)
         RETURN
      END IF
      CALL BLOCK(N, A, INFO)
      IF (INFO.EQ.0) THEN
         CALL APPLY(N, A, S)
      END IF
      END

      RECURSIVE SUBROUTINE FACT(N, A, INFO)
      INTEGER N, INFO, N1, IINFO
      DOUBLE PRECISION A(*)
      INFO = 0
      IF (N.LT.1) INFO = -1
      IF (INFO.NE.0) THEN
         CALL XERB(-INFO)
         RETURN
      END IF
      IF (N.EQ.1) THEN
         IF (A(1).EQ.0.0D0) INFO = 1
      ELSE
         N1 = N/2
         CALL FACT(N1, A, IINFO)
         IF (INFO.EQ.0 .AND. IINFO.GT.0) INFO = IINFO
         CALL FACT(N-N1, A(N1+1), IINFO)
         IF (INFO.EQ.0 .AND. IINFO.GT.0) INFO = IINFO + N1
      END IF
      END

      SUBROUTINE BLOCK(N, A, INFO)
      INTEGER N, INFO, J, JB, IINFO
      DOUBLE PRECISION A(*)
      INFO = 0
      DO 20 J = 1, N, 4
         JB = MIN(4, N-J+1)
         CALL CHOL(JB, A(J), IINFO)
         IF (IINFO.NE.0) GO TO 30
   20 CONTINUE
      GO TO 40
   30 CONTINUE
      INFO = IINFO + J - 1
   40 CONTINUE
      RETURN
      END

      RECURSIVE SUBROUTINE CHOL(N, A, INFO)
      INTEGER N, INFO, N1, IINFO
      DOUBLE PRECISION A(*)
      INFO = 0
      IF (N.EQ.1) THEN
         IF (A(1).LE.0.0D0) THEN
            INFO = 1
            RETURN
         END IF
         A(1) = SQRT(A(1))
      ELSE
         N1 = N/2
         CALL CHOL(N1, A, IINFO)
         IF (IINFO.NE.0) THEN
            INFO = IINFO
            RETURN
         END IF
         CALL CHOL(N-N1, A(N1+1), IINFO)
         IF (IINFO.NE.0) THEN
            INFO = IINFO + N1
            RETURN
         END IF
      END IF
      END

      SUBROUTINE APPLY(N, A, S)
      INTEGER N, I
      DOUBLE PRECISION A(*), S
      S = 0.0D0
      DO 50 I = 1, N
         S = S + A(I)
   50 CONTINUE
      END

      SUBROUTINE XERB(INFO)
      INTEGER INFO
      PRINT *, 'illegal argument', INFO
      STOP
      END
