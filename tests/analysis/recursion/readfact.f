      RECURSIVE SUBROUTINE FACT(N, R)
      INTEGER N, R
      IF (N .LE. 1) THEN
         R = 1
      ELSE
         CALL FACT(N - 1, R)
         R = R * N
      END IF
      END
      PROGRAM MAIN
      INTEGER K, R
      READ (*, *) K
      CALL FACT(K, R)
      CALL FACT(5, R)
      PRINT *, R
      END
