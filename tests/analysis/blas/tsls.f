*     A least-squares driver in the style of LAPACK's DGETSLS: SOLVE asks FACT for its header and workspace
*     sizes, checks its own arguments (returning where one fails or where it was itself a query), takes the
*     smaller header where the workspace it was given is short, and passes FACT and APPLY the header as an
*     element of its workspace, W(LW2+1). FACT stores its block sizes where its checks pass; where one fails
*     it calls XERBLA, which stops the program; a query returns. The main program solves twice: with room
*     for the full header (NB = 8) and with room for the smaller one only (NB = 1).
      PROGRAM TSLS
      INTEGER INFO
      DOUBLE PRECISION W(64), S
      S = 0.0D0
      CALL SOLVE(12, W, 64, S, INFO)
      CALL SOLVE(12, W, 30, S, INFO)
      PRINT *, S, INFO
      END
      SUBROUTINE SOLVE(N, W, LWORK, S, INFO)
      INTEGER N, LWORK, INFO, INFO2, TSZO, TSZM, LWO, LW1, LW2
      DOUBLE PRECISION W(*), S, TQ(5), WQ(1)
      LOGICAL LQUERY
      LQUERY = LWORK.EQ.-1
      INFO = 0
      IF (N.LT.0) THEN
         INFO = -1
      END IF
      IF (INFO.EQ.0) THEN
         CALL FACT(N, TQ, -1, WQ, -1, INFO2)
         TSZO = INT(TQ(1))
         LWO = INT(WQ(1))
         TSZM = 5
         IF (LWORK.LT.TSZM + LWO .AND. .NOT.LQUERY) INFO = -3
         W(1) = DBLE(TSZO + LWO)
      END IF
      IF (INFO.NE.0) THEN
         CALL XERBLA('SOLVE', -INFO)
         RETURN
      END IF
      IF (LQUERY) RETURN
      IF (LWORK.LT.TSZO + LWO) THEN
         LW1 = TSZM
      ELSE
         LW1 = TSZO
      END IF
      LW2 = LWO
      CALL FACT(N, W(LW2 + 1), LW1, W(1), LW2, INFO)
      CALL APPLY(W(LW2 + 1), S)
      RETURN
      END
      SUBROUTINE FACT(N, T, TSIZE, W, LWORK, INFO)
      INTEGER N, TSIZE, LWORK, INFO, MB, NB
      DOUBLE PRECISION T(*), W(*)
      LOGICAL LQUERY
      LQUERY = TSIZE.EQ.-1 .OR. LWORK.EQ.-1
      MB = N / 3
      NB = N - MB
      IF (TSIZE.LT.MB*NB + 5 .AND. .NOT.LQUERY) NB = 1
      INFO = 0
      IF (N.LT.0) THEN
         INFO = -1
      ELSE IF (TSIZE.LT.5 .AND. .NOT.LQUERY) THEN
         INFO = -3
      ELSE IF (LWORK.LT.N .AND. .NOT.LQUERY) THEN
         INFO = -5
      END IF
      IF (INFO.EQ.0) THEN
         T(1) = MB*NB + 5
         T(2) = MB
         T(3) = NB
         W(1) = N
      END IF
      IF (INFO.NE.0) THEN
         CALL XERBLA('FACT', -INFO)
         RETURN
      ELSE IF (LQUERY) THEN
         RETURN
      END IF
      CALL FILL(N, W)
      W(1) = N
      RETURN
      END
      SUBROUTINE FILL(N, W)
      INTEGER N, I
      DOUBLE PRECISION W(*)
      DO 10 I = 1, N
         W(I) = DBLE(I)
   10 CONTINUE
      RETURN
      END
      SUBROUTINE APPLY(T, S)
      INTEGER MB, NB, I
      DOUBLE PRECISION T(*), S
      MB = INT(T(2))
      NB = INT(T(3))
      DO 10 I = 1, MB
         S = S + DBLE(I)
   10 CONTINUE
      DO 20 I = 1, NB
         S = S + 1.0D0
   20 CONTINUE
      RETURN
      END
      SUBROUTINE XERBLA(NAME, INFO)
      CHARACTER*(*) NAME
      INTEGER INFO
      WRITE (*, *) 'illegal argument ', INFO, ' of ', NAME
      STOP
      END
