      PROGRAM GUARDS
C     24 exact guards in a row: 24 factors (1 - [N = k])
      INTEGER N, M
      DOUBLE PRECISION A(40)
      N = 30
      M = 12
      CALL CHECKS(N, M, A)
      CALL CHECKS(5, M, A)
      PRINT *, A(1)
      END
      SUBROUTINE CHECKS(N, M, A)
      INTEGER N, M, I
      DOUBLE PRECISION A(*)
      IF (N .EQ. 0) RETURN
      IF (M .GT. 0) A(1) = A(1) + 0.0D0
      IF (N .EQ. 1) RETURN
      IF (M .GT. 1) A(1) = A(1) + 1.0D0
      IF (N .EQ. 2) RETURN
      IF (M .GT. 2) A(1) = A(1) + 2.0D0
      IF (N .EQ. 3) RETURN
      IF (M .GT. 3) A(1) = A(1) + 3.0D0
      IF (N .EQ. 4) RETURN
      IF (M .GT. 4) A(1) = A(1) + 4.0D0
      IF (N .EQ. 5) RETURN
      IF (M .GT. 5) A(1) = A(1) + 5.0D0
      IF (N .EQ. 6) RETURN
      IF (M .GT. 6) A(1) = A(1) + 6.0D0
      IF (N .EQ. 7) RETURN
      IF (M .GT. 7) A(1) = A(1) + 7.0D0
      IF (N .EQ. 8) RETURN
      IF (M .GT. 8) A(1) = A(1) + 8.0D0
      IF (N .EQ. 9) RETURN
      IF (M .GT. 9) A(1) = A(1) + 9.0D0
      IF (N .EQ. 10) RETURN
      IF (M .GT. 10) A(1) = A(1) + 10.0D0
      IF (N .EQ. 11) RETURN
      IF (M .GT. 11) A(1) = A(1) + 11.0D0
      IF (N .EQ. 12) RETURN
      IF (M .GT. 12) A(1) = A(1) + 12.0D0
      IF (N .EQ. 13) RETURN
      IF (M .GT. 13) A(1) = A(1) + 13.0D0
      IF (N .EQ. 14) RETURN
      IF (M .GT. 14) A(1) = A(1) + 14.0D0
      IF (N .EQ. 15) RETURN
      IF (M .GT. 15) A(1) = A(1) + 15.0D0
      IF (N .EQ. 16) RETURN
      IF (M .GT. 16) A(1) = A(1) + 16.0D0
      IF (N .EQ. 17) RETURN
      IF (M .GT. 17) A(1) = A(1) + 17.0D0
      IF (N .EQ. 18) RETURN
      IF (M .GT. 18) A(1) = A(1) + 18.0D0
      IF (N .EQ. 19) RETURN
      IF (M .GT. 19) A(1) = A(1) + 19.0D0
      IF (N .EQ. 20) RETURN
      IF (M .GT. 20) A(1) = A(1) + 20.0D0
      IF (N .EQ. 21) RETURN
      IF (M .GT. 21) A(1) = A(1) + 21.0D0
      IF (N .EQ. 22) RETURN
      IF (M .GT. 22) A(1) = A(1) + 22.0D0
      IF (N .EQ. 23) RETURN
      IF (M .GT. 23) A(1) = A(1) + 23.0D0
      DO 10 I = 1, N
         A(I) = 0.0D0
   10 CONTINUE
      END
