C     DLARFX's shape: APPLY dispatches on its formal M with a computed
C     GOTO, one unrolled piece of code per M from 1 to 3, a general
C     loop for any other M. The program calls it for M = 1 to 5 and
C     with M = 2 once more: each piece runs as often as M picks it (the
C     general loop twice, with 4 and 5 trips), a count each call binds.
      PROGRAM CGOTOP
      INTEGER I
      DOUBLE PRECISION S
      S = 0.0D0
      DO 10 I = 1, 5
         CALL APPLY(I, S)
   10 CONTINUE
      CALL APPLY(2, S)
      PRINT *, S
      END

      SUBROUTINE APPLY(M, S)
      INTEGER M, J
      DOUBLE PRECISION S
      GO TO (10, 20, 30) M
      DO 5 J = 1, M
         S = S + DBLE(J)
    5 CONTINUE
      RETURN
   10 S = S + 1.0D0
      RETURN
   20 S = S + 2.0D0
      S = S * 0.5D0
      RETURN
   30 S = S + 3.0D0
      S = S * 0.25D0
      S = S - 1.0D0
      END
