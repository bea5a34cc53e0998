      PROGRAM LATCH
      INTEGER I, N, X, S
      N = 10
      S = 0
      DO 400 I = 1, N
         X = I
  300    IF (X - 3) 400, 400, 310
  310    X = X - 1
         S = S + 1
         GOTO 300
  400 CONTINUE
      WRITE (6, *) S
      END
