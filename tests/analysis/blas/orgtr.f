C     DSYTD2 then DORGTR with both options in one program: RED leaves
C     REFL's zero in element 1 of TAU where UPLO is 'U' and in element
C     N - 1 where it is 'L' (as triangle.f). GEN passes TAU on to USEUP
C     where UPLO is 'U' and to USELO where 'L' (DORGTR's DORGQL and
C     DORGQR): each tests TAU(I).EQ.0 for I = 1 to N - 1 (DLARF's test
C     in DORG2L and DORG2R), true once in 5 for each call.
      PROGRAM ORGTR
      INTEGER N
      PARAMETER (N = 6)
      DOUBLE PRECISION A(N), TAU(N), S
      INTEGER I
      DO 10 I = 1, N
         A(I) = DBLE(I) / 7.0D0
   10 CONTINUE
      S = 0.0D0
      CALL RED('U', N, A, TAU)
      CALL GEN('U', N, TAU, S)
      CALL RED('L', N, A, TAU)
      CALL GEN('L', N, TAU, S)
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

      SUBROUTINE RED(UPLO, N, A, TAU)
      CHARACTER UPLO
      INTEGER N, I
      DOUBLE PRECISION A(*), TAU(*), TAUI
      IF (UPLO .EQ. 'U') THEN
         DO 10 I = N, 2, -1
            CALL REFL(I - 1, A(I), TAU(I - 1))
   10    CONTINUE
      ELSE
         DO 20 I = 1, N - 1
            CALL REFL(N - I, A(I), TAUI)
            TAU(I) = TAUI
   20    CONTINUE
      END IF
      END

      SUBROUTINE GEN(UPLO, N, TAU, S)
      CHARACTER UPLO
      INTEGER N
      DOUBLE PRECISION TAU(*), S
      IF (UPLO .EQ. 'U') THEN
         CALL USEUP(N - 1, TAU, S)
      ELSE
         CALL USELO(N - 1, TAU, S)
      END IF
      END

      SUBROUTINE USEUP(K, TAU, S)
      INTEGER K, I
      DOUBLE PRECISION TAU(*), S
      DO 10 I = 1, K
         IF (TAU(I) .EQ. 0.0D0) THEN
            S = S + 1.0D0
         ELSE
            S = S + TAU(I)
         END IF
   10 CONTINUE
      END

      SUBROUTINE USELO(K, TAU, S)
      INTEGER K, I
      DOUBLE PRECISION TAU(*), S
      DO 10 I = 1, K
         IF (TAU(I) .EQ. 0.0D0) THEN
            S = S + 2.0D0
         ELSE
            S = S - TAU(I)
         END IF
   10 CONTINUE
      END
