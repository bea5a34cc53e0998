*     LSAME for sad's tests, written here after the documented interface of the Reference BLAS routine
*     of that name: .TRUE. when the characters CA and CB are the same letter in either case. Only ASCII
*     codes are folded (the compilers sad checks against use ASCII).
      LOGICAL FUNCTION LSAME(CA, CB)
      CHARACTER CA, CB
      INTEGER KA, KB
      INTRINSIC ICHAR
*     equal characters need no folding
      LSAME = CA .EQ. CB
      IF (LSAME) RETURN
      KA = ICHAR(CA)
      KB = ICHAR(CB)
*     'a'..'z' are 97..122; their upper case is 32 lower
      IF (KB .GE. 97 .AND. KB .LE. 122) KB = KB - 32
      IF (KA .GE. 97 .AND. KA .LE. 122) KA = KA - 32
      LSAME = KA .EQ. KB
      END
