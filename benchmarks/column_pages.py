#!/usr/bin/env python3
"""A column walk over many pages at -O2 beside the model: LU's inner loop, where -O2 stays under-predicted.

Data flow: one C program per (row pitch, rows) of ``GRID`` (``acc -= row[k] * A[k][c]``: a column walk of R
rows P doubles apart, a row read along, the sum in a register; the next walk one column over, so eight walks
share each line; or, with ``--sums 4``, four sums over the same walk: what the walk alone costs when no chain
bounds it) compiled with gcc at ``--level`` (-O2; at -O0 the sum and the index live in stack slots, a chain
through memory) → run pinned to one CPU ``--runs`` times, ns of CPU time per iteration of the walk (the
process's CPU clock, as sad calibrate times its figures: on this VM a pinned program's wall time ran 1.2-2x its
CPU time; the twenty-seventh session's figures below are wall time), the median and the
spread (largest / smallest) → ``sad analyze --explain`` of the same file on ``--machine FILE`` (a database `sad
calibrate` wrote at that level on this host): the walk's loop seconds over its iterations → per case measured,
model, measured / model, and the median of that ratio per pitch.

Pitches: 4160 B (a page and a line: every L1 set), 16 000 B (LU at n = 2 000: rows fall in 32 of 64 L1 sets) and
16 064 B (the same number of pages, every set). Rows 256 to 1900: from L1 and the first-level TLB's reach to
beyond the second level's. On the Emerald Rapids VM of the twenty-seventh session (calibration of session 25),
median measured / model per pitch with one sum 1.05, 2.21, 1.37 (16 000 B, 1 024 rows: 1.85 ns against 0.73,
the sum's chain; the column's lines priced from L2 as sad calibrate's column walk, which covers 54 pages and
misses no first-level TLB entry) and with four sums 1.90, 2.82, 1.67 (the walk alone is slower than the model's
figure for it); at 1 900 rows, beyond the TLBs' reach, the model is over at 4160 and 16 064 B (0.37, 0.63).
In CPU time (the twenty-eighth session, its own calibration): 1.14, 2.11, 1.30; 16 064 B at 1 900 rows 0.99.
Figures, not tests; the host's state moves them by up to 1.5x: compare runs taken in the same minutes.
Usage: python3 benchmarks/column_pages.py --machine FILE [--level=-O2] [--runs 5] [--cpu N] [--sums 1|4]
[--keep DIR]
"""
from __future__ import annotations

import argparse
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

GRID = tuple((pitch, rows) for pitch in (520, 2000, 2008) for rows in (256, 512, 1024, 1536, 1900))
"""(row pitch in doubles, rows walked): 4160, 16 000 and 16 064 bytes apart."""
ITERATIONS = 40_000_000
"""Iterations of the walk timed per run (walks of R rows, ITERATIONS / R of them)."""

SOURCE = """#include <stdio.h>
#include <time.h>
static double A[R + 2][P];
static double row[R];
int main(void) {
    long j, k;
    double out = 0, acc, a1, a2, a3;
    struct timespec t0, t1;
    for (k = 0; k < R + 1; k++)
        for (j = 0; j < P; j++)
            A[k][j] = 1e-3 * ((k + j) % 7);
    for (k = 0; k < R; k++)
        row[k] = 1e-3 * (k % 5);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (j = 0; j < J; j++) {
        long c = j % (P - 8);
        acc = out; a1 = a2 = a3 = 0;
@WALK@
        out = (acc + a1 + a2 + a3) * 1e-9;
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    fprintf(stderr, "%.4f\\n", ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / ((double)J * R));
    printf("%g\\n", out);
    return 0;
}
"""
WALKS = {
    1: """        for (k = 0; k < R; k++)
            acc -= row[k] * A[k][c];""",
    4: """        for (k = 0; k + 3 < R; k += 4) {
            acc -= row[k] * A[k][c]; a1 -= row[k + 1] * A[k + 1][c];
            a2 -= row[k + 2] * A[k + 2][c]; a3 -= row[k + 3] * A[k + 3][c];
        }""",
}


def source(sums: int) -> str:
    """The program with the walk of ``sums`` sums."""
    return SOURCE.replace("@WALK@", WALKS[sums])


def walk_line(text: str) -> int:
    """Line of the walk's for (the third for over k)."""
    return [n + 1 for n, line in enumerate(text.splitlines()) if line.strip().startswith("for (k = 0")][2]


def measured(exe: Path, runs: int, cpu: int | None) -> tuple[float, float]:
    """Median ns per iteration over the runs and the spread (largest / smallest)."""
    times = []
    for _ in range(runs):
        proc = subprocess.run(pin_command([str(exe)], cpu), capture_output=True, text=True, check=True, timeout=300)
        times.append(float(proc.stderr.split()[0]))
    return statistics.median(times), max(times) / min(times)


def modelled(src: Path, machine: str, defines: list[str], line: int, iterations: int) -> float | None:
    """The model's ns per iteration of the walk: its loop's seconds from `sad analyze --explain` over its
    iterations; None where the loop is not priced from the compiled code."""
    proc = subprocess.run([sys.executable, "-m", "sad", "analyze", str(src), *defines, "--machine", machine,
                           "--explain"], capture_output=True, text=True, cwd=ROOT, timeout=600)
    m = re.search(rf"^\s+\S*{re.escape(src.name)}:{line}\s+([\d.e+-]+) s; per iteration core \(llvm-mca\)",
                  proc.stdout, re.MULTILINE)
    return None if m is None else float(m.group(1)) / iterations * 1e9


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--machine", required=True, help="a machine database calibrated at --level on this host")
    ap.add_argument("--level", default="-O2", help="gcc's optimization level (the machine file's)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cpu", type=int, default=None, help="CPU to pin to (default: the calibration's)")
    ap.add_argument("--sums", type=int, choices=sorted(WALKS), default=1, help="sums over the walk (1: LU's)")
    ap.add_argument("--keep", type=Path, default=None, help="write the C program and the binaries here")
    args = ap.parse_args(argv)
    gcc = shutil.which("gcc")
    if gcc is None:
        sys.exit("column_pages.py: error: gcc not found")
    cpu = pinned_cpu() if args.cpu is None else args.cpu
    text = source(args.sums)
    line = walk_line(text)
    ratios: dict[int, list[float]] = {}
    print(f"{'pitch':>7} {'rows':>5} {'measured':>9} {'spread':>7} {'model':>7} {'ratio':>6}  (ns per iteration)")
    with tempfile.TemporaryDirectory() as tmp:
        where = args.keep or Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        src = where / "column_pages.c"
        src.write_text(text, encoding="utf-8")
        for pitch, rows in GRID:
            walks = ITERATIONS // rows
            defines = [f"-DP={pitch}", f"-DR={rows}", f"-DJ={walks}"]
            exe = where / f"column_pages_{pitch}_{rows}"
            subprocess.run([gcc, args.level, *defines, str(src), "-o", str(exe)], check=True)
            ns, spread = measured(exe, args.runs, cpu)
            model = modelled(src, args.machine, defines, line, walks * rows)
            if model is None:
                print(f"{pitch * 8:7d} {rows:5d} {ns:9.3f} {spread:7.2f}  not priced from the compiled code")
                continue
            ratios.setdefault(pitch, []).append(ns / model)
            print(f"{pitch * 8:7d} {rows:5d} {ns:9.3f} {spread:7.2f} {model:7.3f} {ns / model:6.2f}")
    for pitch, values in ratios.items():
        print(f"pitch {pitch * 8} B: median measured / model {statistics.median(values):.2f} over {len(values)} walks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
