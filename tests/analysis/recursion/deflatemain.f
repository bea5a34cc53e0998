      PROGRAM DEFL
      DOUBLE PRECISION X(40)
      INTEGER I
      DO 10 I = 1, 40
         X(I) = 1.0D0
   10 CONTINUE
      CALL DRIVER(40, X)
      PRINT *, X(1), X(5)
      END
