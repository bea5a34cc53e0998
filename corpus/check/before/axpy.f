      SUBROUTINE AXPY(N, A, X, Y)
C     Y := A*X + Y
      INTEGER N
      DOUBLE PRECISION A, X(*), Y(*)
      INTEGER I
      IF (N .LE. 0) RETURN
      IF (A .EQ. 0.0D0) RETURN
      DO 10 I = 1, N
         Y(I) = Y(I) + A*X(I)
   10 CONTINUE
      RETURN
      END
