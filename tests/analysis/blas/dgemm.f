*     DGEMM for sad's tests, written here after the documented interface of the Reference BLAS routine of
*     that name: C := ALPHA*op(A)*op(B) + BETA*C with C M by N, op(A) M by K, op(B) K by N, op(X) = X
*     for the option 'N' and its transpose for 'T' or 'C' (either case). An invalid argument goes to
*     XERBLA with its position; nothing to do returns at once.
      SUBROUTINE DGEMM(TRANSA, TRANSB, M, N, K, ALPHA, A, LDA, B, LDB,
     +                 BETA, C, LDC)
      CHARACTER TRANSA, TRANSB
      INTEGER M, N, K, LDA, LDB, LDC
      DOUBLE PRECISION ALPHA, BETA
      DOUBLE PRECISION A(LDA,*), B(LDB,*), C(LDC,*)
      DOUBLE PRECISION ZERO, ONE
      PARAMETER (ZERO = 0.0D0, ONE = 1.0D0)
      LOGICAL PLAINA, PLAINB
      INTEGER I, J, L, IERR, ROWSA, ROWSB
      DOUBLE PRECISION S
      LOGICAL LSAME
      EXTERNAL LSAME, XERBLA
      INTRINSIC MAX
      PLAINA = LSAME(TRANSA, 'N')
      PLAINB = LSAME(TRANSB, 'N')
*     the leading dimensions must hold the rows of A and B as stored
      ROWSA = K
      IF (PLAINA) ROWSA = M
      ROWSB = N
      IF (PLAINB) ROWSB = K
      IERR = 0
      IF (.NOT.PLAINA .AND. .NOT.LSAME(TRANSA, 'T') .AND.
     +    .NOT.LSAME(TRANSA, 'C')) THEN
         IERR = 1
      ELSE IF (.NOT.PLAINB .AND. .NOT.LSAME(TRANSB, 'T') .AND.
     +         .NOT.LSAME(TRANSB, 'C')) THEN
         IERR = 2
      ELSE IF (M .LT. 0) THEN
         IERR = 3
      ELSE IF (N .LT. 0) THEN
         IERR = 4
      ELSE IF (K .LT. 0) THEN
         IERR = 5
      ELSE IF (LDA .LT. MAX(1, ROWSA)) THEN
         IERR = 8
      ELSE IF (LDB .LT. MAX(1, ROWSB)) THEN
         IERR = 10
      ELSE IF (LDC .LT. MAX(1, M)) THEN
         IERR = 13
      END IF
      IF (IERR .NE. 0) THEN
         CALL XERBLA('DGEMM ', IERR)
         RETURN
      END IF
*     C is empty, or left as it is
      IF (M .EQ. 0 .OR. N .EQ. 0) RETURN
      IF ((ALPHA .EQ. ZERO .OR. K .EQ. 0) .AND. BETA .EQ. ONE) RETURN
*     no product to add: only BETA*C
      IF (ALPHA .EQ. ZERO) THEN
         IF (BETA .NE. ZERO) THEN
            DO 12 J = 1, N
               DO 11 I = 1, M
                  C(I,J) = BETA*C(I,J)
   11          CONTINUE
   12       CONTINUE
         ELSE
            DO 14 J = 1, N
               DO 13 I = 1, M
                  C(I,J) = ZERO
   13          CONTINUE
   14       CONTINUE
         END IF
         RETURN
      END IF
      IF (PLAINA .AND. PLAINB) THEN
*        C := ALPHA*A*B + BETA*C, a column of C at a time: scale it, then add ALPHA*B(L,J) times column L of A
         DO 30 J = 1, N
            IF (BETA .EQ. ZERO) THEN
               DO 21 I = 1, M
                  C(I,J) = ZERO
   21          CONTINUE
            ELSE IF (BETA .NE. ONE) THEN
               DO 22 I = 1, M
                  C(I,J) = BETA*C(I,J)
   22          CONTINUE
            END IF
            DO 24 L = 1, K
               S = ALPHA*B(L,J)
               DO 23 I = 1, M
                  C(I,J) = C(I,J) + S*A(I,L)
   23          CONTINUE
   24       CONTINUE
   30    CONTINUE
      ELSE IF (PLAINA) THEN
*        C := ALPHA*A*B**T + BETA*C, the same columns with B read along its rows
         DO 40 J = 1, N
            IF (BETA .EQ. ZERO) THEN
               DO 31 I = 1, M
                  C(I,J) = ZERO
   31          CONTINUE
            ELSE IF (BETA .NE. ONE) THEN
               DO 32 I = 1, M
                  C(I,J) = BETA*C(I,J)
   32          CONTINUE
            END IF
            DO 34 L = 1, K
               S = ALPHA*B(J,L)
               DO 33 I = 1, M
                  C(I,J) = C(I,J) + S*A(I,L)
   33          CONTINUE
   34       CONTINUE
   40    CONTINUE
      ELSE IF (PLAINB) THEN
*        C := ALPHA*A**T*B + BETA*C: each element a dot product of a column of A and one of B
         DO 50 J = 1, N
            DO 45 I = 1, M
               S = ZERO
               DO 41 L = 1, K
                  S = S + A(L,I)*B(L,J)
   41          CONTINUE
               IF (BETA .EQ. ZERO) THEN
                  C(I,J) = ALPHA*S
               ELSE
                  C(I,J) = ALPHA*S + BETA*C(I,J)
               END IF
   45       CONTINUE
   50    CONTINUE
      ELSE
*        C := ALPHA*A**T*B**T + BETA*C: a column of A against a row of B
         DO 60 J = 1, N
            DO 55 I = 1, M
               S = ZERO
               DO 51 L = 1, K
                  S = S + A(L,I)*B(J,L)
   51          CONTINUE
               IF (BETA .EQ. ZERO) THEN
                  C(I,J) = ALPHA*S
               ELSE
                  C(I,J) = ALPHA*S + BETA*C(I,J)
               END IF
   55       CONTINUE
   60    CONTINUE
      END IF
      END
