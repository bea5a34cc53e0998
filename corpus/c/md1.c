/* md1.c -- molecular dynamics of a Lennard-Jones fluid: the C twin of corpus/md1/md1.f.
 *
 * Written for the sad corpus as a structure-preserving translation of the Fortran program: the same
 * procedures (lower-case names), the same loops in the same order, the same branches, and the same
 * backward-GOTO loops built with labels (link-cell chain walks in force(), the lattice-size search in
 * fcclat(), the rejection loop in gauss()), so that the two programs have the same control-flow graphs.
 * Conventions of the translation:
 *   - COMMON blocks are file-scope variables with the Fortran names in lower case;
 *   - arrays are 1-based like the Fortran ones (element 0 unused), so LIST(J) = 0 still ends a chain and
 *     every index expression is the Fortran one;
 *   - DO I = 1, N becomes for (i = 1; i <= n; i++); DO K = 5, NBIN, 5 becomes for (...; k += 5);
 *   - the statement function ICELL of MAPS is a macro (the Fortran frontend inlines statement functions);
 *   - integer MIN / MAX and double MAX are the small functions imin / imax / dmax; ANINT is round(),
 *     INT a cast, MOD the % operator (all operands are non-negative where it is used);
 *   - READ (5, *, ERR=900, END=900) X is scanf of one value, skipping the rest of the record (the sample
 *     input files carry a comment after each value), with a goto to the error exit;
 *   - WRITE with a FORMAT is printf with the equivalent conversions, so that the outputs can be diffed;
 *   - STOP 'message' prints the message to stderr and exits with status 1.
 *
 * Input (standard input, one value per line): NPART, RHO, TREQ, NSTEP, DT, RCUT, NRESC.
 * See md1.f for the physics and the algorithm.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define NMAX 16384
#define MMAX 40
#define NBIN 100
#define NCMAX (MMAX * MMAX * MMAX)
#define MAPSIZ (13 * NCMAX)
#define NGR 2
#define PI 3.14159265358979324
#define TOLT 0.01

/* COMMON /SYSR/ */
static double rho, treq, boxl, boxinv, vol, rcut, rcutsq, vcutr, elrc, plrc, dt, delr;
/* COMMON /SYSI/ */
static int npart, nstep, nresc, neq, ndf, nprint;
/* COMMON /FLAGS/ */
static int usecel, dogr;
/* COMMON /ENERG/ */
static double ekin, epot, vir, etot, tinst, pres;
static int npair;
/* COMMON /RANC/ */
static int iseed;
/* COMMON /PARTCL/ */
static double rx[NMAX + 1], ry[NMAX + 1], rz[NMAX + 1];
static double vx[NMAX + 1], vy[NMAX + 1], vz[NMAX + 1];
static double fx[NMAX + 1], fy[NMAX + 1], fz[NMAX + 1];
/* COMMON /DISPL/ */
static double dx[NMAX + 1], dy[NMAX + 1], dz[NMAX + 1];
/* COMMON /CELLS/ */
static int head[NCMAX + 1], list[NMAX + 1], map[MAPSIZ + 1], m, ncell;
/* COMMON /ACCUMC/ */
static double sumek, sumep, sumet, sumt, sump, sumt2, sump2, sumet2, e0, demax;
static int nacc, nrscl;
/* COMMON /GOFRC/ */
static double ghist[NBIN + 1];
static int ngrcnt;

static void rdinp(void);
static void chkinp(void);
static void setbox(void);
static void fcclat(void);
static double ranf(void);
static double gauss(void);
static void inivel(void);
static void maps(void);
static void links(void);
static void force(void);
static void force2(void);
static void movea(void);
static void wrap(int n, double x[], double bl);
static void moveb(void);
static void kinet(void);
static void rescal(void);
static void thermo(void);
static void zerodx(void);
static void zeroac(void);
static void accum(void);
static void report(void);

static int imin(int a, int b)
{
    return a < b ? a : b;
}

static int imax(int a, int b)
{
    return a > b ? a : b;
}

static double dmax(double a, double b)
{
    return a > b ? a : b;
}

static void stop(const char *message)
{
    fprintf(stderr, "STOP %s\n", message);
    exit(1);
}

