C***********************************************************************
C
C     MD1  --  MOLECULAR DYNAMICS OF A LENNARD-JONES FLUID
C
C     A SMALL MOLECULAR-DYNAMICS BENCHMARK IN THE STYLE OF THE GENESIS
C     MD1 KERNEL, WRITTEN FOR THE SAD CORPUS.  IT SIMULATES NPART
C     LENNARD-JONES ATOMS IN A CUBIC BOX WITH PERIODIC BOUNDARIES IN
C     REDUCED UNITS (SIGMA = EPSILON = MASS = BOLTZMANN = 1).
C
C     ALGORITHM
C       1. READ THE RUN PARAMETERS FROM STANDARD INPUT (UNIT 5).
C       2. PLACE THE FIRST NPART SITES OF THE SMALLEST FCC LATTICE
C          THAT HOLDS THEM IN A BOX OF VOLUME NPART/RHO.
C       3. DRAW MAXWELL-BOLTZMANN VELOCITIES FROM A PORTABLE LINEAR
C          CONGRUENTIAL GENERATOR, REMOVE THE CENTRE-OF-MASS DRIFT AND
C          SCALE TO THE REQUIRED TEMPERATURE.
C       4. INTEGRATE NSTEP STEPS WITH THE VELOCITY VERLET SCHEME.
C          FORCES ARE COMPUTED WITH LINK CELLS (HEAD-OF-CHAIN LISTS,
C          13 HALF-SHELL NEIGHBOUR CELLS) AND A TRUNCATED AND SHIFTED
C          POTENTIAL.  WHEN THE BOX IS TOO SMALL FOR 3 CELLS PER EDGE
C          AN ALL-PAIRS ROUTINE IS USED INSTEAD.
C       5. DURING THE EQUILIBRATION PHASE (THE FIRST NSTEP/2 STEPS)
C          THE TEMPERATURE IS RESCALED EVERY NRESC STEPS IF IT DRIFTS
C          MORE THAN TOLT FROM THE REQUIRED VALUE.
C       6. DURING PRODUCTION, ENERGIES, TEMPERATURE, PRESSURE (VIRIAL),
C          THE RADIAL DISTRIBUTION FUNCTION AND THE MEAN SQUARE
C          DISPLACEMENT ARE ACCUMULATED AND REPORTED AT THE END.
C
C     INPUT (UNIT 5, ONE VALUE PER RECORD, LIST DIRECTED)
C       NPART   NUMBER OF PARTICLES (2 .. NMAX)
C       RHO     REDUCED DENSITY
C       TREQ    REQUIRED REDUCED TEMPERATURE
C       NSTEP   NUMBER OF TIME STEPS
C       DT      TIME STEP
C       RCUT    POTENTIAL CUTOFF
C       NRESC   TEMPERATURE RESCALING INTERVAL (EQUILIBRATION ONLY)
C
C     PROCEDURES
C       MD1     MAIN PROGRAM, TIME-STEP LOOP
C       RDINP   READ INPUT            CHKINP  CHECK INPUT, DERIVED INTS
C       SETBOX  BOX, CUTOFF, CELLS    FCCLAT  FCC START LATTICE
C       RANF    UNIFORM RANDOM (LCG)  GAUSS   NORMAL RANDOM (POLAR)
C       INIVEL  INITIAL VELOCITIES    MAPS    NEIGHBOUR-CELL MAP
C       LINKS   HEAD-OF-CHAIN LISTS   FORCE   LINK-CELL FORCES
C       FORCE2  ALL-PAIRS FORCES      MOVEA   FIRST VERLET HALF STEP
C       WRAP    PERIODIC BOUNDARIES   MOVEB   SECOND VERLET HALF STEP
C       RESCAL  TEMPERATURE RESCALING THERMO  INSTANTANEOUS T, P, E
C       ZERODX  RESET DISPLACEMENTS   ZEROAC  RESET ACCUMULATORS
C       ACCUM   ACCUMULATE AVERAGES   REPORT  FINAL STATISTICS
C
C***********************************************************************
      PROGRAM MD1
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
C
C     ARRAY LIMITS, REPEATED IN EVERY ROUTINE THAT NEEDS THEM:
C       NMAX    MAXIMUM NUMBER OF PARTICLES
C       MMAX    MAXIMUM NUMBER OF LINK CELLS PER BOX EDGE
C       NBIN    NUMBER OF BINS OF THE RADIAL DISTRIBUTION FUNCTION
C     NGR IS THE SAMPLING INTERVAL OF THE RADIAL DISTRIBUTION FUNCTION
C
      PARAMETER (NGR = 2)
C
      COMMON /SYSR/   RHO, TREQ, BOXL, BOXINV, VOL, RCUT, RCUTSQ,
     &                VCUTR, ELRC, PLRC, DT, DELR
      COMMON /SYSI/   NPART, NSTEP, NRESC, NEQ, NDF, NPRINT
      LOGICAL USECEL, DOGR
      COMMON /FLAGS/  USECEL, DOGR
      COMMON /ENERG/  EKIN, EPOT, VIR, ETOT, TINST, PRES, NPAIR
      COMMON /RANC/   ISEED
C
C     SEED OF THE RANDOM NUMBER GENERATOR (FIXED: RUNS ARE
C     REPRODUCIBLE)
C
      ISEED = 4711
C
C     ----- SET UP THE SYSTEM -----
C
      CALL RDINP
      CALL CHKINP
      CALL SETBOX
      CALL FCCLAT
      CALL INIVEL
      IF (USECEL) THEN
         CALL MAPS
         CALL LINKS
         CALL FORCE
      ELSE
         CALL FORCE2
      ENDIF
      CALL KINET
      CALL THERMO
      CALL ZEROAC
C
      WRITE (6, 9000)
      WRITE (6, 9010) 0, TINST, EKIN/DBLE(NPART), EPOT/DBLE(NPART),
     &                ETOT/DBLE(NPART), PRES
C
C     ----- MAIN LOOP OVER TIME STEPS -----
C
      DO 100 ISTEP = 1, NSTEP
C
C        FIRST HALF KICK AND DRIFT, NEW CELL LISTS, NEW FORCES
C
         CALL MOVEA
         DOGR = ISTEP .GT. NEQ .AND. MOD(ISTEP - NEQ, NGR) .EQ. 0
         IF (USECEL) THEN
            CALL LINKS
            CALL FORCE
         ELSE
            CALL FORCE2
         ENDIF
C
C        SECOND HALF KICK
C
         CALL MOVEB
C
C        EQUILIBRATION: RESCALE EVERY NRESC STEPS
C
         IF (ISTEP .LE. NEQ) THEN
            IF (MOD(ISTEP, NRESC) .EQ. 0) CALL RESCAL
            IF (ISTEP .EQ. NEQ) CALL ZERODX
         ENDIF
C
         CALL THERMO
C
C        GUARD AGAINST A BLOW-UP (NAN OR INFINITE ENERGY)
C
         IF (.NOT. (ETOT .EQ. ETOT) .OR. ABS(ETOT) .GT. 1.0D30) THEN
            WRITE (6, 9020) ISTEP
            STOP 'MD1: INSTABILITY'
         ENDIF
C
         IF (ISTEP .GT. NEQ) CALL ACCUM
C
         IF (MOD(ISTEP, NPRINT) .EQ. 0) THEN
            WRITE (6, 9010) ISTEP, TINST, EKIN/DBLE(NPART),
     &                      EPOT/DBLE(NPART), ETOT/DBLE(NPART), PRES
         ENDIF
  100 CONTINUE
