"""Host-speed sentinel: is this shared machine running at its usual speed right now?

Place in the data flow: `sad calibrate` (sad.machine.calibrate, sad.machine.hierarchy) and benchmarks/heldout.py
time programs on a VM whose speed varies with what its neighbours run (an L2-bound loop measured ×2.4 slower
within minutes, the same -O0 kernel 0.89 s in the morning and 1.4-1.8 s at night; the memory column-walk figure
of five calibrations 9.4, 17.8, 27.4, 9.7 and 31.4 ns). Before and after each figure or kernel they run
``Sentinel.sample``: a fixed, short reference program pinned to the same CPU, timed in CPU seconds as the
figures are, with four parts that slow down for different reasons —

- ``chain``: a dependent integer chain (x = x * 1103515245 + 12345, 10 M links: the multiply-add latency;
  what a lower clock slows),
- ``walk``: a dependent walk over one random cycle of 32 768 pointers (256 KiB: past L1, inside L2; what a
  neighbour that evicts L2 slows),
- ``far``: the same walk over 4 Mi pointers (32 MiB: the last cache shared with other cores and other guests,
  and memory, past the TLBs; what a neighbour's traffic slows: a column walk over 800 pages of
  benchmarks/devkernels' covariance ran 1.46 s one evening and 2.26 s the next night while the other two
  parts stayed within 10 %),
- ``wide``: eight independent shift-and-xor chains side by side (2 M links: the core's integer units and
  dispatch kept busy, no chain the latency of which bounds it; what a busy sibling hyperthread slows: on a
  2-vCPU Zen 4 guest it ran 1.6-3.0 ns a link from one run to the next, minutes apart, while ``chain`` kept
  1.42 ns within 4 %, and the compiled loops of llvm-mca's calibration (sad.machine.corescale) swung with it),

each in ns per link, the best of three repeats in one run. ``Sentinel.ratio`` is a sample against the fastest
seen so far in the session (a host cannot run a fixed program faster than it can: the minimum is its speed),
the largest of the parts' ratios; a kernel measured while that ratio exceeds ``SLOW`` is retimed or flagged
by the caller. ``Sentinel.spread`` sums up every sample taken (median, interquartile spread, range).
``Guard`` wraps a measurement between two samples and retimes it while the host is slow (``RETRIES`` more at
most): the calibration's way of not writing a figure of a slowed host without saying so.
"""
from __future__ import annotations

import statistics
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

PARTS = ("chain", "walk", "far", "wide")
EXE = "hostspeed"   # the reference program's name in the directory it is built in
Sample = tuple[float, ...]   # ns per link of each part
SLOW = 1.10   # a sample 10 % slower than the fastest seen: the host is slowed (the spread of a quiet host: ~1-3 %)
RETRIES = 2   # a figure measured on a slowed host is timed again at most this many times

