      SUBROUTINE TRSV(N, A, LDA, X)
C     solve L*X = B in place, L unit lower triangular
      INTEGER N, LDA
      DOUBLE PRECISION A(LDA,*), X(*)
      INTEGER I, J
      DOUBLE PRECISION TEMP
      DO 20 J = 1, N
         TEMP = X(J)
         DO 10 I = J + 1, N
            X(I) = X(I) - TEMP*A(I,J)
   10    CONTINUE
   20 CONTINUE
      RETURN
      END