C
C     ----- FINAL STATISTICS -----
C
      CALL REPORT
      STOP
C
 9000 FORMAT (/1X,'  STEP',8X,'TEMP',7X,'EKIN/N',7X,'EPOT/N',
     &        7X,'ETOT/N',9X,'PRES')
 9010 FORMAT (1X,I6,5F13.6)
 9020 FORMAT (/1X,'*** ENERGY IS NOT FINITE AT STEP ',I8)
      END
C***********************************************************************
C
C     RDINP  --  READ THE RUN PARAMETERS FROM UNIT 5
C
C***********************************************************************
      SUBROUTINE RDINP
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      COMMON /SYSR/   RHO, TREQ, BOXL, BOXINV, VOL, RCUT, RCUTSQ,
     &                VCUTR, ELRC, PLRC, DT, DELR
      COMMON /SYSI/   NPART, NSTEP, NRESC, NEQ, NDF, NPRINT
C
      READ (5, *, ERR=900, END=900) NPART
      READ (5, *, ERR=900, END=900) RHO
      READ (5, *, ERR=900, END=900) TREQ
      READ (5, *, ERR=900, END=900) NSTEP
      READ (5, *, ERR=900, END=900) DT
      READ (5, *, ERR=900, END=900) RCUT
      READ (5, *, ERR=900, END=900) NRESC
C
      WRITE (6, 9000)
      WRITE (6, 9010) NPART, RHO, TREQ, NSTEP, DT, RCUT, NRESC
      RETURN
C
C     ANY READ ERROR OR A SHORT INPUT FILE IS FATAL
C
  900 WRITE (6, 9020)
      STOP 'MD1: BAD INPUT'
C
 9000 FORMAT (1X,'MD1 -- LENNARD-JONES MOLECULAR DYNAMICS'/
     &        1X,'======================================='/)
 9010 FORMAT (1X,'NUMBER OF PARTICLES      NPART = ',I10/
     &        1X,'REDUCED DENSITY          RHO   = ',F10.4/
     &        1X,'REQUIRED TEMPERATURE     TREQ  = ',F10.4/
     &        1X,'NUMBER OF STEPS          NSTEP = ',I10/
     &        1X,'TIME STEP                DT    = ',F10.5/
     &        1X,'POTENTIAL CUTOFF         RCUT  = ',F10.4/
     &        1X,'RESCALING INTERVAL       NRESC = ',I10)
 9020 FORMAT (/1X,'*** ERROR READING THE INPUT: EXPECTED NPART, RHO,'/
     &        1X,'    TREQ, NSTEP, DT, RCUT, NRESC (ONE PER LINE)')
      END
C***********************************************************************
C
C     CHKINP  --  CHECK THE INPUT AGAINST THE ARRAY LIMITS AND SET THE
C                 DERIVED INTEGER CONTROL VARIABLES
C
C***********************************************************************
      SUBROUTINE CHKINP
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NMAX = 16384)
      COMMON /SYSR/   RHO, TREQ, BOXL, BOXINV, VOL, RCUT, RCUTSQ,
     &                VCUTR, ELRC, PLRC, DT, DELR
      COMMON /SYSI/   NPART, NSTEP, NRESC, NEQ, NDF, NPRINT
C
C     THE PARTICLE ARRAYS ARE DIMENSIONED NMAX
C
      IF (NPART .GT. NMAX) THEN
         WRITE (6, 9000) NPART, NMAX
         STOP 'MD1: NPART TOO BIG'
      ENDIF
C
      IERR = 0
      IF (NPART .LT. 2) THEN
         WRITE (6, 9010) 'NPART MUST BE AT LEAST 2'
         IERR = IERR + 1
      ENDIF
      IF (RHO .LE. 0.0D0) THEN
         WRITE (6, 9010) 'RHO MUST BE POSITIVE'
         IERR = IERR + 1
      ENDIF
      IF (TREQ .LE. 0.0D0) THEN
         WRITE (6, 9010) 'TREQ MUST BE POSITIVE'
         IERR = IERR + 1
      ENDIF
      IF (NSTEP .LT. 1) THEN
         WRITE (6, 9010) 'NSTEP MUST BE AT LEAST 1'
         IERR = IERR + 1
      ENDIF
      IF (DT .LE. 0.0D0) THEN
         WRITE (6, 9010) 'DT MUST BE POSITIVE'
         IERR = IERR + 1
      ENDIF
      IF (RCUT .LE. 1.0D0) THEN
         WRITE (6, 9010) 'RCUT MUST BE GREATER THAN 1'
         IERR = IERR + 1
      ENDIF
      IF (IERR .GT. 0) STOP 'MD1: INVALID INPUT'
C
      IF (NRESC .LT. 1) THEN
         WRITE (6, 9020)
         NRESC = 1
      ENDIF
C
C     DERIVED CONTROL VARIABLES
C       NEQ     LENGTH OF THE EQUILIBRATION PHASE
C       NDF     DEGREES OF FREEDOM (TOTAL MOMENTUM IS CONSERVED)
C       NPRINT  PRINT INTERVAL (ABOUT TEN LINES PER RUN)
C
      NEQ = NSTEP / 2
      NDF = 3*NPART - 3
      NPRINT = MAX(1, NSTEP/10)
      RETURN
C
 9000 FORMAT (/1X,'*** NPART = ',I10,' EXCEEDS THE MAXIMUM NMAX = ',
     &        I10/1X,'    INCREASE NMAX AND RECOMPILE')
 9010 FORMAT (1X,'*** INPUT ERROR: ',A)
 9020 FORMAT (1X,'*** WARNING: NRESC < 1, RESCALING EVERY STEP')
      END
C***********************************************************************
C
C     SETBOX  --  BOX LENGTH, CUTOFF CONSTANTS, LONG-RANGE CORRECTIONS
C                 AND THE NUMBER OF LINK CELLS
C
C***********************************************************************
      SUBROUTINE SETBOX
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NMAX = 16384, MMAX = 40, NBIN = 100)
      PARAMETER (NCMAX = MMAX*MMAX*MMAX, MAPSIZ = 13*NCMAX)
      PARAMETER (PI = 3.14159265358979324D0)
      INTEGER HEAD
      COMMON /CELLS/  HEAD(NCMAX), LIST(NMAX), MAP(MAPSIZ), M, NCELL
      COMMON /SYSR/   RHO, TREQ, BOXL, BOXINV, VOL, RCUT, RCUTSQ,
     &                VCUTR, ELRC, PLRC, DT, DELR
      COMMON /SYSI/   NPART, NSTEP, NRESC, NEQ, NDF, NPRINT
      LOGICAL USECEL, DOGR
      COMMON /FLAGS/  USECEL, DOGR
C
      VOL = DBLE(NPART) / RHO
      BOXL = VOL ** (1.0D0/3.0D0)
      BOXINV = 1.0D0 / BOXL
C
C     THE MINIMUM IMAGE CONVENTION NEEDS RCUT <= BOXL/2
C
      IF (RCUT .GT. 0.5D0*BOXL) THEN
         WRITE (6, 9000) RCUT, 0.5D0*BOXL
         RCUT = 0.5D0*BOXL
      ENDIF
      RCUTSQ = RCUT*RCUT
C
C     SHIFT OF THE POTENTIAL AT THE CUTOFF (IN UNITS OF 4 EPSILON)
C
      SR2 = 1.0D0 / RCUTSQ
      SR6 = SR2*SR2*SR2
      VCUTR = SR6*SR6 - SR6
