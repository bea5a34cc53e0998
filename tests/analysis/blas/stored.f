C     A routine that leaves an exact zero in its scalar argument (REFL,
C     as DLARFG does where its length is 1), the caller storing it in
C     an array, a later routine testing that array (as DLARFT does).
      PROGRAM STORED
      INTEGER N
      PARAMETER (N = 6)
      DOUBLE PRECISION A(N), TAU(N)
      INTEGER I
      DO 10 I = 1, N
         A(I) = DBLE(I) / 7.0D0
   10 CONTINUE
      DO 20 I = 1, N
         CALL REFL(N - I + 1, A(I), TAU(I))
   20 CONTINUE
      CALL APPLY(N, TAU, A)
      END

      SUBROUTINE REFL(M, ALPHA, TAU)
      INTEGER M
      DOUBLE PRECISION ALPHA, TAU
      IF (M .LE. 1) THEN
         TAU = 0.0D0
         RETURN
      END IF
      IF (ALPHA .EQ. 0.0D0) THEN
         TAU = 1.0D0
      ELSE
         TAU = ALPHA * 2.0D0
      END IF
      END

      SUBROUTINE APPLY(N, TAU, A)
      INTEGER N, I
      DOUBLE PRECISION TAU(N), A(N), S
      S = 0.0D0
      DO 10 I = 1, N
         IF (TAU(I) .EQ. 0.0D0) THEN
            S = S + 1.0D0
         END IF
         IF (TAU(I) .EQ. 1.0D0) THEN
            S = S - 1.0D0
         END IF
         IF (A(I) .NE. 0.0D0) S = S + A(I)
   10 CONTINUE
      PRINT *, S
      END
