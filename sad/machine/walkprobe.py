"""Walk probe: a loop's column walks, or a row stream that starts anew at every entry, timed on this host at their
own pitches and rows.

Data flow: machine layer, beside sad.machine.calibrate; asked by the prediction's data term
(sad.predict.reuse.data_seconds, ``probed_seconds``) for the column walks of one loop (``Column``: pitch a page
or more, rows, step per pass, array) whose pitches and rows are numbers, and for a row stream's runs
(``restart_rows``, ``run_seconds``), where the machine file describes the host sad runs on (its ``cpu`` as
`sad calibrate` wrote it, ``for_machine``).

Why timed and not modelled: what a column walk costs an access depends on its pitch in ways that neither the
caches' set mapping nor a TLB geometry fitted to a few pitches follows. On a Sapphire Rapids-class VM, -O2, the
best of several pinned runs, ns per access over 2 000 rows: 16 000 B apart 6.6-7.3, 16 800 B 0.95 (1 400 rows),
11 200 B 1.0 (1 400 rows); over 1 536 rows 16 000 B apart 3.7-4.0, 16 256 B 8.1-9.5, 8 128 B 8.0. The same walks
over 2 MiB pages (no page misses) still spread 0.75-4.9 ns: the caches' part is as irregular as the pages'. The
model put mvt's 16 000 B walk over 2 000 rows at 1.6 ns a source iteration (0.104 s predicted, 0.20 s
measured). Several walks of one loop share the TLB and the caches: they are timed interleaved, each in its own
array or beside another column of the same one, not as one walk of their rows summed (correlation at LARGE,
two walks of 1 400 rows 9 600 B apart, timed as one of 2 800 rows: 11.1 s predicted, 7.1-10.2 s measured).

The probe runs the walks as the loop nest does: for each pass, down their rows together, each access one load
(a read-modify-write for a written walk), the next pass each walk ``advance`` bytes to the right. Its loop adds
each load into a sum of its own (eight rows a step), so no chain of adds holds the loads back: the probe's time
is the data's, not its loop's. Its best of ``REPEATS`` pinned runs less the best of as many runs of the same
passes over rows 8 bytes apart (the same loads from L1, no page changes: the loop's own work and the loads'
issue), the two run in turns, is the walks' cost per access beyond L1, lines and pages together, at least 0:
what the transfers into L1 (sad.predict.reuse.transfer_seconds) take for a walk's line. The two together, the
walks' whole time per access, are the data term's figure, as a level's calibrated figure is a whole streaming
loop's time per line, its loads included (``Timed``; sad.predict.reuse.probed_seconds says why).

Each walk sweeps the whole row (pitch / advance columns) before it comes back, as the nest does, so the lines new
to a pass come from where the nest's come from. The third probe swept at most 512 columns (4 KiB of each row):
lu's walk at LARGE (rows 16 000 B apart) then found its new lines in L3 where the kernel finds them in memory,
and over 1 451 rows it timed 0.93 ns an access against 1.19 over the whole row (a loop of lu's walk beside its
row stream, four sums: 1.36 ns an iteration; all pinned on this host, AMD EPYC Zen 2, -O2). A walk sweeping
around its gap to a column that stays (``Column.shares``) keeps 512 columns: the gap is what it stands for.

Why chained (``WalkProbe.seconds``, ``chained``): a loop-carried chain (an accumulator, lu's
``w -= A[i][k] * A[k][j]``) does not hide a walk that misses the TLB behind its links, as the data term's max
composition would. The same walks with every read added into one sum time what such a chain waits beyond its
adds: over lu's rows 16 000 B apart, 0.08 / 0.16 / 0.58 / 1.39 ns an access at 552 / 1 084 / 1 451 / 1 707 rows
(its adds 0.90 ns an access), where the loop with the chain ran 0.94 / 1.11 / 1.73 / 2.75 ns an iteration
over 500 / 1 000 / 1 451 / 1 707 rows and the same loop with four sums 0.68 / 0.80 / 1.36 / 2.53: short walks
hide behind the chain, long ones add to it. As the calibrated chain waits of the levels
(sad.machine.chainwait), it is an add chain's wait: sad.predict.overlap adds it to the loop's chain.

Why rows of runs (``Column.run``): a row stream that starts anew at every entry of its loop (cholesky's A[j][k]
over k < j reads a prefix of row j, then one of row j + 1, a row's pitch further on) pays at each start the
misses before the prefetcher follows it, which a level's figure (one long stream) leaves out; how much depends
on the run, the gap and the chain, so the probe times the loop's own. Pinned on this host (AMD EPYC Zen 2, -O2),
ns per element of sums over rows of L doubles 2 L + 8 apart against the same bytes in one stream, 64 MiB of
data: L = 64 1.66 against 0.88, L = 256 1.35 / 0.86, L = 1 024 1.01 / 0.86 with eight sums; with one serial sum
2.80 / 1.25, 2.34 / 1.22, 1.65 / 1.26 (100, 290 and 400 ns a start); runs of 256 with gaps of 8 to 1 800
elements 75 to 215 ns a start; 4 MiB of data (L3) 6-17 ns, 256 KiB (L2) none. The program reads each row's run
(eight sums, or one for ``chained``), the next row ``pitch`` bytes on, over ``rows`` rows again and again; its
base is the same runs over one run (``Column.base``: from L1).

Why guarded: a busy host only ever slows a run down, but on this shared VM it stays slow for seconds, longer than
a figure's runs, and the figure was then kept for good. The second probe's file (best of three runs, the L1
passes timed once per process) held, for the same walks re-timed on a quiet host minutes later: gramschmidt's two
walks of 1 001 rows 9 600 B apart 0.919 ns an access against 0.438 (its -O2 prediction +54 % against the kernel
timed then), 0.874 against 0.36, 1.157 against 0.72, and 0.092 against 0.253 where the L1 passes had been timed
slow; of its 85 figures, 43 were 15 % or more off the new ones (27 by 25 % or more), 66 of them higher. So each
figure is timed between samples of the host-speed sentinel (sad.machine.hostspeed.Guard, on its core and L2
parts), again while the host is slowed, the try on the fastest host kept; the sentinel's reference is the
fastest sample this host has shown, kept in the cache file, not just this process's. A figure still timed on a
slowed host is kept with that slowdown, said in a warning where it is used, and timed once more by the first
process that finds the host at its usual speed (the faster host's figure kept). The earlier probes (one walk,
its loop a chain of adds; the unguarded one) kept their figures in other files: they are not of this measure.

The figures are kept in $XDG_CACHE_HOME/sad/walkprobe4.json by host, so that the same input gives the same
output after the first run (until a slowed figure is timed again); deleting the file times the walks again.
``SAD_WALK_PROBE=0`` switches the probe off (the model's figures everywhere, the same on every host).
"""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path
from typing import NamedTuple

