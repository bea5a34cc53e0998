"""The memory hierarchy of a machine: cache sizes from the OS, per-level line costs and the core clock measured.

Data flow: `sad calibrate` calls ``measure`` (cache sizes from /sys/devices/system/cpu/cpuN/cache, a C
microbenchmark compiled with gcc -O2 and run pinned to one core: a dependent add chain gives the real clock,
walks of one element per cache line over working sets that fit each level give the seconds per line each level
serves, memory's streaming walks every element of each line (``streaming_mode``); a program that writes one byte
per page of freshly allocated memory, against one that allocates and does not touch it, gives the first-touch
cost of a page: the page fault, the kernel zeroing the page and unmapping it at exit, all in the child's CPU time
as rusage reports it) → the ``hierarchy`` section of the machine database (machine_db/schema.json) →
``sad.machine.model`` loads it back as a ``Hierarchy`` → sad.predict.reuse decides which level serves each
reference and prices the lines that cross into L1.

The figures are taken like every calibration figure here: repeated runs until the interquartile spread of a
figure is below ``SPREAD_TARGET`` or its time budget is spent; a figure that stays noisy is kept but flagged
unreliable (with a warning naming it), and a zero or negative figure is never written.
"""
from __future__ import annotations

import functools
import math
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from sad.machine import corescale, hostspeed

if TYPE_CHECKING:     # walkprobe imports this module (pinning)
    from sad.machine.walkprobe import Column, Timed

LINE_BYTES = 64
SPREAD_TARGET = 0.05
"""Relative interquartile spread below which a figure is taken as converged."""
PITCH_LINES = 33
"""Row pitch of the column-walk kernels in lines (2112 bytes with 64-byte lines: a row of ~260 doubles, not a
power of two, so no cache-set aliasing): every access a new line, a new page every other access."""
FIT_FRACTION = 0.5
"""A working set 'fits' a cache when it takes at most this fraction of it (associativity, other data: the
layer-condition safety factor of Kerncraft's documentation)."""