/* ---------------------------------------------------------------------------------------------- MD1 */
int main(void)
{
    int istep;

    iseed = 4711;

    /* ----- set up the system ----- */
    rdinp();
    chkinp();
    setbox();
    fcclat();
    inivel();
    if (usecel) {
        maps();
        links();
        force();
    } else {
        force2();
    }
    kinet();
    thermo();
    zeroac();

    printf("\n   STEP        TEMP       EKIN/N       EPOT/N       ETOT/N         PRES\n");
    printf(" %6d%13.6f%13.6f%13.6f%13.6f%13.6f\n", 0, tinst, ekin / (double)npart, epot / (double)npart, etot / (double)npart, pres);

    /* ----- main loop over time steps ----- */
    for (istep = 1; istep <= nstep; istep++) {
        /* first half kick and drift, new cell lists, new forces */
        movea();
        dogr = istep > neq && (istep - neq) % NGR == 0;
        if (usecel) {
            links();
            force();
        } else {
            force2();
        }
        /* second half kick */
        moveb();
        /* equilibration: rescale every nresc steps */
        if (istep <= neq) {
            if (istep % nresc == 0)
                rescal();
            if (istep == neq)
                zerodx();
        }
        thermo();
        /* guard against a blow-up (NaN or infinite energy) */
        if (!(etot == etot) || fabs(etot) > 1.0e30) {
            printf("\n *** ENERGY IS NOT FINITE AT STEP %8d\n", istep);
            stop("MD1: INSTABILITY");
        }
        if (istep > neq)
            accum();
        if (istep % nprint == 0) {
            printf(" %6d%13.6f%13.6f%13.6f%13.6f%13.6f\n", istep, tinst, ekin / (double)npart, epot / (double)npart, etot / (double)npart, pres);
        }
    }

    /* ----- final statistics ----- */
    report();
    return 0;
}

/* ---------------------------------------------------------------------------------------------- RDINP */
static void rdinp(void)
{
    if (scanf("%d%*[^\n]", &npart) != 1)
        goto l900;
    if (scanf("%lf%*[^\n]", &rho) != 1)
        goto l900;
    if (scanf("%lf%*[^\n]", &treq) != 1)
        goto l900;
    if (scanf("%d%*[^\n]", &nstep) != 1)
        goto l900;
    if (scanf("%lf%*[^\n]", &dt) != 1)
        goto l900;
    if (scanf("%lf%*[^\n]", &rcut) != 1)
        goto l900;
    if (scanf("%d%*[^\n]", &nresc) != 1)
        goto l900;

    printf(" MD1 -- LENNARD-JONES MOLECULAR DYNAMICS\n =======================================\n\n");
    printf(" NUMBER OF PARTICLES      NPART = %10d\n REDUCED DENSITY          RHO   = %10.4f\n REQUIRED TEMPERATURE     TREQ  = %10.4f\n NUMBER OF STEPS          NSTEP = %10d\n TIME STEP                DT    = %10.5f\n POTENTIAL CUTOFF         RCUT  = %10.4f\n RESCALING INTERVAL       NRESC = %10d\n", npart, rho, treq, nstep, dt, rcut, nresc);
    return;

    /* any read error or a short input file is fatal */
l900:
    printf("\n *** ERROR READING THE INPUT: EXPECTED NPART, RHO,\n     TREQ, NSTEP, DT, RCUT, NRESC (ONE PER LINE)\n");
    stop("MD1: BAD INPUT");
}

/* ---------------------------------------------------------------------------------------------- CHKINP */
static void chkinp(void)
{
    int ierr;

    /* the particle arrays are dimensioned NMAX */
    if (npart > NMAX) {
        printf("\n *** NPART = %10d EXCEEDS THE MAXIMUM NMAX = %10d\n     INCREASE NMAX AND RECOMPILE\n", npart, NMAX);
        stop("MD1: NPART TOO BIG");
    }

    ierr = 0;
    if (npart < 2) {
        printf(" *** INPUT ERROR: %s\n", "NPART MUST BE AT LEAST 2");
        ierr = ierr + 1;
    }
    if (rho <= 0.0) {
        printf(" *** INPUT ERROR: %s\n", "RHO MUST BE POSITIVE");
        ierr = ierr + 1;
    }
    if (treq <= 0.0) {
        printf(" *** INPUT ERROR: %s\n", "TREQ MUST BE POSITIVE");
        ierr = ierr + 1;
    }
    if (nstep < 1) {
        printf(" *** INPUT ERROR: %s\n", "NSTEP MUST BE AT LEAST 1");
        ierr = ierr + 1;
    }
    if (dt <= 0.0) {
        printf(" *** INPUT ERROR: %s\n", "DT MUST BE POSITIVE");
        ierr = ierr + 1;
    }
    if (rcut <= 1.0) {
        printf(" *** INPUT ERROR: %s\n", "RCUT MUST BE GREATER THAN 1");
        ierr = ierr + 1;
    }
    if (ierr > 0)
        stop("MD1: INVALID INPUT");

    if (nresc < 1) {
        printf(" *** WARNING: NRESC < 1, RESCALING EVERY STEP\n");
        nresc = 1;
    }

    /* derived control variables: equilibration length, degrees of freedom, print interval */
    neq = nstep / 2;
    ndf = 3 * npart - 3;
    nprint = imax(1, nstep / 10);
}

