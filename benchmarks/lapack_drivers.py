#!/usr/bin/env python3
"""LAPACK as its callers use it: small drivers written here call Reference LAPACK routines at fixed sizes, and
`sad check-counts --require-bound` compares every line of the driver and of the routines it reaches with gcov,
with nothing profiled and nothing bound by hand (issue 29's criterion: every line has a count equal to gcov's;
with pivoting, only the pivot tests stay probabilities).

Usage: python3 benchmarks/lapack_drivers.py LAPACK_DIR [--only NAME,...] [--keep DIR] [--json FILE]

LAPACK_DIR is an unpacked Reference LAPACK source tree (SRC, BLAS/SRC, INSTALL); nothing of it is kept here.
Each driver is built with the files it reaches, the free-form Fortran 90 ones among them (BLAS's dnrm2.f90,
which DLARFG calls in every QR, Hessenberg and tridiagonal reduction; the modules of SRC's la_constants.f90
where a routine USEs them).
Prints per driver the lines compared, how many agree, stay unbound (with the parameters left) or disagree,
the exit status of check-counts, and the CPU seconds of the check (pin it: `taskset -c 1`), then a row of
totals; `--json FILE` writes the same rows and totals for comparing two runs. Figures, not tests.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import lapack_speed  # noqa: E402  (beside this script: its file closure and child timing)

from sad.codebase.sources import definers, scan  # noqa: E402


def _program(decls: str, setup: str, calls: str) -> str:
    """A fixed-form driver: a diagonally dominant N x N matrix A (no row exchanges), right-hand sides B.
    A's entries off the diagonal are pseudo-random in (0, 1) (a linear congruential sequence, never 0):
    an ordinary matrix of full numerical rank. The Hilbert-like 1/(I + J) used before has numerical rank
    near 20, so its Hessenberg reduction (DGEHD2) met exact zeros and norms below 2**-511 in DNRM2, data
    that no generic-data model stands for (22 lines differed from gcov there)."""
    return f"""      PROGRAM DRV
{decls}
      INTEGER I, J, K, INFO, S
      S = 1
      DO 20 J = 1, N
         DO 10 I = 1, N
            S = MOD(S * 1103 + 12345, 65536)
            A(I, J) = DBLE(S + 1) / 65537.0D0
   10    CONTINUE
         A(J, J) = A(J, J) + DBLE(N)
   20 CONTINUE
{setup}
{calls}
      PRINT *, INFO, A(N, N)
      END