from sad.common import cachefiles
from sad.machine import hostspeed
from sad.machine.hierarchy import NEAR, pin_command, pinned_cpu

CACHE = "walkprobe4.json"  # walkprobe.json to walkprobe3.json hold figures of other measures (module docstring)
SENTINEL = "sentinel"      # a host's entry: the fastest of each host-speed sentinel part seen (not a walk's key)
REPEATS = 5                # turns of walk and L1 passes per try
GUARD_PARTS = NEAR         # the sentinel's parts a walk's figure is judged on: the core and what evicts the L2
ACCESSES = 4_000_000      # per timed run: 15-40 ms at 4-10 ns an access
MAX_BYTES = 1 << 29       # walks larger than this (rows x pitch) are not timed: the model prices them
ENV = "SAD_WALK_PROBE"
PAGE = 4096
READY_ROWS = 16           # the walk ready() runs once: the probe builds and runs here
MAX_COLUMNS = 4           # a loop walking more columns than this is priced by the model (the program's MAXW)
CHAINED = "chain:"        # a chained figure's key: the walks' key after it (``WalkProbe.seconds``)


class Column(NamedTuple):
    """One column walk of a loop as the probe runs it: ``rows`` rows ``pitch`` bytes apart, the next pass
    ``advance`` bytes to the right (8: x[i] += A[j][i] * y[j] over i; 0: the same column again, as trmm's
    A[k][i] over j), written where ``write`` (read, changed and stored back). ``shares``: the index of an
    earlier column of the same call whose array and rows this one walks, ``gap`` bytes to the right of it
    (covariance's data[k][i] and data[k][j]: their accesses of a row share its page unless a page boundary lies
    between); None: an array of its own. ``run`` > 1: rows of runs, the loop's own walk alone (no other
    column, no advance): each row's ``run`` consecutive doubles, then the next row ``pitch`` bytes on, a row
    stream that starts anew at every entry of its loop (cholesky's A[j][k] over k < j; the module docstring
    says why they are timed)."""
    pitch: int
    rows: int
    advance: int = 8
    write: bool = False
    shares: int | None = None
    gap: int = 0
    run: int = 1

    def spec(self) -> str:
        """The probe program's argument for this walk, and its part of the cache file's key:
        PITCH,ROWS,ADVANCE,WRITE,SHARES,GAP (SHARES -1: an array of its own), then ,RUN for rows of runs
        (``run`` > 1; a column walk's key is what it was before runs were timed)."""
        return f"{self.pitch},{self.rows},{self.advance},{int(self.write)}," \
            f"{-1 if self.shares is None else self.shares},{self.gap}" + (f",{self.run}" if self.run > 1 else "")

    def base(self) -> Column:
        """The same passes with their loads from L1 (``WalkProbe._measure``): a column's rows 8 bytes apart, a
        run's rows all on one run (its lines stay in L1 up to 4 KiB elements)."""
        return self._replace(pitch=0 if self.run > 1 else 8, gap=0)