/* ---------------------------------------------------------------------------------------------- SETBOX */
static void setbox(void)
{
    double sr2, sr6, rc3, rc9;

    vol = (double)npart / rho;
    boxl = pow(vol, 1.0 / 3.0);
    boxinv = 1.0 / boxl;

    /* the minimum image convention needs rcut <= boxl/2 */
    if (rcut > 0.5 * boxl) {
        printf(" *** WARNING: RCUT = %8.4f REDUCED TO BOXL/2 = %8.4f\n", rcut, 0.5 * boxl);
        rcut = 0.5 * boxl;
    }
    rcutsq = rcut * rcut;

    /* shift of the potential at the cutoff (in units of 4 epsilon) */
    sr2 = 1.0 / rcutsq;
    sr6 = sr2 * sr2 * sr2;
    vcutr = sr6 * sr6 - sr6;

    /* long-range corrections of the unshifted potential beyond rcut: energy per particle and pressure */
    rc3 = 1.0 / (rcut * rcut * rcut);
    rc9 = rc3 * rc3 * rc3;
    elrc = 8.0 / 3.0 * PI * rho * (rc9 / 3.0 - rc3);
    plrc = 16.0 / 3.0 * PI * rho * rho * (2.0 / 3.0 * rc9 - rc3);

    /* link cells: at least rcut wide; the half-shell method needs at least 3 cells per edge */
    m = (int)(boxl / rcut);
    if (m > MMAX)
        m = MMAX;
    usecel = m >= 3;
    if (usecel) {
        ncell = m * m * m;
    } else {
        ncell = 0;
    }

    /* bin width of the radial distribution function (up to rcut) */
    delr = rcut / (double)NBIN;

    printf(" BOX LENGTH               BOXL  = %10.4f\n BOX VOLUME               VOL   = %10.2f\n CELLS PER EDGE           M     = %10d\n NUMBER OF CELLS          NCELL = %10d\n", boxl, vol, m, ncell);
    if (!usecel)
        printf(" BOX TOO SMALL FOR LINK CELLS: ALL-PAIRS FORCES\n");
}

/* ---------------------------------------------------------------------------------------------- FCCLAT */
static void fcclat(void)
{
    static const double bx[5] = {0.0, 0.0, 0.5, 0.5, 0.0};
    static const double by[5] = {0.0, 0.0, 0.5, 0.0, 0.5};
    static const double bz[5] = {0.0, 0.0, 0.0, 0.5, 0.5};
    int nc, ii, ix, iy, iz, ib;
    double a;

    /* smallest nc with 4*nc**3 >= npart */
    nc = 1;
l10:
    if (4 * nc * nc * nc < npart) {
        nc = nc + 1;
        goto l10;
    }
    a = boxl / (double)nc;

    /* occupy the sites in order until npart atoms have been placed */
    ii = 0;
    for (iz = 1; iz <= nc; iz++) {
        for (iy = 1; iy <= nc; iy++) {
            for (ix = 1; ix <= nc; ix++) {
                for (ib = 1; ib <= 4; ib++) {
                    if (ii >= npart)
                        goto l40;
                    ii = ii + 1;
                    rx[ii] = ((double)(ix - 1) + bx[ib] + 0.25) * a;
                    ry[ii] = ((double)(iy - 1) + by[ib] + 0.25) * a;
                    rz[ii] = ((double)(iz - 1) + bz[ib] + 0.25) * a;
                }
            }
        }
    }
l40:
    printf(" FCC LATTICE: %4d**3 UNIT CELLS, %8d SITES, LATTICE CONSTANT %8.4f\n", nc, 4 * nc * nc * nc, a);
}

