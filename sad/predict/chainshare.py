"""How much of a loop's body a chain through memory hides on this core: the share sad.predict.overlap.chained adds.

Data flow: `sad calibrate` at any level (sad.cli.machine's step at the end of the calibration, its figures
written to a temporary machine file as a -O0 build's: the shares are the core's, and -O0 is where every loop
keeps its variables in memory) → ``measure``: a C program of ``LOOPS``
(arrays in L1, every variable in a stack slot, so the index's chain through memory runs in every loop and an
accumulator's or an element's in some) compiled with gcc -O0 and run pinned ``runs`` times between the host-speed
sentinel's samples, each loop's ns per iteration (the fastest of the runs, ``timed``) → the same program priced
with that machine file (sad.predict.job): each loop's core (llvm-mca), its longest chain through memory and its
index's → ``fit``: the share of the shorter of core and index chain added to the longer (a longer chain running
beside them, sad.predict.overlap.chained) that makes measured / model most even over the loops (the
median absolute deviation of its log smallest; the level of the ratios follows the host's state, their spread is
what the rule decides) → the file's ``hierarchy.chain_share`` (``yaml_lines``) → sad.machine.hierarchy's
``Hierarchy.chain_share`` → the composition of every loop with such a chain (sad.predict.overlap.chained).
The same program's ``WALKS`` (column walks over arrays larger than L1, beside the index's chain) fit the second
figure, ``hierarchy.walk_share``: the share of a walk's transfers into L1 that waits behind the chain
(sad.predict.overlap.loop_seconds' last term), the one that brings the walks' ratios to the L1 loops' level
(``fit_walks``).

Why measured and not a constant: how much of a body's work a chain's links delay is the core's property (which
instructions it lets pass the link's load and store). On an Emerald Rapids VM the share 0.5 made the loops'
ratios most even (measured / (the longer + half the shorter): median 0.93, deviation 0.064, against 0.085 for the
longer alone); on an AMD EPYC Zen 3 VM, three runs minutes apart, the best shares were 0.25, 0 and 0.25
(deviation 0.025-0.032 there, 0.052-0.082 at 0.5), and the -O0 Livermore loops bound by their core and chain
were predicted 10-25 % above their measured times with 0.5. A file without the figure keeps 0.5
(sad.predict.overlap.CHAIN_SHARE), and a loop that uses it says so (sad.predict.loopcost: ``unmeasured``).

The walks' share likewise: adding all of a column walk's fills to core and chain fitted the -O0 development
kernels on the Emerald Rapids VM (sad.predict.overlap); on the Zen 3 VM the walks came out at the L1 loops' level
with 0.15-0.55 of them added (gramschmidt's column dot at -O0 ran 4.0-4.4 ns an iteration: 4.4 ns modelled with
none added, 5.6 with all). With the shares this program fitted there (0.05 and 0.3 in place of 0.25 and all),
the -O0 development kernels' median error went from 13.4 to 5.6 % (46 kernels, the same measured times;
gramschmidt +46 -> +7 %) and Livermore's from 11.2 to 5.4 % (25 kernels).
"""
from __future__ import annotations

import dataclasses
import math
import shlex
import statistics
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sad.machine import hostspeed
from sad.machine.hierarchy import CORE, pin_command
from sad.machine.model import load_machine
from sad.predict import job
from sad.predict.loopcost import LoopPrice
from sad.predict.overlap import chained, loop_seconds

