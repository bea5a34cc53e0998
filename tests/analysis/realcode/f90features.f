      RECURSIVE SUBROUTINE FACT(N, R)
      INTEGER N, R
      IF (N .LE. 1) THEN
         R = 1
      ELSE
         CALL FACT(N - 1, R)
         R = R * N
      END IF
      END
      SUBROUTINE BAL(N, SCALE, F)
      INTEGER N, I
      DOUBLE PRECISION SCALE(N), F
      DO 10 I = 1, N
         SCALE(I) = SCALE(I)*F
   10 CONTINUE
      END
      PROGRAM MAIN
      INTERFACE
         SUBROUTINE BAL(N, SCALE, F)
         INTEGER N
         DOUBLE PRECISION SCALE(N), F
         END SUBROUTINE
      END INTERFACE
      INTEGER MAXLEVEL, NX, R
      VOLATILE R
      DOUBLE PRECISION S(10)
      PARAMETER (MAXLEVEL = 5, ! the finest level
     >           NX = 10)
      DATA S /10*1.0D0/
      CALL BAL(NX, S, 2.0D0)
      CALL FACT(MAXLEVEL, R)
      PRINT *, R, S(1)
      END