/* ---------------------------------------------------------------------------------------------- RANF */
/* minimal standard LCG x(k+1) = 16807 x(k) mod (2**31 - 1), Schrage's factorisation (no 32-bit overflow) */
static double ranf(void)
{
    const int ia = 16807;
    const int im = 2147483647;
    const int iq = 127773;
    const int ir = 2836;
    int k;

    k = iseed / iq;
    iseed = ia * (iseed - k * iq) - ir * k;
    if (iseed < 0)
        iseed = iseed + im;
    return (double)iseed / (double)im;
}

/* ---------------------------------------------------------------------------------------------- GAUSS */
/* polar method of Marsaglia; the second deviate of an accepted point is saved for the next call */
static double gauss(void)
{
    static int iset = 0;
    static double gsave = 0.0;
    double v1, v2, rsq, fac, g;

    if (iset == 0) {
        /* rejection loop (acceptance probability pi/4) */
l10:
        v1 = 2.0 * ranf() - 1.0;
        v2 = 2.0 * ranf() - 1.0;
        rsq = v1 * v1 + v2 * v2;
        if (rsq >= 1.0 || rsq == 0.0)
            goto l10;
        fac = sqrt(-2.0 * log(rsq) / rsq);
        gsave = v1 * fac;
        g = v2 * fac;
        iset = 1;
    } else {
        g = gsave;
        iset = 0;
    }
    return g;
}

/* ---------------------------------------------------------------------------------------------- INIVEL */
static void inivel(void)
{
    int i;
    double sumx, sumy, sumz, v2, scale;

    for (i = 1; i <= npart; i++) {
        vx[i] = gauss();
        vy[i] = gauss();
        vz[i] = gauss();
        dx[i] = 0.0;
        dy[i] = 0.0;
        dz[i] = 0.0;
    }

    /* centre-of-mass velocity */
    sumx = 0.0;
    sumy = 0.0;
    sumz = 0.0;
    for (i = 1; i <= npart; i++) {
        sumx = sumx + vx[i];
        sumy = sumy + vy[i];
        sumz = sumz + vz[i];
    }
    sumx = sumx / (double)npart;
    sumy = sumy / (double)npart;
    sumz = sumz / (double)npart;

    /* remove the drift and sum the squared velocities */
    v2 = 0.0;
    for (i = 1; i <= npart; i++) {
        vx[i] = vx[i] - sumx;
        vy[i] = vy[i] - sumy;
        vz[i] = vz[i] - sumz;
        v2 = v2 + vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i];
    }

    /* scale to the required temperature: sum v**2 = ndf * treq */
    scale = sqrt((double)ndf * treq / v2);
    for (i = 1; i <= npart; i++) {
        vx[i] = vx[i] * scale;
        vy[i] = vy[i] * scale;
        vz[i] = vz[i] * scale;
    }
}

/* ---------------------------------------------------------------------------------------------- MAPS */
/* cell (ix,iy,iz) has the number 1 + (ix-1) + (iy-1)*m + (iz-1)*m*m, indices wrapped periodically;
 * map[13*(ic-1)+k] is the k-th half-shell neighbour of cell ic */
#define ICELL(ix, iy, iz) (1 + ((ix) - 1 + m) % m + ((iy) - 1 + m) % m * m + ((iz) - 1 + m) % m * m * m)

static void maps(void)
{
    int ix, iy, iz, imap;

    for (iz = 1; iz <= m; iz++) {
        for (iy = 1; iy <= m; iy++) {
            for (ix = 1; ix <= m; ix++) {
                imap = (ICELL(ix, iy, iz) - 1) * 13;
                map[imap + 1] = ICELL(ix + 1, iy, iz);
                map[imap + 2] = ICELL(ix + 1, iy + 1, iz);
                map[imap + 3] = ICELL(ix, iy + 1, iz);
                map[imap + 4] = ICELL(ix - 1, iy + 1, iz);
                map[imap + 5] = ICELL(ix + 1, iy, iz - 1);
                map[imap + 6] = ICELL(ix + 1, iy + 1, iz - 1);
                map[imap + 7] = ICELL(ix, iy + 1, iz - 1);
                map[imap + 8] = ICELL(ix - 1, iy + 1, iz - 1);
                map[imap + 9] = ICELL(ix + 1, iy - 1, iz - 1);
                map[imap + 10] = ICELL(ix, iy - 1, iz - 1);
                map[imap + 11] = ICELL(ix - 1, iy - 1, iz - 1);
                map[imap + 12] = ICELL(ix - 1, iy, iz - 1);
                map[imap + 13] = ICELL(ix, iy, iz - 1);
            }
        }
    }
}