SOURCE = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#define MAXW 4
#define UNROLL 8
#define AROUND 512    /* columns a walk sweeps around its gap to a column that stays (covariance's data[k][j]) */
/* walkprobe [-c] ACCESSES WALK...: ns per access of WALKs interleaved, each down a column, then the next pass (as a
   loop nest runs them: for each pass, for each row k, each walk's row k), over memory as the OS gives a program
   (anonymous pages, no advice). WALK = PITCH,ROWS,ADVANCE,WRITE,SHARES,GAP: ROWS rows PITCH bytes apart, each
   pass ADVANCE bytes right of the last (over the whole row, then again: the lines new to a pass come from where
   the nest's do), read, or read and stored where WRITE; SHARES -1: its own array, else the index of an earlier
   walk whose array it walks GAP bytes to the right: where it moves and that one does not, it sweeps AROUND
   columns around that gap (covariance's data[k][j] beside data[k][i]), where both move it stays GAP bytes right
   of it. UNROLL rows a step, a sum per walk and row of the step: no chain of adds holds the loads back (the
   data's time, not the loop's). With -c first, every read is added into one sum instead: a serial chain of
   adds waits on each load (a loop's chain). WALK,RUN with RUN > 1, the only walk: rows of runs, each row's RUN
   consecutive doubles, the next row PITCH bytes on (0: the same run again), as a row stream that starts anew at
   every entry of its loop runs (cholesky's A[j][k] over k < j). */
static long field[MAXW][7];
static double acc[UNROLL][MAXW];      /* the sums, kept between passes: no chain of adds at a pass's end */

#define PASS(N, NAME, R, W, T)                                                                              \
static long NAME(char **col, long common) {                                                                 \
    double s[UNROLL][N];                                                                                    \
    long k, w, r;                                                                                           \
    for (r = 0; r < UNROLL; r++) for (w = 0; w < N; w++) s[r][w] = acc[r][w];                               \
    for (k = 0; k + UNROLL <= common; k += UNROLL)                                                          \
        _Pragma("GCC unroll 8") for (r = 0; r < UNROLL; r++)                                                \
            _Pragma("GCC unroll 4") for (w = 0; w < N; w++) {                                               \
                double *p = (double *)(col[w] + (k + r) * field[w][0]);                                     \
                if (field[w][3]) *p += 1.0; else s[R][W] += *p;                                             \
            }                                                                                               \
    for (; k < common; k++)                                                                                 \
        for (w = 0; w < N; w++) {                                                                           \
            double *p = (double *)(col[w] + k * field[w][0]);                                               \
            if (field[w][3]) *p += 1.0; else s[0][T] += *p;                                                 \
        }                                                                                                   \
    for (r = 0; r < UNROLL; r++) for (w = 0; w < N; w++) acc[r][w] = s[r][w];                               \
    return common * N;                                                                                      \
}
/* a sum per row of the step and walk (pass), or one sum for all (chain: a serial chain of adds) */
PASS(1, pass1, r, w, w) PASS(2, pass2, r, w, w) PASS(3, pass3, r, w, w) PASS(4, pass4, r, w, w)
PASS(1, chain1, 0, 0, 0) PASS(2, chain2, 0, 0, 0) PASS(3, chain3, 0, 0, 0) PASS(4, chain4, 0, 0, 0)
static long (*const passes[2][MAXW])(char **, long) = {{pass1, pass2, pass3, pass4}, {chain1, chain2, chain3, chain4}};