C
C     LONG-RANGE CORRECTIONS OF THE UNSHIFTED POTENTIAL BEYOND RCUT:
C     ENERGY PER PARTICLE AND PRESSURE
C
      RC3 = 1.0D0 / (RCUT*RCUT*RCUT)
      RC9 = RC3*RC3*RC3
      ELRC = 8.0D0/3.0D0 * PI * RHO * (RC9/3.0D0 - RC3)
      PLRC = 16.0D0/3.0D0 * PI * RHO*RHO * (2.0D0/3.0D0*RC9 - RC3)
C
C     LINK CELLS: AT LEAST RCUT WIDE; THE HALF-SHELL METHOD NEEDS
C     AT LEAST 3 CELLS PER EDGE, OTHERWISE ALL PAIRS ARE SEARCHED
C
      M = INT(BOXL / RCUT)
      IF (M .GT. MMAX) M = MMAX
      USECEL = M .GE. 3
      IF (USECEL) THEN
         NCELL = M*M*M
      ELSE
         NCELL = 0
      ENDIF
C
C     BIN WIDTH OF THE RADIAL DISTRIBUTION FUNCTION (UP TO RCUT)
C
      DELR = RCUT / DBLE(NBIN)
C
      WRITE (6, 9010) BOXL, VOL, M, NCELL
      IF (.NOT. USECEL) WRITE (6, 9020)
      RETURN
C
 9000 FORMAT (1X,'*** WARNING: RCUT = ',F8.4,' REDUCED TO BOXL/2 = ',
     &        F8.4)
 9010 FORMAT (1X,'BOX LENGTH               BOXL  = ',F10.4/
     &        1X,'BOX VOLUME               VOL   = ',F10.2/
     &        1X,'CELLS PER EDGE           M     = ',I10/
     &        1X,'NUMBER OF CELLS          NCELL = ',I10)
 9020 FORMAT (1X,'BOX TOO SMALL FOR LINK CELLS: ALL-PAIRS FORCES')
      END
C***********************************************************************
C
C     FCCLAT  --  FACE-CENTRED CUBIC START LATTICE
C
C     THE SMALLEST LATTICE OF NC*NC*NC UNIT CELLS (4 SITES EACH) THAT
C     HOLDS NPART PARTICLES IS SPREAD OVER THE BOX AND ITS FIRST NPART
C     SITES ARE OCCUPIED.  THE LATTICE IS SHIFTED BY A QUARTER OF A
C     UNIT CELL SO THAT NO SITE LIES ON A BOX FACE.
C
C***********************************************************************
      SUBROUTINE FCCLAT
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NMAX = 16384)
      COMMON /PARTCL/ RX(NMAX), RY(NMAX), RZ(NMAX),
     &                VX(NMAX), VY(NMAX), VZ(NMAX),
     &                FX(NMAX), FY(NMAX), FZ(NMAX)
      COMMON /SYSR/   RHO, TREQ, BOXL, BOXINV, VOL, RCUT, RCUTSQ,
     &                VCUTR, ELRC, PLRC, DT, DELR
      COMMON /SYSI/   NPART, NSTEP, NRESC, NEQ, NDF, NPRINT
      DIMENSION BX(4), BY(4), BZ(4)
C
C     POSITIONS OF THE FOUR SITES IN THE UNIT CELL
C
      DATA BX / 0.0D0, 0.5D0, 0.5D0, 0.0D0 /
      DATA BY / 0.0D0, 0.5D0, 0.0D0, 0.5D0 /
      DATA BZ / 0.0D0, 0.0D0, 0.5D0, 0.5D0 /
C
C     SMALLEST NC WITH 4*NC**3 >= NPART
C
      NC = 1
   10 IF (4*NC*NC*NC .LT. NPART) THEN
         NC = NC + 1
         GOTO 10
      ENDIF
      A = BOXL / DBLE(NC)
C
C     OCCUPY THE SITES IN ORDER UNTIL NPART ATOMS HAVE BEEN PLACED
C
      II = 0
      DO 30 IZ = 1, NC
      DO 30 IY = 1, NC
      DO 30 IX = 1, NC
         DO 20 IB = 1, 4
            IF (II .GE. NPART) GOTO 40
            II = II + 1
            RX(II) = (DBLE(IX - 1) + BX(IB) + 0.25D0) * A
            RY(II) = (DBLE(IY - 1) + BY(IB) + 0.25D0) * A
            RZ(II) = (DBLE(IZ - 1) + BZ(IB) + 0.25D0) * A
   20    CONTINUE
   30 CONTINUE
   40 CONTINUE
C
      WRITE (6, 9000) NC, 4*NC*NC*NC, A
      RETURN
C
 9000 FORMAT (1X,'FCC LATTICE: ',I4,'**3 UNIT CELLS, ',I8,
     &        ' SITES, LATTICE CONSTANT ',F8.4)
      END
C***********************************************************************
C
C     RANF  --  UNIFORM RANDOM NUMBER IN (0,1)
C
C     MINIMAL STANDARD MULTIPLICATIVE LINEAR CONGRUENTIAL GENERATOR
C     X(K+1) = 16807 * X(K) MOD (2**31 - 1), COMPUTED WITH SCHRAGE'S
C     FACTORISATION SO THAT NO INTERMEDIATE RESULT OVERFLOWS A 32-BIT
C     INTEGER.  THE SAME SEED GIVES THE SAME SEQUENCE ON ANY MACHINE.
C
C***********************************************************************
      DOUBLE PRECISION FUNCTION RANF()
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (IA = 16807, IM = 2147483647)
      PARAMETER (IQ = 127773, IR = 2836)
      COMMON /RANC/   ISEED
C
      K = ISEED / IQ
      ISEED = IA*(ISEED - K*IQ) - IR*K
      IF (ISEED .LT. 0) ISEED = ISEED + IM
      RANF = DBLE(ISEED) / DBLE(IM)
      RETURN
      END
C***********************************************************************
C
C     GAUSS  --  STANDARD NORMAL RANDOM NUMBER
C
C     POLAR METHOD OF MARSAGLIA: A POINT IS DRAWN UNIFORMLY IN THE
C     SQUARE (-1,1)**2 UNTIL IT FALLS INSIDE THE UNIT CIRCLE; EACH
C     ACCEPTED POINT GIVES TWO INDEPENDENT DEVIATES, THE SECOND ONE IS
C     SAVED FOR THE NEXT CALL.
C
C***********************************************************************
      DOUBLE PRECISION FUNCTION GAUSS()
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      DOUBLE PRECISION RANF
      EXTERNAL RANF
      SAVE ISET, GSAVE
      DATA ISET / 0 /, GSAVE / 0.0D0 /
C
      IF (ISET .EQ. 0) THEN
C
C        REJECTION LOOP (ACCEPTANCE PROBABILITY PI/4)
C
   10    V1 = 2.0D0*RANF() - 1.0D0
         V2 = 2.0D0*RANF() - 1.0D0
         RSQ = V1*V1 + V2*V2
         IF (RSQ .GE. 1.0D0 .OR. RSQ .EQ. 0.0D0) GOTO 10
         FAC = SQRT(-2.0D0*LOG(RSQ)/RSQ)
         GSAVE = V1*FAC
         GAUSS = V2*FAC
         ISET = 1
      ELSE
         GAUSS = GSAVE
         ISET = 0
      ENDIF
      RETURN
      END