/* ---------------------------------------------------------------------------------------------- LINKS */
/* head[ic] is the first particle of cell ic (0: empty), list[i] the particle after i (0: end of chain) */
static void links(void)
{
    int icell, i, ix, iy, iz;
    double celli;

    for (icell = 1; icell <= ncell; icell++)
        head[icell] = 0;

    celli = (double)m * boxinv;
    for (i = 1; i <= npart; i++) {
        /* imin guards against rounding of a coordinate just below boxl */
        ix = imin((int)(rx[i] * celli), m - 1);
        iy = imin((int)(ry[i] * celli), m - 1);
        iz = imin((int)(rz[i] * celli), m - 1);
        icell = 1 + ix + iy * m + iz * m * m;
        list[i] = head[icell];
        head[icell] = i;
    }
}

/* ---------------------------------------------------------------------------------------------- FORCE */
/* Lennard-Jones forces with link cells. For every cell the chain of its particles is walked (GOTO loop
 * l10); each particle i interacts with the particles after it in its own chain (GOTO loop l21) and with
 * all particles of the 13 half-shell neighbour cells (GOTO loop l22). Every pair is visited once. */
static void force(void)
{
    int i, j, icell, jcell, jcell0, nabor, ibin;
    double delri, rxi, ryi, rzi, fxi, fyi, fzi, rxij, ryij, rzij, rsq;
    double sr2, sr6, sr12, vij, wij, fij, fxij, fyij, fzij;

    for (i = 1; i <= npart; i++) {
        fx[i] = 0.0;
        fy[i] = 0.0;
        fz[i] = 0.0;
    }
    epot = 0.0;
    vir = 0.0;
    npair = 0;
    delri = 1.0 / delr;
    if (dogr)
        ngrcnt = ngrcnt + 1;

    /* ----- loop over all cells ----- */
    for (icell = 1; icell <= ncell; icell++) {
        i = head[icell];

        /* ----- loop over the particles of cell icell ----- */
l10:
        if (i == 0)
            goto l40;
        rxi = rx[i];
        ryi = ry[i];
        rzi = rz[i];
        fxi = fx[i];
        fyi = fy[i];
        fzi = fz[i];

        /* partners further down the chain of the same cell */
        j = list[i];
l21:
        if (j != 0) {
            rxij = rxi - rx[j];
            ryij = ryi - ry[j];
            rzij = rzi - rz[j];
            rxij = rxij - boxl * round(rxij * boxinv);
            ryij = ryij - boxl * round(ryij * boxinv);
            rzij = rzij - boxl * round(rzij * boxinv);
            rsq = rxij * rxij + ryij * ryij + rzij * rzij;
            if (rsq < rcutsq) {
                sr2 = 1.0 / rsq;
                sr6 = sr2 * sr2 * sr2;
                sr12 = sr6 * sr6;
                vij = sr12 - sr6;
                epot = epot + vij - vcutr;
                wij = vij + sr12;
                vir = vir + wij;
                fij = wij * sr2;
                fxij = fij * rxij;
                fyij = fij * ryij;
                fzij = fij * rzij;
                fxi = fxi + fxij;
                fyi = fyi + fyij;
                fzi = fzi + fzij;
                fx[j] = fx[j] - fxij;
                fy[j] = fy[j] - fyij;
                fz[j] = fz[j] - fzij;
                npair = npair + 1;
                if (dogr) {
                    ibin = imin((int)(sqrt(rsq) * delri) + 1, NBIN);
                    ghist[ibin] = ghist[ibin] + 2.0;
                }
            }
            j = list[j];
            goto l21;
        }

        /* partners in the 13 half-shell neighbour cells */
        jcell0 = 13 * (icell - 1);
        for (nabor = 1; nabor <= 13; nabor++) {
            jcell = map[jcell0 + nabor];
            j = head[jcell];
l22:
            if (j != 0) {
                rxij = rxi - rx[j];
                ryij = ryi - ry[j];
                rzij = rzi - rz[j];
                rxij = rxij - boxl * round(rxij * boxinv);
                ryij = ryij - boxl * round(ryij * boxinv);
                rzij = rzij - boxl * round(rzij * boxinv);
                rsq = rxij * rxij + ryij * ryij + rzij * rzij;
                if (rsq < rcutsq) {
                    sr2 = 1.0 / rsq;
                    sr6 = sr2 * sr2 * sr2;
                    sr12 = sr6 * sr6;
                    vij = sr12 - sr6;
                    epot = epot + vij - vcutr;
                    wij = vij + sr12;
                    vir = vir + wij;
                    fij = wij * sr2;
                    fxij = fij * rxij;
                    fyij = fij * ryij;
                    fzij = fij * rzij;
                    fxi = fxi + fxij;
                    fyi = fyi + fyij;
                    fzi = fzi + fzij;
                    fx[j] = fx[j] - fxij;
                    fy[j] = fy[j] - fyij;
                    fz[j] = fz[j] - fzij;
                    npair = npair + 1;
                    if (dogr) {
                        ibin = imin((int)(sqrt(rsq) * delri) + 1, NBIN);
                        ghist[ibin] = ghist[ibin] + 2.0;
                    }
                }
                j = list[j];
                goto l22;
            }
        }

        fx[i] = fxi;
        fy[i] = fyi;
        fz[i] = fzi;
        i = list[i];
        goto l10;
l40:
        ;
    }

    /* ----- scale to the physical constants: f = 24 sum (2 r**-12 - r**-6) r / r**2, v = 4 sum (...) */
    for (i = 1; i <= npart; i++) {
        fx[i] = 24.0 * fx[i];
        fy[i] = 24.0 * fy[i];
        fz[i] = 24.0 * fz[i];
    }
    epot = 4.0 * epot;
    vir = 24.0 * vir;
}

