C***********************************************************************
C
C     WHETSTONE  --  THE WHETSTONE BENCHMARK IN FORTRAN 77
C
C     WRITTEN FOR THE SAD CORPUS FROM THE PUBLISHED DESCRIPTION OF THE
C     ALGORITHM (H.J. CURNOW AND B.A. WICHMANN, "A SYNTHETIC BENCHMARK",
C     THE COMPUTER JOURNAL 19(1), 1976).  DOUBLE PRECISION THROUGHOUT,
C     LIKE THE TWIN PROGRAM WHETSTONE.C.
C
C     ELEVEN MODULES, EACH A DO LOOP OF NI TRIPS:
C        1  SIMPLE IDENTIFIERS        N1  =   0 * LOOP
C        2  ARRAY ELEMENTS            N2  =  12 * LOOP
C        3  ARRAY AS PARAMETER        N3  =  14 * LOOP
C        4  CONDITIONAL JUMPS         N4  = 345 * LOOP
C        5  (OMITTED IN THE ORIGINAL) N5  =   0
C        6  INTEGER ARITHMETIC        N6  = 210 * LOOP
C        7  TRIGONOMETRIC FUNCTIONS   N7  =  32 * LOOP
C        8  PROCEDURE CALLS           N8  = 899 * LOOP
C        9  ARRAY REFERENCES          N9  = 616 * LOOP
C       10  INTEGER ARITHMETIC        N10 =   0 * LOOP
C       11  STANDARD FUNCTIONS        N11 =  93 * LOOP
C     ONE UNIT OF LOOP IS 100 000 WHETSTONE INSTRUCTIONS: LOOP = 10 IS
C     ONE RUN OF 1 MILLION WHETSTONE INSTRUCTIONS (1 MWI).
C
C     INPUT (UNIT 5): LOOP.  OUTPUT: ONE LINE PER MODULE (N, J, K,
C     X1..X4 AS IN THE ORIGINAL), THE CPU TIME (ETIME, A COMMON
C     EXTENSION -- THE HARNESS MAY TIME THE RUN INSTEAD) AND THE RATE.
C
C***********************************************************************
      PROGRAM WHETST
      DOUBLE PRECISION T, T1, T2, E1(4)
      DOUBLE PRECISION X1, X2, X3, X4, X, Y, Z
      INTEGER J, K, L, I, LOOP
      INTEGER N1, N2, N3, N4, N6, N7, N8, N9, N10, N11
      REAL TARRAY(2), TSTART, TEND, TUSED
      COMMON /CONSTS/ T, T1, T2
      COMMON /ARRAYS/ E1
      COMMON /INDEX/ J, K, L
C
      READ (5, *) LOOP
      IF (LOOP .LT. 0) STOP 'WHETSTONE: LOOP MUST BE >= 0'
      TSTART = ETIME(TARRAY)
C
      T = 0.499975D0
      T1 = 0.50025D0
      T2 = 2.0D0
C
      N1 = 0
      N2 = 12 * LOOP
      N3 = 14 * LOOP
      N4 = 345 * LOOP
      N6 = 210 * LOOP
      N7 = 32 * LOOP
      N8 = 899 * LOOP
      N9 = 616 * LOOP
      N10 = 0
      N11 = 93 * LOOP
C
C     MODULE 1: SIMPLE IDENTIFIERS
C
      X1 = 1.0D0
      X2 = -1.0D0
      X3 = -1.0D0
      X4 = -1.0D0
      DO 10 I = 1, N1
         X1 = (X1 + X2 + X3 - X4) * T
         X2 = (X1 + X2 - X3 + X4) * T
         X3 = (X1 - X2 + X3 + X4) * T
         X4 = (-X1 + X2 + X3 + X4) * T
   10 CONTINUE
      CALL POUT(N1, N1, N1, X1, X2, X3, X4)
C
C     MODULE 2: ARRAY ELEMENTS
C
      E1(1) = 1.0D0
      E1(2) = -1.0D0
      E1(3) = -1.0D0
      E1(4) = -1.0D0
      DO 20 I = 1, N2
         E1(1) = (E1(1) + E1(2) + E1(3) - E1(4)) * T
         E1(2) = (E1(1) + E1(2) - E1(3) + E1(4)) * T
         E1(3) = (E1(1) - E1(2) + E1(3) + E1(4)) * T
         E1(4) = (-E1(1) + E1(2) + E1(3) + E1(4)) * T
   20 CONTINUE
      CALL POUT(N2, N3, N2, E1(1), E1(2), E1(3), E1(4))
C
C     MODULE 3: ARRAY AS PARAMETER
C
      DO 30 I = 1, N3
         CALL PA(E1)
   30 CONTINUE
      CALL POUT(N3, N2, N2, E1(1), E1(2), E1(3), E1(4))
C
C     MODULE 4: CONDITIONAL JUMPS
C
      J = 1
      DO 40 I = 1, N4
         IF (J .EQ. 1) THEN
            J = 2
         ELSE
            J = 3
         END IF
         IF (J .GT. 2) THEN
            J = 0
         ELSE
            J = 1
         END IF
         IF (J .LT. 1) THEN
            J = 1
         ELSE
            J = 0
         END IF
   40 CONTINUE
      CALL POUT(N4, J, J, X1, X2, X3, X4)
