*     DTRSM for sad's tests, written here after the documented interface of the Reference BLAS routine of
*     that name: solve op(A)*X = ALPHA*B (SIDE 'L') or X*op(A) = ALPHA*B (SIDE 'R') for X, overwriting the
*     M by N matrix B. A is triangular, upper (UPLO 'U') or lower ('L'), op(A) = A ('N') or its transpose
*     ('T' or 'C'), its diagonal used ('N') or taken as ones ('U'); options in either case. An invalid
*     argument goes to XERBLA with its position; an empty B returns at once.
      SUBROUTINE DTRSM(SIDE, UPLO, TRANSA, DIAG, M, N, ALPHA, A, LDA,
     +                 B, LDB)
      CHARACTER SIDE, UPLO, TRANSA, DIAG
      INTEGER M, N, LDA, LDB
      DOUBLE PRECISION ALPHA
      DOUBLE PRECISION A(LDA,*), B(LDB,*)
      DOUBLE PRECISION ZERO, ONE
      PARAMETER (ZERO = 0.0D0, ONE = 1.0D0)
      LOGICAL ONLEFT, UP, DIVIDE
      INTEGER I, J, K, IERR, ORDER
      DOUBLE PRECISION R
      LOGICAL LSAME
      EXTERNAL LSAME, XERBLA
      INTRINSIC MAX
      ONLEFT = LSAME(SIDE, 'L')
      UP = LSAME(UPLO, 'U')
*     a non-unit diagonal is divided by
      DIVIDE = LSAME(DIAG, 'N')
*     A is square, of B's row count on the left and its column count on the right
      ORDER = N
      IF (ONLEFT) ORDER = M
      IERR = 0
      IF (.NOT.ONLEFT .AND. .NOT.LSAME(SIDE, 'R')) THEN
         IERR = 1
      ELSE IF (.NOT.UP .AND. .NOT.LSAME(UPLO, 'L')) THEN
         IERR = 2
      ELSE IF (.NOT.LSAME(TRANSA, 'N') .AND.
     +         .NOT.LSAME(TRANSA, 'T') .AND.
     +         .NOT.LSAME(TRANSA, 'C')) THEN
         IERR = 3
      ELSE IF (.NOT.DIVIDE .AND. .NOT.LSAME(DIAG, 'U')) THEN
         IERR = 4
      ELSE IF (M .LT. 0) THEN
         IERR = 5
      ELSE IF (N .LT. 0) THEN
         IERR = 6
      ELSE IF (LDA .LT. MAX(1, ORDER)) THEN
         IERR = 9
      ELSE IF (LDB .LT. MAX(1, M)) THEN
         IERR = 11
      END IF
      IF (IERR .NE. 0) THEN
         CALL XERBLA('DTRSM ', IERR)
         RETURN
      END IF
      IF (M .EQ. 0 .OR. N .EQ. 0) RETURN
*     ALPHA = 0: the solution is zero whatever A is
      IF (ALPHA .EQ. ZERO) THEN
         DO 2 J = 1, N
            DO 1 I = 1, M
               B(I,J) = ZERO
    1       CONTINUE
    2    CONTINUE
         RETURN
      END IF
      IF (ONLEFT) THEN
         IF (LSAME(TRANSA, 'N')) THEN
*           A*X = ALPHA*B, one column of B at a time; a zero of the solution adds nothing
            IF (UP) THEN
               DO 15 J = 1, N
                  IF (ALPHA .NE. ONE) THEN
                     DO 11 I = 1, M
                        B(I,J) = ALPHA*B(I,J)
   11                CONTINUE
                  END IF
*                 back substitution, last row first
                  DO 14 K = M, 1, -1
                     IF (B(K,J).NE.ZERO) THEN
                        IF (DIVIDE) B(K,J) = B(K,J)/A(K,K)
                        DO 12 I = 1, K - 1
                           B(I,J) = B(I,J) - A(I,K)*B(K,J)
   12                   CONTINUE
                     END IF
   14             CONTINUE
   15          CONTINUE
            ELSE
               DO 25 J = 1, N
                  IF (ALPHA .NE. ONE) THEN
                     DO 21 I = 1, M
                        B(I,J) = ALPHA*B(I,J)
   21                CONTINUE
                  END IF