@dataclass(frozen=True)
class Level:
    """One level of the memory hierarchy (a cache or main memory) with its size and costs."""
    name: str                 # L1, L2, L3, memory
    size_bytes: int | None    # None for memory
    line_s: float             # seconds to bring one line from this level to L1 (read), streaming
    store_line_s: float       # seconds per line written back through this level (write-allocate + evict)
    column_s: float = 0.0     # seconds per line read by a column walk (rows apart: pages, prefetch)
    column_store_s: float = 0.0   # the same for read-modify-write of a column element
    ways: int = 0             # associativity (0: not known, the whole size is usable by any address pattern)
    sets: int = 0             # number of sets (0: not known)
    line_bytes: int = 0       # this level's line (0: the hierarchy's)
    one_set_s: float = 0.0    # seconds per access of a column walk from this level in one L1 set (0: not measured)
    one_set_store_s: float = 0.0  # the same for read-modify-write of a column element
    holds_bytes: int = 0      # the largest footprint measured to stay here (a shared cache: what the other
                              # cores leave; ``holds_of``); 0: size x FIT_FRACTION
    ramp: tuple[tuple[int, float], ...] = ()
    """(footprint bytes, share of its lines from the next level) of read passes beyond the footprints this level
    holds whole, up to its size (``ramp_of``): the layer condition's steps for a shared last cache."""
    copy_s: float = 0.0
    """Seconds per line read from this level and a line written through it side by side (a copy loop's
    pair of streams: ``b[i] = a[i]``), 0 where not measured. A write stream beside a read stream of the same
    level costs copy_s - line_s (``beside_read_s``), not store_line_s: the two streams' transfers overlap."""
    wait_s: float = 0.0
    """Seconds per line of a stream from this level that a loop-carried chain waits beyond its own operations
    (sad.machine.chainwait; 0: hidden behind the chain, or not measured)."""
    column_wait_s: float = 0.0
    """The same per access of a column walk (a new line each access)."""
    column_even_s: float = 0.0
    """Seconds per line read by a column walk whose rows are an even number of lines apart (``PITCH_LINES`` + 1):
    every access on a line of the same parity (0: not measured, ``column_s`` for every pitch). On an Emerald
    Rapids VM such walks served from L2 take about twice as long as those at an odd number of lines (rows of
    2 000 doubles, 250 lines: 1.14 ns per source iteration of an outer-vectorized walk at 1 024 rows, 251
    lines 0.62)."""

    def beside_read_s(self) -> float:
        """Seconds per line of a write stream that runs beside a read stream served by this level: the measured
        copy's excess over the read alone (never below 0), the write alone's figure where no copy was measured."""
        return max(0.0, self.copy_s - self.line_s) if self.copy_s > 0 else self.store_line_s

    def fit_bytes(self) -> int | None:
        """The largest footprint the layer condition puts in this level: size × FIT_FRACTION, or the measured
        ``holds_bytes`` where that is smaller; None for memory."""
        if self.size_bytes is None:
            return None
        rule = int(self.size_bytes * FIT_FRACTION)
        return min(rule, self.holds_bytes) if self.holds_bytes else rule

    def sets_reached(self, pitch: int, line: int, page: int = 0) -> int:
        """Sets of this level that the lines of a walk with rows ``pitch`` bytes apart fall into (the rule of
        ``effective_bytes``); 0 when the geometry is not known. ``page``: the OS's page size, for a level
        whose span (sets × line) is larger: such a level is indexed by physical address (an L1 is virtually
        indexed within a page precisely so that its span is at most a page), and the bits above the page
        offset come from the physical page the OS picked, not from the program's addresses: the walk's
        distinct line offsets within a page (page / gcd(pitch, page) of them, at most page / line) each reach
        every one of the span / page page colours once the walk covers more pages than there are colours
        (0: addresses as the program sees them)."""
        lb = self.line_bytes or line
        if self.ways <= 0 or self.sets <= 0 or pitch <= 0:
            return 0
        span = self.sets * lb
        if page and span > page and span % page == 0:
            offsets = min(page // lb, max(1, page // math.gcd(pitch, page)))
            return min(self.sets, offsets * (span // page))
        return min(self.sets, max(1, span // math.gcd(pitch, span)))

    def effective_bytes(self, pitch: int, line: int, page: int = 0) -> int | None:
        """Bytes this level can keep of a walk whose consecutive accesses are ``pitch`` bytes apart (a column
        walk over rows of ``pitch`` bytes), or the whole size when its geometry is not known.

        Set mapping of a set-associative cache (Hennessy & Patterson, Computer Architecture: A Quantitative
        Approach, App. B.1, "block placement"): a line at address A goes to set (A / line) mod sets. The
        addresses k * pitch (k = 0, 1, ...) modulo the span sets * line take span / gcd(pitch, span) distinct
        values, so the walk's lines fall into min(sets, span / gcd(pitch, span)) sets, and the level holds
        ways lines in each: ways * that many sets * line bytes. A pitch of 2^k bytes with 2^k >= the span
        maps every row to one set; a pitch that is an odd number of lines reaches every set. Addresses are
        taken as the program sees them: on a physically indexed level the OS's page placement decides the
        bits above the page offset. Measured on this host (column sums at n = 256 ... 2048 against n + 8): the
        rule puts the steps out of L1 and L2 where the timings show them and n = 1024, 1536 in memory; walks it
        leaves in L3 under conflicts (n = 256, 512) run slower at -O2 than the calibrated L3 column cost."""
        if self.size_bytes is None:
            return None
        reached = self.sets_reached(pitch, line, page)
        if not reached:
            return self.size_bytes
        return min(self.size_bytes, self.ways * reached * (self.line_bytes or line))


@dataclass(frozen=True)
class Hierarchy:
    """The measured memory hierarchy: clock, line size and the levels from L1 to memory."""
    clock_hz: float           # measured (a dependent chain of integer adds), not the OS's figure
    line_bytes: int
    levels: tuple[Level, ...]
    forward_s: float = 0.0    # store-to-load forwarding, integer registers: a variable kept in memory (-O0)
    forward_fp_s: float = 0.0  # the same for floating-point registers
    page_bytes: int = 4096    # the OS's page size
    first_touch_s: float = 0.0  # seconds per page of freshly allocated memory touched for the first time
    ops: dict[str, tuple[float, float]] = field(default_factory=dict)
    """'add.double' → (latency, reciprocal throughput) in seconds: the in-core model of loops not compiled."""
    tlb_pages: int = 0        # pages the TLBs hold (0: not measured)
    tlb_miss_s: float = 0.0   # seconds an access to a page beyond them costs more
    walk_latency_s: float = 0.0
    """Latency of one load from memory on a page beyond the TLBs (page walk + line), dependent loads: what a
    column walk waits for when too few of its iterations fit in the core's window to overlap (0: not measured)."""
    tlb_ramp: tuple[tuple[int, float], ...] = ()
    """(pages walked, extra seconds per access) of walks over more pages than ``TLB_PAGES`` reaches (``tlb_ramp``):
    the miss costs more the more pages a walk covers (() : ``tlb_miss_s`` for all)."""
    tlb_onset: tuple[tuple[int, float], ...] = ()
    """(pages walked, extra seconds per access) of the ``TLB_PAGES`` walks from the baseline (extra 0) to the
    largest (``tlb_onset``): the misses set in before the reach, not at it (() : none below ``tlb_pages``)."""
    mca_scale: corescale.CoreScale | None = None
    """llvm-mca's stand-in model against this core, per resource class (None: not calibrated, the model's cycles
    as they are)."""
    chain_wait_measured: bool = False
    """The file has a ``chain_wait`` line (False: calibrated before chain waits were measured; every level's wait
    is then 0 and the composition is the fully overlapping rule, which the report says)."""
    tlb_pitches: tuple[tuple[int, tuple[tuple[int, float], ...]], ...] = ()
    """(row pitch in bytes, ((pages walked, extra seconds per access), ...)) of one-line-per-row walks at pitches
    of several pages (``TLB_PITCHES``, ``tlb_pitch_curve``): where the misses set in depends on the pitch, not
    only on the pages; the TLB's sets and ways are fitted to them (``tlb_geometry``), and a walk whose pages crowd
    some sets pays the miss there (sad.predict.reuse.conflict_seconds). () : not measured."""
    forward_folded_s: float = 0.0
    """Store-to-load forwarding, integer, into a load folded into an operation (``addq -8(%rbp), %rax``), which
    a core that renames plain loads from a slot just stored (AMD Zen) does not rename (0: not measured)."""
    forward_rmw_s: float = 0.0
    """Store-to-load forwarding, integer, into a read-modify-write whose other operand is a register (``addq
    %rax, -24(%rbp)``: gcc -O0's ``t = t + b[j]`` on an integer): a core that renames a slot's plain loads and its
    read-modify-writes of a constant (Intel's Golden Cove line: 1.1 cycles a link on an Emerald Rapids VM) may not
    rename this form (7.2 cycles a link there); 0: not measured."""
    chain_share: float | None = None
    """Share of the shorter of a loop's core and its chain through memory that adds to the longer, fitted on this
    core by `sad calibrate` at any level, on loops compiled at -O0 (sad.predict.chainshare); None: not measured
    (sad.predict.overlap.CHAIN_SHARE stands in, with a warning)."""
    walk_share: float | None = None
    """Share of a loop's column walks' transfers into L1 that wait behind its chain through memory (added to core &
    chain), fitted with ``chain_share``; None: not measured (sad.predict.overlap.WALK_SHARE, all of them, with a
    warning)."""
    mispredict_s: float = 0.0
    """Seconds a mispredicted branch costs (a branch on random bits less one always taken, per misprediction:
    half the random tests); 0: not measured."""
    first_read_s: float = 0.0
    """Seconds per page of fresh memory read before anything writes it: the fault maps the kernel's shared zero
    page, no page is allocated or zeroed (0: not measured; such a read is then priced as ``first_touch_s``)."""
    column_walks_measured: bool = False
    """A level of the file has its ``column_read`` (timed by `sad calibrate`): with no ``column_read_even`` in any
    level, the file was calibrated before such walks were timed apart, which the report says where it matters
    (a file written by hand without column figures prices every walk at its read figure, as it asks)."""
    tlb_first: tuple[int, float] = (0, 0.0)
    """(pages, extra seconds per access) of the first-level TLB (``tlb_first``): a walk over more pages than it
    holds pays the extra at every page change, also within the second level's reach; (0, 0.0): not measured."""
    walk_probe: Callable[[tuple[Column, ...]], Timed | None] | None = field(default=None, compare=False, repr=False)
    """A loop's column walks (sad.machine.walkprobe.Column: pitch, rows, step per pass, array) → seconds per access
    of their lines and pages beyond L1 and of the same passes from L1 (sad.machine.walkprobe.Timed), timed
    together on this host (sad.machine.walkprobe; None from it: not timed). Set by the prediction where the
    machine file was calibrated on the host it runs on; None: the model prices every walk."""
    chain_probe: Callable[[tuple[Column, ...]], Timed | None] | None = field(default=None, compare=False, repr=False)
    """The same walks with their reads in one serial sum → seconds per access that chain waits on them beyond its
    adds, and the chain's passes from L1 (sad.machine.walkprobe, ``chained``): the probed walks' part of the
    chain waits (sad.predict.overlap.wait_seconds), as ``Level.column_wait_s`` is the model's. Set with
    ``walk_probe``."""

    @property
    def read_fault_s(self) -> float:
        """Seconds per page read before any write: ``first_read_s``, or ``first_touch_s`` where not measured."""
        return self.first_read_s or self.first_touch_s

    def tlb_geometry(self) -> tuple[int, int] | None:
        """(sets, ways) of the second-level TLB, fitted to the calibrated walks (``fit_tlb_geometry``); None
        without pitch walks or a miss figure."""
        if not self.tlb_pitches or not self.tlb_pages or self.tlb_miss_s <= 0:
            return None
        walks = [(self.page_bytes + self.line_bytes, p, s) for p, s in self.tlb_onset]
        walks += [(self.page_bytes + self.line_bytes, TLB_PAGES[-1], self.tlb_miss_s)]
        walks += [(pitch, p, s) for pitch, curve in self.tlb_pitches for p, s in curve]
        return fit_tlb_geometry(self.tlb_pages, self.page_bytes, self.tlb_miss_s, tuple(walks))

    def caches(self) -> tuple[Level, ...]:
        """The levels with a known size (the caches, not main memory)."""
        return tuple(lv for lv in self.levels if lv.size_bytes is not None)


# ------------------------------------------------------------------------------------------- the OS


@dataclass(frozen=True)
class CacheInfo:
    """A data or unified cache as the operating system reports it (ways and sets 0 where it does not say)."""
    level: int
    size_bytes: int
    line_bytes: int
    ways: int = 0
    sets: int = 0


def os_caches(cpu: int = 0, root: Path = Path("/sys/devices/system/cpu")) -> list[CacheInfo]:
    """Data and unified caches of one CPU as the OS reports them (Linux sysfs: size, coherency_line_size,
    ways_of_associativity, number_of_sets), by level; [] elsewhere. Ways and sets are 0 where sysfs lacks
    them or says 0 (fully associative); sets are size / (ways * line) where only the ways are given."""
    found: dict[int, CacheInfo] = {}
    for index in sorted((root / f"cpu{cpu}" / "cache").glob("index*")):
        try:
            kind = (index / "type").read_text().strip()
            level = int((index / "level").read_text())
            size = _size_bytes((index / "size").read_text().strip())
            line = _optional_int(index / "coherency_line_size") or LINE_BYTES
            ways = _optional_int(index / "ways_of_associativity")
            sets = _optional_int(index / "number_of_sets") or (size // (ways * line) if ways else 0)
        except (OSError, ValueError):
            continue
        if kind in ("Data", "Unified"):
            found[level] = CacheInfo(level, size, line, ways if sets else 0, sets if ways else 0)
    return [found[k] for k in sorted(found)]


def _optional_int(path: Path) -> int:
    """The integer in a sysfs file, 0 when the file is absent."""
    return int(path.read_text().strip()) if path.exists() else 0


def _size_bytes(text: str) -> int:
    """'32K' / '8192K' / '1M' / '512' (sysfs) → bytes."""
    factor = {"K": 1024, "M": 1024 ** 2, "G": 1024 ** 3}.get(text[-1:].upper(), 1)
    digits = text[:-1] if factor != 1 else text
    return int(digits) * factor


# ------------------------------------------------------------------------------------------- pinning


def pinned_cpu() -> int | None:
    """The CPU calibration runs on: the highest one this process may use (CPU 0 takes most interrupts)."""
    try:
        return max(os.sched_getaffinity(0))
    except (AttributeError, OSError, ValueError):
        return None


def pin_command(cmd: list[str], cpu: int | None) -> list[str]:
    """``taskset -c CPU cmd`` where the OS allows pinning, else cmd unchanged."""
    if cpu is None or shutil.which("taskset") is None:
        return cmd
    return ["taskset", "-c", str(cpu), *cmd]


# ------------------------------------------------------------------------------------------- measuring

_BENCH = r"""/* generated by sad calibrate: clock and memory hierarchy (sad/machine/hierarchy.py) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
typedef double v2d __attribute__((vector_size(16)));
static double now(void) {   /* CPU time of this thread: time slices lost to other processes do not count */
    struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + 1e-9 * t.tv_nsec;
}
int main(int argc, char **argv) {
    const char *mode = argv[1];
    long n = atol(argv[2]), bytes = atol(argv[3]), reps = atol(argv[4]);
    if (mode[0] == 'c') {                 /* clock: a chain of dependent 1-cycle integer adds */
        long x = n, y = reps; double t0 = now();
        for (long i = 0; i < n; i++) {
#define A x += y; __asm__ volatile("" : "+r"(x));
            A A A A A A A A A A A A A A A A
        }
        t0 = now() - t0;
        printf("%.9g\n", t0 / (16.0 * n));
        return x == 42;
    }
    if (mode[0] == 'o') {                 /* operation classes: latency (one chain), throughput (8 chains) */
        double t0, dx = 1.0 + 1.0 / (n + 7), dy = 1.0 + 1.0 / (n + 3);
        int ix = (int)(n | 1), iy = (int)reps;   /* reps = 1: x * 1, x / 1 keep the integers in range */
        (void)dx; (void)dy; (void)ix; (void)iy;
@OPS@
        return 1;
    }
    if (mode[0] == 'd' || mode[0] == 'f' || mode[0] == 'g' || mode[0] == 'l' || mode[0] == 'm') {
        volatile long v = 0; volatile double w = 0; double d = 1.0 / n, y = 1.0 / (n + 1);
        double t0 = now();
        if (mode[0] == 'd') {             /* double add latency, in a register */
            for (long i = 0; i < n; i++) {
#define D d += y; __asm__ volatile("" : "+x"(d));
                D D D D D D D D
            }
        } else if (mode[0] == 'f') {      /* integer chain through memory: store-to-load forwarding + add */
            for (long i = 0; i < n; i++) {
#define V v = v + 1;
                V V V V V V V V
            }
        } else if (mode[0] == 'l') {      /* integer chain through memory, the load folded into the add */
            long slot = 0, one = 1;
            for (long i = 0; i < n; i++) {
#if defined(__x86_64__)
#define L __asm__ volatile("movq %1, %%rax\n\taddq %0, %%rax\n\tmovq %%rax, %0" : "+m"(slot) : "r"(one) : "rax");
#else
#define L v = v + 1;
#endif
                L L L L L L L L
            }
            v = slot;
        } else if (mode[0] == 'm') {      /* integer read-modify-write of a register's value: addq %r, mem */
            long slot = 0, one = 1;
            for (long i = 0; i < n; i++) {
#if defined(__x86_64__)
#define M __asm__ volatile("addq %1, %0" : "+m"(slot) : "r"(one));
#else
#define M v = v + 1;
#endif
                M M M M M M M M
            }
            v = slot;
        } else {                          /* double chain through memory: forwarding + add */
            for (long i = 0; i < n; i++) {
#define W w = w + y;
                W W W W W W W W
            }
        }
        t0 = now() - t0;
        printf("%.9g\n", t0 / (8.0 * n));
        return d == 42 || v == 42 || w == 42;
    }
    if (mode[0] == 'b' || mode[0] == 'B') {   /* a branch on random bits (b) or on bits all set (B) */
        long count = 1L << 16, acc = 0;
        unsigned char *bits = malloc(count);
        unsigned s = 12345u;
        for (long i = 0; i < count; i++) {
            s = s * 1103515245u + 12345u;
            bits[i] = mode[0] == 'b' ? (s >> 16) & 1 : 1;
        }
        double t0 = now();
        for (long r = 0; r < n; r++)
            for (long i = 0; i < count; i++) {   /* asm in both arms: no conditional move can replace them */
                if (bits[i]) __asm__ volatile("addq $3, %0" : "+r"(acc));
                else __asm__ volatile("subq $1, %0" : "+r"(acc));
            }
        t0 = now() - t0;
        printf("%.9g\n", t0 / ((double)n * count));
        return acc == 42;
    }
    if (mode[0] == 'p' || mode[0] == 'q' || mode[0] == 'z') {
        /* first touch: one write per page of fresh memory (p), one read (z: the zero page mapped) or none (q) */
        char *m = malloc(bytes);
        long got = 0;
        if (mode[0] == 'p') for (long i = 0; i < bytes; i += n) m[i] = 1;
        if (mode[0] == 'z') for (long i = 0; i < bytes; i += n) got += ((volatile char *)m)[i];
        __asm__ volatile("" ::: "memory");
        return m[bytes / 2] == 42 || got == 42;
    }
    if (mode[0] == 'T') {                 /* TLB: one line on each of `bytes` rows, pitch K pages + a line (TK) */
        long pages = bytes, k = mode[1] ? atol(mode + 1) : 1, pitch = (k * PAGE + LINE) / sizeof(double);
        double *a = aligned_alloc(4096, (pages + 4) * (k * PAGE + LINE)), s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (long i = 0; i < (pages + 1) * pitch; i++) a[i] = 1.0;
        for (long r = 0; r < reps; r++) {
            double t0 = now();
            for (long p = 0; p < n; p++)
                for (long i = 0; i + 3 < pages; i += 4) {
                    s0 += a[i * pitch]; s1 += a[(i + 1) * pitch]; s2 += a[(i + 2) * pitch]; s3 += a[(i + 3) * pitch];
                }
            t0 = now() - t0;
            if (r) printf("%.9g\n", t0 / ((double)n * pages));
        }
        return s0 + s1 + s2 + s3 == 42;
    }
    if (mode[0] == 'L') {   /* latency from memory with a page walk: dependent loads, each on another page */
        long pages = bytes / PAGE, lpp = PAGE / LINE;
        char *m = aligned_alloc(PAGE, bytes);
        long *perm = malloc(pages * sizeof(long)), total = pages * lpp, k = 0;
        char *first = 0, *prev = 0;
        unsigned long seed = 88172645463325252UL;
        for (long l = 0; l < lpp; l++) {          /* round l: line l of every page, pages shuffled */
            for (long p = 0; p < pages; p++) perm[p] = p;
            for (long p = pages - 1; p > 0; p--) {
                seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
                long q = (long)(seed % (unsigned long)(p + 1)), t = perm[p]; perm[p] = perm[q]; perm[q] = t;
            }
            for (long p = 0; p < pages; p++, k++) {
                char *at = m + perm[p] * PAGE + l * LINE;
                if (prev) *(char **)prev = at; else first = at;
                prev = at;
            }
        }
        *(char **)prev = first;
        for (long r = 0; r < reps; r++) {
            char *q = first; double t0 = now();
            for (long i = 0; i < n; i++) q = *(char **)q;
            t0 = now() - t0;
            if (r) printf("%.9g\n", t0 / n);
            if (q == 0) return 1;
        }
        return k != total;
    }
    if (mode[0] == 'S' || mode[0] == 'U') {   /* column walk in one L1 set: rows SPAN bytes apart, each row's
                                                 line read for its 8 elements, one column after the other */
        long rows = bytes / LINE, pd = SPAN / sizeof(double), per = LINE / sizeof(double);
        double *a = aligned_alloc(4096, rows * SPAN + 4096), s = 0;
        for (long i = 0; i < rows * pd; i++) a[i] = 1.0;
        for (long r = 0; r < reps; r++) {
            double t0 = now();
            for (long p = 0; p < n; p++)
                for (long j = 0; j < per; j++)
                    if (mode[0] == 'S') for (long i = 0; i < rows; i++) s += a[i * pd + j];
                    else for (long i = 0; i < rows; i++) a[i * pd + j] += 1.0;
            __asm__ volatile("" ::: "memory");
            t0 = now() - t0;
            if (r) printf("%.9g\n", t0 / ((double)n * per * rows));
        }
        return s == 42 || a[1] == 42;
    }
    long lines = bytes / LINE, stride = LINE / sizeof(double);
    double *a = aligned_alloc(4096, lines * LINE + 4096);
    for (long i = 0; i < lines * stride; i++) a[i] = 1.0;
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int dense = mode[1] == '+';           /* r+ w+ k+: every element of each line, as a unit-stride loop */
    for (long r = 0; r < reps; r++) {     /* one untimed pass warms the level, then n timed passes */
        double t0 = now();
        for (long p = 0; p < n; p++) {
            /* dense: in pairs of doubles (GCC's vector extension, SSE2 or NEON), so that the loads, adds
               and stores of a line stay well under its transfer from memory */
            v2d *v = (v2d *)a, x = {(double)p, (double)p};
            long pairs = lines * stride / 2;
            if (dense && mode[0] == 'r') {
                /* eight chains: two lines a round, the adds' latency hidden behind the loads */
                v2d t0 = {0, 0}, t1 = t0, t2 = t0, t3 = t0, t4 = t0, t5 = t0, t6 = t0, t7 = t0;
                for (long i = 0; i + 7 < pairs; i += 8) {
                    t0 += v[i]; t1 += v[i + 1]; t2 += v[i + 2]; t3 += v[i + 3];
                    t4 += v[i + 4]; t5 += v[i + 5]; t6 += v[i + 6]; t7 += v[i + 7];
                }
                t0 += t1 + t2 + t3 + t4 + t5 + t6 + t7;
                s0 += t0[0] + t0[1];
            } else if (dense && mode[0] == 'k') {
                for (long i = 0; i < pairs / 2; i++) v[pairs / 2 + i] = v[i] + x;
            } else if (dense) {
                for (long i = 0; i < pairs; i++) v[i] = x;
            } else if (mode[0] == 'r') {
                for (long i = 0; i + 3 < lines; i += 4) {
                    s0 += a[i * stride]; s1 += a[(i + 1) * stride];
                    s2 += a[(i + 2) * stride]; s3 += a[(i + 3) * stride];
                }
            } else if (mode[0] == 'R' || mode[0] == 'W') {   /* column walk: rows PITCH lines apart */
                long rows = lines / PITCH;
                for (long c = 0; c < PITCH; c++)
                    for (long r = 0; r + 3 < rows; r += 4) {
                        double *q = a + (r * PITCH + c) * stride;
                        if (mode[0] == 'R') {
                            s0 += q[0]; s1 += q[PITCH * stride];
                            s2 += q[2 * PITCH * stride]; s3 += q[3 * PITCH * stride];
                        } else {
                            q[0] += 1.0; q[PITCH * stride] += 1.0;
                            q[2 * PITCH * stride] += 1.0; q[3 * PITCH * stride] += 1.0;
                        }
                    }
            } else if (mode[0] == 'k') {     /* copy: half the lines read, the other half written beside them */
                double *b = a + (lines / 2) * stride;
                for (long i = 0; i < lines / 2; i++) b[i * stride] = a[i * stride] + (double)p;
            } else {
                for (long i = 0; i < lines; i++) a[i * stride] = (double)p;
            }
            __asm__ volatile("" ::: "memory");
        }
        t0 = now() - t0;
        if (r) printf("%.9g\n", t0 / ((double)n * (mode[0] == 'k' ? lines / 2 : lines)));
    }
    if (s0 + s1 + s2 + s3 == 42) printf("%g\n", a[0]);
    return 0;
}
"""


CORE = ("chain", "wide")
"""The host-speed sentinel's parts (sad.machine.hostspeed.PARTS) a figure is judged on: what slows it down. In the
core (clock, forwarding, operation classes, llvm-mca's model against the core): a lower clock (the chain) or a
busy sibling thread (the core's width); a neighbour's memory traffic does not slow a register chain, and a noisy
L2 walk must not retime it."""
NEAR = ("chain", "walk", "wide")
"""L1 and L2 figures: the core and what evicts the L2."""
FAR = ("far",)
"""L3, memory and the first touch of pages: the shared last cache and memory, what a neighbour's traffic slows."""
PAGE_WALKS = ("walk", "far")
"""TLB walks: their lines in L2, their page walks through the caches and memory."""


def slowed_by(level: str, caches: list[CacheInfo]) -> tuple[str, ...]:
    """The sentinel's parts a figure of this level is judged on: NEAR for L1 and L2, FAR beyond (the last cache,
    shared, and memory)."""
    return NEAR if level == "L1" or (level == "L2" and len(caches) > 2) else FAR


@dataclass
class Measured:
    """A figure: median of the runs kept, their relative interquartile spread, whether it converged."""
    seconds: float
    spread: float
    samples: int
    reliable: bool = True
    note: str = ""
    host_ratio: float = 0.0
    """The host-speed sentinel's ratio around the figure (sad.machine.hostspeed; 0: not watched)."""

    @property
    def slow_host(self) -> bool:
        """Measured while the host ran slower than ``hostspeed.SLOW`` x its fastest, after the retries."""
        return self.host_ratio > hostspeed.SLOW


@dataclass
class HierarchyCalibration:
    """The raw measurements of a hierarchy calibration (clock, caches, read/write costs per level)."""
    clock: Measured
    caches: list[CacheInfo]
    forward: Measured | None = None
    forward_fp: Measured | None = None
    forward_folded: Measured | None = None
    forward_rmw: Measured | None = None
    mispredict: Measured | None = None
    read: dict[str, Measured] = field(default_factory=dict)     # level name → seconds per line read
    write: dict[str, Measured] = field(default_factory=dict)    # level name → seconds per line written
    column: dict[str, Measured] = field(default_factory=dict)   # level name → seconds per column-walk read
    column_write: dict[str, Measured] = field(default_factory=dict)  # ... read-modify-write
    column_even: dict[str, Measured] = field(default_factory=dict)  # ... read, rows an even number of lines apart
    copy: dict[str, Measured] = field(default_factory=dict)     # level name → seconds per line read + line written
    page_bytes: int = 4096
    first_touch: Measured | None = None                         # seconds per page touched first
    first_read: Measured | None = None                          # seconds per page read first (the zero page)
    ops: dict[str, tuple[Measured, Measured]] = field(default_factory=dict)   # 'add.double' → latency, throughput
    tlb_pages: int = 0
    tlb_miss: Measured | None = None
    tlb_ramp: dict[int, Measured] = field(default_factory=dict)  # pages → extra seconds per access (tlb_ramp)
    tlb_onset: dict[int, Measured] = field(default_factory=dict)  # the same up to the largest TLB_PAGES walk
    tlb_first: tuple[int, Measured] | None = None  # the first-level TLB's reach and miss (tlb_first)
    tlb_pitches: dict[int, dict[int, Measured]] = field(default_factory=dict)  # pitch bytes → tlb_pitch_curve
    walk_latency: Measured | None = None                        # seconds per dependent load from memory + walk
    one_set: dict[str, Measured] = field(default_factory=dict)  # level name → column walk in one L1 set, read
    one_set_write: dict[str, Measured] = field(default_factory=dict)  # ... read-modify-write
    holds: dict[str, int] = field(default_factory=dict)        # level name → largest footprint it serves (holds_of)
    passes: dict[str, dict[int, Measured]] = field(default_factory=dict)   # level → footprint → its read pass
    mca_scale: corescale.CoreScale | None = None                # llvm-mca's stand-in model against this core
    chain_wait: dict[str, tuple[Measured, Measured]] = field(default_factory=dict)
    """level name → a serial chain's wait per line streaming, per access down a column (sad.machine.chainwait)"""
    warnings: list[str] = field(default_factory=list)
    guard: hostspeed.Guard | None = None
    """The host-speed sentinel every figure is timed between (None: not watched)."""

    def timed(self, what: str, sample: Callable[[], list[float]], budget_s: float,
              parts: tuple[str, ...] = hostspeed.PARTS) -> Measured:
        """``converge(sample, budget_s)`` between two samples of the host-speed sentinel, timed again while the
        host is slow (``hostspeed.Guard``, judged on ``parts``): a figure still measured on a slow host is
        marked unreliable."""
        if self.guard is None:
            return converge(sample, budget_s)
        watched = self.guard.measure(what, lambda: converge(sample, budget_s), parts)
        fig = watched.value
        fig.host_ratio = watched.ratio
        if watched.slow:
            fig.reliable = False
            fig.note = f"measured {watched.tries} times, the host always slowed (x{watched.ratio:.2f})"
        return fig


def spread_of(samples: list[float]) -> float:
    """Interquartile range relative to the median (0 for fewer than three samples)."""
    med = statistics.median(samples)
    if len(samples) < 3 or med <= 0:
        return 0.0
    q = statistics.quantiles(samples, n=4)
    return (q[2] - q[0]) / med


def converge(sample: Callable[[], list[float]], budget_s: float, target: float = SPREAD_TARGET,
             min_samples: int = 5) -> Measured:
    """Call ``sample`` (a few timings) until the spread of everything collected is below target or the time
    budget is spent. On a loaded core the spread stays high: the median is kept and marked unreliable."""
    started = time.monotonic()
    samples: list[float] = []
    while True:
        samples += [x for x in sample() if x > 0]
        if len(samples) >= min_samples and spread_of(samples) <= target:
            break
        if time.monotonic() - started > budget_s:
            break
    if not samples:
        return Measured(0.0, 0.0, 0, reliable=False, note="no positive timing")
    # On a shared core the lowest quartile is the undisturbed figure; the median of it resists outliers.
    low = sorted(samples)[: max(3, len(samples) // 2)]
    spread = spread_of(samples)
    return Measured(statistics.median(low), spread, len(samples), reliable=spread <= target)


def streaming_mode(mode: str, level: str) -> str:
    """The microbenchmark's mode for a level's figure: memory's streaming figures (read, write, copy) touch
    every element of each line, as the unit-stride loops they price do; the caches' one element per line.
    Measured on this host (AMD EPYC, pinned, gcc -O2, 128-256 MiB arrays): a copy runs 4.5 ns per line pair
    touching every element against 7.1 ns one element per line (the calibrated memory copy was 6.8 ns), and a
    1-D three-point stencil over 4 M doubles (jacobi1d, every element, out of the L3) 3.4 ns per line pair: it
    was predicted 84 % slow at -O2. Within the caches a dense loop's own loads and adds would be timed, not the
    line (eight loads a line from L1 against one), and the core model prices those already; a column walk
    (R, W) touches one element per line whatever the level."""
    return mode + "+" if level == "memory" and mode in ("r", "w", "k") else mode


def retime_late(result: HierarchyCalibration,
                late: list[tuple[str, dict[str, Measured], str, Callable[[], list[float]], tuple[str, ...]]],
                budget_s: float, progress: Callable[[str], None] | None) -> None:
    """Time the line costs the host slowed through all their tries once more, after the other levels': a
    neighbour's burst of memory traffic on a shared machine often outlasts the retries of one figure but
    not the minutes of the rest (the memory level of a calibration on this two-core VM: x1.75 slow, its copy
    figure twice what a streaming kernel timed on a quiet host then ran at). The try on the faster host is
    kept."""
    for key, table, name, sample, parts in late:
        again = result.timed(key, sample, budget_s, parts)
        if again.host_ratio < table[name].host_ratio:
            if progress:
                progress(f"{key}: timed again on a faster host (x{table[name].host_ratio:.2f} -> "
                         f"x{again.host_ratio:.2f}): {table[name].seconds * 1e9:.3f} -> "
                         f"{again.seconds * 1e9:.3f} ns/line")
            table[name] = again
            if not again.slow_host and result.guard is not None:
                result.guard.slowed.pop(key, None)


def as_clock(seconds_per_add: Measured) -> Measured:
    """The clock (Hz) of a figure of seconds per dependent integer add."""
    return Measured(1 / seconds_per_add.seconds, seconds_per_add.spread, seconds_per_add.samples,
                    seconds_per_add.reliable, seconds_per_add.note, seconds_per_add.host_ratio)


def forwarding(result: HierarchyCalibration, chains: dict[str, Measured]) -> None:
    """The store-to-load forwarding figures from their chains: a chain through memory is forwarding + the add,
    so the add is taken off (one cycle of the measured clock for an integer add; the measured fp add)."""
    cycle = 1 / result.clock.seconds
    result.forward = _minus(chains["f"], cycle)
    result.forward_fp = _minus(chains["g"], chains["d"].seconds)
    result.forward_folded = _minus(chains["l"], cycle)
    result.forward_rmw = _minus(chains["m"], cycle)


def retime_clock(result: HierarchyCalibration, adds: Callable[[], list[float]], chains: dict[str, Measured],
                 budget_s: float, progress: Callable[[str], None] | None) -> None:
    """Time the clock once more, after the other figures, where the host slowed it through all its tries, and
    keep the faster: a chain of dependent adds cannot run faster than the clock, so a lower figure is the host's
    doing, and every core figure llvm-mca gives in cycles is converted by it (on this two-core VM one
    calibration's clock came out 2.56 GHz, x2.10 slow, where the next measured 2.97 GHz, spread 0.2 %). The
    same chain's fastest pass among llvm-mca's calibration loops (sad.machine.corescale: passes over at least
    8 s) is a candidate too: a calibration whose every try met a slowed host wrote 2.54 GHz (x1.13) where the
    next day's wrote 2.97, and every -O2 core time came out 17 % long. The forwarding figures, which take a
    cycle off their chains, follow the clock kept."""
    again = as_clock(result.timed("clock", adds, budget_s, CORE)) if result.clock.slow_host else None
    passes = result.mca_scale.clock_hz if result.mca_scale is not None else 0.0
    if passes > (again.seconds if again else 0.0) and passes > result.clock.seconds * (1 + SPREAD_TARGET):
        again = Measured(passes, result.clock.spread, result.clock.samples,
                         note="the fastest pass of the llvm-mca loops' clock chain")
    if again is None or again.seconds <= result.clock.seconds:
        return
    if progress:
        how = again.note or f"timed again on a faster host (x{result.clock.host_ratio:.2f} -> x{again.host_ratio:.2f})"
        progress(f"clock: {result.clock.seconds / 1e9:.3f} -> {again.seconds / 1e9:.3f} GHz, {how}")
    result.clock = again
    forwarding(result, chains)
    if not again.slow_host and result.guard is not None:
        result.guard.slowed.pop("clock", None)


def measure(budget_s: float = 40.0, progress: Callable[[str], None] | None = None,
            guard: hostspeed.Guard | None = None) -> HierarchyCalibration:
    """Clock and per-level line costs of this machine (gcc -O2 microbenchmark, pinned); with a ``guard``, every
    figure timed between samples of the host-speed sentinel and again while the host is slow."""
    cpu = pinned_cpu()
    caches = os_caches(cpu or 0) or [CacheInfo(1, 32 * 1024, LINE_BYTES), CacheInfo(2, 256 * 1024, LINE_BYTES)]
    line = caches[0].line_bytes
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        raise OSError("no C compiler (gcc or cc) on PATH to build the memory-hierarchy benchmark")
    with tempfile.TemporaryDirectory(prefix="sad-hierarchy-") as tmp:
        src, exe = Path(tmp) / "hier.c", Path(tmp) / "hier"
        src.write_text(bench_source(), encoding="utf-8")
        span = one_set_pitch(caches[0])
        even = Path(tmp) / "hier_even"
        for binary, pitch in ((exe, PITCH_LINES), (even, PITCH_LINES + 1)):
            subprocess.run([gcc, "-O2", f"-DLINE={line}", f"-DPITCH={pitch}", f"-DPAGE={page_size()}",
                            f"-DSPAN={span or 4096}", str(src), "-o", str(binary)],
                           check=True, capture_output=True)

        def run(mode: str, n: int, nbytes: int, reps: int, binary: Path = exe) -> list[float]:
            out = subprocess.run(pin_command([str(binary), mode, str(n), str(nbytes), str(reps)], cpu),
                                 capture_output=True, text=True, check=True, timeout=60).stdout
            return [float(x) for x in out.split()]

        one_set_rows = {f"L{c.level}": rows for c in caches[1:] if (rows := one_set_rows_of(c, span))}
        per_figure = budget_s / (10 + 2 * len(OP_CLASSES) + len(TLB_PAGES) + len(TLB_PITCHES) * len(TLB_PITCH_PAGES)
                                 + 6 * (len(caches) + 1)
                                 + 2 * len(one_set_rows) + HOLDS_STEPS + 1)
        result = HierarchyCalibration(Measured(0.0, 0.0, 0), caches, guard=guard)
        def adds() -> list[float]:
            return [min(run("c", 2_000_000, 0, 1)) for _ in range(3)]
        result.clock = as_clock(result.timed("clock", adds, per_figure, CORE))
        if progress:
            progress(f"clock (dependent integer adds)      {result.clock.seconds / 1e9:.3f} GHz "
                     f"±{result.clock.spread * 50:.1f} %")
        def op_samples(kernel: int, n: int) -> list[float]:
            return [min(run("o", n, kernel, 1)) for _ in range(3)]

        def chain(mode: str) -> list[float]:
            return [min(run(mode, 1_000_000, 0, 1)) for _ in range(3)]

        chains = {m: result.timed(f"hierarchy.forward ({m})", functools.partial(chain, m), per_figure, CORE)
                  for m in "dfglm"}
        forwarding(result, chains)

        def mispredicted() -> list[float]:
            # random bits: half the tests go the way the predictor did not guess
            return [2 * (min(run("b", 40, 0, 1)) - min(run("B", 40, 0, 1))) for _ in range(3)]
        result.mispredict = result.timed("hierarchy.mispredict", mispredicted, per_figure, CORE)
        if progress and result.forward and result.forward_fp:
            progress(f"store-to-load forwarding              {result.forward.seconds * 1e9:.3f} ns integer, "
                     f"{result.forward_fp.seconds * 1e9:.3f} ns floating point")
        result.page_bytes = page_size()
        result.first_touch = result.timed("hierarchy.first_touch",
                                          lambda: first_touch_samples(exe, cpu, result.page_bytes), per_figure, FAR)
        result.first_read = result.timed("hierarchy.first_read",
                                         lambda: first_touch_samples(exe, cpu, result.page_bytes, mode="z"),
                                         per_figure, FAR)
        if progress:
            progress(f"first touch of a fresh page            {result.first_touch.seconds * 1e6:.3f} us "
                     f"({result.page_bytes} B pages) ±{result.first_touch.spread * 50:.1f} %, read first "
                     f"{result.first_read.seconds * 1e6:.3f} us")
        for j, (op, kind, _) in enumerate(OP_CLASSES):
            n = 100_000 if op == "div" else 500_000
            lat, thr = (result.timed(f"hierarchy.ops.{op}.{kind}", functools.partial(op_samples, 2 * j + c, n),
                                     per_figure, CORE) for c in (0, 1))
            result.ops[f"{op}.{kind}"] = pair = (lat, thr)
            if progress:
                progress(f"{op}.{kind:8s} latency {pair[0].seconds * 1e9:6.3f} ns, throughput "
                         f"{pair[1].seconds * 1e9:6.3f} ns per operation")
        result.mca_scale = measure_mca_scale(cpu, per_figure * len(corescale.CLASSES), progress)
        walks = {p: result.timed(f"hierarchy.tlb ({p} pages)", functools.partial(run, "T", max(1, 400_000 // p), p, 4),
                                 per_figure, PAGE_WALKS) for p in TLB_PAGES}
        result.tlb_pages, result.tlb_miss = tlb_reach(walks)
        if result.tlb_miss is not None:
            ramp_walks = {p: result.timed(f"hierarchy.tlb.ramp.{p}", functools.partial(run, "T", max(1, 400_000 // p),
                                                                                     p, 4), per_figure, PAGE_WALKS)
                          for p in ramp_pages(caches, line)}
            result.tlb_ramp = tlb_ramp(walks, ramp_walks)
            result.tlb_onset = tlb_onset(walks)
            result.tlb_first = tlb_first(walks, caches[0].size_bytes if caches else 0, line)
            base = walks[max(p for p in TLB_PAGES if p <= TLB_PAGES[-1] // 4)]
            for k in TLB_PITCHES:
                pitch = k * result.page_bytes + line
                result.tlb_pitches[pitch] = tlb_pitch_curve({p: result.timed(
                    f"hierarchy.tlb.pitches.{pitch}.{p}", functools.partial(run, f"T{k}", max(1, 400_000 // p), p, 4),
                    per_figure, PAGE_WALKS) for p in TLB_PITCH_PAGES}, base)
        if progress and result.tlb_miss is not None:
            progress(f"TLB: {result.tlb_pages} pages, beyond them {result.tlb_miss.seconds * 1e9:.3f} ns more "
                     "per access")
            if result.tlb_first:
                progress(f"first-level TLB: {result.tlb_first[0]} pages, beyond them "
                         f"{result.tlb_first[1].seconds * 1e9:.3f} ns more per access")
        result.walk_latency = result.timed("hierarchy.walk_latency",
                                           functools.partial(run, "L", 200_000, WALK_CHASE_BYTES, 3), per_figure, FAR)
        if progress:
            progress(f"latency from memory with a page walk  {result.walk_latency.seconds * 1e9:.1f} ns "
                     f"±{result.walk_latency.spread * 50:.1f} %")
        late: list[tuple[str, dict[str, Measured], str, Callable[[], list[float]], tuple[str, ...]]] = []
        for name, nbytes, column_bytes in level_footprints(caches, result.tlb_pages, result.page_bytes):
            for mode, table, binary, what in (("r", result.read, exe, "read"), ("w", result.write, exe, "write"),
                                              ("R", result.column, exe, "column read"),
                                              ("W", result.column_write, exe, "column update"),
                                              ("k", result.copy, exe, "copy"),
                                              ("R", result.column_even, even, "column read even")):
                size = column_bytes if mode in "RW" else nbytes
                passes = max(1, (8 * 1024 ** 2) // size)   # at least ~8 MB touched per timed run
                key = f"hierarchy.{name}.{what.replace(' ', '_')}"
                sample = functools.partial(run, streaming_mode(mode, name), passes, size, 4, binary)
                table[name] = result.timed(key, sample, per_figure, slowed_by(name, caches))
                if table[name].slow_host:
                    late.append((key, table, name, sample, slowed_by(name, caches)))
                if progress:
                    f = table[name]
                    how = "every element" if streaming_mode(mode, name) != mode else "one line per element"
                    progress(f"{what:13s} {how}, {name:6s} "
                             f"({size // 1024} KB) {f.seconds * 1e9:7.3f} ns/line ±{f.spread * 50:.1f} %")
        retime_late(result, late, per_figure, progress)
        retime_clock(result, adds, chains, per_figure, progress)
        measure_holds(run, result, per_figure, progress)
        one_set_rows = {f"L{c.level}": rows for prev, c in zip(caches, caches[1:])
                        if (rows := one_set_rows_of(c, span, prev, result.tlb_pages, result.page_bytes))}
        measure_one_set(run, result, one_set_rows, span, line, per_figure, progress)
    for what, fig in [("clock", result.clock), ("hierarchy.forward", result.forward),
                      ("hierarchy.forward_fp", result.forward_fp), ("hierarchy.forward_folded", result.forward_folded),
                      ("hierarchy.forward_rmw", result.forward_rmw),
                      ("hierarchy.mispredict", result.mispredict),
                      ("hierarchy.first_touch", result.first_touch), ("hierarchy.first_read", result.first_read),
                      ("hierarchy.tlb.miss", result.tlb_miss), ("hierarchy.walk_latency", result.walk_latency),
                      ("hierarchy.tlb.first", result.tlb_first[1] if result.tlb_first else None)] \
            + [(f"hierarchy.tlb.ramp.{k}", v) for k, v in result.tlb_ramp.items()] \
            + [(f"hierarchy.ops.{k}.latency", v[0]) for k, v in result.ops.items()] \
            + [(f"hierarchy.ops.{k}.throughput", v[1]) for k, v in result.ops.items()] \
            + [(f"hierarchy.{k}.read", v) for k, v in result.read.items()] \
            + [(f"hierarchy.{k}.write", v) for k, v in result.write.items()] \
            + [(f"hierarchy.{k}.column_read", v) for k, v in result.column.items()] \
            + [(f"hierarchy.{k}.column_update", v) for k, v in result.column_write.items()] \
            + [(f"hierarchy.{k}.column_read_even", v) for k, v in result.column_even.items()] \
            + [(f"hierarchy.{k}.copy", v) for k, v in result.copy.items()] \
            + [(f"hierarchy.{k}.one_set_read", v) for k, v in result.one_set.items()] \
            + [(f"hierarchy.{k}.one_set_update", v) for k, v in result.one_set_write.items()]:
        if fig is not None and fig.slow_host:
            result.warnings.append(f"{what}: measured while the host ran x{fig.host_ratio:.2f} slower than its "
                                   f"fastest (host-speed sentinel), after {1 + hostspeed.RETRIES} tries: marked "
                                   "SLOW HOST, unreliable")
        elif fig is not None and not fig.reliable:
            result.warnings.append(f"{what}: spread {fig.spread:.0%} after {fig.samples} runs (target "
                                   f"{SPREAD_TARGET:.0%}): unreliable, the machine is busy")
    return result


def measure_mca_scale(cpu: int | None, budget_s: float, progress: Callable[[str], None] | None
                      ) -> corescale.CoreScale | None:
    """sad.machine.corescale's loops timed pinned like every figure here (None where it does not apply), each
    the fastest of passes spread over several seconds: a sibling hyperthread's burst changes these ratios more
    than any other figure, and comes and goes faster than the host-speed sentinel's samples around a figure."""
    def run(exe: Path, case: int, n: int) -> float:
        out = subprocess.run(pin_command([str(exe), str(case), str(n)], cpu), capture_output=True, text=True,
                             check=True, timeout=60).stdout
        return float(out)

    scale = corescale.measure(run, budget_s)
    if progress and scale is not None:
        progress(f"llvm-mca -mcpu={scale.mcpu} against this core, measured / model cycles (fastest pass): "
                 + ", ".join(f"{k} {v:.3g}" for k, v in scale.ratios.items()))
    return scale


def level_footprints(caches: list[CacheInfo], tlb_pages: int = 0, page: int = 4096) -> list[tuple[str, int, int]]:
    """(level, bytes of its streaming walks, bytes of its column walks) timed for each cache level and memory.

    A level serves the footprints between the previous level's size and half its own (the layer condition,
    FIT_FRACTION): its figures are timed in the middle of that range (the geometric mean of the previous
    level's size and half this one's; half of an L1), away from both ends. At the top end a shared last-level
    cache is partly someone else's: on this host (2 vCPUs of an EPYC with a 32 MiB L3 shared by the other
    tenants' cores) a read pass costs 0.64-0.70 ns per line over 2-8 MiB and 2.3-3.4 ns over 16 MiB, where
    memory's is 4.2: timed at 16 MiB the L3 figures were memory's, and gemver at n = 1024, whose column walk
    needs 64 KiB of L3, came out +159 % at -O2 (1.8 ns per iteration measured, 9.3 predicted). Column walks
    (a new page every other access) are kept within the TLBs' reach (``tlb_pages`` of ``page`` bytes, half of
    them; when that still exceeds the previous level): their figure is the line's, and the model adds the
    TLB misses of walks whose pages between reuses exceed the reach (sad.predict.reuse.tlb_seconds); at
    16 MiB (4096 pages) the L3 column figure was 7.4-9.3 ns against 0.8 ns at 4 MiB. Memory: 64 MiB or
    8 × the last cache, its column walk beyond the TLBs (its figure includes the misses)."""
    out: list[tuple[str, int, int]] = []
    previous = 0
    for c in caches:
        top = int(c.size_bytes * FIT_FRACTION)
        nbytes = top if not previous else int(math.sqrt(previous * top))
        nbytes = max(nbytes, min(top, 2 * previous))
        column = nbytes
        reach = tlb_pages * page // 2
        if reach and column > reach and reach > previous:
            column = reach
        out.append((f"L{c.level}", nbytes, column))
        previous = c.size_bytes
    memory = max(64 * 1024 ** 2, 8 * caches[-1].size_bytes) if caches else 64 * 1024 ** 2
    out.append(("memory", memory, memory))
    return out


HOLDS_STEPS = 4
"""Read passes between twice a last cache's timed footprint and its size (equal steps, both ends timed)."""


def holds_of(mid: float, beyond: float, passes: dict[int, float], start: int) -> int:
    """The footprint (bytes) up to which a level serves a read pass, from ``passes`` (footprint → seconds per
    line): where the cost crosses the middle of the way from the level's figure (``mid``, timed over ``start``
    bytes) to the next level's (``beyond``), interpolated between the passes on either side (a step there is
    off by at most half the way on both sides); 0 when no pass crosses it (the layer condition's size ×
    FIT_FRACTION stands)."""
    half = (mid + beyond) / 2
    before, cost = start, mid
    for nbytes in sorted(passes):
        if passes[nbytes] > half:
            share = (half - cost) / (passes[nbytes] - cost) if passes[nbytes] > cost else 0.0
            return int(before + share * (nbytes - before)) // 1024 * 1024
        before, cost = nbytes, max(cost, passes[nbytes])
    return 0


def ramp_of(level_s: float, beyond_s: float, passes: dict[int, float]) -> tuple[tuple[int, float], ...]:
    """(footprint, share of its lines from the next level) of each read pass (footprint → seconds per line): the
    share is (cost - the level's figure) / (the next level's - the level's), kept within 0..1 and never below a
    smaller footprint's. This host: passes over 8, 10, 12, 14, 16 MiB at 0.66, 0.91, 1.04, 2.0, 3.27 ns against
    0.64 (L3 at 4 MiB) and 4.74 (memory): shares 0.005, 0.066, 0.098, 0.33, 0.64."""
    if beyond_s <= level_s:
        return ()
    out: list[tuple[int, float]] = []
    top = 0.0
    for nbytes in sorted(passes):
        top = min(1.0, max(top, (passes[nbytes] - level_s) / (beyond_s - level_s)))
        out.append((nbytes, round(top, 4)))
    return tuple(out)


def ramp_footprints(timed: int, size: int) -> list[int]:
    """The footprints of a last cache's read passes (``measure_holds``): HOLDS_STEPS + 1 in equal steps from
    twice the footprint its own figures were timed at to its whole size, in whole pages; none where that
    range is empty."""
    first = 2 * timed
    if first >= size:
        return []
    return [(first + (size - first) * k // HOLDS_STEPS) // 4096 * 4096 for k in range(HOLDS_STEPS + 1)]


def measure_holds(run: Callable[[str, int, int, int], list[float]], result: HierarchyCalibration,
                  per_figure: float, progress: Callable[[str], None] | None = None) -> None:
    """The footprint the last cache serves, into result.holds: read passes from twice its timed footprint
    (``level_footprints``) up to its size (``holds_of``). A last-level cache is shared with the other
    cores: on one host (2 vCPUs of an EPYC whose 32 MiB L3 serves the other tenants' cores too) a pass costs
    0.66 ns a line over 8 MiB, 0.91 over 10, 1.0-1.2 over 12, 2.0 over 14, 2.9-3.3 over 16, 4.1 over 24 and
    4.0 over 64: half the L3 is not ours. jacobi-2d at n = 1000 (two 8 MB grids, 15.6 MiB between reuses)
    runs at memory's speed. On another (2 vCPUs of an EPYC whose OS shows a 16 MiB L3): 1.7 over 4 MiB, 2.1-3.2
    over 8, 2.5-4.4 over 10, 3.6-5.5 over 12, 5.0-5.9 over 14, 5.6-6.5 over 16 and 6.8 over 64, the spread the
    other core's load: passes that stopped at half the size (8 MiB) put a 10 MiB footprint in memory, where
    PolyBench's gemm at its LARGE size streams its 10.3 MiB B matrix at 2.6 ns a line (predicted +161 %).
    Timed up to the size, such footprints take the share the host showed: gemm +61 % with passes over 10-16
    MiB timed while the other vCPU was quiet, +133 % while it streamed, and the same kernel then took 0.66-0.86
    s against 0.42 (the other kernels of that LARGE suite within 4 %)."""
    if not result.caches or "memory" not in result.read:
        return
    last = result.caches[-1]
    name = f"L{last.level}"
    footprints = {n: nbytes for n, nbytes, _ in level_footprints(result.caches)}
    if name not in result.read or name not in footprints:
        return
    passes: dict[int, float] = {}
    for nbytes in ramp_footprints(footprints[name], last.size_bytes):
        fig = result.timed(f"hierarchy.{name}.ramp.{nbytes // 1024}", functools.partial(
            run, streaming_mode("r", "memory"), max(1, (8 * 1024 ** 2) // nbytes), nbytes, 4), per_figure, FAR)
        passes[nbytes] = fig.seconds
        result.passes.setdefault(name, {})[nbytes] = fig
        if progress:
            progress(f"read          every element, {name:6s} ({nbytes // 1024} KB) "
                     f"{fig.seconds * 1e9:7.3f} ns/line ±{fig.spread * 50:.1f} %")
    held = holds_of(result.read[name].seconds, result.read["memory"].seconds, passes, footprints[name]) \
        if passes else 0
    if held:
        result.holds[name] = held


def measure_one_set(run: Callable[[str, int, int, int], list[float]], result: HierarchyCalibration,
                    rows_per_level: dict[str, int], span: int, line: int, per_figure: float,
                    progress: Callable[[str], None] | None = None) -> None:
    """The one-L1-set column walk (read, update) of each level in ``rows_per_level`` (``one_set_rows_of``)
    into result.one_set / one_set_write: ``run(mode, passes, bytes, reps)`` times the benchmark's S / U mode."""
    for name, rows in rows_per_level.items():
        passes = max(1, 2_000_000 // (8 * rows))   # ~2 M accesses per timed run
        for mode, table in (("S", result.one_set), ("U", result.one_set_write)):
            table[name] = result.timed(f"hierarchy.{name}.one_set_{'read' if mode == 'S' else 'update'}",
                                       functools.partial(run, mode, passes, rows * line, 4), per_figure,
                                       slowed_by(name, result.caches))
            if progress:
                f = table[name]
                what = "column read" if mode == "S" else "column update"
                progress(f"{what:13s} in one L1 set, {name:6s} ({rows} rows {span} B apart) "
                         f"{f.seconds * 1e9:7.3f} ns/access ±{f.spread * 50:.1f} %")


def one_set_pitch(l1: CacheInfo) -> int:
    """Row pitch that maps every row of a column walk to one set of this L1 (its sets × line: 4096 bytes for
    64 sets of 64 bytes), 0 when the OS does not report the L1's geometry."""
    return l1.sets * l1.line_bytes if l1.ways and l1.sets else 0


def one_set_rows_of(cache: CacheInfo, span: int, previous: CacheInfo | None = None, tlb_pages: int = 0,
                    page: int = 4096) -> int:
    """Rows of the one-L1-set column walk timed for this level, 0 when the geometry is unknown or too small.
    Without ``previous``: the walk's lines fill a quarter of what this level keeps of a walk with that pitch
    (``Level.effective_bytes``). With the level before it: the middle of the walks this level serves (as
    ``level_footprints``), the geometric mean of the lines the previous level keeps and half of what this one
    keeps, and at most half the TLBs' reach (``tlb_pages``; a row a page when the pitch is one): on this host
    an L3 walk of 1024 rows 4 KiB apart costs 3.2 ns per access, one of 2048 rows 5.0 and of 4096 7.3, the
    TLB's misses; gemver's at n = 1024 (1024 rows 8 KiB apart) 3.4."""
    kept = _walk_lines(cache, span)
    if not kept:
        return 0
    rows = kept // 4
    if previous is not None:
        before = _walk_lines(previous, span) or 1
        rows = max(rows // 4, int(math.sqrt(before * kept / 2)))
        pages_per_row = max(1, span // page) if page else 1
        if tlb_pages and rows * pages_per_row > tlb_pages // 2 and tlb_pages // 2 // pages_per_row > before:
            rows = tlb_pages // 2 // pages_per_row
    return rows if rows >= 16 else 0


def _walk_lines(cache: CacheInfo, span: int) -> int:
    """Lines a cache keeps of a column walk with rows ``span`` bytes apart (0: geometry unknown)."""
    if not span or not cache.ways or not cache.sets:
        return 0
    level = Level(f"L{cache.level}", cache.size_bytes, 0.0, 0.0, ways=cache.ways, sets=cache.sets,
                  line_bytes=cache.line_bytes)
    return (level.effective_bytes(span, cache.line_bytes) or 0) // cache.line_bytes


OP_CLASSES = (("add", "double", "+"), ("mul", "double", "*"), ("div", "double", "/"),
              ("add", "integer", "+"), ("mul", "integer", "*"), ("div", "integer", "/"),
              ("select", "double", "min"))
"""Operation classes timed for latency (a dependent chain ``x = x op y``) and throughput (eight independent
chains, more than the latency × units of current cores need to keep every unit busy). ``select.double`` is
``x = x < y ? x : y``, which compilers turn into one minsd (the if-converted MIN/MAX of dynamic programming)."""
CHAINS = 8


def _op_kernels() -> str:
    """C code of the operation-class kernels of the benchmark: kernel 2j is op j's latency, 2j+1 its throughput."""
    out = []
    for j, (_, kind, sym) in enumerate(OP_CLASSES):
        ctype, init, step, constraint = ("double", "dx", "dy", "+x") if kind == "double" else ("int", "ix", "iy", "+r")
        for k, chains in ((2 * j, 1), (2 * j + 1, CHAINS)):
            names = [f"x{c}" for c in range(chains)]
            decl = ", ".join(f"{v} = {init}" for v in names)
            form = "{v} < {s} ? {v} : {s}" if sym == "min" else "{v} " + sym + " {s}"
            body = " ".join(f"{v} = {form.format(v=v, s=step)}; __asm__ volatile(\"\" : \"{constraint}\"({v}));"
                            for _ in range(CHAINS // chains) for v in names)
            out.append(f"        if (bytes == {k}) {{ {ctype} {decl}; t0 = now();\n"
                       f"            for (long i = 0; i < n; i++) {{ {body} }}\n"
                       f"            t0 = now() - t0; printf(\"%.9g\\n\", t0 / ({CHAINS}.0 * n));"
                       f" return ({' + '.join(names)}) == 42; }}")
    return "\n".join(out)


def bench_source() -> str:
    """The C source of the clock / hierarchy / operation-class benchmark."""
    return _BENCH.replace("@OPS@", _op_kernels())


TLB_PAGES = (16, 64, 256, 512, 768, 1024, 1536, 2048, 2560, 3072, 4096)
"""Pages walked by the TLB benchmark (one line each; 4096 lines are 256 KiB, still within half of common L2s).
2560: a walk of exactly as many pages as a TLB has entries misses or not from run to run (this host's 3072-entry
L2 TLB came out 2048 in one calibration and 3072 in the next); a point between gives the reach to within 512."""


def tlb_reach(per_access: dict[int, Measured]) -> tuple[int, Measured | None]:
    """(pages the TLBs hold, extra seconds per access beyond them) from one-line-per-page walks: the extra is
    the largest walk's time minus the time at a quarter of it (the same cache level serves both); the reach
    is the largest walk whose time stays below half that step."""
    sizes = sorted(per_access)
    top, quarter = per_access[sizes[-1]], per_access[max(p for p in sizes if p <= sizes[-1] // 4)]
    extra = top.seconds - quarter.seconds
    if extra <= 0.5 * quarter.seconds:       # no step: the TLBs cover every walk
        return sizes[-1], None
    reach = max(p for p in sizes if per_access[p].seconds < quarter.seconds + extra / 2)
    return reach, Measured(extra, max(top.spread, quarter.spread), top.samples, top.reliable and quarter.reliable)


FIRST_TLB_PROBE = 256
"""Pages of the walk that tells the first-level TLB's miss (``tlb_first``): more than the 64-96 entries of
common first-level TLBs, far fewer than a second level's 1 536-2 048, and its lines (16 KiB) within half an L1."""


def tlb_first(walks: dict[int, Measured], l1_bytes: int, line: int) -> tuple[int, Measured] | None:
    """(pages the first-level TLB holds, extra seconds per access beyond them) from the ``TLB_PAGES`` walks: the
    ``FIRST_TLB_PROBE``-page walk's time less the smaller of the 16 and 64-page walks' (lines in L1 for all, a
    second-level TLB hit at each page change for the probe); the reach is 64 pages where the 64-page walk stays
    below half that step, else 16. The onset (``tlb_onset``) is measured from a walk of a quarter of the largest,
    which pays this miss already, so the model adds it to the onset's figures (sad.predict.reuse.tlb_seconds).
    Timed on an Emerald Rapids VM (first-level TLB of 96 entries): 0.37 ns an access at 16-96 pages, 0.48 at
    128, 0.55 at 256, the lines in L1 throughout; LU's column walk at n = 2 000, 256 to 1 536 rows a page or
    more apart, ran 1.4-2.2x the model without it (benchmarks/column_pages.py). Where the step is under a tenth
    of the base: no miss up to the probe's pages, (``FIRST_TLB_PROBE``, 0 s), written so that the file says it
    was measured. None where there is no probe or its lines would not fit half the L1 (``l1_bytes``; 0: not
    known)."""
    bases = [p for p in (16, 64) if p in walks]
    probe = walks.get(FIRST_TLB_PROBE)
    if probe is None or not bases or (l1_bytes and FIRST_TLB_PROBE * line > l1_bytes * FIT_FRACTION):
        return None
    base = min((walks[p] for p in bases), key=lambda m: m.seconds)
    extra = probe.seconds - base.seconds
    if extra <= 0.1 * base.seconds:
        return FIRST_TLB_PROBE, Measured(0.0, max(probe.spread, base.spread), probe.samples,
                                         probe.reliable and base.reliable,
                                         host_ratio=max(probe.host_ratio, base.host_ratio))
    reach = max((p for p in bases if walks[p].seconds < base.seconds + extra / 2), default=bases[0])
    return reach, Measured(extra, max(probe.spread, base.spread), probe.samples, probe.reliable and base.reliable,
                           host_ratio=max(probe.host_ratio, base.host_ratio))


def tlb_onset(walks: dict[int, Measured]) -> dict[int, Measured]:
    """Extra seconds per access of the ``TLB_PAGES`` walks from ``tlb_reach``'s baseline (the walk over a quarter of
    the largest, extra 0) up to the largest, never below a smaller walk's (noise): pages → extra. The second-level
    TLB is set associative and shares its entries with other pages (code, stack, the other arrays), so misses set
    in before its entries are all used: on this host (an Ice Lake VM, 2048 entries) 0.2 ns more per access at 1536
    pages, 2.3 at 2048, 7.8 at 2560, 9.7 at 4096; a column sum over 2000 rows 16 KB apart (2000 pages, within
    the reach) runs 3-6 ns per access where its chain alone takes 1.2."""
    sizes = sorted(walks)
    base = max(p for p in sizes if p <= sizes[-1] // 4)
    out: dict[int, Measured] = {}
    last = 0.0
    for pages in (p for p in sizes if base <= p < sizes[-1]):
        fig = walks[pages]
        last = max(last, fig.seconds - walks[base].seconds)
        out[pages] = Measured(last, max(fig.spread, walks[base].spread), fig.samples,
                              fig.reliable and walks[base].reliable)
    return out


TLB_PITCHES = (2, 4, 8)
"""Row pitches (pages, each plus a line) of the TLB walks timed besides the one-page pitch of ``TLB_PAGES``: the
onset of misses is not a function of the pages alone. Measured on this host (benchmarks/tlb_pitch.py, Ice Lake-SP
VM, transparent huge pages off for these arrays: 'madvise' and no madvise, AnonHugePages 0): a walk stays within
1.25 x its in-TLB cost up to 1536 rows at 4160 B and 16448 B pitches, 768-1024 at 8256 B, 64-512 at 33024 B."""
TLB_PITCH_PAGES = (256, 512, 768, 1024, 1536, 2048, 3072, 4096)
"""Rows (pages) of the walks at each of ``TLB_PITCHES``."""


def tlb_pitch_curve(walks: dict[int, Measured], base: Measured) -> dict[int, Measured]:
    """Extra seconds per access of one pitch's walks (rows → figure) over ``base``, the one-page pitch's baseline
    walk (``tlb_onset``'s: lines in the same cache level, no misses), never below a smaller walk's (noise; a
    negative difference is 0)."""
    out: dict[int, Measured] = {}
    last = 0.0
    for pages in sorted(walks):
        fig = walks[pages]
        last = max(last, fig.seconds - base.seconds)
        out[pages] = Measured(last, max(fig.spread, base.spread), fig.samples, fig.reliable and base.reliable,
                              host_ratio=fig.host_ratio)
    return out


TLB_WAYS = (2, 4, 8, 16, 32)
"""Associativities tried when fitting the TLB's geometry (``fit_tlb_geometry``)."""


@functools.lru_cache(maxsize=256)
def tlb_conflicts(pitch: int, rows: int, sets: int, ways: int, page: int) -> float:
    """Share of the accesses of a walk over ``rows`` rows ``pitch`` bytes apart (a new page each, pitch >= page),
    repeated, that miss a set-associative TLB of ``sets`` sets of ``ways`` entries indexed by the page number
    modulo sets (Hennessy & Patterson, App. B.1 and B.4: a TLB is a cache of translations, placed as a cache
    places lines): with LRU replacement a cyclic walk misses on every page of a set that holds more pages than
    it has ways, and on none of the others. Two pages and a line between rows (8256 B) put 1280 rows in 256
    sets of 8 ways unevenly (page numbers 2k + k / 64), 224 pages beyond the ways: 89 % of the accesses miss,
    where one page and a line (4160 B) fill the sets evenly and miss none before 2048 rows."""
    counts: dict[int, int] = {}
    for k in range(rows):
        key = (k * pitch // page) % sets
        counts[key] = counts.get(key, 0) + 1
    return sum(n for n in counts.values() if n > ways) / rows if rows else 0.0


@functools.lru_cache(maxsize=16)
def fit_tlb_geometry(entries: int, page: int, miss_s: float, walks: tuple[tuple[int, int, float], ...]
                     ) -> tuple[int, int] | None:
    """(sets, ways) with sets x ways = ``entries`` (the measured reach) whose conflicts (``tlb_conflicts`` x
    ``miss_s``) come closest to the calibrated walks' extra seconds ((pitch, rows, extra) of the one-page walks and
    of ``TLB_PITCHES``'): the sum of absolute differences, the fewer ways on a tie. CPUID leaf 0x18 (the TLB's
    geometry) is empty in the VMs this was measured on, so the walks are what says it. Fitted on an Ice Lake-SP
    VM and on a Sapphire Rapids-class VM (2048 entries both): 256 sets of 8 ways, which puts the early misses of a
    2-page-and-a-line pitch where benchmarks/tlb_pitch.py measures them. On the latter it predicts
    the walks at twelve pitches it was not fitted to (5 600-24 640 B, among them rows of 1 000-2 100 doubles)
    0.29 ns per access off (median; the one-page curve 0.37), at exact multiples of a page 2.0 ns (the curve
    2.9: their lines crowd the caches' sets too, which the data term prices)."""
    best: tuple[float, int, int] | None = None
    for ways in TLB_WAYS:
        if entries % ways:
            continue
        sets = entries // ways
        error = sum(abs(tlb_conflicts(pitch, rows, sets, ways, page) * miss_s - extra)
                    for pitch, rows, extra in walks if pitch >= page)
        if best is None or error < best[0]:
            best = (error, sets, ways)
    return (best[1], best[2]) if best else None


TLB_RAMP_PAGES = (6144, 8192, 12288, 16384)
"""Larger one-line-per-page walks, beyond the TLBs' reach (``tlb_ramp``); only those whose lines (a line per
page) stay within what the second cache level holds are timed, so that the step is the misses' and not a level's."""


def ramp_pages(caches: list[CacheInfo], line: int) -> list[int]:
    """The ``TLB_RAMP_PAGES`` whose walk's lines (one per page) fit the second cache level by the layer condition
    (FIT_FRACTION): 8192 pages for a 1 MiB L2 (512 KiB of lines); none without a second level."""
    if len(caches) < 2:
        return []
    fit = int(caches[1].size_bytes * FIT_FRACTION)
    return [p for p in TLB_RAMP_PAGES if p * line <= fit]


def tlb_ramp(walks: dict[int, Measured], larger: dict[int, Measured]) -> dict[int, Measured]:
    """Extra seconds per access of walks over more pages than the TLBs hold, against the same baseline as
    ``tlb_reach`` (the walk over a quarter of the largest ``TLB_PAGES``): pages → extra. Why: a miss's page walk
    reads page-table entries, 8 bytes a page; beyond the TLBs' reach those of more pages than the L1 keeps come
    from L2 (8192 pages: 64 KiB of entries), and under a hypervisor each guest entry is translated again (nested
    paging). Measured on this host with the calibration's own walks: 0.3 ns more per access at 4096 pages, 1.1 ns
    at 6144, 1.6 ns at 8192 (one line per page, the lines in L2 throughout). A figure no larger than the one
    before is dropped (noise)."""
    sizes = sorted(walks)
    quarter = walks[max(p for p in sizes if p <= sizes[-1] // 4)]
    out: dict[int, Measured] = {}
    last = walks[sizes[-1]].seconds - quarter.seconds
    for pages in sorted(larger):
        fig = larger[pages]
        extra = fig.seconds - quarter.seconds
        if extra > last:
            out[pages] = Measured(extra, max(fig.spread, quarter.spread), fig.samples,
                                  fig.reliable and quarter.reliable)
            last = extra
    return out


WALK_CHASE_BYTES = 64 * 1024 ** 2
"""Memory of the walk-latency chase: one line per access, each on another of its 16384 pages (far beyond the
TLBs) in a shuffled order (no prefetch), and the lines of 64 MB (beyond the caches) before one comes again."""

FIRST_TOUCH_BYTES = 32 * 1024 ** 2
"""Memory allocated by the first-touch benchmark: far above glibc's mmap threshold, so it comes fresh from the
kernel (every page faults on its first write), and large enough that a page's cost stands out of the noise."""


def huge_pages_mode(path: Path = Path("/sys/kernel/mm/transparent_hugepage/enabled")) -> str:
    """The OS's transparent huge page mode ('always', 'madvise', 'never': the bracketed word), 'unknown' where it
    does not say. Under 'madvise' or 'never' a program's arrays (and the calibration's) are in pages of the page
    size; under 'always' large ones may be in 2 MiB pages, whose walks miss the TLBs far later: a column walk over
    384 MiB measured 6.5 ns per access in 2 MiB pages (spread 1 %), 6.5-14 ns in 4 KiB pages on this host."""
    try:
        text = path.read_text()
    except OSError:
        return "unknown"
    start, end = text.find("["), text.find("]")
    return text[start + 1:end] if 0 <= start < end else "unknown"


def page_size() -> int:
    """The OS's page size in bytes (4096 where it cannot be asked)."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, OSError, ValueError):
        return 4096


def child_cpu_seconds(cmd: list[str]) -> float:
    """User + system CPU time of a child process from its rusage (what the benchmarks time): it includes the
    page faults of the child and the kernel's unmapping of its memory at exit, which no in-process clock sees."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise OSError(f"{' '.join(cmd)} failed")
    return usage.ru_utime + usage.ru_stime


def first_touch_samples(exe: Path, cpu: int | None, page: int, nbytes: int = FIRST_TOUCH_BYTES,
                        mode: str = "p") -> list[float]:
    """Seconds per page: (a run that writes (mode p) or reads (mode z) one byte per page of fresh memory − a run
    that allocates the same and does not touch it) / pages, three pairs (interleaved, so both see the same
    load)."""
    pages = nbytes // page
    out = []
    for _ in range(3):
        touched = child_cpu_seconds(pin_command([str(exe), mode, str(page), str(nbytes), "1"], cpu))
        untouched = child_cpu_seconds(pin_command([str(exe), "q", str(page), str(nbytes), "1"], cpu))
        out.append((touched - untouched) / pages)
    return out


def _minus(chain: Measured, seconds: float) -> Measured:
    value = chain.seconds - seconds
    if value <= 0:   # never a zero or negative figure: the chain alone, flagged
        return Measured(chain.seconds, chain.spread, chain.samples, reliable=False,
                        note="chain not longer than its add: forwarding not isolated")
    return Measured(value, chain.spread, chain.samples, chain.reliable)


def _isolated(key: str, fig: Measured | None, comment: str, slower: str, instead: str) -> list[str]:
    """The line of a figure measured as a difference of two runs (``key: N ns`` + ``comment``), or, where the
    difference came out 0 or less, a comment saying why it is left out and how the model does without it:
    never a 0 ns figure. [] where it was not measured."""
    if fig is None:
        return []
    if fig.seconds > 0:
        return [f"  {key}: {fig.seconds * 1e9:.4g} ns{comment}, spread {fig.spread:.1%}{_flag(fig)}"]
    return [f"  # {key}: not isolated ({slower}, {fig.seconds * 1e9:.3g} ns): {instead}"]


def clock_line(clock: Measured) -> str:
    """The ``clock`` line of the hierarchy section, with where a faster clock came from (retime_clock)."""
    note = _flag(clock) + (f"; {clock.note}" if clock.reliable and clock.note else "")
    return (f"  clock: {clock.seconds / 1e6:.0f} MHz            # dependent integer adds, "
            f"spread {clock.spread:.1%}{note}")


def render_yaml(cal: HierarchyCalibration) -> list[str]:
    """The ``hierarchy`` section of a machine database (YAML lines)."""
    lines = ["hierarchy:                        # sad calibrate: sizes from the OS, line costs measured pinned",
             clock_line(cal.clock), f"  line: {cal.caches[0].line_bytes}"]
    kinds = {"forward": "integer", "forward_fp": "floating point",
             "forward_folded": "integer, the load folded into an add",
             "forward_rmw": "integer, a read-modify-write of a register's value"}
    for key, fig in (("forward", cal.forward), ("forward_fp", cal.forward_fp),
                     ("forward_folded", cal.forward_folded), ("forward_rmw", cal.forward_rmw)):
        if fig is not None:
            flag = _flag(fig)
            lines.append(f"  {key}: {fig.seconds * 1e9:.4g} ns        # store-to-load forwarding "
                         f"({kinds[key]}), spread {fig.spread:.1%}{flag}")
    # never a 0: left out where not isolated (a loop that needs it is warned about), a comment says why
    lines += _isolated("mispredict", cal.mispredict, "        # a mispredicted branch: a test of random bits less "
                       "one always taken, x2", "a test of random bits ran no slower than one always taken",
                       "branches of data priced without mispredictions")
    if cal.first_touch is not None:
        fig = cal.first_touch
        flag = _flag(fig)
        lines.append(f"  page: {cal.page_bytes}   # transparent huge pages: {huge_pages_mode()} (the arrays "
                     "of the column walks in pages of this size unless 'always')")
        lines.append(f"  first_touch: {fig.seconds * 1e9:.4g} ns   # per page of fresh memory written first (fault, "
                     f"zeroing, unmap at exit), spread {fig.spread:.1%}{flag}")
    lines += _isolated("first_read", cal.first_read, "   # per page of fresh memory read before any write (a fault "
                       "mapping the zero page)", "reading a page per page of fresh memory ran no slower than not "
                       "touching it", "such reads priced as first_touch")
    if cal.tlb_miss is not None:
        flag = _flag(cal.tlb_miss)
        ramp = ", ".join(f"{p}: {f.seconds * 1e9:.4g} ns" for p, f in sorted(cal.tlb_ramp.items()))
        onset = ", ".join(f"{p}: {f.seconds * 1e9:.4g} ns" for p, f in sorted(cal.tlb_onset.items()))
        pitches = ", ".join(f"{pitch}: {{" + ", ".join(f"{p}: {f.seconds * 1e9:.4g} ns"
                                                       for p, f in sorted(curve.items()))
                            + "}" for pitch, curve in sorted(cal.tlb_pitches.items()))
        spread = max([cal.tlb_miss.spread] + [f.spread for f in cal.tlb_ramp.values()])
        slow = [f for curve in cal.tlb_pitches.values() for f in curve.values() if not f.reliable]
        lines.append(f"  tlb: {{pages: {cal.tlb_pages}, miss: {cal.tlb_miss.seconds * 1e9:.4g} ns"
                     + (f", first: {{pages: {cal.tlb_first[0]}, miss: {cal.tlb_first[1].seconds * 1e9:.4g} ns}}"
                        if cal.tlb_first else "")
                     + (f", ramp: {{{ramp}}}" if ramp else "") + (f", onset: {{{onset}}}" if onset else "")
                     + (f", pitches: {{{pitches}}}" if pitches else "")
                     + "}   # one line per page walks; spread " + f"{spread:.1%}{flag}"
                     + (f"; pitches: {len(slow)} walk(s){_flag(*slow)}" if slow else ""))
    if cal.walk_latency is not None:
        flag = _flag(cal.walk_latency)
        lines.append(f"  walk_latency: {cal.walk_latency.seconds * 1e9:.4g} ns   # a dependent load from memory on a "
                     f"page beyond the TLBs; spread {cal.walk_latency.spread:.1%}{flag}")
    if cal.ops:
        lines.append("  ops:                          # per operation: latency (a dependent chain), reciprocal "
                     "throughput (8 chains)")
        for key in sorted(cal.ops):
            lat, thr = cal.ops[key]
            flag = _flag(lat, thr)
            lines.append(f"    {key}: {{latency: {lat.seconds * 1e9:.4g} ns, throughput: {thr.seconds * 1e9:.4g} ns}}"
                         f"  # spread {max(lat.spread, thr.spread):.1%}{flag}")
    if cal.mca_scale is not None:
        lines += corescale.render_yaml(cal.mca_scale)
    lines.append("  levels:")
    names = [f"L{c.level}" for c in cal.caches] + ["memory"]
    infos = {f"L{c.level}": c for c in cal.caches}
    for name in names:
        r, w, cr, cw = cal.read[name], cal.write[name], cal.column[name], cal.column_write[name]
        size = _geometry(infos[name]) if name in infos else ""
        figures = [r, w, cr, cw]
        one_set = ""
        if name in cal.copy:
            figures.append(cal.copy[name])
            one_set = f", copy: {cal.copy[name].seconds * 1e9:.4g} ns"
        if name in cal.column_even:
            figures.append(cal.column_even[name])
            one_set += f", column_read_even: {cal.column_even[name].seconds * 1e9:.4g} ns"
        if name in cal.one_set and name in cal.one_set_write:
            sr, su = cal.one_set[name], cal.one_set_write[name]
            figures += [sr, su]
            one_set += f", one_set_read: {sr.seconds * 1e9:.4g} ns, one_set_update: {su.seconds * 1e9:.4g} ns"
        flag = _flag(*figures)
        if name in cal.holds:
            one_set += f", holds: {cal.holds[name] // 1024} KiB"
        if cal.passes.get(name):
            one_set += ", ramp: {" + ", ".join(f"{n // 1024} KiB: {f.seconds * 1e9:.4g} ns"
                                               for n, f in sorted(cal.passes[name].items())) + "}"
        lines.append(f"    - {{name: {name}{size}, read: {r.seconds * 1e9:.4g} ns, write: {w.seconds * 1e9:.4g} ns, "
                     f"column_read: {cr.seconds * 1e9:.4g} ns, column_update: {cw.seconds * 1e9:.4g} ns{one_set}}}"
                     f"  # per line; spread {max(f.spread for f in figures):.1%}{flag}")
    return lines


def _flag(*figures: Measured) -> str:
    """'  UNRELIABLE' when one of the figures is, with 'SLOW HOST x1.32' when the sentinel saw the host slowed
    around one of them (the largest ratio); '' otherwise."""
    if all(f.reliable for f in figures):
        return ""
    slowest = max(f.host_ratio for f in figures)
    return "  UNRELIABLE" + (f" SLOW HOST x{slowest:.2f}" if slowest > hostspeed.SLOW else "")


def _geometry(c: CacheInfo) -> str:
    """', size: 512 KiB, ways: 8, sets: 1024, line: 64' of a cache as the OS reports it (YAML flow fields)."""
    text = f", size: {c.size_bytes // 1024} KiB"
    if c.ways and c.sets:
        text += f", ways: {c.ways}, sets: {c.sets}, line: {c.line_bytes}"
    return text


def from_database(section: dict, parse_time: Callable[[object], float], parse_frequency: Callable[[object], float]
                  ) -> Hierarchy:
    """The loaded ``hierarchy`` mapping (already schema-checked) → Hierarchy."""
    levels = []
    tlb = section.get("tlb") or {}
    for entry in section["levels"]:
        size = entry.get("size")
        read, write = parse_time(entry["read"]), parse_time(entry["write"])
        levels.append(Level(entry["name"], _kib(size) if size is not None else None, read, write,
                            parse_time(entry.get("column_read", entry["read"])),
                            parse_time(entry.get("column_update", entry["write"])),
                            int(entry.get("ways", 0)), int(entry.get("sets", 0)), int(entry.get("line", 0)),
                            parse_time(entry.get("one_set_read", 0)), parse_time(entry.get("one_set_update", 0)),
                            _kib(entry["holds"]) if entry.get("holds") is not None else 0,
                            copy_s=parse_time(entry.get("copy", 0)),
                            column_even_s=parse_time(entry.get("column_read_even", 0))))
    memory_s = levels[-1].line_s if levels and levels[-1].size_bytes is None else 0.0
    levels = [_with_ramp(lv, entry, memory_s, parse_time) for lv, entry in zip(levels, section["levels"])]
    waits = section.get("chain_wait") or {}
    levels = [replace(lv, wait_s=parse_time(waits[lv.name][0]), column_wait_s=parse_time(waits[lv.name][1]))
              if lv.name in waits else lv for lv in levels]
    return Hierarchy(parse_frequency(section["clock"]), int(section.get("line", LINE_BYTES)), tuple(levels),
                     parse_time(section.get("forward", 0)), parse_time(section.get("forward_fp", 0)),
                     int(section.get("page", 4096)), parse_time(section.get("first_touch", 0)),
                     {key: (parse_time(v["latency"]), parse_time(v["throughput"]))
                      for key, v in sorted((section.get("ops") or {}).items())},
                     int(tlb.get("pages", 0)), parse_time(tlb.get("miss", 0)),
                     parse_time(section.get("walk_latency", 0)),
                     tuple(sorted((int(k), parse_time(v)) for k, v in (tlb.get("ramp") or {}).items())),
                     tuple(sorted((int(k), parse_time(v)) for k, v in (tlb.get("onset") or {}).items())),
                     corescale.from_database(section["mca_scale"]) if section.get("mca_scale") else None,
                     "chain_wait" in section,
                     tuple(sorted((int(pitch), tuple(sorted((int(k), parse_time(v)) for k, v in curve.items())))
                                  for pitch, curve in (tlb.get("pitches") or {}).items())),
                     forward_folded_s=parse_time(section.get("forward_folded", 0)),
                     forward_rmw_s=parse_time(section.get("forward_rmw", 0)),
                     mispredict_s=parse_time(section.get("mispredict", 0)),
                     chain_share=float(section["chain_share"]) if "chain_share" in section else None,
                     walk_share=float(section["walk_share"]) if "walk_share" in section else None,
                     first_read_s=parse_time(section.get("first_read", 0)),
                     tlb_first=(int(tlb["first"]["pages"]), parse_time(tlb["first"]["miss"])) if tlb.get("first")
                     else (0, 0.0),
                     column_walks_measured=any("column_read" in entry for entry in section["levels"]))


def _with_ramp(level: Level, entry: dict, beyond_s: float, parse_time: Callable[[object], float]) -> Level:
    """The level with its ramp (``ramp_of``) from the entry's read passes (``ramp: {8192 KiB: 0.92 ns, ...}``)
    against memory's read figure."""
    passes = entry.get("ramp") or {}
    if not passes or level.size_bytes is None:
        return level
    ramp = ramp_of(level.line_s, beyond_s, {_kib(k): parse_time(v) for k, v in passes.items()})
    # the level's own figure was timed over half the first pass's footprint (``measure_holds``): no share there
    return replace(level, ramp=((ramp[0][0] // 2, 0.0), *ramp) if ramp else ramp)


def _kib(text: object) -> int:
    """'32 KiB' / '8192 KiB' / '8 MiB' → bytes."""
    number, _, unit = str(text).partition(" ")
    factor = {"KiB": 1024, "MiB": 1024 ** 2, "GiB": 1024 ** 3, "B": 1, "": 1}[unit.strip()]
    return int(float(number) * factor)