C
C     MODULE 5: OMITTED
C
C     MODULE 6: INTEGER ARITHMETIC
C
      J = 1
      K = 2
      L = 3
      DO 60 I = 1, N6
         J = J * (K - J) * (L - K)
         K = L * K - (L - J) * K
         L = (L - K) * (K + J)
         E1(L - 1) = DBLE(J + K + L)
         E1(K - 1) = DBLE(J * K * L)
   60 CONTINUE
      CALL POUT(N6, J, K, E1(1), E1(2), E1(3), E1(4))
C
C     MODULE 7: TRIGONOMETRIC FUNCTIONS
C
      X = 0.5D0
      Y = 0.5D0
      DO 70 I = 1, N7
         X = T * ATAN(T2 * SIN(X) * COS(X) /
     &       (COS(X + Y) + COS(X - Y) - 1.0D0))
         Y = T * ATAN(T2 * SIN(Y) * COS(Y) /
     &       (COS(X + Y) + COS(X - Y) - 1.0D0))
   70 CONTINUE
      CALL POUT(N7, J, K, X, X, Y, Y)
C
C     MODULE 8: PROCEDURE CALLS
C
      X = 1.0D0
      Y = 1.0D0
      Z = 1.0D0
      DO 80 I = 1, N8
         CALL P3(X, Y, Z)
   80 CONTINUE
      CALL POUT(N8, J, K, X, Y, Z, Z)
C
C     MODULE 9: ARRAY REFERENCES
C
      J = 1
      K = 2
      L = 3
      E1(1) = 1.0D0
      E1(2) = 2.0D0
      E1(3) = 3.0D0
      DO 90 I = 1, N9
         CALL P0
   90 CONTINUE
      CALL POUT(N9, J, K, E1(1), E1(2), E1(3), E1(4))
C
C     MODULE 10: INTEGER ARITHMETIC
C
      J = 2
      K = 3
      DO 100 I = 1, N10
         J = J + K
         K = J + K
         J = K - J
         K = K - J - J
  100 CONTINUE
      CALL POUT(N10, J, K, X1, X2, X3, X4)
C
C     MODULE 11: STANDARD FUNCTIONS
C
      X = 0.75D0
      DO 110 I = 1, N11
         X = SQRT(EXP(LOG(X) / T1))
  110 CONTINUE
      CALL POUT(N11, J, K, X, X, X, X)
C
      TEND = ETIME(TARRAY)
      TUSED = TEND - TSTART
      WRITE (6, 900) LOOP, TUSED
      IF (TUSED .GT. 0.0 .AND. LOOP .GT. 0) THEN
         WRITE (6, 910) 1.0D6 * TUSED / (0.1D0 * LOOP),
     &                  100.0D0 * LOOP / TUSED
      END IF
      STOP
  900 FORMAT (1X, 'LOOP =', I6, '   CPU TIME =', F10.4, ' S')
  910 FORMAT (1X, 'TIME PER 1 MWI =', F14.1, ' US   RATE =', F12.1,
     &        ' KWIPS')
      END
C
C***********************************************************************
C     PA: MODULE 3 -- SIX PASSES OVER AN ARRAY PASSED AS A PARAMETER,
C     COUNTED WITH A BACKWARD GOTO AS IN THE ORIGINAL
C***********************************************************************
      SUBROUTINE PA(E)
      DOUBLE PRECISION E(4)
      DOUBLE PRECISION T, T1, T2
      INTEGER J
      COMMON /CONSTS/ T, T1, T2
C
      J = 0
    1 E(1) = (E(1) + E(2) + E(3) - E(4)) * T
      E(2) = (E(1) + E(2) - E(3) + E(4)) * T
      E(3) = (E(1) - E(2) + E(3) + E(4)) * T
      E(4) = (-E(1) + E(2) + E(3) + E(4)) / T2
      J = J + 1
      IF (J .LT. 6) GOTO 1
      RETURN
      END
C
C***********************************************************************
C     P3: MODULE 8 -- X AND Y ARE VALUE PARAMETERS IN THE ORIGINAL:
C     WORK ON LOCAL COPIES, RETURN THE RESULT IN Z
C***********************************************************************
      SUBROUTINE P3(X, Y, Z)
      DOUBLE PRECISION X, Y, Z
      DOUBLE PRECISION T, T1, T2, X1, Y1
      COMMON /CONSTS/ T, T1, T2
C
      X1 = X
      Y1 = Y
      X1 = T * (X1 + Y1)
      Y1 = T * (X1 + Y1)
      Z = (X1 + Y1) / T2
      RETURN
      END
C
C***********************************************************************
C     P0: MODULE 9 -- ARRAY REFERENCES THROUGH GLOBAL INDICES
C***********************************************************************
      SUBROUTINE P0
      DOUBLE PRECISION E1(4)
      INTEGER J, K, L
      COMMON /ARRAYS/ E1
      COMMON /INDEX/ J, K, L
C
      E1(J) = E1(K)
      E1(K) = E1(L)
      E1(L) = E1(J)
      RETURN
      END
C
C***********************************************************************
C     POUT: PRINT THE RESULTS OF ONE MODULE
C***********************************************************************
      SUBROUTINE POUT(N, J, K, X1, X2, X3, X4)
      INTEGER N, J, K
      DOUBLE PRECISION X1, X2, X3, X4
C
      WRITE (6, 900) N, J, K, X1, X2, X3, X4
      RETURN
  900 FORMAT (1X, 3I7, 4(1PE12.4))
      END
