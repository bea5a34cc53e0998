C     T is ONE or a quotient of data, and its value is not followed to
C     the test (a jump into the middle of the routine from a search
C     loop): at `T.NE.1.0` it is a choice of data and ONE, the constant
C     assigned before, so the test stays open (taken for data alone it
C     was decided true, and the loop the run takes 5 times counted 0).
      PROGRAM TOPEN
      INTEGER I
      DOUBLE PRECISION X(5), S
      DO 10 I = 1, 5
         X(I) = DBLE(I) / 3.0D0
   10 CONTINUE
      S = 0.0D0
      CALL SCALO(5, X, S)
      PRINT *, S
      END

      SUBROUTINE SCALO(N, X, S)
      INTEGER N, I
      DOUBLE PRECISION X(N), S, T
      T = 1.0D0
      DO 30 I = 1, N
         IF (X(I) .GT. 1.0D100) GO TO 40
   30 CONTINUE
      GO TO 50
   40 T = 1.0D0 / X(I)
   50 CONTINUE
      IF (T .NE. 1.0D0) RETURN
      DO 70 I = 1, N
         S = S + X(I)
   70 CONTINUE
      END
