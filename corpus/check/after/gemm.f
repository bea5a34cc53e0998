      SUBROUTINE GEMM(M, N, K, A, LDA, B, LDB, C, LDC)
C     C := C + A*B, one column of C at a time through AXPY
      INTEGER M, N, K, LDA, LDB, LDC
      DOUBLE PRECISION A(LDA,*), B(LDB,*), C(LDC,*)
      INTEGER J, L
      DO 20 J = 1, N
         DO 10 L = 1, K
            CALL AXPY(M, B(L,J), A(1,L), C(1,J))
   10    CONTINUE
   20 CONTINUE
      RETURN
      END