/* one pass over rows of runs: a sum per element of the step, or one sum for all (chained) */
static long runs(char *base, const long *f, int chained) {
    double s[UNROLL];
    long k, e, r, pitch = f[0], rows = f[1], run = f[6];
    for (r = 0; r < UNROLL; r++) s[r] = acc[r][0];
    for (k = 0; k < rows; k++) {
        double *p = (double *)(base + k * pitch);
        e = 0;
        if (f[3]) for (; e < run; e++) p[e] += 1.0;
        else if (chained) for (; e < run; e++) s[0] += p[e];
        else {
            for (; e + UNROLL <= run; e += UNROLL)
                _Pragma("GCC unroll 8") for (r = 0; r < UNROLL; r++) s[r] += p[e + r];
            for (; e < run; e++) s[0] += p[e];
        }
    }
    for (r = 0; r < UNROLL; r++) acc[r][0] = s[r];
    return rows * run;
}

static int rows_of_runs(long accesses, int chained) {
    long *f = field[0], done = 0, r;
    size_t len = (size_t)f[0] * f[1] + (size_t)f[6] * 8;
    double sum = 0, t;
    struct timespec t0, t1;
    char *base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return 3;
    memset(base, 1, len);
    runs(base, f, chained);          /* once untimed: the rows' pages mapped, the caches as a pass leaves them */
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    while (done < accesses) done += runs(base, f, chained);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    t = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
    for (r = 0; r < UNROLL; r++) sum += acc[r][0];
    printf("%.4f %g\n", t / done, sum);
    return 0;
}

int main(int argc, char **argv) {
    long n, w, v, k, r, done = 0, accesses, common, cycles[MAXW], start[MAXW], at[MAXW];
    int chained = argc > 1 && strcmp(argv[1], "-c") == 0;
    char *base[MAXW], *col[MAXW];
    double sum = 0, t;
    struct timespec t0, t1;
    argc -= chained, argv += chained, n = argc - 2;
    if (n < 1 || n > MAXW) return 2;
    accesses = atol(argv[1]);
    for (w = 0; w < n; w++) {
        long *f = field[w];
        int got = sscanf(argv[w + 2], "%ld,%ld,%ld,%ld,%ld,%ld,%ld", f, f + 1, f + 2, f + 3, f + 4, f + 5, f + 6);
        if (got == 6) f[6] = 1;
        else if (got != 7 || f[6] < 1) return 2;
        if (f[6] > 1 ? n != 1 || f[0] < 0 || f[4] >= 0 : f[0] < 8) return 2;
        if (f[1] < 2 || f[2] < 0 || f[4] >= w || f[5] < 0) return 2;
        cycles[w] = f[2] == 0 ? 1 : f[0] / f[2] < 1 ? 1 : f[0] / f[2];   /* a whole row, as the nest sweeps it */
        if (f[4] >= 0 && !field[f[4]][2] && cycles[w] > AROUND) cycles[w] = AROUND;   /* around a still one's gap */
        start[w] = at[w] = 0;
    }
    if (field[0][6] > 1) return rows_of_runs(accesses, chained);
    for (w = 0; w < n; w++) {
        long rows = field[w][1], *f = field[w];
        size_t len;
        if (f[4] >= 0) {
            long *o = field[f[4]];
            base[w] = base[f[4]];
            start[w] = f[2] && !o[2] ? f[5] - cycles[w] * f[2] / 2 : f[5];
            start[w] = ((start[w] % f[0]) + f[0]) % f[0] / 8 * 8;
            continue;
        }
        for (v = w + 1; v < n; v++) if (field[v][4] == w && field[v][1] > rows) rows = field[v][1];
        len = (size_t)f[0] * rows;
        base[w] = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base[w] == MAP_FAILED) return 3;
        memset(base[w], 1, len);
        for (k = 0; k < rows; k++) sum += *(double *)(base[w] + k * f[0]);
    }
    common = field[0][1];
    for (w = 1; w < n; w++) if (field[w][1] < common) common = field[w][1];
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    while (done < accesses) {
        for (w = 0; w < n; w++) {     /* this pass's column: ADVANCE on from the last, back after CYCLES */
            col[w] = base[w] + (start[w] + at[w] * field[w][2]) % field[w][0] / 8 * 8;
            at[w] = at[w] + 1 == cycles[w] ? 0 : at[w] + 1;
        }
        done += passes[chained][n - 1](col, common);
        for (w = 0; w < n; w++)       /* the rows a walk has beyond the others' */
            for (k = common; k < field[w][1]; k++, done++) {
                double *p = (double *)(col[w] + k * field[w][0]);
                if (field[w][3]) *p += 1.0; else sum += *p;
            }
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    t = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
    for (r = 0; r < UNROLL; r++) for (w = 0; w < n; w++) sum += acc[r][w];
    printf("%.4f %g\n", t / done, sum);
    return 0;
}
"""


class Timed(NamedTuple):
    """A walk's figures per access: beyond L1 (``ns``: its lines and pages) and the same passes from L1 (``l1``:
    the probe loop's own work and the loads' issue), in seconds from ``WalkProbe.seconds`` and in ns in the
    cache file; ``slowed``: the host-speed sentinel's ratio where it was timed on a slowed host, else 0."""
    ns: float
    l1: float
    slowed: float = 0.0


