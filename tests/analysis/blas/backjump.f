      PROGRAM BACKJ
      DOUBLE PRECISION A(8)
      INTEGER I
      DO 5 I = 1, 8
         A(I) = DBLE(I)
    5 CONTINUE
      CALL SCALE('G', 8, A, 1.0D0, 3.0D0)
      CALL SCALE('U', 8, A, 1.0D0, 3.0D0)
      PRINT *, A(1), A(8)
      END

      SUBROUTINE SCALE(TYPE, N, A, CFROM, CTO)
      CHARACTER TYPE
      INTEGER N, ITYPE, I, PASS
      DOUBLE PRECISION A(N), CFROM, CTO, MUL
      IF (TYPE .EQ. 'G') THEN
         ITYPE = 0
      ELSE
         ITYPE = 1
      END IF
      PASS = 0
   10 CONTINUE
      PASS = PASS + 1
      MUL = CTO / CFROM
      IF (ITYPE .EQ. 0) THEN
         DO 20 I = 1, N
            A(I) = A(I) * MUL
   20    CONTINUE
      ELSE
         A(1) = A(1) * MUL
      END IF
      IF (PASS .LT. 2) GO TO 10
      END