/* ---------------------------------------------------------------------------------------------- FORCE2 */
/* all-pairs search, used when the box holds fewer than 3 cells per edge; same potential as force() */
static void force2(void)
{
    int i, j, ibin;
    double delri, rxi, ryi, rzi, fxi, fyi, fzi, rxij, ryij, rzij, rsq;
    double sr2, sr6, sr12, vij, wij, fij, fxij, fyij, fzij;

    for (i = 1; i <= npart; i++) {
        fx[i] = 0.0;
        fy[i] = 0.0;
        fz[i] = 0.0;
    }
    epot = 0.0;
    vir = 0.0;
    npair = 0;
    delri = 1.0 / delr;
    if (dogr)
        ngrcnt = ngrcnt + 1;

    for (i = 1; i <= npart - 1; i++) {
        rxi = rx[i];
        ryi = ry[i];
        rzi = rz[i];
        fxi = fx[i];
        fyi = fy[i];
        fzi = fz[i];
        for (j = i + 1; j <= npart; j++) {
            rxij = rxi - rx[j];
            ryij = ryi - ry[j];
            rzij = rzi - rz[j];
            rxij = rxij - boxl * round(rxij * boxinv);
            ryij = ryij - boxl * round(ryij * boxinv);
            rzij = rzij - boxl * round(rzij * boxinv);
            rsq = rxij * rxij + ryij * ryij + rzij * rzij;
            if (rsq < rcutsq) {
                sr2 = 1.0 / rsq;
                sr6 = sr2 * sr2 * sr2;
                sr12 = sr6 * sr6;
                vij = sr12 - sr6;
                epot = epot + vij - vcutr;
                wij = vij + sr12;
                vir = vir + wij;
                fij = wij * sr2;
                fxij = fij * rxij;
                fyij = fij * ryij;
                fzij = fij * rzij;
                fxi = fxi + fxij;
                fyi = fyi + fyij;
                fzi = fzi + fzij;
                fx[j] = fx[j] - fxij;
                fy[j] = fy[j] - fyij;
                fz[j] = fz[j] - fzij;
                npair = npair + 1;
                if (dogr) {
                    ibin = imin((int)(sqrt(rsq) * delri) + 1, NBIN);
                    ghist[ibin] = ghist[ibin] + 2.0;
                }
            }
        }
        fx[i] = fxi;
        fy[i] = fyi;
        fz[i] = fzi;
    }

    for (i = 1; i <= npart; i++) {
        fx[i] = 24.0 * fx[i];
        fy[i] = 24.0 * fy[i];
        fz[i] = 24.0 * fz[i];
    }
    epot = 4.0 * epot;
    vir = 24.0 * vir;
}