*                 forward substitution, first row first
                  DO 24 K = 1, M
                     IF (B(K,J).NE.ZERO) THEN
                        IF (DIVIDE) B(K,J) = B(K,J)/A(K,K)
                        DO 22 I = K + 1, M
                           B(I,J) = B(I,J) - A(I,K)*B(K,J)
   22                   CONTINUE
                     END IF
   24             CONTINUE
   25          CONTINUE
            END IF
         ELSE
*           A**T*X = ALPHA*B: each element of X from the ones already solved in its column
            IF (UP) THEN
               DO 35 J = 1, N
                  DO 34 I = 1, M
                     R = ALPHA*B(I,J)
                     DO 32 K = 1, I - 1
                        R = R - A(K,I)*B(K,J)
   32                CONTINUE
                     IF (DIVIDE) R = R/A(I,I)
                     B(I,J) = R
   34             CONTINUE
   35          CONTINUE
            ELSE
               DO 45 J = 1, N
                  DO 44 I = M, 1, -1
                     R = ALPHA*B(I,J)
                     DO 42 K = I + 1, M
                        R = R - A(K,I)*B(K,J)
   42                CONTINUE
                     IF (DIVIDE) R = R/A(I,I)
                     B(I,J) = R
   44             CONTINUE
   45          CONTINUE
            END IF
         END IF
      ELSE
         IF (LSAME(TRANSA, 'N')) THEN
*           X*A = ALPHA*B, one column of X at a time from the columns already solved
            IF (UP) THEN
               DO 55 J = 1, N
                  IF (ALPHA .NE. ONE) THEN
                     DO 51 I = 1, M
                        B(I,J) = ALPHA*B(I,J)
   51                CONTINUE
                  END IF
                  DO 53 K = 1, J - 1
                     IF (A(K,J).NE.ZERO) THEN
                        DO 52 I = 1, M
                           B(I,J) = B(I,J) - B(I,K)*A(K,J)
   52                   CONTINUE
                     END IF
   53             CONTINUE
                  IF (DIVIDE) THEN
                     R = ONE/A(J,J)
                     DO 54 I = 1, M
                        B(I,J) = R*B(I,J)
   54                CONTINUE
                  END IF
   55          CONTINUE
            ELSE
               DO 65 J = N, 1, -1
                  IF (ALPHA .NE. ONE) THEN
                     DO 61 I = 1, M
                        B(I,J) = ALPHA*B(I,J)
   61                CONTINUE
                  END IF
                  DO 63 K = J + 1, N
                     IF (A(K,J).NE.ZERO) THEN
                        DO 62 I = 1, M
                           B(I,J) = B(I,J) - B(I,K)*A(K,J)
   62                   CONTINUE
                     END IF
   63             CONTINUE
                  IF (DIVIDE) THEN
                     R = ONE/A(J,J)
                     DO 64 I = 1, M
                        B(I,J) = R*B(I,J)
   64                CONTINUE
                  END IF
   65          CONTINUE
            END IF
         ELSE
*           X*A**T = ALPHA*B: a solved column of X is taken out of the columns still to solve
            IF (UP) THEN
               DO 75 K = N, 1, -1
                  IF (DIVIDE) THEN
                     R = ONE/A(K,K)
                     DO 71 I = 1, M
                        B(I,K) = R*B(I,K)
   71                CONTINUE
                  END IF
                  DO 73 J = 1, K - 1
                     IF (A(J,K).NE.ZERO) THEN
                        R = A(J,K)
                        DO 72 I = 1, M
                           B(I,J) = B(I,J) - R*B(I,K)
   72                   CONTINUE
                     END IF
   73             CONTINUE
                  IF (ALPHA .NE. ONE) THEN
                     DO 74 I = 1, M
                        B(I,K) = ALPHA*B(I,K)
   74                CONTINUE
                  END IF
   75          CONTINUE
            ELSE
               DO 85 K = 1, N
                  IF (DIVIDE) THEN
                     R = ONE/A(K,K)
                     DO 81 I = 1, M
                        B(I,K) = R*B(I,K)
   81                CONTINUE
                  END IF
                  DO 83 J = K + 1, N
                     IF (A(J,K).NE.ZERO) THEN
                        R = A(J,K)
                        DO 82 I = 1, M
                           B(I,J) = B(I,J) - R*B(I,K)
   82                   CONTINUE
                     END IF
   83             CONTINUE
                  IF (ALPHA .NE. ONE) THEN
                     DO 84 I = 1, M
                        B(I,K) = ALPHA*B(I,K)
   84                CONTINUE
                  END IF
   85          CONTINUE
            END IF
         END IF
      END IF
      END
