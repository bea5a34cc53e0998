*     DDOT for sad's tests, written here after the documented interface of the Reference BLAS routine of
*     that name: the dot product of the N-vectors DX (stride INCX) and DY (stride INCY), a negative stride
*     walking its vector from the far end. Unit strides take MOD(N,5) single products first, then the rest
*     five at a time.
      DOUBLE PRECISION FUNCTION DDOT(N, DX, INCX, DY, INCY)
      INTEGER N, INCX, INCY
      DOUBLE PRECISION DX(*), DY(*)
      INTEGER I, JX, JY, NREST
      DOUBLE PRECISION ACC
      INTRINSIC MOD
      ACC = 0.0D0
      DDOT = 0.0D0
      IF (N .LE. 0) RETURN
      IF (INCX .NE. 1 .OR. INCY .NE. 1) THEN
*        strided: start at the end a negative stride reaches first
         JX = 1
         IF (INCX .LT. 0) JX = 1 - (N-1)*INCX
         JY = 1
         IF (INCY .LT. 0) JY = 1 - (N-1)*INCY
         DO I = 1, N
            ACC = ACC + DX(JX)*DY(JY)
            JY = JY + INCY
            JX = JX + INCX
         END DO
      ELSE
         NREST = MOD(N, 5)
         IF (NREST .NE. 0) THEN
            DO I = 1, NREST
               ACC = ACC + DX(I)*DY(I)
            END DO
*           fewer than five elements: nothing is left for the unrolled loop
            IF (N .LT. 5) THEN
               DDOT = ACC
               RETURN
            END IF
         END IF
         DO I = NREST + 1, N, 5
            ACC = ACC + DX(I)*DY(I) + DX(I+1)*DY(I+1) + DX(I+2)*DY(I+2)
     +                + DX(I+3)*DY(I+3) + DX(I+4)*DY(I+4)
         END DO
      END IF
      DDOT = ACC
      END