LOOPS = (
    ("empty", ";"),
    ("fill", "c[i] = 1.0;"),
    ("copy", "c[i] = a[i];"),
    ("sum", "s = s + a[i];"),
    ("dot", "s = s + a[i] * b[i];"),
    ("triad", "c[i] = a[i] + t * b[i];"),
    ("inplace", "c[i] += b[i];"),
    ("intsum", "is = is + ia[i];"),
    ("sum2", "{ s = s + a[i]; t = t + b[i]; }"),
    ("column", "B[ii][jj] += A[i][ii] * B[i][jj];"),
    ("recur", "c[i + 1] = c[i] + a[i];"),
    ("poly", "c[i] = a[i] * b[i] + c[i] * a[i] + b[i];"),
    ("k2", "c[i] = a[i] + a[i];"),
    ("k4", "c[i] = a[i] + a[i] + a[i] + a[i];"),
    ("k8", "c[i] = a[i] + a[i] + a[i] + a[i] + a[i] + a[i] + a[i] + a[i];"),
    ("j4", "c[i] = a[j] + a[j] + a[j] + a[j];"),
    ("row", "c[i] = A2[jj][i];"),
    ("mv", "s += A2[jj][i] * b[i];"),
    ("sum3", "s += a[i] + b[i] + c[i];"),
    ("div", "c[i] = a[i] / b[i];"),
    ("iops", "ia[i] = ia[i] * 3 + 1;"),
    ("axpy2", "{ c[i] = c[i] + t * a[i]; d[i] = d[i] + t * b[i]; }"),
    ("stencil", "c[i] = 0.33 * (a[i - 1] + a[i] + a[i + 1]);"),
    ("elem", "B[ii][jj] += a[i];"),
)
"""(name, the inner loop's statement over i): the index alone, an accumulator (s, t, is) or an element (B[ii][jj],
c[i + 1]) kept in memory beside it, bodies of 3 to 51 instructions at -O0."""
WALKS = (
    ("coldot", "e[jj] += P[i][kk] * Q[i][jj];"),
    ("colupd", "Q[i][jj] = Q[i][jj] - P[i][kk] * t;"),
    ("colsum", "s += Q[i][jj];"),
    ("colscale", "Q[i][jj] *= t;"),
    ("colcopy", "Q[i][jj] = P[i][jj];"),
    ("colmv", "s += Q[i][jj] * b[i];"),
    ("coltwo", "s += P[i][jj] * Q[i][jj];"),
    ("colacc", "e[i] += Q[i][jj];"),
)
"""(name, the inner loop's statement over i) of the column walks: down columns jj (and a fixed kk) of 600 x 500
arrays of doubles, rows 4 000 bytes apart, every column in turn (PolyBench's gramschmidt, trmm and mvt sweep so):
a column's lines come back from L2 for the next seven columns, beside the index's chain and an accumulator's or
an element's."""
SHIFTED = {"stencil", "recur"}   # i from 1 to N - 2
TIMED = "/* timed */"   # ends the line of each timed inner loop
REPS = 3
SHARES = tuple(k / 20 for k in range(21))   # 0, 0.05, ..., 1


@dataclass(frozen=True)
class Fit:
    """The share that makes measured / model most even over the loops, with the median ratio and the median
    absolute deviation of its log at that share, and the loops it rests on."""
    share: float
    ratio: float
    deviation: float
    loops: int
    host_ratio: float = 1.0   # the host-speed sentinel's reading around the timed runs (1: as fast as ever)
    walk_share: float | None = None   # the walks' share (``fit_walks``), None: too few walks priced
    walk_deviation: float = 0.0       # the median absolute deviation of their log ratios from ``ratio``
    walk_loops: int = 0
    walk_host_ratio: float = 1.0      # the sentinel's reading around the walks' runs, on all its parts


def source() -> str:
    """The C program: every loop (``LOOPS``, then ``WALKS``) timed REPS times, interleaved; ns per iteration of
    each on stderr."""
    timed = []
    for n, (name, stmt) in enumerate(LOOPS):
        lo, hi = ("1", "N - 1") if name in SHIFTED else ("0", "N")
        timed.append(f"""        t0 = now();
        for (r = 0; r < R; r++)
            for (i = {lo}; i < {hi}; i++) {TIMED}
                {stmt}
        tm[{n}] += (now() - t0) / ((double)R * ({hi} - {lo}));""")
    for n, (_, stmt) in enumerate(WALKS, start=len(LOOPS)):
        timed.append(f"""        t0 = now();
        for (r = 0; r < RW; r++)
            for (jj = 0; jj < K; jj++)
                for (i = 0; i < M; i++) {TIMED}
                    {stmt}
        tm[{n}] += (now() - t0) / ((double)RW * K * M);""")
    count = len(LOOPS) + len(WALKS)
    return f"""/* generated by sad calibrate: what a chain through memory hides (sad/predict/chainshare.py) */
#include <stdio.h>
#include <time.h>
#define N 600
#define R 12000
#define M 600
#define K 500
#define RW 20
static double a[N], b[N], c[N + 1], d[N], e[N], A[N][8], B[N][8], A2[8][N], P[M][K], Q[M][K];
static int ia[N];
static double now(void) {{
    struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + 1e-9 * t.tv_nsec;
}}
int main(void) {{
    int i, r, rep, is = 0, ii = 3, jj = 5, j = 7, kk = 3;
    double s = 0.0, t = 0.5, t0, tm[{count}] = {{0}};
    for (i = 0; i < N; i++) {{
        a[i] = i * 1e-3; b[i] = 1.0 + a[i]; c[i] = 0.5; d[i] = 0.25; e[i] = 0.0; ia[i] = i;
        A[i][ii] = 1e-3; B[i][jj] = 1e-3; A2[jj][i] = 1e-3;
    }}
    for (r = 0; r < M; r++)
        for (j = 0; j < K; j++) {{ P[r][j] = 1e-3; Q[r][j] = 1e-3; }}
    for (rep = 0; rep < {REPS}; rep++) {{
{chr(10).join(timed)}
    }}
    for (i = 0; i < {count}; i++) fprintf(stderr, "%.4f ", tm[i] / {REPS}.0 * 1e9);
    fprintf(stderr, "\\n");
    printf("%g %g %d %g\\n", s, t, is, c[7] + B[ii][jj] + d[3] + e[5] + Q[7][9]);
    return 0;
}}
"""