C***********************************************************************
C
C     INIVEL  --  INITIAL VELOCITIES
C
C     MAXWELL-BOLTZMANN VELOCITIES AT TEMPERATURE TREQ WITH ZERO TOTAL
C     MOMENTUM.  THE UNWRAPPED DISPLACEMENTS ARE SET TO ZERO.
C
C***********************************************************************
      SUBROUTINE INIVEL
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NMAX = 16384)
      COMMON /PARTCL/ RX(NMAX), RY(NMAX), RZ(NMAX),
     &                VX(NMAX), VY(NMAX), VZ(NMAX),
     &                FX(NMAX), FY(NMAX), FZ(NMAX)
      COMMON /DISPL/  DX(NMAX), DY(NMAX), DZ(NMAX)
      COMMON /SYSR/   RHO, TREQ, BOXL, BOXINV, VOL, RCUT, RCUTSQ,
     &                VCUTR, ELRC, PLRC, DT, DELR
      COMMON /SYSI/   NPART, NSTEP, NRESC, NEQ, NDF, NPRINT
      DOUBLE PRECISION GAUSS
      EXTERNAL GAUSS
C
      DO 10 I = 1, NPART
         VX(I) = GAUSS()
         VY(I) = GAUSS()
         VZ(I) = GAUSS()
         DX(I) = 0.0D0
         DY(I) = 0.0D0
         DZ(I) = 0.0D0
   10 CONTINUE
C
C     CENTRE-OF-MASS VELOCITY
C
      SUMX = 0.0D0
      SUMY = 0.0D0
      SUMZ = 0.0D0
      DO 20 I = 1, NPART
         SUMX = SUMX + VX(I)
         SUMY = SUMY + VY(I)
         SUMZ = SUMZ + VZ(I)
   20 CONTINUE
      SUMX = SUMX / DBLE(NPART)
      SUMY = SUMY / DBLE(NPART)
      SUMZ = SUMZ / DBLE(NPART)
C
C     REMOVE THE DRIFT AND SUM THE SQUARED VELOCITIES
C
      V2 = 0.0D0
      DO 30 I = 1, NPART
         VX(I) = VX(I) - SUMX
         VY(I) = VY(I) - SUMY
         VZ(I) = VZ(I) - SUMZ
         V2 = V2 + VX(I)*VX(I) + VY(I)*VY(I) + VZ(I)*VZ(I)
   30 CONTINUE
C
C     SCALE TO THE REQUIRED TEMPERATURE: SUM V**2 = NDF * TREQ
C
      SCALE = SQRT(DBLE(NDF)*TREQ / V2)
      DO 40 I = 1, NPART
         VX(I) = VX(I)*SCALE
         VY(I) = VY(I)*SCALE
         VZ(I) = VZ(I)*SCALE
   40 CONTINUE
      RETURN
      END
C***********************************************************************
C
C     MAPS  --  MAP OF THE 13 HALF-SHELL NEIGHBOURS OF EVERY CELL
C
C     CELL (IX,IY,IZ), 1 <= IX,IY,IZ <= M, HAS THE NUMBER
C     ICELL = 1 + (IX-1) + (IY-1)*M + (IZ-1)*M*M.  THE STATEMENT
C     FUNCTION ICELL WRAPS THE INDICES PERIODICALLY.  MAP(13*(IC-1)+K)
C     IS THE K-TH NEIGHBOUR OF CELL IC; EACH PAIR OF ADJACENT CELLS
C     APPEARS ONLY ONCE IN THE MAP.
C
C***********************************************************************
      SUBROUTINE MAPS
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NMAX = 16384, MMAX = 40)
      PARAMETER (NCMAX = MMAX*MMAX*MMAX, MAPSIZ = 13*NCMAX)
      INTEGER HEAD
      COMMON /CELLS/  HEAD(NCMAX), LIST(NMAX), MAP(MAPSIZ), M, NCELL
C
      ICELL(IX, IY, IZ) = 1 + MOD(IX - 1 + M, M)
     &                      + MOD(IY - 1 + M, M) * M
     &                      + MOD(IZ - 1 + M, M) * M * M
C
      DO 50 IZ = 1, M
      DO 50 IY = 1, M
      DO 50 IX = 1, M
         IMAP = (ICELL(IX, IY, IZ) - 1) * 13
         MAP(IMAP + 1)  = ICELL(IX + 1, IY    , IZ    )
         MAP(IMAP + 2)  = ICELL(IX + 1, IY + 1, IZ    )
         MAP(IMAP + 3)  = ICELL(IX    , IY + 1, IZ    )
         MAP(IMAP + 4)  = ICELL(IX - 1, IY + 1, IZ    )
         MAP(IMAP + 5)  = ICELL(IX + 1, IY    , IZ - 1)
         MAP(IMAP + 6)  = ICELL(IX + 1, IY + 1, IZ - 1)
         MAP(IMAP + 7)  = ICELL(IX    , IY + 1, IZ - 1)
         MAP(IMAP + 8)  = ICELL(IX - 1, IY + 1, IZ - 1)
         MAP(IMAP + 9)  = ICELL(IX + 1, IY - 1, IZ - 1)
         MAP(IMAP + 10) = ICELL(IX    , IY - 1, IZ - 1)
         MAP(IMAP + 11) = ICELL(IX - 1, IY - 1, IZ - 1)
         MAP(IMAP + 12) = ICELL(IX - 1, IY    , IZ - 1)
         MAP(IMAP + 13) = ICELL(IX    , IY    , IZ - 1)
   50 CONTINUE
      RETURN
      END
C***********************************************************************
C
C     LINKS  --  SORT THE PARTICLES INTO LINK CELLS
C
C     HEAD(IC) IS THE FIRST PARTICLE OF CELL IC (0 IF THE CELL IS
C     EMPTY), LIST(I) THE PARTICLE AFTER I IN THE SAME CELL (0 AT THE
C     END OF THE CHAIN).  POSITIONS ARE IN [0,BOXL) AFTER WRAP.
C
C***********************************************************************
      SUBROUTINE LINKS
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NMAX = 16384, MMAX = 40)
      PARAMETER (NCMAX = MMAX*MMAX*MMAX, MAPSIZ = 13*NCMAX)
      INTEGER HEAD
      COMMON /PARTCL/ RX(NMAX), RY(NMAX), RZ(NMAX),
     &                VX(NMAX), VY(NMAX), VZ(NMAX),
     &                FX(NMAX), FY(NMAX), FZ(NMAX)
      COMMON /CELLS/  HEAD(NCMAX), LIST(NMAX), MAP(MAPSIZ), M, NCELL
      COMMON /SYSR/   RHO, TREQ, BOXL, BOXINV, VOL, RCUT, RCUTSQ,
     &                VCUTR, ELRC, PLRC, DT, DELR
      COMMON /SYSI/   NPART, NSTEP, NRESC, NEQ, NDF, NPRINT
C
      DO 10 ICELL = 1, NCELL
         HEAD(ICELL) = 0
   10 CONTINUE
C
      CELLI = DBLE(M) * BOXINV
      DO 20 I = 1, NPART
C
C        MIN GUARDS AGAINST ROUNDING OF A COORDINATE JUST BELOW BOXL
C
         IX = MIN(INT(RX(I)*CELLI), M - 1)
         IY = MIN(INT(RY(I)*CELLI), M - 1)
         IZ = MIN(INT(RZ(I)*CELLI), M - 1)
         ICELL = 1 + IX + IY*M + IZ*M*M
         LIST(I) = HEAD(ICELL)
         HEAD(ICELL) = I
   20 CONTINUE
      RETURN
      END