/* ---------------------------------------------------------------------------------------------- MOVEA */
/* v(t+dt/2) = v(t) + dt/2 f(t); r(t+dt) = r(t) + dt v(t+dt/2); unwrapped displacements follow */
static void movea(void)
{
    int i;
    double dt2;

    dt2 = 0.5 * dt;
    for (i = 1; i <= npart; i++) {
        vx[i] = vx[i] + dt2 * fx[i];
        vy[i] = vy[i] + dt2 * fy[i];
        vz[i] = vz[i] + dt2 * fz[i];
        rx[i] = rx[i] + dt * vx[i];
        ry[i] = ry[i] + dt * vy[i];
        rz[i] = rz[i] + dt * vz[i];
        dx[i] = dx[i] + dt * vx[i];
        dy[i] = dy[i] + dt * vy[i];
        dz[i] = dz[i] + dt * vz[i];
    }

    /* put the particles back into the box */
    wrap(npart, rx, boxl);
    wrap(npart, ry, boxl);
    wrap(npart, rz, boxl);
}

/* ---------------------------------------------------------------------------------------------- WRAP */
/* periodic boundaries for one coordinate: one shift by +bl or -bl brings x into [0,bl) */
static void wrap(int n, double x[], double bl)
{
    int i;

    for (i = 1; i <= n; i++) {
        if (x[i] < 0.0) {
            x[i] = x[i] + bl;
        } else if (x[i] >= bl) {
            x[i] = x[i] - bl;
        }
    }
}

/* ---------------------------------------------------------------------------------------------- MOVEB */
/* v(t+dt) = v(t+dt/2) + dt/2 f(t+dt), and the kinetic energy */
static void moveb(void)
{
    int i;
    double dt2, v2;

    dt2 = 0.5 * dt;
    v2 = 0.0;
    for (i = 1; i <= npart; i++) {
        vx[i] = vx[i] + dt2 * fx[i];
        vy[i] = vy[i] + dt2 * fy[i];
        vz[i] = vz[i] + dt2 * fz[i];
        v2 = v2 + vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i];
    }
    ekin = 0.5 * v2;
}

/* ---------------------------------------------------------------------------------------------- KINET */
static void kinet(void)
{
    int i;
    double v2;

    v2 = 0.0;
    for (i = 1; i <= npart; i++)
        v2 = v2 + vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i];
    ekin = 0.5 * v2;
}

/* ---------------------------------------------------------------------------------------------- RESCAL */
/* velocities are scaled only if the temperature deviates from treq by more than TOLT (relative) */
static void rescal(void)
{
    int i;
    double tnow, scale;

    tnow = 2.0 * ekin / (double)ndf;
    if (fabs(tnow - treq) > TOLT * treq) {
        scale = sqrt(treq / tnow);
        for (i = 1; i <= npart; i++) {
            vx[i] = vx[i] * scale;
            vy[i] = vy[i] * scale;
            vz[i] = vz[i] * scale;
        }
        ekin = ekin * scale * scale;
        nrscl = nrscl + 1;
    }
}

/* ---------------------------------------------------------------------------------------------- THERMO */
/* p = rho t + w / (3 v), w the virial of the truncated forces */
static void thermo(void)
{
    tinst = 2.0 * ekin / (double)ndf;
    pres = rho * tinst + vir / (3.0 * vol);
    etot = ekin + epot;
}

/* ---------------------------------------------------------------------------------------------- ZERODX */
static void zerodx(void)
{
    int i;

    for (i = 1; i <= npart; i++) {
        dx[i] = 0.0;
        dy[i] = 0.0;
        dz[i] = 0.0;
    }
}

/* ---------------------------------------------------------------------------------------------- ZEROAC */
static void zeroac(void)
{
    int k;

    sumek = 0.0;
    sumep = 0.0;
    sumet = 0.0;
    sumt = 0.0;
    sump = 0.0;
    sumt2 = 0.0;
    sump2 = 0.0;
    sumet2 = 0.0;
    e0 = 0.0;
    demax = 0.0;
    nacc = 0;
    nrscl = 0;
    for (k = 1; k <= NBIN; k++)
        ghist[k] = 0.0;
    ngrcnt = 0;
}

/* ---------------------------------------------------------------------------------------------- ACCUM */
/* the total energy of the first production step is the reference e0 of the energy-conservation check */
static void accum(void)
{
    double de;

    if (nacc == 0)
        e0 = etot;
    nacc = nacc + 1;
    sumek = sumek + ekin;
    sumep = sumep + epot;
    sumet = sumet + etot;
    sumt = sumt + tinst;
    sump = sump + pres;
    sumt2 = sumt2 + tinst * tinst;
    sump2 = sump2 + pres * pres;
    sumet2 = sumet2 + etot * etot;
    de = fabs(etot - e0);
    if (de > demax)
        demax = de;
}

