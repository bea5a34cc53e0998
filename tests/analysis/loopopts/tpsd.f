      PROGRAM TPSD
C     DGELS's shape: a logical set, then reset where an option holds,
C     chooses the size passed on.
      CALL SUB('N', 3, 5)
      CALL SUB('T', 3, 5)
      END

      SUBROUTINE SUB(TRANS, M, N)
      CHARACTER TRANS
      INTEGER M, N, BROW, I
      LOGICAL TPSD, LSAME
      EXTERNAL LSAME
      TPSD = .TRUE.
      IF (LSAME(TRANS, 'N')) TPSD = .FALSE.
      BROW = M
      IF (TPSD) BROW = N
      DO 10 I = 1, BROW
         PRINT *, I
   10 CONTINUE
      END

      LOGICAL FUNCTION LSAME(CA, CB)
      CHARACTER CA, CB
      LSAME = CA .EQ. CB
      END