C***********************************************************************
C
C     FORCE  --  LENNARD-JONES FORCES WITH LINK CELLS
C
C     V(R) = 4 (R**-12 - R**-6) - V(RCUT) FOR R < RCUT, 0 BEYOND.
C     FOR EVERY CELL THE CHAIN OF ITS PARTICLES IS WALKED (GOTO LOOP
C     10); EACH PARTICLE I INTERACTS WITH THE PARTICLES AFTER IT IN
C     ITS OWN CHAIN (GOTO LOOP 21) AND WITH ALL PARTICLES OF THE 13
C     HALF-SHELL NEIGHBOUR CELLS (GOTO LOOP 22).  NEWTON'S THIRD LAW
C     IS USED, SO EVERY PAIR IS VISITED ONCE.
C
C     ON RETURN: FX, FY, FZ FORCES, EPOT POTENTIAL ENERGY, VIR
C     VIRIAL SUM OF R.F, NPAIR NUMBER OF PAIRS INSIDE THE CUTOFF.
C     WHEN DOGR IS SET THE PAIR DISTANCES ARE ALSO HISTOGRAMMED.
C
C***********************************************************************
      SUBROUTINE FORCE
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NMAX = 16384, MMAX = 40, NBIN = 100)
      PARAMETER (NCMAX = MMAX*MMAX*MMAX, MAPSIZ = 13*NCMAX)
      INTEGER HEAD
      COMMON /PARTCL/ RX(NMAX), RY(NMAX), RZ(NMAX),
     &                VX(NMAX), VY(NMAX), VZ(NMAX),
     &                FX(NMAX), FY(NMAX), FZ(NMAX)
      COMMON /CELLS/  HEAD(NCMAX), LIST(NMAX), MAP(MAPSIZ), M, NCELL
      COMMON /SYSR/   RHO, TREQ, BOXL, BOXINV, VOL, RCUT, RCUTSQ,
     &                VCUTR, ELRC, PLRC, DT, DELR
      COMMON /SYSI/   NPART, NSTEP, NRESC, NEQ, NDF, NPRINT
      LOGICAL USECEL, DOGR
      COMMON /FLAGS/  USECEL, DOGR
      COMMON /ENERG/  EKIN, EPOT, VIR, ETOT, TINST, PRES, NPAIR
      COMMON /GOFRC/  GHIST(NBIN), NGRCNT
C
      DO 5 I = 1, NPART
         FX(I) = 0.0D0
         FY(I) = 0.0D0
         FZ(I) = 0.0D0
    5 CONTINUE
      EPOT = 0.0D0
      VIR = 0.0D0
      NPAIR = 0
      DELRI = 1.0D0 / DELR
      IF (DOGR) NGRCNT = NGRCNT + 1
C
C     ----- LOOP OVER ALL CELLS -----
C
      DO 50 ICELL = 1, NCELL
         I = HEAD(ICELL)
C
C        ----- LOOP OVER THE PARTICLES OF CELL ICELL -----
C
   10    IF (I .EQ. 0) GOTO 40
         RXI = RX(I)
         RYI = RY(I)
         RZI = RZ(I)
         FXI = FX(I)
         FYI = FY(I)
         FZI = FZ(I)
C
C        PARTNERS FURTHER DOWN THE CHAIN OF THE SAME CELL
C
         J = LIST(I)
   21    IF (J .NE. 0) THEN
            RXIJ = RXI - RX(J)
            RYIJ = RYI - RY(J)
            RZIJ = RZI - RZ(J)
            RXIJ = RXIJ - BOXL*ANINT(RXIJ*BOXINV)
            RYIJ = RYIJ - BOXL*ANINT(RYIJ*BOXINV)
            RZIJ = RZIJ - BOXL*ANINT(RZIJ*BOXINV)
            RSQ = RXIJ*RXIJ + RYIJ*RYIJ + RZIJ*RZIJ
            IF (RSQ .LT. RCUTSQ) THEN
               SR2 = 1.0D0 / RSQ
               SR6 = SR2*SR2*SR2
               SR12 = SR6*SR6
               VIJ = SR12 - SR6
               EPOT = EPOT + VIJ - VCUTR
               WIJ = VIJ + SR12
               VIR = VIR + WIJ
               FIJ = WIJ*SR2
               FXIJ = FIJ*RXIJ
               FYIJ = FIJ*RYIJ
               FZIJ = FIJ*RZIJ
               FXI = FXI + FXIJ
               FYI = FYI + FYIJ
               FZI = FZI + FZIJ
               FX(J) = FX(J) - FXIJ
               FY(J) = FY(J) - FYIJ
               FZ(J) = FZ(J) - FZIJ
               NPAIR = NPAIR + 1
               IF (DOGR) THEN
                  IBIN = MIN(INT(SQRT(RSQ)*DELRI) + 1, NBIN)
                  GHIST(IBIN) = GHIST(IBIN) + 2.0D0
               ENDIF
            ENDIF
            J = LIST(J)
            GOTO 21
         ENDIF
C
C        PARTNERS IN THE 13 HALF-SHELL NEIGHBOUR CELLS
C
         JCELL0 = 13*(ICELL - 1)
         DO 30 NABOR = 1, 13
            JCELL = MAP(JCELL0 + NABOR)
            J = HEAD(JCELL)
   22       IF (J .NE. 0) THEN
               RXIJ = RXI - RX(J)
               RYIJ = RYI - RY(J)
               RZIJ = RZI - RZ(J)
               RXIJ = RXIJ - BOXL*ANINT(RXIJ*BOXINV)
               RYIJ = RYIJ - BOXL*ANINT(RYIJ*BOXINV)
               RZIJ = RZIJ - BOXL*ANINT(RZIJ*BOXINV)
               RSQ = RXIJ*RXIJ + RYIJ*RYIJ + RZIJ*RZIJ
               IF (RSQ .LT. RCUTSQ) THEN
                  SR2 = 1.0D0 / RSQ
                  SR6 = SR2*SR2*SR2
                  SR12 = SR6*SR6
                  VIJ = SR12 - SR6
                  EPOT = EPOT + VIJ - VCUTR
                  WIJ = VIJ + SR12
                  VIR = VIR + WIJ
                  FIJ = WIJ*SR2
                  FXIJ = FIJ*RXIJ
                  FYIJ = FIJ*RYIJ
                  FZIJ = FIJ*RZIJ
                  FXI = FXI + FXIJ
                  FYI = FYI + FYIJ
                  FZI = FZI + FZIJ
                  FX(J) = FX(J) - FXIJ
                  FY(J) = FY(J) - FYIJ
                  FZ(J) = FZ(J) - FZIJ
                  NPAIR = NPAIR + 1
                  IF (DOGR) THEN
                     IBIN = MIN(INT(SQRT(RSQ)*DELRI) + 1, NBIN)
                     GHIST(IBIN) = GHIST(IBIN) + 2.0D0
                  ENDIF
               ENDIF
               J = LIST(J)
               GOTO 22
            ENDIF
   30    CONTINUE
C
         FX(I) = FXI
         FY(I) = FYI
         FZ(I) = FZI
         I = LIST(I)
         GOTO 10
   40    CONTINUE
   50 CONTINUE
C
C     ----- SCALE TO THE PHYSICAL CONSTANTS -----
C     F = 24 SUM (2 R**-12 - R**-6) R / R**2,  V = 4 SUM (...),
C     VIRIAL W = SUM R.F = 24 SUM (2 R**-12 - R**-6)
C
      DO 60 I = 1, NPART
         FX(I) = 24.0D0*FX(I)
         FY(I) = 24.0D0*FY(I)
         FZ(I) = 24.0D0*FZ(I)
   60 CONTINUE
      EPOT = 4.0D0*EPOT
      VIR = 24.0D0*VIR
      RETURN
      END