/* ---------------------------------------------------------------------------------------------- REPORT */
static void report(void)
{
    int i, k, kmax;
    double rn, anorm, avek, avep, avet, avt, avp, flt, flp, fle, eplj, plj;
    double px, py, pz, sumd, dmsd, tprod, diff, chk, gmax, rlo, rhi, shell;
    double gr[NBIN + 1];

    rn = (double)npart;
    printf("\n TEMPERATURE RESCALINGS DURING EQUILIBRATION: %6d\n", nrscl);

    /* ----- averages over the production steps ----- */
    if (nacc > 0) {
        anorm = 1.0 / (double)nacc;
        avek = sumek * anorm;
        avep = sumep * anorm;
        avet = sumet * anorm;
        avt = sumt * anorm;
        avp = sump * anorm;
        flt = sqrt(dmax(0.0, sumt2 * anorm - avt * avt));
        flp = sqrt(dmax(0.0, sump2 * anorm - avp * avp));
        fle = sqrt(dmax(0.0, sumet2 * anorm - avet * avet));
        /* full Lennard-Jones estimates: undo the shift of the last configuration's pairs, add the LRC */
        eplj = (avep + 4.0 * vcutr * (double)npair) / rn + elrc;
        plj = avp + plrc;
        printf("\n AVERAGES OVER %8d PRODUCTION STEPS\n   TEMPERATURE           %12.6f  +- %10.6f\n   KINETIC ENERGY / N    %12.6f\n   POTENTIAL ENERGY / N  %12.6f\n   TOTAL ENERGY / N      %12.6f  +- %10.6f\n   PRESSURE              %12.6f  +- %10.6f\n", nacc, avt, flt, avek / rn, avep / rn, avet / rn, fle / rn, avp, flp);
        printf("   MAX ENERGY DRIFT / N  %12.4E\n   END ENERGY DRIFT / N  %12.4E\n   FULL LJ EPOT / N      %12.6f (LRC)\n   FULL LJ PRESSURE      %12.6f (LRC)\n", demax / rn, (etot - e0) / rn, eplj, plj);
    } else {
        printf("\n NO PRODUCTION STEPS: NO AVERAGES\n");
    }

    /* ----- total momentum (should stay zero) ----- */
    px = 0.0;
    py = 0.0;
    pz = 0.0;
    for (i = 1; i <= npart; i++) {
        px = px + vx[i];
        py = py + vy[i];
        pz = pz + vz[i];
    }
    printf("\n TOTAL MOMENTUM %12.4E%12.4E%12.4E\n", px, py, pz);

    /* ----- mean square displacement since the end of equilibration ----- */
    sumd = 0.0;
    for (i = 1; i <= npart; i++)
        sumd = sumd + dx[i] * dx[i] + dy[i] * dy[i] + dz[i] * dz[i];
    dmsd = sumd / rn;
    tprod = (double)(nstep - neq) * dt;
    if (tprod > 0.0) {
        diff = dmsd / (6.0 * tprod);
    } else {
        diff = 0.0;
    }
    printf(" MEAN SQUARE DISPLACEMENT %12.6f OVER T = %10.4f\n DIFFUSION COEFFICIENT    %12.6f\n", dmsd, tprod, diff);

    /* ----- checksum of the final configuration ----- */
    chk = 0.0;
    for (i = 1; i <= npart; i++)
        chk = chk + rx[i] + 2.0 * ry[i] + 3.0 * rz[i];
    printf(" CHECKSUM %22.14E\n", chk);

    /* ----- radial distribution function ----- */
    if (ngrcnt == 0) {
        printf(" NO G(R) SAMPLES\n");
        return;
    }
    gmax = 0.0;
    kmax = 1;
    for (k = 1; k <= NBIN; k++) {
        rlo = (double)(k - 1) * delr;
        rhi = (double)k * delr;
        shell = 4.0 / 3.0 * PI * (pow(rhi, 3) - pow(rlo, 3));
        gr[k] = ghist[k] / (rn * (double)ngrcnt * rho * shell);
        if (gr[k] > gmax) {
            gmax = gr[k];
            kmax = k;
        }
    }
    printf("\n G(R) FROM %6d SAMPLES, FIRST PEAK AT R = %8.4f G = %8.4f\n        R        G(R)\n", ngrcnt, ((double)kmax - 0.5) * delr, gmax);
    for (k = 5; k <= NBIN; k += 5)
        printf(" %10.4f%10.4f\n", ((double)k - 0.5) * delr, gr[k]);
}