SOURCE = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define LINKS 10000000L
#define NODES 32768L
#define STEPS 1000000L
#define FAR_NODES 4194304L
#define FAR_STEPS 100000L
#define WIDE 2000000L
static size_t *cycle(size_t nodes, unsigned long *x) {   /* Sattolo's shuffle: one cycle through every node */
    size_t *next = malloc(nodes * sizeof *next), j, k, tmp;
    if (!next) exit(1);
    for (j = 0; j < nodes; j++) next[j] = j;
    for (j = nodes - 1; j > 0; j--) {
        *x = *x * 6364136223846793005UL + 1442695040888963407UL;
        k = (*x >> 33) % j; tmp = next[j]; next[j] = next[k]; next[k] = tmp;
    }
    return next;
}
static double cpu_ns(void) {
    struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec * 1e9 + t.tv_nsec;
}
int main(void) {
    unsigned long x = 1, i, k;
    double best_chain = 1e30, best_walk = 1e30, best_far = 1e30, best_wide = 1e30, t;
    unsigned long w0 = 1, w1 = 2, w2 = 3, w3 = 4, w4 = 5, w5 = 6, w6 = 7, w7 = 8;
    size_t *next = cycle(NODES, &x), *far = cycle(FAR_NODES, &x), j, p = 0, q = 0;
    for (j = 0; j < NODES; j++) p = next[p];  /* warm: the cycle in L2 */
    for (k = 0; k < 3; k++) {
        t = cpu_ns();
        for (i = 0; i < LINKS; i++) x = x * 1103515245UL + 12345UL;
        t = (cpu_ns() - t) / LINKS; if (t < best_chain) best_chain = t;
        t = cpu_ns();
        for (i = 0; i < STEPS; i++) p = next[p];
        t = (cpu_ns() - t) / STEPS; if (t < best_walk) best_walk = t;
        t = cpu_ns();
        for (i = 0; i < FAR_STEPS; i++) q = far[q];
        t = (cpu_ns() - t) / FAR_STEPS; if (t < best_far) best_far = t;
        t = cpu_ns();
        for (i = 0; i < WIDE; i++) {   /* shifts differ per chain: no two alike for the vectorizer to pair */
            w0 ^= (w0 << 1) ^ i; w1 ^= (w1 >> 2) ^ i; w2 ^= (w2 << 3) ^ i; w3 ^= (w3 >> 4) ^ i;
            w4 ^= (w4 << 5) ^ i; w5 ^= (w5 >> 6) ^ i; w6 ^= (w6 << 7) ^ i; w7 ^= (w7 >> 9) ^ i;
        }
        t = (cpu_ns() - t) / WIDE; if (t < best_wide) best_wide = t;
    }
    printf("%.4f %.4f %.4f %.4f %lu %lu\n", best_chain, best_walk, best_far, best_wide, x & 1,
           (unsigned long)((p ^ q ^ w0 ^ w1 ^ w2 ^ w3 ^ w4 ^ w5 ^ w6 ^ w7) & 1));
    return 0;
}
"""


@dataclass
class Sentinel:
    """The reference program built once and its samples (ns per link of each of PARTS)."""
    exe: Path
    cpu: int | None
    samples: list[Sample] = field(default_factory=list)

    @classmethod
    def build(cls, work: Path, cpu: int | None) -> Sentinel:
        """Compile the reference program with gcc -O2 in ``work``."""
        src, exe = work / "hostspeed.c", work / EXE
        src.write_text(SOURCE, encoding="utf-8")
        proc = subprocess.run(["gcc", "-O2", "-fno-tree-vectorize", str(src), "-o", str(exe)], capture_output=True,
                              text=True, check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"host-speed sentinel: compile failed: {proc.stderr[-500:]}")
        return cls(exe, cpu)

    def sample(self) -> float:
        """One run, pinned: its ratio to the fastest seen (``ratio``), the sample kept."""
        from sad.machine.hierarchy import pin_command
        proc = subprocess.run(pin_command([str(self.exe)], self.cpu), capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"host-speed sentinel failed (exit {proc.returncode}): {proc.stderr[-300:]}")
        sample = tuple(float(v) for v in proc.stdout.split()[:len(PARTS)])
        self.samples.append(sample)
        return self.ratio(sample)

    def ratio(self, sample: Sample, parts: tuple[str, ...] = PARTS) -> float:
        """The largest of the sample's ``parts`` over the fastest of that part seen (1.0: as fast as ever)."""
        return max(v / min(s[i] for s in self.samples) for i, v in enumerate(sample) if PARTS[i] in parts)

    def spread(self) -> dict[str, dict[str, float]]:
        """Per part: median ns, interquartile spread relative to the median, fastest and slowest, of all samples."""
        out = {}
        for i, part in enumerate(PARTS):
            values = [s[i] for s in self.samples]
            med = statistics.median(values)
            q = statistics.quantiles(values, n=4) if len(values) >= 3 else [med, med, med]
            out[part] = {"median_ns": med, "iqr": (q[2] - q[0]) / med, "min_ns": min(values), "max_ns": max(values),
                         "samples": len(values)}
        return out

    def spread_text(self) -> str:
        """One line: each part's median, spread and range."""
        s = self.spread()
        return "host-speed sentinel: " + "; ".join(
            f"{part} {v['median_ns']:.3f} ns median, spread {v['iqr']:.1%}, range {v['min_ns']:.3f}-"
            f"{v['max_ns']:.3f} ns ({v['samples']:.0f} samples)" for part, v in s.items())


T = TypeVar("T")


@dataclass
class Guarded(Generic[T]):
    """A measurement with the host's speed around it: the sentinel's ratio (the larger of the samples before and
    after, against the fastest seen when it is judged) and how many times it was timed."""
    value: T
    ratio: float
    tries: int

    @property
    def slow(self) -> bool:
        """Still measured on a slowed host after the retries."""
        return self.ratio > SLOW


@dataclass
class Guard:
    """Times measurements between sentinel samples (the sample after one is the sample before the next): a
    measurement with a sample above ``SLOW`` on either side is taken again, ``RETRIES`` more times at most, and
    the one measured on the fastest host is kept (``Guarded``)."""
    sentinel: Sentinel
    retries: int = RETRIES
    _before: Sample | None = None
    slowed: dict[str, float] = field(default_factory=dict)   # what was still measured on a slow host → ratio

    def settle(self, samples: int = 3) -> None:
        """A few samples first: the fastest of them is the reference the first figures are judged against."""
        for _ in range(samples):
            self.sentinel.sample()
        self._before = self.sentinel.samples[-1]

    def now(self, parts: tuple[str, ...] = PARTS) -> float:
        """The host's speed now: one sample (also the one before the next measurement), its ratio on ``parts``."""
        self.sentinel.sample()
        self._before = self.sentinel.samples[-1]
        return self.sentinel.ratio(self._before, parts)

    def measure(self, what: str, timing: Callable[[], T], parts: tuple[str, ...] = PARTS) -> Guarded[T]:
        """``timing()`` between two samples, again while the host is slow; the try on the fastest host kept.
        ``parts``: the sentinel's parts that slow down for the reasons the measurement does (an operation's
        chain is not slowed by a neighbour's memory traffic, a memory walk is), judged alone."""
        tries: list[tuple[float, T]] = []
        for _ in range(1 + max(0, self.retries)):
            if self._before is None:
                self.sentinel.sample()
                self._before = self.sentinel.samples[-1]
            before = self._before
            value = timing()
            self.sentinel.sample()
            self._before = after = self.sentinel.samples[-1]
            tries.append((max(self.sentinel.ratio(before, parts), self.sentinel.ratio(after, parts)), value))
            if tries[-1][0] <= SLOW:
                break
        ratio, value = min(tries, key=lambda t: t[0])
        if ratio > SLOW:
            self.slowed[what] = max(ratio, self.slowed.get(what, 0.0))
        return Guarded(value, ratio, len(tries))