C***********************************************************************
C
C     FORCE2  --  LENNARD-JONES FORCES BY A SEARCH OVER ALL PAIRS
C
C     USED WHEN THE BOX HOLDS FEWER THAN 3 CELLS PER EDGE.  SAME
C     POTENTIAL AND SAME RESULTS AS FORCE.
C
C***********************************************************************
      SUBROUTINE FORCE2
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NMAX = 16384, NBIN = 100)
      COMMON /PARTCL/ RX(NMAX), RY(NMAX), RZ(NMAX),
     &                VX(NMAX), VY(NMAX), VZ(NMAX),
     &                FX(NMAX), FY(NMAX), FZ(NMAX)
      COMMON /SYSR/   RHO, TREQ, BOXL, BOXINV, VOL, RCUT, RCUTSQ,
     &                VCUTR, ELRC, PLRC, DT, DELR
      COMMON /SYSI/   NPART, NSTEP, NRESC, NEQ, NDF, NPRINT
      LOGICAL USECEL, DOGR
      COMMON /FLAGS/  USECEL, DOGR
      COMMON /ENERG/  EKIN, EPOT, VIR, ETOT, TINST, PRES, NPAIR
      COMMON /GOFRC/  GHIST(NBIN), NGRCNT
C
      DO 5 I = 1, NPART
         FX(I) = 0.0D0
         FY(I) = 0.0D0
         FZ(I) = 0.0D0
    5 CONTINUE
      EPOT = 0.0D0
      VIR = 0.0D0
      NPAIR = 0
      DELRI = 1.0D0 / DELR
      IF (DOGR) NGRCNT = NGRCNT + 1
C
      DO 20 I = 1, NPART - 1
         RXI = RX(I)
         RYI = RY(I)
         RZI = RZ(I)
         FXI = FX(I)
         FYI = FY(I)
         FZI = FZ(I)
         DO 10 J = I + 1, NPART
            RXIJ = RXI - RX(J)
            RYIJ = RYI - RY(J)
            RZIJ = RZI - RZ(J)
            RXIJ = RXIJ - BOXL*ANINT(RXIJ*BOXINV)
            RYIJ = RYIJ - BOXL*ANINT(RYIJ*BOXINV)
            RZIJ = RZIJ - BOXL*ANINT(RZIJ*BOXINV)
            RSQ = RXIJ*RXIJ + RYIJ*RYIJ + RZIJ*RZIJ
            IF (RSQ .LT. RCUTSQ) THEN
               SR2 = 1.0D0 / RSQ
               SR6 = SR2*SR2*SR2
               SR12 = SR6*SR6
               VIJ = SR12 - SR6
               EPOT = EPOT + VIJ - VCUTR
               WIJ = VIJ + SR12
               VIR = VIR + WIJ
               FIJ = WIJ*SR2
               FXIJ = FIJ*RXIJ
               FYIJ = FIJ*RYIJ
               FZIJ = FIJ*RZIJ
               FXI = FXI + FXIJ
               FYI = FYI + FYIJ
               FZI = FZI + FZIJ
               FX(J) = FX(J) - FXIJ
               FY(J) = FY(J) - FYIJ
               FZ(J) = FZ(J) - FZIJ
               NPAIR = NPAIR + 1
               IF (DOGR) THEN
                  IBIN = MIN(INT(SQRT(RSQ)*DELRI) + 1, NBIN)
                  GHIST(IBIN) = GHIST(IBIN) + 2.0D0
               ENDIF
            ENDIF
   10    CONTINUE
         FX(I) = FXI
         FY(I) = FYI
         FZ(I) = FZI
   20 CONTINUE
C
      DO 60 I = 1, NPART
         FX(I) = 24.0D0*FX(I)
         FY(I) = 24.0D0*FY(I)
         FZ(I) = 24.0D0*FZ(I)
   60 CONTINUE
      EPOT = 4.0D0*EPOT
      VIR = 24.0D0*VIR
      RETURN
      END
C***********************************************************************
C
C     MOVEA  --  FIRST PART OF A VELOCITY VERLET STEP
C
C     V(T+DT/2) = V(T) + DT/2 F(T);  R(T+DT) = R(T) + DT V(T+DT/2).
C     THE UNWRAPPED DISPLACEMENTS DX, DY, DZ FOLLOW THE SAME MOTION
C     WITHOUT PERIODIC BOUNDARIES.
C
C***********************************************************************
      SUBROUTINE MOVEA
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NMAX = 16384)
      COMMON /PARTCL/ RX(NMAX), RY(NMAX), RZ(NMAX),
     &                VX(NMAX), VY(NMAX), VZ(NMAX),
     &                FX(NMAX), FY(NMAX), FZ(NMAX)
      COMMON /DISPL/  DX(NMAX), DY(NMAX), DZ(NMAX)
      COMMON /SYSR/   RHO, TREQ, BOXL, BOXINV, VOL, RCUT, RCUTSQ,
     &                VCUTR, ELRC, PLRC, DT, DELR
      COMMON /SYSI/   NPART, NSTEP, NRESC, NEQ, NDF, NPRINT
C
      DT2 = 0.5D0*DT
      DO 10 I = 1, NPART
         VX(I) = VX(I) + DT2*FX(I)
         VY(I) = VY(I) + DT2*FY(I)
         VZ(I) = VZ(I) + DT2*FZ(I)
         RX(I) = RX(I) + DT*VX(I)
         RY(I) = RY(I) + DT*VY(I)
         RZ(I) = RZ(I) + DT*VZ(I)
         DX(I) = DX(I) + DT*VX(I)
         DY(I) = DY(I) + DT*VY(I)
         DZ(I) = DZ(I) + DT*VZ(I)
   10 CONTINUE
C
C     PUT THE PARTICLES BACK INTO THE BOX
C
      CALL WRAP(NPART, RX, BOXL)
      CALL WRAP(NPART, RY, BOXL)
      CALL WRAP(NPART, RZ, BOXL)
      RETURN
      END
C***********************************************************************
C
C     WRAP  --  PERIODIC BOUNDARIES FOR ONE COORDINATE
C
C     A PARTICLE MOVES LESS THAN ONE BOX LENGTH PER STEP, SO ONE
C     SHIFT BY +BL OR -BL IS ENOUGH TO BRING X INTO [0,BL).
C
C***********************************************************************
      SUBROUTINE WRAP(N, X, BL)
      INTEGER N
      DOUBLE PRECISION X(N), BL
      INTEGER I
C
      DO 10 I = 1, N
         IF (X(I) .LT. 0.0D0) THEN
            X(I) = X(I) + BL
         ELSE IF (X(I) .GE. BL) THEN
            X(I) = X(I) - BL
         ENDIF
   10 CONTINUE
      RETURN
      END
C***********************************************************************
C
C     MOVEB  --  SECOND PART OF A VELOCITY VERLET STEP
C
C     V(T+DT) = V(T+DT/2) + DT/2 F(T+DT), AND THE KINETIC ENERGY.
C
C***********************************************************************
      SUBROUTINE MOVEB
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NMAX = 16384)
      COMMON /PARTCL/ RX(NMAX), RY(NMAX), RZ(NMAX),
     &                VX(NMAX), VY(NMAX), VZ(NMAX),
     &                FX(NMAX), FY(NMAX), FZ(NMAX)
      COMMON /SYSR/   RHO, TREQ, BOXL, BOXINV, VOL, RCUT, RCUTSQ,
     &                VCUTR, ELRC, PLRC, DT, DELR
      COMMON /SYSI/   NPART, NSTEP, NRESC, NEQ, NDF, NPRINT
      COMMON /ENERG/  EKIN, EPOT, VIR, ETOT, TINST, PRES, NPAIR