class WalkProbe:
    """The walks timed on one host, by their columns (``Column``): seconds per access beyond L1."""

    def __init__(self, host: str, cpu: int | None) -> None:
        self.host = host
        self._cpu = cpu
        self._exe: Path | None = None
        self.failed = ""                       # why the probe cannot run here (the first failure)
        self._known: dict | None = None        # the cache file's figures of this host, read once
        self._checked: bool | None = None      # ready()'s answer
        self._guard: hostspeed.Guard | None = None
        self._unguarded = False                # the sentinel did not build here
        self._quiet: bool | None = None        # the host's speed when a slowed figure was first met (one sample)
        self._retimed: set[str] = set()        # slowed figures timed again by this process

    def ready(self) -> bool:
        """Whether walks can be timed here: the probe builds and runs (a short walk once; ``failed`` says why
        not)."""
        if self._checked is None:
            self._checked = not self.failed and self._run((Column(PAGE, READY_ROWS),), READY_ROWS) is not None
        return self._checked

    def seconds(self, columns: tuple[Column, ...], chained: bool = False) -> Timed | None:
        """Seconds per access of the columns' walks, interleaved: beyond L1 (their lines and pages) and the
        same passes from L1 (``Timed``; None: not timed, the model prices them). ``chained``: the walks' reads
        added into one sum, a serial chain of adds (``CHAINED``): what that chain waits on them per access
        beyond its adds, and the chain's passes from L1 (its adds). A figure timed on a slowed host is timed
        once more by the first process that finds the host quiet, and the one timed on the faster host kept."""
        if self.failed or not 0 < len(columns) <= MAX_COLUMNS or any(
                c.rows < 2 or c.pitch < 16 or c.pitch * c.rows > MAX_BYTES or c.advance < 0 for c in columns) \
                or any(c.shares is not None and not 0 <= c.shares < k for k, c in enumerate(columns)) \
                or any(c.run > 1 and (len(columns) > 1 or c.shares is not None) or c.run < 1 for c in columns):
            return None
        key = (CHAINED if chained else "") + ";".join(c.spec() for c in columns)
        if self._known is None:
            self._known = _cached(self.host)
        known = _figure(self._known.get(key))
        if known is None or (known.slowed and key not in self._retimed and self._quiet_now()):
            self._retimed.add(key)
            timed = self._measure(key, columns, chained)
            if timed is not None and (known is None or timed.slowed < known.slowed):
                known = timed if timed.slowed > hostspeed.SLOW else timed._replace(slowed=0.0)
                self._known[key] = {k: v for k, v in known._asdict().items() if k != "slowed" or v}
                _store(self.host, key, self._known[key], self._reference())
        if known is None:
            return None
        return Timed(known.ns * 1e-9, known.l1 * 1e-9, known.slowed)

    def _measure(self, key: str, columns: tuple[Column, ...], chained: bool = False) -> Timed | None:
        """ns per access beyond L1 and from L1, and the host's slowdown while they were timed (1.0 where no
        sentinel runs): the walks' best run less the best run of the same passes over rows 8 bytes apart (the
        loads from L1, no page changes, the loop's own work: also its per-pass work, which a short walk
        spreads over few accesses), the two run in turns so that both see the host as it is, at least 0, to 3
        decimals; timed again while the host-speed sentinel says the host is slowed
        (sad.machine.hostspeed.Guard), the try on the fastest host kept."""
        base_columns = tuple(c.base() for c in columns)   # in L1 a gap changes nothing
        accesses = _accesses(columns)

        def timing() -> tuple[float, float] | None:
            walk = base = float("inf")
            for _ in range(REPEATS):
                w, b = self._run(columns, accesses, chained), self._run(base_columns, accesses, chained)
                if w is None or b is None:
                    return None
                walk, base = min(walk, w), min(base, b)
            return round(max(0.0, walk - base), 3), round(base, 3)
        guard = self._guard_of()
        if guard is None:
            value = timing()
            return None if value is None else Timed(*value, 1.0)
        guarded = guard.measure(key, timing, GUARD_PARTS)
        return None if guarded.value is None else Timed(*guarded.value, round(guarded.ratio, 3))

    def _run(self, columns: tuple[Column, ...], accesses: int = ACCESSES, chained: bool = False) -> float | None:
        """ns per access of one pinned run of the probe program, its reads in one serial sum where ``chained``
        (None: it cannot run; ``failed`` says why)."""
        exe = self._built()
        if exe is None:
            return None
        cmd = pin_command([str(exe), *(["-c"] if chained else []), str(accesses), *(c.spec() for c in columns)],
                          self._cpu)
        run = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=120)
        fields = run.stdout.split()
        if run.returncode != 0 or not fields:
            self.failed = f"the probe exited with status {run.returncode}"
            return None
        return float(fields[0])

    def _guard_of(self) -> hostspeed.Guard | None:
        """The host-speed guard of this probe's runs, its reference the fastest sentinel sample this host has
        shown (kept in the cache file); None where the sentinel cannot be built (the runs unguarded)."""
        built = self._built() if self._guard is None and not self._unguarded else None
        if built is not None:
            exe = built.with_name(hostspeed.EXE)
            if not exe.is_file():
                self._unguarded = True   # its compile failed with the probe's: the runs unguarded
                return None
            sentinel = hostspeed.Sentinel(exe, self._cpu)
            fastest = _cached(self.host).get(SENTINEL)
            if isinstance(fastest, list) and len(fastest) == len(hostspeed.PARTS) and \
                    all(isinstance(v, (int, float)) and v > 0 for v in fastest):
                sentinel.samples.append(tuple(float(v) for v in fastest))
            self._guard = hostspeed.Guard(sentinel)
        return self._guard

    def _quiet_now(self) -> bool:
        """Whether the host runs at its usual speed now (one sentinel sample, the first time it is asked): a
        figure timed on a slowed host is timed again only then."""
        if self._quiet is None:
            guard = self._guard_of()
            self._quiet = guard is not None and guard.now(GUARD_PARTS) <= hostspeed.SLOW
        return self._quiet

    def _reference(self) -> list[float] | None:
        """The fastest of each sentinel part seen on this host so far (None: no sentinel ran)."""
        if self._guard is None or not self._guard.sentinel.samples:
            return None
        samples = self._guard.sentinel.samples
        return [min(s[i] for s in samples) for i in range(len(hostspeed.PARTS))]

    def _built(self) -> Path | None:
        if self._exe is not None:
            return self._exe
        compiler = shutil.which("gcc") or shutil.which("cc")
        if compiler is None:
            self.failed = "no C compiler (gcc or cc) on the PATH"
            return None
        directory, failed = cachefiles.built_directory("walkprobe-bin", _build_key(compiler),
                                                       functools.partial(_compile, compiler))
        if directory is None:
            self.failed = failed
            return None
        self._exe = directory / "walkprobe"
        return self._exe


