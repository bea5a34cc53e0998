C     An argument a routine sets on some paths only: PICK's M is 3
C     where IFACT = 2 and the caller's 7 where not, so its loop runs
C     7 + 3 times over the two calls. PICKC's EQUED is 'N' where FACT
C     is 'N' and the caller's 'Y' where not: LSAME(EQUED, 'Y') holds
C     once, and LSAME's quick return (CA = CB) is taken where either
C     of its calls compares equal characters.
      PROGRAM INOUT
      CHARACTER EQ
      INTEGER M, K
      K = 0
      M = 7
      CALL PICK(1, M, K)
      CALL PICK(2, M, K)
      EQ = 'Y'
      CALL PICKC('E', EQ, K)
      CALL PICKC('N', EQ, K)
      WRITE (6, *) K
      END

      SUBROUTINE PICK(IFACT, M, K)
      INTEGER IFACT, M, K, I
      IF (IFACT .EQ. 2) M = 3
      DO 10 I = 1, M
         K = K + 1
   10 CONTINUE
      END

      SUBROUTINE PICKC(FACT, EQUED, K)
      CHARACTER FACT, EQUED
      INTEGER K
      LOGICAL LSAME
      EXTERNAL LSAME
      IF (LSAME(FACT, 'N')) EQUED = 'N'
      IF (LSAME(EQUED, 'Y')) K = K + 100
      END
