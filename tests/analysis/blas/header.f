*     A factor's header in its first elements, as LAPACK's DGEQR keeps its block sizes in T(2) and T(3) for
*     DGEMQR: FACT stores them where its argument checks pass (after a workspace query too), APPLY reads them,
*     and the main program reads T(2) itself after FACT's query, over a value it stored before. FACT's W(1)
*     is its workspace size, as DGEQR's WORK(1): stored before its returns and again at its end, past a call
*     that writes all of W.
      PROGRAM HEADER
      INTEGER N, K, I, INFO, L
      PARAMETER (N = 12)
      DOUBLE PRECISION T(8), W(8), S
      T(2) = 99.0D0
      S = 0.0D0
      CALL FACT(N, T, -1, W, INFO)
      K = INT(T(2))
      DO 10 I = 1, K
         S = S + 1.0D0
   10 CONTINUE
      L = INT(W(1))
      DO 20 I = 1, L
         S = S + 2.0D0
   20 CONTINUE
      CALL FACT(N, T, 8, W, INFO)
      L = INT(W(1))
      DO 30 I = 1, L
         S = S + 3.0D0
   30 CONTINUE
      CALL APPLY(N, T, S)
      PRINT *, S, INFO
      END
      SUBROUTINE FACT(N, T, TSIZE, W, INFO)
      INTEGER N, TSIZE, INFO, MB, NB
      DOUBLE PRECISION T(*), W(*)
      LOGICAL LQUERY
      LQUERY = TSIZE.EQ.-1
      MB = N / 3
      IF (MB.LT.2) MB = 2
      NB = N - MB
      INFO = 0
      IF (N.LT.0) THEN
         INFO = -1
      ELSE IF (TSIZE.LT.5 .AND. .NOT.LQUERY) THEN
         INFO = -3
      END IF
      IF (INFO.EQ.0) THEN
         T(1) = 5
         T(2) = MB
         T(3) = NB
         W(1) = NB
      END IF
      IF (INFO.NE.0) THEN
         RETURN
      ELSE IF (LQUERY) THEN
         RETURN
      END IF
      CALL FILL(N, W)
      CALL FILL(3, T(4))
      W(1) = MB + NB
      RETURN
      END
      SUBROUTINE FILL(N, W)
      INTEGER N, I
      DOUBLE PRECISION W(*)
      DO 10 I = 1, MIN(N, 3)
         W(I) = DBLE(I)
   10 CONTINUE
      RETURN
      END
      SUBROUTINE APPLY(N, T, S)
      INTEGER N, MB, NB, I
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
