      PROGRAM DRV
      INTEGER N
      PARAMETER (N = 50)
      DOUBLE PRECISION A(N), WORK(64 * N)
      INTEGER I, INFO
      DO 10 I = 1, N
         A(I) = DBLE(I)
   10 CONTINUE
      CALL BLKD('U', N, A, N, WORK, 64 * N, INFO)
      PRINT *, INFO, A(N)
      END

      SUBROUTINE BLKD(UPLO, N, A, LDA, WORK, LWORK, INFO)
      CHARACTER UPLO
      INTEGER N, LDA, LWORK, INFO
      DOUBLE PRECISION A(*), WORK(*)
      INTEGER NB, NBMIN, I, J
      LOGICAL UPPER, LQUERY
      LOGICAL LSAME
      INTEGER ILAENV
      EXTERNAL LSAME, ILAENV
      INFO = 0
      UPPER = LSAME(UPLO, 'U')
      LQUERY = (LWORK .EQ. -1)
      IF (.NOT.UPPER .AND. .NOT.LSAME(UPLO, 'L')) THEN
         INFO = -1
      ELSE IF (N .LT. 0) THEN
         INFO = -2
      ELSE IF (LDA .LT. MAX(1, N)) THEN
         INFO = -4
      ELSE IF (LWORK .LT. 1 .AND. .NOT.LQUERY) THEN
         INFO = -6
      END IF
      IF (INFO .EQ. 0) THEN
         NB = ILAENV(1, N)
         WORK(1) = N*NB
      END IF
      IF (INFO .NE. 0) THEN
         CALL XERBLA('BLKD', -INFO)
         RETURN
      ELSE IF (LQUERY) THEN
         RETURN
      END IF
      NBMIN = 2
      IF (NB .GT. 1 .AND. NB .LT. N) THEN
         IF (LWORK .LT. N*NB) THEN
            NB = MAX(LWORK / N, 1)
            NBMIN = MAX(2, ILAENV(2, N))
         END IF
      END IF
      IF (NB .LT. NBMIN) NB = N
      DO 30 J = 1, N, NB
         DO 20 I = J, MIN(J + NB - 1, N)
            A(I) = A(I) + DBLE(J)
   20    CONTINUE
   30 CONTINUE
      RETURN
      END

      LOGICAL FUNCTION LSAME(CA, CB)
      CHARACTER CA, CB
      LSAME = CA .EQ. CB
      RETURN
      END

      INTEGER FUNCTION ILAENV(ISPEC, N)
      INTEGER ISPEC, N
      IF (ISPEC .EQ. 1) THEN
         ILAENV = 8
      ELSE
         ILAENV = 2
      END IF
      RETURN
      END

      SUBROUTINE XERBLA(SRNAME, INFO)
      CHARACTER*(*) SRNAME
      INTEGER INFO
      WRITE (*, *) SRNAME, INFO
      STOP
      END