"""


_SQUARE = "      INTEGER N\n      PARAMETER (N = {n})\n      DOUBLE PRECISION A(N, N), B(N, N), C(N, N)\n" \
          "      INTEGER IPIV(N)\n      DOUBLE PRECISION TAU(N), WORK(64 * N)\n" \
          "      DOUBLE PRECISION DLANGE, DLANSY, DLANTR, ANRM\n      EXTERNAL DLANGE, DLANSY, DLANTR"
_RHS = "      DO 30 J = 1, N\n         DO 25 I = 1, N\n            B(I, J) = 1.0D0\n            C(I, J) = 0.0D0\n" \
       "   25    CONTINUE\n   30 CONTINUE"

# A's upper triangle packed by columns into WORK (DPPTRF's and DTPTRI's AP), its band of 4 superdiagonals
# into WORK as a 5 x N band matrix (DPBTRF's AB, leading dimension 5), A copied to C (DSYGST's B)
_PACKED = "      K = 0\n      DO 40 J = 1, N\n         DO 35 I = 1, J\n            K = K + 1\n" \
          "            WORK(K) = A(I, J)\n   35    CONTINUE\n   40 CONTINUE\n"
_BAND = "      DO 40 J = 1, N\n         DO 35 I = MAX(1, J - 4), J\n" \
        "            WORK(5 + I - J + (J - 1) * 5) = A(I, J)\n   35    CONTINUE\n   40 CONTINUE\n"
_COPY_TO_C = "      DO 50 J = 1, N\n         DO 45 I = 1, N\n            C(I, J) = A(I, J)\n" \
             "   45    CONTINUE\n   50 CONTINUE\n"
# a right-hand side in TAU, a vector in C's second column, and B full of pseudo-random entries, as A is
# (DGGLSE's constraint matrix: B = 1 everywhere is of rank one, and its RQ factorization met exact zeros)
_VECTORS = "      DO 60 I = 1, N\n         TAU(I) = DBLE(I)\n         C(I, 2) = DBLE(2 * I + 1)\n" \
           "   60 CONTINUE\n      DO 70 J = 1, N\n         DO 65 I = 1, N\n" \
           "            S = MOD(S * 1103 + 12345, 65536)\n            B(I, J) = DBLE(S + 1) / 65537.0D0\n" \
           "   65    CONTINUE\n   70 CONTINUE\n"

# A's band of 2 sub- and 3 superdiagonals in WORK as DGBSV's AB (leading dimension 2 * 2 + 3 + 1 = 8: the
# 2 rows on top are the room its pivoting fills in)
_GBAND = "      DO 40 J = 1, N\n         DO 35 I = MAX(1, J - 3), MIN(N, J + 2)\n" \
         "            WORK(6 + I - J + (J - 1) * 8) = A(I, J)\n   35    CONTINUE\n   40 CONTINUE\n"

# a tridiagonal matrix in WORK: its diagonal 4 (WORK(1..N)), the sub- and superdiagonals 1 (from WORK(N+1), WORK(2N+1))
_TRIDIAGONAL = "      DO 80 I = 1, N\n         WORK(I) = 4.0D0\n         WORK(N + I) = 1.0D0\n" \
               "         WORK(2 * N + I) = 1.0D0\n   80 CONTINUE\n"

# name: (entry routines, size, the calls)
DRIVERS: dict[str, tuple[list[str], int, str]] = {
    "dgemm-2opt": (["dgemm"], 60, "      CALL DGEMM('N', 'N', N, N, N, 1.0D0, A, N, B, N, 0.0D0, C, N)\n"
                                  "      CALL DGEMM('T', 'N', N, N, N, 1.0D0, A, N, B, N, 1.0D0, C, N)\n"
                                  "      INFO = 0"),
    "dtrsm-2opt": (["dtrsm"], 60, "      CALL DTRSM('L', 'U', 'N', 'N', N, N, 1.0D0, A, N, B, N)\n"
                                  "      CALL DTRSM('R', 'L', 'T', 'U', N, N, 2.0D0, A, N, B, N)\n"
                                  "      INFO = 0"),
    "dgetf2": (["dgetf2"], 80, "      CALL DGETF2(N, N, A, N, IPIV, INFO)"),
    "dpotf2": (["dpotf2"], 80, "      CALL DPOTF2('L', N, A, N, INFO)"),
    "dgetrf": (["dgetrf"], 150, "      CALL DGETRF(N, N, A, N, IPIV, INFO)"),
    "dpotrf": (["dpotrf"], 120, "      CALL DPOTRF('L', N, A, N, INFO)"),
    "dpotrf-2opt": (["dpotrf"], 120, "      CALL DPOTRF('L', N, A, N, INFO)\n      CALL DPOTRF('U', N, A, N, INFO)"),
    "dgetri": (["dgetrf", "dgetri"], 100, "      CALL DGETRF(N, N, A, N, IPIV, INFO)\n"
                                            "      CALL DGETRI(N, A, N, IPIV, WORK, 64 * N, INFO)"),
    "dpotri": (["dpotrf", "dpotri"], 100, "      CALL DPOTRF('L', N, A, N, INFO)\n"
                                          "      CALL DPOTRI('L', N, A, N, INFO)"),
    "dtrtri": (["dtrtri"], 100, "      CALL DTRTRI('U', 'N', N, A, N, INFO)"),
    "dsytrf": (["dsytrf"], 100, "      CALL DSYTRF('U', N, A, N, IPIV, WORK, 64 * N, INFO)"),
    "dgesv": (["dgesv"], 100, "      CALL DGESV(N, 2, A, N, IPIV, B, N, INFO)"),
    "dposv": (["dposv"], 100, "      CALL DPOSV('U', N, 2, A, N, B, N, INFO)"),
    "dgeqr2": (["dgeqr2"], 60, "      CALL DGEQR2(N, N, A, N, TAU, WORK, INFO)"),
    "dgeqrf": (["dgeqrf"], 100, "      CALL DGEQRF(N, N, A, N, TAU, WORK, 64 * N, INFO)"),
    # past ILAENV's crossover NX = 128, so that the blocked loop runs (at 100 only DGEQR2 does)
    "dgeqrf-200": (["dgeqrf"], 200, "      CALL DGEQRF(N, N, A, N, TAU, WORK, 64 * N, INFO)"),
    # the element rule of DLARFG's stored zero off the square case: a tall QR (no TAU is zero: M - I + 1 > 1
    # for every I <= N), a wide one (TAU(M) zero, in its last block), a blocked DORGQR reading TAU
    "dgeqrf-tall": (["dgeqrf"], 300, "      CALL DGEQRF(N, 200, A, N, TAU, WORK, 64 * N, INFO)"),
    "dgeqrf-wide": (["dgeqrf"], 300, "      CALL DGEQRF(200, N, A, N, TAU, WORK, 64 * N, INFO)"),
    "dorgqr-200": (["dgeqrf", "dorgqr"], 200, "      CALL DGEQRF(N, N, A, N, TAU, WORK, 64 * N, INFO)\n"
                                              "      CALL DORGQR(N, N, N, A, N, TAU, WORK, 64 * N, INFO)"),
    "dgehd2": (["dgehd2"], 60, "      CALL DGEHD2(N, 1, N, A, N, TAU, WORK, INFO)"),
    "dsytd2": (["dsytd2"], 60, "      CALL DSYTD2('U', N, A, N, B, C, TAU, INFO)"),
    "dgelqf": (["dgelqf"], 100, "      CALL DGELQF(N, N, A, N, TAU, WORK, 64 * N, INFO)"),
    "dorgqr": (["dgeqrf", "dorgqr"], 80, "      CALL DGEQRF(N, N, A, N, TAU, WORK, 64 * N, INFO)\n"
                                         "      CALL DORGQR(N, N, N, A, N, TAU, WORK, 64 * N, INFO)"),
    "dsytrd": (["dsytrd"], 100, "      CALL DSYTRD('L', N, A, N, B, C, TAU, WORK, 64 * N, INFO)"),
    # more routines a user calls with literal options (issue 29's held-out criterion)
    "dsytrd-U": (["dsytrd"], 100, "      CALL DSYTRD('U', N, A, N, B, C, TAU, WORK, 64 * N, INFO)"),
    "dgetrs-2opt": (["dgetrf", "dgetrs"], 100, "      CALL DGETRF(N, N, A, N, IPIV, INFO)\n"
                                                 "      CALL DGETRS('N', N, 2, A, N, IPIV, B, N, INFO)\n"
                                                 "      CALL DGETRS('T', N, 2, A, N, IPIV, B, N, INFO)"),
    "dpotrs": (["dpotrf", "dpotrs"], 100, "      CALL DPOTRF('U', N, A, N, INFO)\n"
                                          "      CALL DPOTRS('U', N, 3, A, N, B, N, INFO)"),
    "dtrtrs-2opt": (["dtrtrs"], 80, "      CALL DTRTRS('U', 'N', 'N', N, 2, A, N, B, N, INFO)\n"
                                    "      CALL DTRTRS('L', 'T', 'U', N, 2, A, N, B, N, INFO)"),
    "blas3-opts": (["dsyrk", "dsymm", "dtrmm", "dsyr2k"], 50,
                   "      CALL DSYRK('U', 'N', N, N, 1.0D0, A, N, 0.0D0, C, N)\n"
                   "      CALL DSYRK('L', 'T', N, N, 2.0D0, A, N, 1.0D0, C, N)\n"
                   "      CALL DSYMM('L', 'U', N, N, 1.0D0, A, N, B, N, 0.0D0, C, N)\n"
                   "      CALL DSYMM('R', 'L', N, N, 1.0D0, A, N, B, N, 1.0D0, C, N)\n"
                   "      CALL DTRMM('R', 'L', 'T', 'N', N, N, 1.0D0, A, N, B, N)\n"
                   "      CALL DTRMM('L', 'U', 'N', 'U', N, N, 2.0D0, A, N, B, N)\n"
                   "      CALL DSYR2K('U', 'T', N, N, 1.0D0, A, N, B, N, 0.0D0, C, N)\n"
                   "      INFO = 0"),
    "dlacpy-opts": (["dlacpy", "dlaset", "dlange"], 60,
                    "      CALL DLACPY('U', N, N, A, N, C, N)\n"
                    "      CALL DLACPY('L', N, N, A, N, C, N)\n"
                    "      CALL DLACPY('A', N, N, A, N, B, N)\n"
                    "      CALL DLASET('U', N, N, 0.0D0, 1.0D0, C, N)\n"
                    "      CALL DLASET('Full', N, N, 0.0D0, 1.0D0, B, N)\n"
                    "      ANRM = DLANGE('M', N, N, A, N, WORK)\n"
                    "      ANRM = ANRM + DLANGE('1', N, N, A, N, WORK)\n"
                    "      ANRM = ANRM + DLANGE('I', N, N, A, N, WORK)\n"
                    "      ANRM = ANRM + DLANGE('F', N, N, A, N, WORK)\n"
                    "      INFO = INT(ANRM)"),
    "dgehrd": (["dgehrd"], 150, "      CALL DGEHRD(N, 1, N, A, N, TAU, WORK, 64 * N, INFO)"),
    "dormqr-2opt": (["dgeqrf", "dormqr"], 80, "      CALL DGEQRF(N, N, A, N, TAU, WORK, 64 * N, INFO)\n"
                                              "      CALL DORMQR('L', 'T', N, N, N, A, N, TAU, B, N, WORK,\n"
                                              "     $            64 * N, INFO)\n"
                                              "      CALL DORMQR('R', 'N', N, N, N, A, N, TAU, B, N, WORK,\n"
                                              "     $            64 * N, INFO)"),
    "dgels": (["dgels"], 80, "      CALL DGELS('N', N, N, 2, A, N, B, N, WORK, 64 * N, INFO)"),
    "dgebrd": (["dgebrd"], 80, "      CALL DGEBRD(N, N, A, N, B, C, TAU, B(1, 2), WORK, 64 * N, INFO)"),
    # the RQ and QL factorizations (their block size set only where the size is not 0: every path that
    # reads it has set it), and the generators, packed and band forms a caller reaches through options
    "dgerqf": (["dgerqf"], 200, "      CALL DGERQF(N, N, A, N, TAU, WORK, 64 * N, INFO)"),
    "dgeqlf": (["dgeqlf"], 200, "      CALL DGEQLF(N, N, A, N, TAU, WORK, 64 * N, INFO)"),
    # the blocked factorizations' TAU read by their appliers: DLARF's `TAU.NE.ZERO` in DORMR2 and DORG2L
    "dormrq": (["dgerqf", "dormrq"], 200, "      CALL DGERQF(N, N, A, N, TAU, WORK, 64 * N, INFO)\n"
                                          "      CALL DORMRQ('L','N',N,N,N,A,N,TAU,B,N,WORK,64*N,INFO)"),
    "dorgql": (["dgeqlf", "dorgql"], 200, "      CALL DGEQLF(N, N, A, N, TAU, WORK, 64 * N, INFO)\n"
                                          "      CALL DORGQL(N, N, N, A, N, TAU, WORK, 64 * N, INFO)"),
    "dorgbr-p": (["dgebrd", "dorgbr"], 30, "      CALL DGEBRD(N,N,A,N,B(1,1),B(1,2),C,TAU,WORK,64*N,INFO)\n"
                                           "      CALL DORGBR('P',N,N,N,A,N,TAU,WORK,64*N,INFO)"),
    "dgglse": (["dgglse"], 30, _VECTORS + "      CALL DGGLSE(N,N,N/2,A,N,B,N,TAU,C(1,2),C(1,3),WORK,64*N,INFO)"),
    "dgemlqt": (["dgelqt", "dgemlqt"], 40, "      CALL DGELQT(N,N,16,A,N,C,N,WORK,INFO)\n"
                                           "      CALL DGEMLQT('R','N',N,N,N,16,A,N,C,N,B,N,WORK,INFO)"),
    "dlarfx": (["dlarfx"], 12, "      DO 60 I = 1, N\n         TAU(I) = 1.0D0 / DBLE(I + 1)\n   60 CONTINUE\n"
                               "      DO 61 I = 1, 11\n         CALL DLARFX('L',I,N,TAU,0.5D0,B,N,WORK)\n"
                               "         CALL DLARFX('R',N,I,TAU,0.5D0,B,N,WORK)\n   61 CONTINUE"),
    "dorglq": (["dgelqf", "dorglq"], 80, "      CALL DGELQF(N, N, A, N, TAU, WORK, 64 * N, INFO)\n"
                                         "      CALL DORGLQ(N, N, N, A, N, TAU, WORK, 64 * N, INFO)"),
    "dorghr": (["dgehrd", "dorghr"], 80, "      CALL DGEHRD(N, 1, N, A, N, TAU, WORK, 64 * N, INFO)\n"
                                         "      CALL DORGHR(N, 1, N, A, N, TAU, WORK, 64 * N, INFO)"),
    "dorgtr": (["dsytrd", "dorgtr"], 60, "      CALL DSYTRD('U', N, A, N, B, C, TAU, WORK, 64 * N, INFO)\n"
                                         "      CALL DORGTR('U', N, A, N, TAU, WORK, 64 * N, INFO)"),
    # the unblocked reduction called directly, then its generator: DSYTD2 copies DLARFG's TAUI into TAU(I),
    # zero in the first element for 'U', in the last for 'L'
    # (the second pair on a copy of A: DORGTR leaves in A an orthogonal matrix, zeros in its last column)
    "dsytd2-orgtr": (["dsytd2", "dorgtr"], 30, _COPY_TO_C + "      CALL DSYTD2('U', N, A, N, B, B(1, 2), TAU, INFO)\n"
                                               "      CALL DORGTR('U', N, A, N, TAU, WORK, 64 * N, INFO)\n"
                                               "      CALL DSYTD2('L', N, C, N, B, B(1, 2), TAU, INFO)\n"
                                               "      CALL DORGTR('L', N, C, N, TAU, WORK, 64 * N, INFO)"),
    "dlauum": (["dlauum"], 100, "      CALL DLAUUM('U', N, A, N, INFO)\n      CALL DLAUUM('L', N, A, N, INFO)"),
    "dsygst": (["dpotrf", "dsygst"], 100, _COPY_TO_C + "      CALL DPOTRF('U', N, C, N, INFO)\n"
                                          "      CALL DSYGST(1, 'U', N, A, N, C, N, INFO)"),
    "dpptrf": (["dpptrf", "dpptrs"], 100, _PACKED + "      CALL DPPTRF('U', N, WORK, INFO)\n"
                                          "      CALL DPPTRS('U', N, 2, WORK, B, N, INFO)"),
    "dtptri": (["dtptri"], 100, _PACKED + "      CALL DTPTRI('U', 'N', N, WORK, INFO)"),
    "dpbtrf": (["dpbtrf", "dpbtrs"], 100, _BAND + "      CALL DPBTRF('U', N, 4, WORK, 5, INFO)\n"
                                          "      CALL DPBTRS('U', N, 2, 4, WORK, 5, B, N, INFO)"),
    "dgeqrt": (["dgeqrt"], 80, "      CALL DGEQRT(N, N, 16, A, N, C, N, WORK, INFO)"),
    "dlascl": (["dlascl"], 60, "      CALL DLASCL('G', 0, 0, 1.0D0, 2.0D0, N, N, A, N, INFO)\n"
                               "      CALL DLASCL('U', 0, 0, 3.0D0, 1.0D0, N, N, A, N, INFO)"),
    # the triangular-pentagonal QR (DGETSLS' tall-skinny QR reaches it): a blocked loop whose size to DTPRFB
    # a test of its index chooses; WORK's first N*N elements serve DTPMQRT as an N x N matrix
    "dtpqrt": (["dtpqrt", "dtpmqrt"], 32, "      CALL DTPQRT(N, N, N/3, 8, A, N, B, N, C, N, WORK, INFO)\n"
                                          "      CALL DTPMQRT('L','T',N,N,N,N/3,8,B,N,C,N,A,N,WORK,N,\n"
                                          "     $             WORK(N*N+1),INFO)"),
    # the QR of the newer interface: DGEQR keeps its block sizes in T(2) and T(3), where DGEMQR reads them
    "dgeqr": (["dgeqr", "dgemqr"], 40, "      CALL DGEQR(N, N, A, N, WORK, 32*N, TAU, N, INFO)\n"
                                       "      CALL DGEMQR('L','T',N,N,N,A,N,WORK,32*N,B,N,WORK(32*N+1),\n"
                                       "     $            32*N,INFO)"),
    # its LQ twin, and the least-squares driver over both: DGETSLS passes WORK(LW2+1) to DGEQR then DGEMQR
    "dgelq": (["dgelq", "dgemlq"], 40, "      CALL DGELQ(N, N, A, N, WORK, 32*N, TAU, N, INFO)\n"
                                       "      CALL DGEMLQ('L','T',N,N,N,A,N,WORK,32*N,B,N,WORK(32*N+1),\n"
                                       "     $            32*N,INFO)"),
    "dgetsls": (["dgetsls"], 40, "      CALL DGETSLS('N', N, N, 2, A, N, B, N, WORK, 64*N, INFO)"),
    # tridiagonal systems, D = 4 and E = 1 in WORK: DPTTRF's failure exits jump out of its loops to a label its
    # last test falls through to; DGTTS2 runs its right-hand sides by a GOTO loop whose step is in its test
    "dptsv": (["dptsv"], 80, _TRIDIAGONAL + "      CALL DPTSV(N, 2, WORK, WORK(N+1), B, N, INFO)"),
    "dgttrs": (["dgttrf", "dgttrs"], 80, _TRIDIAGONAL
               + "      CALL DGTTRF(N, WORK(N+1), WORK, WORK(2*N+1), WORK(3*N+1),\n     $            IPIV, INFO)\n"
                 "      CALL DGTTRS('N', N, 2, WORK(N+1), WORK, WORK(2*N+1),\n"
                 "     $            WORK(3*N+1), IPIV, B, N, INFO)"),
    "blas2-opts": (["dgemv", "dsymv", "dtrmv", "dtrsv", "dger", "dsyr", "dsyr2", "dtbsv", "dgbmv"], 60,
                   "      CALL DGEMV('N', N, N, 1.0D0, A, N, B, 1, 0.0D0, C, 1)\n"
                   "      CALL DGEMV('T', N, N, 2.0D0, A, N, B, 1, 1.0D0, C, 1)\n"
                   "      CALL DSYMV('U', N, 1.0D0, A, N, B, 1, 0.0D0, C, 1)\n"
                   "      CALL DSYMV('L', N, 1.0D0, A, N, B, 1, 1.0D0, C, 1)\n"
                   "      CALL DTRMV('U', 'N', 'N', N, A, N, B, 1)\n"
                   "      CALL DTRMV('L', 'T', 'U', N, A, N, B, 1)\n"
                   "      CALL DTRSV('U', 'T', 'N', N, A, N, B, 1)\n"
                   "      CALL DTRSV('L', 'N', 'N', N, A, N, B, 1)\n"
                   "      CALL DGER(N, N, 1.0D0, B, 1, C, 1, A, N)\n"
                   "      CALL DSYR('U', N, 1.0D0, B, 1, A, N)\n"
                   "      CALL DSYR2('L', N, 1.0D0, B, 1, C, 1, A, N)\n"
                   "      CALL DTBSV('U', 'N', 'N', N, 3, A, N, B, 1)\n"
                   "      CALL DGBMV('N', N, N, 2, 3, 1.0D0, A, N, B, 1, 0.0D0, C, 1)\n"
                   "      INFO = 0"),
    # drivers written as a new user would, of routines no driver above calls (sixtieth session): the band,
    # packed and tridiagonal solvers, the appliers and generators of LQ, RQ and QL, the recursive Cholesky,
    # the storage conversions, the norms by option and a tridiagonal product with literal ALPHA and BETA.
    # Left unbound by design: the pivot tests (DGBTF2's and DGTSV's row choice, DLASWP's `IP.NE.I`, DSYTRF's
    # Bunch-Kaufman choice of 1 x 1 or 2 x 2 blocks that DSYTRS follows), what a pivot row decides (DGBTF2's
    # JU, the columns DSWAP and DGER reach), the sign of data (DPOEQU's `SMIN.LE.ZERO`) and DLASSQ's scale
    # and sum carried from one call to the next (DLANSY('F'))
    "dgbsv": (["dgbsv"], 80, _GBAND + "      CALL DGBSV(N, 2, 3, 2, WORK, 8, IPIV, B, N, INFO)"),
    "dpbsv": (["dpbsv"], 80, _BAND + "      CALL DPBSV('U', N, 4, 2, WORK, 5, B, N, INFO)"),
    "dppsv": (["dppsv"], 80, _PACKED + "      CALL DPPSV('U', N, 2, WORK, B, N, INFO)"),
    "dgtsv": (["dgtsv"], 80, _TRIDIAGONAL + "      CALL DGTSV(N, 2, WORK(N+1), WORK, WORK(2*N+1), B, N, INFO)"),
    "dormlq": (["dgelqf", "dormlq"], 80, "      CALL DGELQF(N, N, A, N, TAU, WORK, 64 * N, INFO)\n"
                                         "      CALL DORMLQ('R', 'T', N, N, N, A, N, TAU, B, N, WORK,\n"
                                         "     $            64 * N, INFO)"),
    "dlaswp": (["dgetrf", "dlaswp"], 80, "      CALL DGETRF(N, N, A, N, IPIV, INFO)\n"
                                         "      CALL DLASWP(N, B, N, 1, N, IPIV, 1)\n"
                                         "      CALL DLASWP(N, B, N, 1, N, IPIV, -1)"),
    "dpotrf2": (["dpotrf2"], 60, "      CALL DPOTRF2('U', N, A, N, INFO)"),
    "dsytrs": (["dsytrf", "dsytrs"], 80, "      CALL DSYTRF('L', N, A, N, IPIV, WORK, 64 * N, INFO)\n"
                                         "      CALL DSYTRS('L', N, 2, A, N, IPIV, B, N, INFO)"),
    "dtrttp": (["dtrttp", "dtpttr"], 60, "      CALL DTRTTP('U', N, A, N, WORK, INFO)\n"
                                         "      CALL DTPTTR('U', N, WORK, C, N, INFO)\n"
                                         "      CALL DTRTTP('L', N, A, N, WORK, INFO)\n"
                                         "      CALL DTPTTR('L', N, WORK, C, N, INFO)"),
    "dorgrq": (["dgerqf", "dorgrq"], 80, "      CALL DGERQF(N, N, A, N, TAU, WORK, 64 * N, INFO)\n"
                                         "      CALL DORGRQ(N, N, N, A, N, TAU, WORK, 64 * N, INFO)"),
    "dormql": (["dgeqlf", "dormql"], 80, "      CALL DGEQLF(N, N, A, N, TAU, WORK, 64 * N, INFO)\n"
                                         "      CALL DORMQL('L', 'T', N, N, N, A, N, TAU, B, N, WORK,\n"
                                         "     $            64 * N, INFO)"),
    "dpoequ": (["dpoequ", "dlansy"], 60, "      CALL DPOEQU(N, A, N, TAU, C(1, 1), C(1, 2), INFO)\n"
                                         "      ANRM = DLANSY('1', 'U', N, A, N, WORK)\n"
                                         "      ANRM = ANRM + DLANSY('M', 'L', N, A, N, WORK)\n"
                                         "      ANRM = ANRM + DLANSY('F', 'U', N, A, N, WORK)"),
    "dlagtm": (["dlagtm"], 80, _TRIDIAGONAL + "      CALL DLAGTM('N', N, 2, 1.0D0, WORK(N+1), WORK, WORK(2*N+1),\n"
                                              "     $            B, N, 0.0D0, C, N)\n"
                                              "      CALL DLAGTM('T', N, 2, -1.0D0, WORK(N+1), WORK, WORK(2*N+1),\n"
                                              "     $            B, N, 1.0D0, C, N)\n"
                                              "      CALL DLAGTM('C', N, 2, 2.0D0, WORK(N+1), WORK, WORK(2*N+1),\n"
                                              "     $            B, N, -1.0D0, C, N)"),
    "dlantr": (["dlantr"], 60, "      ANRM = DLANTR('M', 'U', 'N', N, N, A, N, WORK)\n"
                               "      ANRM = ANRM + DLANTR('1', 'L', 'U', N, N, A, N, WORK)\n"
                               "      ANRM = ANRM + DLANTR('I', 'U', 'U', N, N, A, N, WORK)\n"
                               "      ANRM = ANRM + DLANTR('O', 'L', 'N', N, N, A, N, WORK)"),
}


def _fortran(directory: Path) -> list[Path]:
    """The Fortran files of a directory, fixed and free form, in path order."""
    return sorted(p for p in directory.iterdir() if p.suffix in (".f", ".f90", ".F90"))


def closure(lapack: Path, entries: list[str]) -> list[Path]:
    """The files defining the entries and every routine they reach (SRC, BLAS/SRC, INSTALL's DLAMCH)."""
    found = [*_fortran(lapack / "SRC"), *_fortran(lapack / "BLAS" / "SRC"),
             *sorted((lapack / "INSTALL").glob("dlamch.f"))]
    scanned = {str(p): scan(str(p)) for p in found}
    chosen = []
    for entry in entries:
        path = next((p for p in found if p.name == f"{entry}.f"), None)
        if path is None:
            sys.exit(f"lapack_drivers.py: error: {entry}.f not in {lapack}")
        chosen.append(path)
    return [Path(f) for f in lapack_speed.closure(chosen, definers(list(scanned.values())), scanned)]


def run(name: str, lapack: Path, work: Path) -> dict:
    """check-counts of one driver: its summary figures, the parameters left unbound, its exit status."""
    entries, n, calls = DRIVERS[name]
    here = work / name
    shutil.rmtree(here, ignore_errors=True)
    here.mkdir(parents=True)
    for path in closure(lapack, entries):
        shutil.copy(path, here / path.name)
    (here / "drv.f").write_text(_program(_SQUARE.format(n=n), _RHS, calls))
    sources = ["drv.f", *sorted(p.name for p in _fortran(here) if p.name != "drv.f")]
    argv = [sys.executable, "-m", "sad", "check-counts", *sources, "--require-bound", "--", "./drv"]
    proc, cpu, wall = lapack_speed.timed_child(argv, here)
    summary = next((line for line in proc.stdout.splitlines() if line.startswith("summary:")), "")
    lines_part = summary.split(";")[0]  # after it: gcov's branch counts of arms, another tally
    figures = {k: int(v) for v, k in re.findall(r"(\d+) (lines|ok|unbound|MISMATCH)", lines_part)}
    unbound = sorted({p for line in proc.stdout.splitlines() if " unbound " in line
                      for p in re.findall(r"\b[PXC]_[A-Za-z0-9_]+", line)})
    return {"rc": proc.returncode, "figures": figures, "unbound": unbound, "wall": wall, "cpu": cpu,
            "error": _error_of(proc.returncode, proc.stderr)}


def _error_of(rc: int, stderr: str) -> str:
    """What the row shows of the check's stderr: the last line where it failed (exit 2), and any internal error
    whatever the exit (check-counts --require-bound exits 1 when a routine's build failed: session 22's
    DSYTRF build error looked like its expansion budget)."""
    internal = [t for t in stderr.splitlines() if "internal error" in t]
    if internal:
        return internal[0]
    return stderr.strip().splitlines()[-1] if rc == 2 and stderr.strip() else ""


FIGURES = ("lines", "ok", "unbound", "MISMATCH")


def _row(name: str, figures: dict, rc: str, cpu: float, tail: str) -> str:
    """One line of the table: a driver's, or the totals' (``rc`` blank)."""
    lines, ok, unbound, mismatch = (figures.get(k, 0) for k in FIGURES)
    return f"{name:11} {lines:5d} {ok:5d} {unbound:7d} {mismatch:8d} {rc:>4} {cpu:6.1f}  {tail}"


def _totals(results: dict[str, dict]) -> dict:
    """The table's totals: each figure summed over the drivers, their CPU seconds, how many exit 0."""
    total = {k: sum(r["figures"].get(k, 0) for r in results.values()) for k in FIGURES}
    return {**total, "cpu": round(sum(r["cpu"] for r in results.values()), 1),
            "exit_0": sum(r["rc"] == 0 for r in results.values()), "drivers": len(results)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("lapack", type=Path, help="an unpacked Reference LAPACK source tree")
    ap.add_argument("--only", help="comma-separated driver names (default: all)")
    ap.add_argument("--keep", type=Path, help="scratch directory (default: a temporary one, removed)")
    ap.add_argument("--json", type=Path, help="also write every row and the totals to FILE")
    args = ap.parse_args()
    names = args.only.split(",") if args.only else list(DRIVERS)
    unknown = [name for name in names if name not in DRIVERS]
    if unknown:
        ap.error(f"no driver named {', '.join(unknown)} (the drivers: {', '.join(DRIVERS)})")
    if not (args.lapack / "SRC").is_dir() or not (args.lapack / "BLAS" / "SRC").is_dir():
        ap.error(f"{args.lapack}: not a Reference LAPACK source tree (no SRC and BLAS/SRC in it)")
    work = args.keep or Path(tempfile.mkdtemp(prefix="sad-drivers-"))
    print(f"sad check-counts --require-bound on Reference LAPACK drivers ({args.lapack})")
    print(f"{'driver':11} {'lines':>5} {'ok':>5} {'unbound':>7} {'MISMATCH':>8} {'exit':>4} {'CPU s':>6}  left unbound")
    results: dict[str, dict] = {}
    try:
        for name in names:
            r = results[name] = run(name, args.lapack, work)
            left = ", ".join(r["unbound"][:6]) + (" ..." if len(r["unbound"]) > 6 else "")
            print(_row(name, r["figures"], str(r["rc"]), r["cpu"], r["error"] or left), flush=True)
        total = _totals(results)
        print(_row("all", total, "", total["cpu"], f"{total['exit_0']} of {len(names)} drivers exit 0"))
        if args.json:
            rows = {name: {**r, "wall": round(r["wall"], 1), "cpu": round(r["cpu"], 1)} for name, r in results.items()}
            args.json.write_text(json.dumps({"lapack": str(args.lapack), "drivers": rows, "total": total}, indent=1)
                                 + "\n")
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
