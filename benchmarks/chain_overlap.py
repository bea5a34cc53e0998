#!/usr/bin/env python3
"""How much of a loop's body a chain through memory hides: the measurement sad.predict.overlap.chained rests on.

Data flow: a C program written here (``LOOPS``: 24 loops over arrays in L1, each the inner loop of a repeat
loop, timed in one process one after the other, ``REPS`` rounds) compiled with gcc -O0 (every variable in a
stack slot: the index's chain through memory in every loop, an accumulator's or an element's in some) → run
pinned to one CPU ``--runs`` times, ns of CPU time per iteration (the process's CPU clock, as sad calibrate
times its figures; the twenty-sixth session's figures were wall time), the median of the runs per loop →
``sad analyze --explain`` of the same file on ``--machine FILE`` (a database `sad calibrate` wrote at -O0 on this
host): each loop's core (llvm-mca) and chain figures → per loop the measured time beside max(core, chain) and the
longer + a share of the shorter, and per share (0, 0.25, 0.5, 0.75, 1) the median of measured / model and the median
absolute deviation of its log over the loops (the empty loop left out: its time is the index floor itself).

The scale of the ratios follows the host's state (calibrated in one state, timed in another); the deviation is
what a composition rule must make small: a rule that fits the loops' relative times in every state. Figures,
not tests. Usage: python3 benchmarks/chain_overlap.py --machine FILE [--runs 5] [--cpu N] [--keep DIR]
"""
from __future__ import annotations

import argparse
import math
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sad.machine.hierarchy import pin_command, pinned_cpu  # noqa: E402

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
SHIFTED = {"stencil", "recur"}   # i from 1 to N - 2
REPS = 3
SHARES = (0.0, 0.25, 0.5, 0.75, 1.0)


def source() -> str:
    """The C program: every loop timed REPS times, interleaved; ns per iteration of each on stderr."""
    timed = []
    for n, (name, stmt) in enumerate(LOOPS):
        lo, hi = ("1", "N - 1") if name in SHIFTED else ("0", "N")
        timed.append(f"""        t0 = now();
        for (r = 0; r < R; r++)
            for (i = {lo}; i < {hi}; i++)
                {stmt}
        tm[{n}] += (now() - t0) / ((double)R * ({hi} - {lo}));""")
    return f"""#include <stdio.h>
#include <time.h>
#define N 600
#define R 12000
static double a[N], b[N], c[N + 1], d[N], A[N][8], B[N][8], A2[8][N];
static int ia[N];
static double now(void) {{
    struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + 1e-9 * t.tv_nsec;
}}
int main(void) {{
    int i, r, rep, is = 0, ii = 3, jj = 5, j = 7;
    double s = 0.0, t = 0.5, t0, tm[{len(LOOPS)}] = {{0}};
    for (i = 0; i < N; i++) {{
        a[i] = i * 1e-3; b[i] = 1.0 + a[i]; c[i] = 0.5; d[i] = 0.25; ia[i] = i;
        A[i][ii] = 1e-3; B[i][jj] = 1e-3; A2[jj][i] = 1e-3;
    }}
    for (rep = 0; rep < {REPS}; rep++) {{
{chr(10).join(timed)}
    }}
    for (i = 0; i < {len(LOOPS)}; i++) fprintf(stderr, "%.4f ", tm[i] / {REPS}.0 * 1e9);
    fprintf(stderr, "\\n");
    printf("%g %g %d %g\\n", s, t, is, c[7] + B[ii][jj] + d[3]);
    return 0;
}}
"""


def loop_lines(text: str) -> list[int]:
    """Line of each timed loop's inner for, in LOOPS' order (the first inner for is the set-up loop's)."""
    lines = [n + 1 for n, line in enumerate(text.splitlines()) if line.strip().startswith("for (i =")]
    return lines[1:len(LOOPS) + 1]


def measured(exe: Path, runs: int, cpu: int | None) -> list[float]:
    """Median over the runs of each loop's ns per iteration."""
    rows = []
    for _ in range(runs):
        proc = subprocess.run(pin_command([str(exe)], cpu), capture_output=True, text=True, check=True, timeout=120)
        rows.append([float(x) for x in proc.stderr.split()])
    return [statistics.median(r[k] for r in rows) for k in range(len(LOOPS))]


def modelled(src: Path, machine: str) -> dict[int, tuple[float, float]]:
    """(core, chain) ns per iteration of each loop by its line, from `sad analyze --explain`."""
    proc = subprocess.run([sys.executable, "-m", "sad", "analyze", str(src), "--machine", machine, "--explain",
                           "--top", "100"], capture_output=True, text=True, cwd=ROOT, timeout=600)
    out = {}
    for m in re.finditer(r":(\d+)\s+\S+ s; per iteration core \(llvm-mca\) ([\d.e+-]+) ns, latency chain through "
                         r"memory ([\d.e+-]+) ns", proc.stdout):
        out[int(m.group(1))] = (float(m.group(2)), float(m.group(3)))
    if not out:
        sys.exit(f"chain_overlap.py: error: no loop priced from the compiled code:\n{proc.stdout}{proc.stderr}")
    return out


def summary(rows: list[tuple[str, float, float, float]], share: float) -> tuple[float, float]:
    """Median of measured / (longer + share x shorter) and the median absolute deviation of its log."""
    logs = [math.log(ns / (max(core, chain) + share * min(core, chain)))
            for name, ns, core, chain in rows if name != "empty"]
    mid = statistics.median(logs)
    return math.exp(mid), statistics.median(abs(x - mid) for x in logs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--machine", required=True, help="a machine database calibrated at -O0 on this host")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cpu", type=int, default=None, help="CPU to pin to (default: the calibration's)")
    ap.add_argument("--keep", type=Path, default=None, help="write the C program and the binary here")
    args = ap.parse_args(argv)
    gcc = shutil.which("gcc")
    if gcc is None:
        sys.exit("chain_overlap.py: error: gcc not found")
    with tempfile.TemporaryDirectory() as tmp:
        where = args.keep or Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        text = source()
        src, exe = where / "chain_overlap.c", where / "chain_overlap"
        src.write_text(text, encoding="utf-8")
        subprocess.run([gcc, "-O0", str(src), "-o", str(exe)], check=True)
        cpu = pinned_cpu() if args.cpu is None else args.cpu
        times = measured(exe, args.runs, cpu)
        model = modelled(src, args.machine)
    rows = []
    print(f"{'loop':8} {'measured':>9} {'core':>6} {'chain':>6} {'max':>6} {'+half':>6}  (ns per iteration)")
    for (name, _), line, ns in zip(LOOPS, loop_lines(text), times):
        if line not in model:
            print(f"{name:8} {ns:9.3f}  not priced from the compiled code")
            continue
        core, chain = model[line]
        rows.append((name, ns, core, chain))
        print(f"{name:8} {ns:9.3f} {core:6.2f} {chain:6.2f} {max(core, chain):6.2f} "
              f"{max(core, chain) + 0.5 * min(core, chain):6.2f}")
    print("share of the shorter added: median measured / model, median absolute deviation of its log")
    for share in SHARES:
        ratio, spread = summary(rows, share)
        print(f"  {share:4.2f}  {ratio:5.2f}  {spread:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