def _build_key(compiler: str) -> str:
    """What the built programs are made of: both sources and the compiler (its path, size and date)."""
    info = Path(compiler).stat()
    return "\n".join((SOURCE, hostspeed.SOURCE, compiler, str(info.st_size), str(info.st_mtime_ns)))


def _compile(compiler: str, work: Path) -> str:
    """Build the probe and the host-speed sentinel in ``work``; "" or why the probe did not compile (a sentinel
    that does not compile leaves the runs unguarded, not the probe unbuilt)."""
    src = work / "walkprobe.c"
    src.write_text(SOURCE, encoding="utf-8")
    run = subprocess.run([compiler, "-O2", "-o", str(work / "walkprobe"), str(src)], capture_output=True,
                         text=True, check=False)
    if run.returncode != 0:
        return f"the probe did not compile: {run.stderr.strip().splitlines()[-1:]}"
    try:
        hostspeed.Sentinel.build(work, None)
    except (RuntimeError, OSError):
        (work / hostspeed.EXE).unlink(missing_ok=True)
    return ""


def _accesses(columns: tuple[Column, ...]) -> int:
    """Accesses of one timed run: ``ACCESSES``, or three passes over rows of runs whose footprint holds more
    (memory's rows: each pass finds its lines where the loop finds them), at most 16 x ``ACCESSES``."""
    runs = max((c.rows * c.run for c in columns if c.run > 1), default=0)
    return min(max(ACCESSES, 3 * runs), 16 * ACCESSES)


