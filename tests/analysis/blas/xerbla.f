*     XERBLA for sad's tests, written here after the documented interface of the Reference BLAS routine
*     of that name: the routine SRNAME was called with an invalid argument number INFO; say so and stop.
      SUBROUTINE XERBLA(SRNAME, INFO)
      CHARACTER*(*) SRNAME
      INTEGER INFO
      INTRINSIC LEN_TRIM
      WRITE (*, 900) INFO, SRNAME(1:LEN_TRIM(SRNAME))
      STOP
  900 FORMAT (' XERBLA: argument', I3, ' of ', A, ' is invalid')
      END
