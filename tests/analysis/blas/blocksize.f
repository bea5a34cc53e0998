*     A workspace-sized factorization as LAPACK's DGELQ writes it: the block
*     size NB comes from a function of the sizes (as ILAENV's), is reset
*     where it does not fit, the number of blocks is a MOD on NB - M
*     (guarded by NB > M, so never a division by zero), the workspace
*     needed (LWREQ) is chosen on NB, and INFO from a chain of argument
*     checks decides whether the header is stored and the work done.
      PROGRAM BLKSZ
      INTEGER N
      PARAMETER (N = 40)
      DOUBLE PRECISION T(64 * N), W(3 * N), S
      INTEGER INFO, I
      DO 5 I = 1, 3 * N
         W(I) = 0.0D0
    5 CONTINUE
      CALL FACT(N, N, T, 32 * N, W, N, INFO)
      CALL FACT(N, 3 * N, T, 32 * N, W, 3 * N, INFO)
      S = 0.0D0
      DO 10 I = 1, INT(T(3))
         S = S + 1.0D0
   10 CONTINUE
      PRINT *, INFO, S
      END

      INTEGER FUNCTION NBLOCK(M, N, WHICH)
      INTEGER M, N, WHICH
      IF (WHICH.EQ.2) THEN
         IF (M*N.LE.131072 .OR. M.LE.8192) THEN
            NBLOCK = M
         ELSE
            NBLOCK = 32768 / M
         END IF
      ELSE
         NBLOCK = 1
      END IF
      END

      SUBROUTINE FACT(M, N, T, TSIZE, WORK, LWORK, INFO)
      INTEGER M, N, TSIZE, LWORK, INFO
      DOUBLE PRECISION T(*), WORK(*)
      INTEGER MB, NB, NBLCKS, LWREQ, LWMIN, I, NBLOCK
      LOGICAL LQUERY, SMALL
      EXTERNAL NBLOCK
      INFO = 0
      LQUERY = (TSIZE.EQ.-1 .OR. LWORK.EQ.-1)
      IF (MIN(M, N).GT.0) THEN
         MB = NBLOCK(M, N, 1)
         NB = NBLOCK(M, N, 2)
      ELSE
         MB = 1
         NB = N
      END IF
      IF (NB.GT.N .OR. NB.LE.M) NB = N
      IF (NB.GT.M .AND. N.GT.M) THEN
         IF (MOD(N - M, NB - M).EQ.0) THEN
            NBLCKS = (N - M) / (NB - M)
         ELSE
            NBLCKS = (N - M) / (NB - M) + 1
         END IF
      ELSE
         NBLCKS = 1
      END IF
      IF ((N.LE.M) .OR. (NB.LE.M) .OR. (NB.GE.N)) THEN
         LWMIN = MAX(1, N)
      ELSE
         LWMIN = MAX(1, M)
      END IF
      SMALL = .FALSE.
      IF ((TSIZE.LT.MAX(1, MB*M*NBLCKS + 5) .OR. LWORK.LT.LWMIN)
     $    .AND. (LWORK.GE.1) .AND. (.NOT.LQUERY)) THEN
         IF (TSIZE.LT.MAX(1, MB*M*NBLCKS + 5)) THEN
            SMALL = .TRUE.
            NB = N
         END IF
      END IF
      IF ((N.LE.M) .OR. (NB.LE.M) .OR. (NB.GE.N)) THEN
         LWREQ = MAX(1, MB*N)
      ELSE
         LWREQ = MAX(1, MB*M)
      END IF
      IF (M.LT.0) THEN
         INFO = -1
      ELSE IF (N.LT.0) THEN
         INFO = -2
      ELSE IF (TSIZE.LT.MAX(1, MB*M*NBLCKS + 5)
     $   .AND. (.NOT.LQUERY) .AND. (.NOT.SMALL)) THEN
         INFO = -4
      ELSE IF ((LWORK.LT.LWREQ) .AND. (.NOT.LQUERY)
     $   .AND. (.NOT.SMALL)) THEN
         INFO = -6
      END IF
      IF (INFO.EQ.0) THEN
         T(1) = MB*M*NBLCKS + 5
         T(2) = MB
         T(3) = NB
      END IF
      IF (INFO.NE.0) THEN
         RETURN
      ELSE IF (LQUERY) THEN
         RETURN
      END IF
      DO 20 I = 1, NB
         WORK(MIN(I, LWORK)) = WORK(MIN(I, LWORK)) + 1.0D0
   20 CONTINUE
      END
