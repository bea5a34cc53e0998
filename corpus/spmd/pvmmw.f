C     Master/worker with PVM 3: the sum of 1/k**2 for k = 1 ... N.
C     Every task joins the group 'mw'; instance 0 is the master (the
C     task started by hand). The master reads N and the number of
C     workers NW, spawns them, sends each its chunk (two integers packed
C     in one message), and collects one partial sum (a REAL8) from each.
C     Input (master): N, NW.
      PROGRAM PVMMW
      INCLUDE 'fpvm3.h'
      INTEGER MAXW
      PARAMETER (MAXW = 64)
      INTEGER MYTID, ME, PTID, BUFID, INFO, N, NW, NUMT, NCHUNK, I, J
      INTEGER NLOC, K, TIDS(MAXW)
      DOUBLE PRECISION S, TOTAL
      CALL PVMFMYTID(MYTID)
      CALL PVMFJOINGROUP('mw', ME)
      IF (ME .EQ. 0) THEN
         READ (*, *) N, NW
         CALL PVMFSPAWN('pvmmw', PVMTASKDEFAULT, '*', NW, TIDS, NUMT)
         NCHUNK = N / NUMT
         DO 10 I = 1, NUMT
            CALL PVMFINITSEND(PVMDEFAULT, BUFID)
            CALL PVMFPACK(INTEGER4, NCHUNK, 1, 1, INFO)
            CALL PVMFPACK(INTEGER4, I, 1, 1, INFO)
            CALL PVMFSEND(TIDS(I), 1, INFO)
   10    CONTINUE
         TOTAL = 0.0D0
         DO 20 I = 1, NUMT
            CALL PVMFRECV(-1, 2, BUFID)
            CALL PVMFUNPACK(REAL8, S, 1, 1, INFO)
            TOTAL = TOTAL + S
   20    CONTINUE
         WRITE (*, '(A, F14.10)') 'sum', TOTAL
      ELSE
         CALL PVMFPARENT(PTID)
         CALL PVMFRECV(PTID, 1, BUFID)
         CALL PVMFUNPACK(INTEGER4, NLOC, 1, 1, INFO)
         CALL PVMFUNPACK(INTEGER4, K, 1, 1, INFO)
         S = 0.0D0
         DO 30 J = 1, NLOC
            S = S + 1.0D0 / DBLE((K - 1)*NLOC + J)**2
   30    CONTINUE
         CALL PVMFINITSEND(PVMDEFAULT, BUFID)
         CALL PVMFPACK(REAL8, S, 1, 1, INFO)
         CALL PVMFSEND(PTID, 2, INFO)
      END IF
      CALL PVMFLVGROUP('mw', INFO)
      CALL PVMFEXIT(INFO)
      END
