C     DLARFT's zero column: REFL leaves TAU = 0 where its length is 1
C     (the last call), FORM stores a zero column of T where TAU(I) is
C     zero (else a product of data), and MULT tests T's entries as DTRMM
C     tests its triangular matrix. FILL then uses T as work it fills
C     before its test: that test is of its own data.
      PROGRAM FACTOR
      INTEGER N
      PARAMETER (N = 5)
      DOUBLE PRECISION A(N), TAU(N), T(N, N), S
      INTEGER I
      DO 10 I = 1, N
         A(I) = DBLE(I) / 7.0D0
   10 CONTINUE
      DO 20 I = 1, N
         CALL REFL(N - I + 1, A(I), TAU(I))
   20 CONTINUE
      CALL FORM(N, TAU, A, T)
      CALL MULT(N, T, S)
      CALL FILL(N, T, S)
      PRINT *, S
      END

      SUBROUTINE REFL(M, ALPHA, TAU)
      INTEGER M
      DOUBLE PRECISION ALPHA, TAU
      IF (M .LE. 1) THEN
         TAU = 0.0D0
         RETURN
      END IF
      TAU = ALPHA * 2.0D0
      END

      SUBROUTINE FORM(N, TAU, A, T)
      INTEGER N, I, J
      DOUBLE PRECISION TAU(N), A(N), T(N, N)
      DO 20 I = 1, N
         IF (TAU(I) .EQ. 0.0D0) THEN
            DO 10 J = 1, I
               T(J, I) = 0.0D0
   10       CONTINUE
         ELSE
            DO 15 J = 1, I
               T(J, I) = TAU(I) * A(J)
   15       CONTINUE
         END IF
   20 CONTINUE
      END

      SUBROUTINE MULT(N, T, S)
      INTEGER N, I, J
      DOUBLE PRECISION T(N, N), S
      S = 0.0D0
      DO 20 J = 1, N
         DO 10 I = 1, J
            IF (T(I, J) .NE. 0.0D0) S = S + T(I, J)
   10    CONTINUE
   20 CONTINUE
      END

      SUBROUTINE FILL(N, T, S)
      INTEGER N, I, J
      DOUBLE PRECISION T(N, N), S
      DO 20 J = 1, N
         DO 10 I = 1, N
            T(I, J) = S + DBLE(I * J)
   10    CONTINUE
   20 CONTINUE
      DO 40 J = 1, N
         DO 30 I = 1, J
            IF (T(I, J) .NE. 0.0D0) S = S + T(I, J)
   30    CONTINUE
   40 CONTINUE
      END
