C     LAPACK's workspace query (DGERQF's shape): the block size NB is set
C     only under `IF (INFO.EQ.0)` where the size K is not 0, and read past
C     `IF (INFO.NE.0) RETURN` and `IF (K.EQ.0) RETURN`: every path that
C     reads it has set it. BLOCKS runs its blocked loop where NB is above
C     1 and below K, with NB cut to what the workspace holds.
      PROGRAM QUERY
      DOUBLE PRECISION WORK(100)
      INTEGER INFO
      CALL BLOCKS(20, 30, WORK, 100, INFO)
      CALL BLOCKS(20, 30, WORK, 40, INFO)
      CALL BLOCKS(0, 30, WORK, 100, INFO)
      PRINT *, INFO
      END

      SUBROUTINE BLOCKS(M, N, WORK, LWORK, INFO)
      INTEGER M, N, LWORK, INFO
      DOUBLE PRECISION WORK(*)
      INTEGER K, NB, I, LWKOPT
      LOGICAL LQUERY
      INTEGER BSIZE
      EXTERNAL BSIZE
      INFO = 0
      LQUERY = (LWORK .EQ. -1)
      IF (M .LT. 0) THEN
         INFO = -1
      ELSE IF (N .LT. 0) THEN
         INFO = -2
      END IF
      IF (INFO .EQ. 0) THEN
         K = MIN(M, N)
         IF (K .EQ. 0) THEN
            LWKOPT = 1
         ELSE
            NB = BSIZE(M, N)
            LWKOPT = M * NB
         END IF
         WORK(1) = LWKOPT
         IF (.NOT. LQUERY) THEN
            IF (LWORK .LE. 0) INFO = -4
         END IF
      END IF
      IF (INFO .NE. 0) THEN
         RETURN
      ELSE IF (LQUERY) THEN
         RETURN
      END IF
      IF (K .EQ. 0) RETURN
      IF (LWORK .LT. M * NB) NB = LWORK / M
      IF (NB .GT. 1 .AND. NB .LT. K) THEN
         DO 10 I = 1, K, NB
            WORK(I) = DBLE(I)
   10    CONTINUE
      ELSE
         WORK(1) = 0.0D0
      END IF
      END

      INTEGER FUNCTION BSIZE(M, N)
      INTEGER M, N
      BSIZE = 4
      IF (MIN(M, N) .GT. 100) BSIZE = 32
      END
