      SUBROUTINE SCAL(DIAG, M, N, ALPHA, A, LDA, B, LDB)
C     DTRMM's diagonal step: TEMP is ALPHA, times the diagonal element
C     where DIAG is 'N'; the column is scaled where TEMP is not ONE.
      CHARACTER DIAG
      INTEGER M, N, LDA, LDB
      DOUBLE PRECISION ALPHA, A(LDA, *), B(LDB, *)
      DOUBLE PRECISION ONE
      PARAMETER (ONE = 1.0D0)
      DOUBLE PRECISION TEMP
      LOGICAL NOUNIT
      INTEGER I, K
      NOUNIT = DIAG.EQ.'N'
      DO 20 K = N, 1, -1
         TEMP = ALPHA
         IF (NOUNIT) TEMP = TEMP*A(K, K)
         IF (TEMP.NE.ONE) THEN
            DO 10 I = 1, M
               B(I, K) = TEMP*B(I, K)
   10       CONTINUE
         END IF
   20 CONTINUE
      RETURN
      END

      PROGRAM UNITD
C     SCAL with a unit diagonal and ALPHA = ONE (DLARFB's call of DTRMM
C     with 'Unit': no column scaled), then with the diagonal of A.
      INTEGER N
      PARAMETER (N = 12)
      DOUBLE PRECISION ONE
      PARAMETER (ONE = 1.0D0)
      DOUBLE PRECISION A(N, N), B(N, N)
      INTEGER I, J
      DO 20 J = 1, N
         DO 10 I = 1, N
            A(I, J) = DBLE(I + 2 * J) / 7.0D0
            B(I, J) = 1.0D0
   10    CONTINUE
   20 CONTINUE
      CALL SCAL('U', N, N, ONE, A, N, B, N)
      CALL SCAL('N', N, N, ONE, A, N, B, N)
      PRINT *, B(N, N)
      END
