      PROGRAM ONE
      PRINT *, 1
      END
      PROGRAM TWO
      DO 10 I = 1, 5
         PRINT *, I
   10 CONTINUE
      END
