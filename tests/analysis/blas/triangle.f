C     DSYTRD's shape: RED leaves REFL's zero in element 1 of TAU where
C     UPLO is 'U' (passing TAU(I - 1) going down, as DLATRD does) and in
C     element N - 1 where it is 'L' (copying TAUI into TAU(I), as DSYTD2
C     does): no rule for both, one for each option. The program calls
C     RED with 'U', then USE tests TAU(I).EQ.0 for I = 1 to N - 1 (as
C     DORG2L's DLARF does): once in 5.
      PROGRAM TRIANG
      INTEGER N
      PARAMETER (N = 6)
      DOUBLE PRECISION A(N), TAU(N), S
      INTEGER I
      DO 10 I = 1, N
         A(I) = DBLE(I) / 7.0D0
   10 CONTINUE
      CALL RED('U', N, A, TAU)
      S = 0.0D0
      CALL USE(N - 1, TAU, S)
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

      SUBROUTINE USE(K, TAU, S)
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