C
      DT2 = 0.5D0*DT
      V2 = 0.0D0
      DO 10 I = 1, NPART
         VX(I) = VX(I) + DT2*FX(I)
         VY(I) = VY(I) + DT2*FY(I)
         VZ(I) = VZ(I) + DT2*FZ(I)
         V2 = V2 + VX(I)*VX(I) + VY(I)*VY(I) + VZ(I)*VZ(I)
   10 CONTINUE
      EKIN = 0.5D0*V2
      RETURN
      END
C***********************************************************************
C
C     KINET  --  KINETIC ENERGY OF THE CURRENT VELOCITIES
C
C***********************************************************************
      SUBROUTINE KINET
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NMAX = 16384)
      COMMON /PARTCL/ RX(NMAX), RY(NMAX), RZ(NMAX),
     &                VX(NMAX), VY(NMAX), VZ(NMAX),
     &                FX(NMAX), FY(NMAX), FZ(NMAX)
      COMMON /SYSI/   NPART, NSTEP, NRESC, NEQ, NDF, NPRINT
      COMMON /ENERG/  EKIN, EPOT, VIR, ETOT, TINST, PRES, NPAIR
C
      V2 = 0.0D0
      DO 10 I = 1, NPART
         V2 = V2 + VX(I)*VX(I) + VY(I)*VY(I) + VZ(I)*VZ(I)
   10 CONTINUE
      EKIN = 0.5D0*V2
      RETURN
      END
C***********************************************************************
C
C     RESCAL  --  VELOCITY RESCALING TO THE REQUIRED TEMPERATURE
C
C     THE VELOCITIES ARE SCALED ONLY IF THE INSTANTANEOUS TEMPERATURE
C     DEVIATES FROM TREQ BY MORE THAN THE RELATIVE TOLERANCE TOLT.
C
C***********************************************************************
      SUBROUTINE RESCAL
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NMAX = 16384)
      PARAMETER (TOLT = 0.01D0)
      COMMON /PARTCL/ RX(NMAX), RY(NMAX), RZ(NMAX),
     &                VX(NMAX), VY(NMAX), VZ(NMAX),
     &                FX(NMAX), FY(NMAX), FZ(NMAX)
      COMMON /SYSR/   RHO, TREQ, BOXL, BOXINV, VOL, RCUT, RCUTSQ,
     &                VCUTR, ELRC, PLRC, DT, DELR
      COMMON /SYSI/   NPART, NSTEP, NRESC, NEQ, NDF, NPRINT
      COMMON /ENERG/  EKIN, EPOT, VIR, ETOT, TINST, PRES, NPAIR
      COMMON /ACCUMC/ SUMEK, SUMEP, SUMET, SUMT, SUMP,
     &                SUMT2, SUMP2, SUMET2, E0, DEMAX,
     &                NACC, NRSCL
C
      TNOW = 2.0D0*EKIN / DBLE(NDF)
      IF (ABS(TNOW - TREQ) .GT. TOLT*TREQ) THEN
         SCALE = SQRT(TREQ / TNOW)
         DO 10 I = 1, NPART
            VX(I) = VX(I)*SCALE
            VY(I) = VY(I)*SCALE
            VZ(I) = VZ(I)*SCALE
   10    CONTINUE
         EKIN = EKIN*SCALE*SCALE
         NRSCL = NRSCL + 1
      ENDIF
      RETURN
      END
C***********************************************************************
C
C     THERMO  --  INSTANTANEOUS TEMPERATURE, PRESSURE, TOTAL ENERGY
C
C     P = RHO T + W / (3 V), W THE VIRIAL OF THE TRUNCATED FORCES.
C
C***********************************************************************
      SUBROUTINE THERMO
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      COMMON /SYSR/   RHO, TREQ, BOXL, BOXINV, VOL, RCUT, RCUTSQ,
     &                VCUTR, ELRC, PLRC, DT, DELR
      COMMON /SYSI/   NPART, NSTEP, NRESC, NEQ, NDF, NPRINT
      COMMON /ENERG/  EKIN, EPOT, VIR, ETOT, TINST, PRES, NPAIR
C
      TINST = 2.0D0*EKIN / DBLE(NDF)
      PRES = RHO*TINST + VIR / (3.0D0*VOL)
      ETOT = EKIN + EPOT
      RETURN
      END
C***********************************************************************
C
C     ZERODX  --  RESET THE UNWRAPPED DISPLACEMENTS (START OF THE
C                 PRODUCTION PHASE)
C
C***********************************************************************
      SUBROUTINE ZERODX
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NMAX = 16384)
      COMMON /DISPL/  DX(NMAX), DY(NMAX), DZ(NMAX)
      COMMON /SYSI/   NPART, NSTEP, NRESC, NEQ, NDF, NPRINT
C
      DO 10 I = 1, NPART
         DX(I) = 0.0D0
         DY(I) = 0.0D0
         DZ(I) = 0.0D0
   10 CONTINUE
      RETURN
      END
C***********************************************************************
C
C     ZEROAC  --  RESET THE ACCUMULATORS AND THE G(R) HISTOGRAM
C
C***********************************************************************
      SUBROUTINE ZEROAC
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NBIN = 100)
      COMMON /ACCUMC/ SUMEK, SUMEP, SUMET, SUMT, SUMP,
     &                SUMT2, SUMP2, SUMET2, E0, DEMAX,
     &                NACC, NRSCL
      COMMON /GOFRC/  GHIST(NBIN), NGRCNT
C
      SUMEK = 0.0D0
      SUMEP = 0.0D0
      SUMET = 0.0D0
      SUMT = 0.0D0
      SUMP = 0.0D0
      SUMT2 = 0.0D0
      SUMP2 = 0.0D0
      SUMET2 = 0.0D0
      E0 = 0.0D0
      DEMAX = 0.0D0
      NACC = 0
      NRSCL = 0
      DO 10 K = 1, NBIN
         GHIST(K) = 0.0D0
   10 CONTINUE
      NGRCNT = 0
      RETURN
      END
C***********************************************************************
C
C     ACCUM  --  ACCUMULATE THE PRODUCTION AVERAGES
C
C     THE TOTAL ENERGY OF THE FIRST PRODUCTION STEP IS THE REFERENCE
C     E0 FOR THE ENERGY-CONSERVATION CHECK; DEMAX IS THE LARGEST
C     DEVIATION FROM IT.
C
C***********************************************************************
      SUBROUTINE ACCUM
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      COMMON /ENERG/  EKIN, EPOT, VIR, ETOT, TINST, PRES, NPAIR
      COMMON /ACCUMC/ SUMEK, SUMEP, SUMET, SUMT, SUMP,
     &                SUMT2, SUMP2, SUMET2, E0, DEMAX,
     &                NACC, NRSCL
C
      IF (NACC .EQ. 0) E0 = ETOT
      NACC = NACC + 1
      SUMEK = SUMEK + EKIN
      SUMEP = SUMEP + EPOT
      SUMET = SUMET + ETOT
      SUMT = SUMT + TINST
      SUMP = SUMP + PRES
      SUMT2 = SUMT2 + TINST*TINST
      SUMP2 = SUMP2 + PRES*PRES
      SUMET2 = SUMET2 + ETOT*ETOT
      DE = ABS(ETOT - E0)
      IF (DE .GT. DEMAX) DEMAX = DE
      RETURN
      END