def _figure(entry: object) -> Timed | None:
    """A cache entry as ns per access (``Timed``: its slowdown 0 unless timed on a slowed host); None where it
    is missing or not of this shape."""
    if not isinstance(entry, dict):
        return None
    values: list[float] = []
    for name in Timed._fields:
        value = entry.get(name, 0.0 if name == "slowed" else None)
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
            return None
        values.append(float(value))
    return Timed(*values)


def for_machine(models: dict | None) -> WalkProbe | None:
    """The probe of this host where the machine file (its ``models`` block) was calibrated on it (the same
    ``cpu`` text) and ``SAD_WALK_PROBE`` is not 0; None elsewhere (another machine's file, a bundled one)."""
    if os.environ.get(ENV, "1").strip() == "0":
        return None
    cpu = str((models or {}).get("cpu") or "")
    if not cpu:
        return None
    from sad.machine.calibrate import cpu_info  # calibrate imports the hierarchy's measuring: on demand only
    if cpu != cpu_info()[0]:
        return None
    return _probe(cpu)


@functools.cache
def _probe(host: str) -> WalkProbe:
    """One probe per host and process: its executable is built once."""
    return WalkProbe(host, pinned_cpu())


def _hosts() -> dict:
    """The cache file's figures by host (empty where it is missing or not a mapping)."""
    doc = cachefiles.read_json(CACHE)
    return doc if isinstance(doc, dict) else {}


def _cached(host: str, hosts: dict | None = None) -> dict:
    walks = (_hosts() if hosts is None else hosts).get(host)
    return walks if isinstance(walks, dict) else {}


def _store(host: str, key: str, figure: dict, reference: list[float] | None) -> None:
    """Add one walk's figure to the cache file (read again first: another process may have added others), with
    the fastest sentinel sample seen on this host (``SENTINEL``)."""
    hosts = _hosts()
    walks = {**_cached(host, hosts), key: figure}
    if reference is not None:
        kept = walks.get(SENTINEL)
        if isinstance(kept, list) and len(kept) == len(reference) and all(isinstance(v, (int, float)) for v in kept):
            reference = [min(a, float(b)) for a, b in zip(reference, kept)]
        walks[SENTINEL] = reference
    hosts[host] = walks
    cachefiles.write_json(CACHE, hosts)
