      PROGRAM BEFORE
      INTEGER I, N, X, S, T
      N = 10
      S = 0
      T = 0
      DO 400 I = 1, N
         X = I
  300    IF (X .LE. 3) GOTO 400
  310    X = X - 1
         S = S + 1
         GOTO 300
  400 CONTINUE
      DO 500 I = 1, N
         IF (I - 4) 410, 420, 420
  410    T = T + 1
  420    T = T + 2
  500 CONTINUE
      X = N
  600 IF (X) 620, 620, 610
  610 X = X - 2
      S = S + 1
  620 S = S + 5
      WRITE (6, *) S, T
      END
