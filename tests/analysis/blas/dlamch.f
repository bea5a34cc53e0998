*     DLAMCH for sad's tests, written here after the documented interface of LAPACK's routine of that
*     name: a double precision machine parameter chosen by the first letter of CMACH, either case
*     ('E' relative precision, 'S' safe minimum, 'B' base, 'P' precision times base, 'N' mantissa digits,
*     'R' 1 when rounding, 'M' least exponent, 'U' underflow threshold, 'L' largest exponent, 'O'
*     overflow threshold; 0 for any other letter), from the model-number intrinsics.
      DOUBLE PRECISION FUNCTION DLAMCH(CMACH)
      CHARACTER CMACH
      DOUBLE PRECISION ZERO, ONE
      PARAMETER (ZERO = 0.0D0, ONE = 1.0D0)
      DOUBLE PRECISION ROUNDS, RELEPS, SAFMIN, RECIPH, ANSWER
      LOGICAL LSAME
      EXTERNAL LSAME
      INTRINSIC DIGITS, EPSILON, HUGE, MAXEXPONENT, MINEXPONENT, RADIX,
     +          TINY
*     arithmetic rounds to nearest: the relative precision is half the spacing EPSILON gives
      ROUNDS = ONE
      IF (ROUNDS .EQ. ONE) THEN
         RELEPS = 0.5D0*EPSILON(ZERO)
      ELSE
         RELEPS = EPSILON(ZERO)
      END IF
      ANSWER = ZERO
      IF (LSAME(CMACH, 'E')) THEN
         ANSWER = RELEPS
      ELSE IF (LSAME(CMACH, 'S')) THEN
*        the least number whose reciprocal does not overflow
         SAFMIN = TINY(ZERO)
         RECIPH = ONE/HUGE(ZERO)
         IF (RECIPH .GE. SAFMIN) THEN
            SAFMIN = RECIPH*(ONE + RELEPS)
         END IF
         ANSWER = SAFMIN
      ELSE IF (LSAME(CMACH, 'B')) THEN
         ANSWER = RADIX(ZERO)
      ELSE IF (LSAME(CMACH, 'P')) THEN
         ANSWER = RADIX(ZERO)*RELEPS
      ELSE IF (LSAME(CMACH, 'N')) THEN
         ANSWER = DIGITS(ZERO)
      ELSE IF (LSAME(CMACH, 'R')) THEN
         ANSWER = ROUNDS
      ELSE IF (LSAME(CMACH, 'M')) THEN
         ANSWER = MINEXPONENT(ZERO)
      ELSE IF (LSAME(CMACH, 'U')) THEN
         ANSWER = TINY(ZERO)
      ELSE IF (LSAME(CMACH, 'L')) THEN
         ANSWER = MAXEXPONENT(ZERO)
      ELSE IF (LSAME(CMACH, 'O')) THEN
         ANSWER = HUGE(ZERO)
      END IF
      DLAMCH = ANSWER
      END
