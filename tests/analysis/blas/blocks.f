*     A block size chosen by a routine's name, ILAENV's way (issue 29): the name upper-cased character by
*     character, its precision letter and kind read from substrings, jumps on what is asked.
*     Every reference passes known values (BLKED's its caller's N): each is run on them, its result and its
*     lines exact.
      PROGRAM BLOCKS
      INTEGER NBLOCK, K, S
      EXTERNAL NBLOCK
      S = 0
      DO 10 K = 1, NBLOCK(1, 'dgetrf', 100)
         S = S + K
   10 CONTINUE
      DO 20 K = 1, NBLOCK(1, 'SPOTRF', 100) + NBLOCK(2, 'X', 7)
         S = S + 1
   20 CONTINUE
      WRITE (6, *) S, NBLOCK(1, 'zhetrd', 5), NBLOCK(3, 'D', 1)
      CALL BLKED(50)
      END
      SUBROUTINE BLKED(N)
      INTEGER N, NB, NBLOCK, J, T
      EXTERNAL NBLOCK
      NB = NBLOCK(1, 'DPOTRF', N)
      T = 0
      DO 10 J = 1, N, NB
         T = T + 1
   10 CONTINUE
      WRITE (6, *) T
      END
      INTEGER FUNCTION NBLOCK(ISPEC, NAME, N)
      INTEGER ISPEC, N, I, IC
      CHARACTER*(*) NAME
      CHARACTER*6 SUBNAM
      CHARACTER C1*1, C2*2
      IF (ISPEC .EQ. 2) THEN
         NBLOCK = MIN(N, 2)
         RETURN
      ELSE IF (ISPEC .NE. 1) THEN
         NBLOCK = -1
         RETURN
      END IF
      SUBNAM = NAME
      DO 5 I = 1, 6
         IC = ICHAR(SUBNAM(I:I))
         IF (IC .GE. 97 .AND. IC .LE. 122) SUBNAM(I:I) = CHAR(IC - 32)
    5 CONTINUE
      C1 = SUBNAM(1:1)
      C2 = SUBNAM(2:3)
      IF (C1 .EQ. 'D' .OR. C1 .EQ. 'S') THEN
         IF (C2 .EQ. 'GE') THEN
            NBLOCK = 64
         ELSE IF (C2 .EQ. 'PO') THEN
            NBLOCK = 32
         ELSE
            NBLOCK = 8
         END IF
      ELSE
         NBLOCK = 1
      END IF
      END