def timed_lines(text: str) -> list[int]:
    """Line of each timed loop's inner for, in LOOPS' then WALKS' order."""
    return [n + 1 for n, line in enumerate(text.splitlines()) if line.rstrip().endswith(TIMED)]


def loop_lines(text: str) -> list[int]:
    """Line of each timed loop of ``LOOPS``' inner for, in their order."""
    return timed_lines(text)[:len(LOOPS)]


def timed(exe: Path, runs: int, cpu: int | None) -> list[float]:
    """The fastest over the runs of each loop's ns per iteration (``LOOPS``' then ``WALKS``'), the program pinned
    to ``cpu``. The fastest, not the median: what a neighbour on the core does only adds time, and it adds more to
    a loop's work than to its chain (the Zen 3 VM, five runs, four times minutes apart: the share fitted on the
    medians 0.15-0.4, on the fastest 0-0.25), so the median fits the neighbour's share, not the core's."""
    rows = []
    for _ in range(max(1, runs)):
        proc = subprocess.run(pin_command([str(exe)], cpu), capture_output=True, text=True, check=True, timeout=120)
        rows.append([float(x) for x in proc.stderr.split()])
    return [min(r[k] for r in rows) for k in range(len(LOOPS) + len(WALKS))]


def priced(src: Path, machine: str) -> dict[int, LoopPrice]:
    """Each loop priced from the compiled code, by its line."""
    result = job.run([str(src)], job.Options(), load_machine(machine))
    return {lp.loop.line: lp for lp in result.loops if lp.source == "compiled code"}


def walk_row(measured_ns: float, lp: LoopPrice, share: float) -> tuple[float, float, float, float]:
    """(measured, core & chain, every other term, the walks' fills) of a walk loop in ns per iteration, with the
    chain's ``share``: its model at a walk share w is max(every other term, core & chain + w x fills), the rule of
    sad.predict.overlap.loop_seconds (every other term is that rule without the walks)."""
    def ns(x: object) -> float:
        return float(x) * 1e9   # type: ignore[arg-type]
    rest = loop_seconds(lp.core_s, lp.chain_s, lp.data_s, lp.latency_s, lp.wait_s, lp.loads_s, lp.transfers_s, 0,
                        share, index=lp.index_s)
    return measured_ns, ns(chained(lp.core_s, lp.chain_s, share, lp.index_s)), ns(rest), ns(lp.walk_fills_s)


Row = tuple[float, float, float, float]
"""An L1 loop's (measured, core, longest chain through memory, chain through its index), in one unit."""


def summary(rows: Sequence[Row], share: float) -> tuple[float, float]:
    """(median of measured / core & chain with ``share`` (sad.predict.overlap.chained), median absolute deviation
    of its log) over the rows."""
    logs = [math.log(ns / float(chained(core, chain, share, index))) for ns, core, chain, index in rows]
    mid = statistics.median(logs)
    return math.exp(mid), statistics.median(abs(x - mid) for x in logs)


def fit(rows: Sequence[Row]) -> Fit | None:
    """The share of ``SHARES`` whose ratios are most even (the smallest deviation; the smaller share on a tie),
    None with fewer than eight loops that have both a core and a chain (too few to tell)."""
    usable = [r for r in rows if r[0] > 0 and r[1] > 0 and r[2] > 0]
    if len(usable) < 8:
        return None
    best = _least(lambda share: summary(usable, share)[1])
    ratio, deviation = summary(usable, best)
    return Fit(best, ratio, deviation, len(usable))


def _least(deviation: Callable[[float], float]) -> float:
    """The share of ``SHARES`` with the smallest ``deviation`` (to 6 places; the smaller share on a tie)."""
    return min(SHARES, key=lambda share: (round(deviation(share), 6), share))


def walk_summary(rows: Sequence[tuple[float, float, float, float]], level: float, share: float) -> float:
    """The median absolute deviation of log(measured / model) from log(``level``) over the walk rows
    (``walk_row``) with the walks' ``share`` of their fills added."""
    return statistics.median(abs(math.log(ns / max(rest, chain + share * fills)) - math.log(level))
                             for ns, chain, rest, fills in rows)