C***********************************************************************
C
C     REPORT  --  FINAL STATISTICS
C
C     AVERAGES AND FLUCTUATIONS OF THE PRODUCTION PHASE, ENERGY DRIFT,
C     TOTAL MOMENTUM, MEAN SQUARE DISPLACEMENT AND THE RADIAL
C     DISTRIBUTION FUNCTION G(R) UP TO RCUT.
C
C***********************************************************************
      SUBROUTINE REPORT
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NMAX = 16384, NBIN = 100)
      PARAMETER (PI = 3.14159265358979324D0)
      COMMON /PARTCL/ RX(NMAX), RY(NMAX), RZ(NMAX),
     &                VX(NMAX), VY(NMAX), VZ(NMAX),
     &                FX(NMAX), FY(NMAX), FZ(NMAX)
      COMMON /DISPL/  DX(NMAX), DY(NMAX), DZ(NMAX)
      COMMON /SYSR/   RHO, TREQ, BOXL, BOXINV, VOL, RCUT, RCUTSQ,
     &                VCUTR, ELRC, PLRC, DT, DELR
      COMMON /SYSI/   NPART, NSTEP, NRESC, NEQ, NDF, NPRINT
      COMMON /ENERG/  EKIN, EPOT, VIR, ETOT, TINST, PRES, NPAIR
      COMMON /ACCUMC/ SUMEK, SUMEP, SUMET, SUMT, SUMP,
     &                SUMT2, SUMP2, SUMET2, E0, DEMAX,
     &                NACC, NRSCL
      COMMON /GOFRC/  GHIST(NBIN), NGRCNT
      DIMENSION GR(NBIN)
C
      RN = DBLE(NPART)
      WRITE (6, 9000) NRSCL
C
C     ----- AVERAGES OVER THE PRODUCTION STEPS -----
C
      IF (NACC .GT. 0) THEN
         ANORM = 1.0D0 / DBLE(NACC)
         AVEK = SUMEK*ANORM
         AVEP = SUMEP*ANORM
         AVET = SUMET*ANORM
         AVT = SUMT*ANORM
         AVP = SUMP*ANORM
         FLT = SQRT(MAX(0.0D0, SUMT2*ANORM - AVT*AVT))
         FLP = SQRT(MAX(0.0D0, SUMP2*ANORM - AVP*AVP))
         FLE = SQRT(MAX(0.0D0, SUMET2*ANORM - AVET*AVET))
C
C        FULL LENNARD-JONES ESTIMATES: UNDO THE SHIFT OF THE LAST
C        CONFIGURATION'S PAIRS AND ADD THE LONG-RANGE CORRECTIONS
C
         EPLJ = (AVEP + 4.0D0*VCUTR*DBLE(NPAIR)) / RN + ELRC
         PLJ = AVP + PLRC
         WRITE (6, 9010) NACC, AVT, FLT, AVEK/RN, AVEP/RN,
     &                   AVET/RN, FLE/RN, AVP, FLP
         WRITE (6, 9020) DEMAX/RN, (ETOT - E0)/RN, EPLJ, PLJ
      ELSE
         WRITE (6, 9030)
      ENDIF
C
C     ----- TOTAL MOMENTUM (SHOULD STAY ZERO) -----
C
      PX = 0.0D0
      PY = 0.0D0
      PZ = 0.0D0
      DO 10 I = 1, NPART
         PX = PX + VX(I)
         PY = PY + VY(I)
         PZ = PZ + VZ(I)
   10 CONTINUE
      WRITE (6, 9040) PX, PY, PZ
C
C     ----- MEAN SQUARE DISPLACEMENT SINCE THE END OF EQUILIBRATION
C
      SUMD = 0.0D0
      DO 20 I = 1, NPART
         SUMD = SUMD + DX(I)*DX(I) + DY(I)*DY(I) + DZ(I)*DZ(I)
   20 CONTINUE
      DMSD = SUMD / RN
      TPROD = DBLE(NSTEP - NEQ) * DT
      IF (TPROD .GT. 0.0D0) THEN
         DIFF = DMSD / (6.0D0*TPROD)
      ELSE
         DIFF = 0.0D0
      ENDIF
      WRITE (6, 9050) DMSD, TPROD, DIFF
C
C     ----- CHECKSUM OF THE FINAL CONFIGURATION -----
C
      CHK = 0.0D0
      DO 50 I = 1, NPART
         CHK = CHK + RX(I) + 2.0D0*RY(I) + 3.0D0*RZ(I)
   50 CONTINUE
      WRITE (6, 9090) CHK
C
C     ----- RADIAL DISTRIBUTION FUNCTION -----
C
      IF (NGRCNT .EQ. 0) THEN
         WRITE (6, 9060)
         RETURN
      ENDIF
      GMAX = 0.0D0
      KMAX = 1
      DO 30 K = 1, NBIN
         RLO = DBLE(K - 1)*DELR
         RHI = DBLE(K)*DELR
         SHELL = 4.0D0/3.0D0 * PI * (RHI**3 - RLO**3)
         GR(K) = GHIST(K) / (RN*DBLE(NGRCNT)*RHO*SHELL)
         IF (GR(K) .GT. GMAX) THEN
            GMAX = GR(K)
            KMAX = K
         ENDIF
   30 CONTINUE
      WRITE (6, 9070) NGRCNT, (DBLE(KMAX) - 0.5D0)*DELR, GMAX
      DO 40 K = 5, NBIN, 5
         WRITE (6, 9080) (DBLE(K) - 0.5D0)*DELR, GR(K)
   40 CONTINUE
      RETURN
C
 9000 FORMAT (/1X,'TEMPERATURE RESCALINGS DURING EQUILIBRATION: ',I6)
 9010 FORMAT (/1X,'AVERAGES OVER ',I8,' PRODUCTION STEPS'/
     &        1X,'  TEMPERATURE           ',F12.6,'  +- ',F10.6/
     &        1X,'  KINETIC ENERGY / N    ',F12.6/
     &        1X,'  POTENTIAL ENERGY / N  ',F12.6/
     &        1X,'  TOTAL ENERGY / N      ',F12.6,'  +- ',F10.6/
     &        1X,'  PRESSURE              ',F12.6,'  +- ',F10.6)
 9020 FORMAT (1X,'  MAX ENERGY DRIFT / N  ',1P,E12.4/
     &        1X,'  END ENERGY DRIFT / N  ',1P,E12.4/
     &        1X,'  FULL LJ EPOT / N      ',0P,F12.6,' (LRC)'/
     &        1X,'  FULL LJ PRESSURE      ',0P,F12.6,' (LRC)')
 9030 FORMAT (/1X,'NO PRODUCTION STEPS: NO AVERAGES')
 9040 FORMAT (/1X,'TOTAL MOMENTUM ',1P,3E12.4)
 9050 FORMAT (1X,'MEAN SQUARE DISPLACEMENT ',F12.6,' OVER T = ',F10.4,
     &        /1X,'DIFFUSION COEFFICIENT    ',F12.6)
 9060 FORMAT (1X,'NO G(R) SAMPLES')
 9070 FORMAT (/1X,'G(R) FROM ',I6,' SAMPLES, FIRST PEAK AT R = ',F8.4,
     &        ' G = ',F8.4/1X,'       R        G(R)')
 9080 FORMAT (1X,2F10.4)
 9090 FORMAT (1X,'CHECKSUM ',1P,E22.14)
      END
