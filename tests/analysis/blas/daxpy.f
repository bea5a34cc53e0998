      SUBROUTINE DAXPY(N, DA, DX, INCX, DY, INCY)
C     CONSTANT TIMES A VECTOR PLUS A VECTOR (THE REFERENCE BLAS LOOP
C     STRUCTURE: UNEQUAL OR NON-UNIT INCREMENTS, THEN UNROLLED BY 4)
      INTEGER N, INCX, INCY, I, IX, IY, M, MP1
      DOUBLE PRECISION DA, DX(*), DY(*)
      IF (N .LE. 0) RETURN
      IF (DA .EQ. 0.0D0) RETURN
      IF (INCX .EQ. 1 .AND. INCY .EQ. 1) GOTO 20
      IX = 1
      IY = 1
      IF (INCX .LT. 0) IX = (-N+1)*INCX + 1
      IF (INCY .LT. 0) IY = (-N+1)*INCY + 1
      DO 10 I = 1, N
         DY(IY) = DY(IY) + DA*DX(IX)
         IX = IX + INCX
         IY = IY + INCY
   10 CONTINUE
      RETURN
   20 M = MOD(N, 4)
      IF (M .EQ. 0) GOTO 40
      DO 30 I = 1, M
         DY(I) = DY(I) + DA*DX(I)
   30 CONTINUE
      IF (N .LT. 4) RETURN
   40 MP1 = M + 1
      DO 50 I = MP1, N, 4
         DY(I) = DY(I) + DA*DX(I)
         DY(I + 1) = DY(I + 1) + DA*DX(I + 1)
         DY(I + 2) = DY(I + 2) + DA*DX(I + 2)
         DY(I + 3) = DY(I + 3) + DA*DX(I + 3)
   50 CONTINUE
      RETURN
      END