def fit_walks(rows: Sequence[tuple[float, float, float, float]], level: float) -> tuple[float, float] | None:
    """(share, deviation): the share of ``SHARES`` that brings the walks' ratios nearest the L1 loops' ``level``
    (the host's state, which the L1 loops measured in the same runs; the smaller share on a tie), None with fewer
    than four walks that have fills to add."""
    usable = [r for r in rows if r[0] > 0 and r[3] > 0]
    if len(usable) < 4:
        return None
    best = _least(lambda share: walk_summary(usable, level, share))
    return best, walk_summary(usable, level, best)


def measure(machine: str, compiler: str, cpu: int | None, runs: int = 5,
            guard: hostspeed.Guard | None = None) -> Fit | None:
    """The loops compiled with ``compiler`` at -O0, timed pinned, priced with the machine file ``machine`` and
    fitted; None where too few loops were priced from their compiled code (no llvm-mca, another target). With a
    ``guard`` the program is timed between its samples, again while the host is slowed: once judged on the core's
    parts for the chain's share (the L1 loops' data stay in L1; a busy neighbour on the core slows the loops' work
    and not their chains, which moved the fit from 0.25 to 0.8 on the Zen 3 VM), once on all its parts for the
    walks' share (a neighbour's memory traffic slows the walks and not the L1 loops: on the Zen 3 VM, while the
    sentinel's walk part read up to 2.3x its fastest, the walks' share came out 1, its deviation 0.106 against
    0.026-0.05 in quieter minutes, where it was 0.15-0.55)."""
    text = source()
    with tempfile.TemporaryDirectory(prefix="sad-chainshare-") as tmp:
        src, exe = Path(tmp) / "chainshare.c", Path(tmp) / "chainshare"
        src.write_text(text, encoding="utf-8")
        subprocess.run([*shlex.split(compiler), "-O0", str(src), "-o", str(exe)], check=True, capture_output=True)
        if guard is None:
            times, host = timed(exe, runs, cpu), 1.0
            walk_times, walk_host = times, host
        else:
            watched = guard.measure("hierarchy.chain_share", lambda: timed(exe, runs, cpu), CORE)
            times, host = watched.value, watched.ratio
            watched = guard.measure("hierarchy.walk_share", lambda: timed(exe, runs, cpu))
            walk_times, walk_host = watched.value, watched.ratio
        model = priced(src, machine)
    lines = timed_lines(text)
    found = fit(_l1_rows(times, lines, model))
    if found is None:
        return None
    found = dataclasses.replace(found, host_ratio=host)
    # the walks against the L1 loops' level in the same runs: the host's state then
    level = summary(_l1_rows(walk_times, lines, model), found.share)[0]
    walks = [walk_row(ns, model[line], found.share)
             for line, ns in zip(lines[len(LOOPS):], walk_times[len(LOOPS):]) if line in model]
    walked = fit_walks(walks, level)
    if walked is None:
        return found
    return dataclasses.replace(found, walk_share=walked[0], walk_deviation=walked[1],
                               walk_loops=sum(1 for w in walks if w[3] > 0), walk_host_ratio=walk_host)


def _l1_rows(times: Sequence[float], lines: Sequence[int], model: dict[int, LoopPrice]) -> list[Row]:
    """(measured, core, chain, index chain) in ns of the L1 loops priced from their compiled code, the empty one
    left out (its time is the index's floor itself)."""
    return [(ns, model[line].core_s * 1e9, model[line].chain_s * 1e9, model[line].index_s * 1e9)
            for (name, _), line, ns in zip(LOOPS, lines, times) if name != "empty" and line in model]


def yaml_lines(found: Fit) -> list[str]:
    """The hierarchy section's lines for the fit, each marked as the calibration marks a figure timed on a host
    still slowed after the retries."""
    lines = [f"  chain_share: {found.share:g}   # of the shorter of a loop's core and its index's chain through "
             f"memory, added to the longer (a longer chain beside them): measured / model {found.ratio:.3g}, "
             f"deviation {found.deviation:.3f} over {found.loops} loops compiled at -O0 "
             f"(sad.predict.chainshare){_slow(found.host_ratio)}"]
    if found.walk_share is not None:
        lines.append(f"  walk_share: {found.walk_share:g}   # of a column walk's lines into L1 that wait behind a "
                     f"chain through memory: deviation {found.walk_deviation:.3f} from the L1 loops' level over "
                     f"{found.walk_loops} walks compiled at -O0 (sad.predict.chainshare){_slow(found.walk_host_ratio)}")
    return lines


def _slow(ratio: float) -> str:
    return f", UNRELIABLE SLOW HOST x{ratio:.2f}" if ratio > hostspeed.SLOW else ""
