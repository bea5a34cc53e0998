#!/usr/bin/env python3
"""Where a column walk starts to miss the TLBs, per pitch: the measurement a pitch-aware TLB reach rests on.

Data flow: a C program written here (``SOURCE``: a column walk over ROWS rows PITCH bytes apart, two independent
sums, -O2, repeated to 40 M accesses, CPU time) → run pinned to one CPU for every pitch × rows, the best of
``--repeats`` runs → per pitch the ns per access at each row count and the onset: the largest row count whose
cost stays within ``ONSET`` x the pitch's smallest walk (all rows in L1 and in the first-level TLB).

Why: `sad calibrate` times the TLB onset (``tlb.onset``) at one pitch, a page and a line (4160 B), and walks at 2,
4 and 8 pages and a line (``tlb.pitches``) from which the machine fits the second-level TLB's sets and ways.
Measured here the onset depends on the pitch, and not monotonically (Ice Lake-SP VM: about 1536 rows at 4160 B
and 5600 B, 768 at 8256 B, 1536 at 16448 B, 64-512 at 33024 B). The pitches default to a page, two, four and
eight pages, each plus a line (and 5600 B, a row of 700 doubles); give others with ``--pitches``.

With ``--machine FILE`` (a calibrated machine database) each walk's measured extra over the pitch's smallest walk is
printed beside the prediction's (the larger of the one-page curve, sad.predict.reuse.miss_seconds, and the set
conflicts of the fitted geometry, sad.predict.reuse.conflict_seconds) and beside the one-page curve alone, with
the median and mean absolute difference of each. On the Ice Lake-SP VM the conflicts were closer at pitches of
whole pages plus a line (mean 0.56 ns against 0.82 over six pitches) and farther at exact powers of two (3.0 ns
against 2.2). On a Sapphire Rapids-class Xeon VM (twenty-ninth session, that day's -O2 calibration: 256 sets of 8 ways)
over 4160, 5600, 8256, 16448, 12352 B and the rows of PolyBench's LARGE sizes (8000, 8800, 9600, 10400, 11200,
16000, 16800 B): median 0.29 ns, mean 0.65 against 0.37 and 0.91 for the curve alone; at 8192, 12288, 16384 and
24640 B 1.97 / 2.50 against 2.90 / 3.79 (at whole pages the lines crowd the caches' sets as well, which the
data term prices, not this one); at 4224, 6000, 7000, 8320, 9664, 12416, 14000, 16064, 18000 and 20000 B 0.35 /
1.04 against 0.35 / 1.15, with a false alarm at 8320 B (3.3-3.8 ns modelled at 1280-1536 rows, 0.4-0.5
measured).

Usage: python3 benchmarks/tlb_pitch.py [--pitches 4160,8256,...] [--rows 64,512,...] [--repeats 3] [--cpu N]
       [--machine FILE]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sad.machine.hierarchy import Hierarchy, pin_command, pinned_cpu  # noqa: E402

PITCHES = (4160, 5600, 8256, 16448, 33024)
ROWS = (64, 512, 768, 1024, 1280, 1536, 2048, 2560, 3072, 4096)
ONSET = 1.25   # a walk this much slower than the pitch's smallest one misses

SOURCE = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int main(int argc, char **argv) {
    long pitch = atol(argv[1]), rows = atol(argv[2]), reps = 40000000L / rows, r, k;
    char *a = aligned_alloc(4096, ((pitch * rows + 4096) / 4096 + 1) * 4096);
    double s0 = 0, s1 = 0, t;
    struct timespec t0, t1;
    if (!a || rows < 2) return 1;
    for (k = 0; k < pitch * rows; k += 64) *(double *)(a + k) = 1.0;
    for (r = 0; r < 2; r++) for (k = 0; k < rows; k++) s0 += *(double *)(a + k * pitch);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (r = 0; r < reps; r++)
        for (k = 0; k + 1 < rows; k += 2) {
            s0 += *(double *)(a + k * pitch); s1 += *(double *)(a + (k + 1) * pitch);
        }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    t = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
    printf("%.4f %g\n", t / (reps * (double)(rows & ~1L)), s0 + s1);
    return 0;
}
"""


def ns_per_access(exe: Path, pitch: int, rows: int, cpu: int | None, repeats: int) -> float:
    """The best of ``repeats`` pinned runs: ns per access of the walk."""
    best = float("inf")
    for _ in range(max(1, repeats)):
        out = subprocess.run(pin_command([str(exe), str(pitch), str(rows)], cpu), capture_output=True, text=True,
                             check=True).stdout
        best = min(best, float(out.split()[0]))
    return best


def onset(costs: dict[int, float]) -> int:
    """The largest row count before the first walk slower than ONSET x the smallest walk's cost."""
    rows = sorted(costs)
    base = costs[rows[0]]
    last = rows[0]
    for r in rows:
        if costs[r] > ONSET * base:
            break
        last = r
    return last


def modelled(hierarchy: Hierarchy, pitch: int, rows: int) -> tuple[float, float]:
    """(the prediction's extra ns per access of a walk over ``rows`` rows ``pitch`` bytes apart, the one-page
    curve's alone)."""
    import sympy

    from sad.predict.reuse import Walk, conflict_seconds, miss_seconds
    one_page = float(miss_seconds(sympy.Integer(rows) * min(1.0, pitch / hierarchy.page_bytes), hierarchy)) * 1e9
    walk = Walk(sympy.Integer(pitch), sympy.Integer(rows * hierarchy.line_bytes))
    return max(one_page, float(conflict_seconds(sympy.Integer(pitch), walk, hierarchy)) * 1e9), one_page


def compare(hierarchy: Hierarchy, table: dict[int, dict[int, float]]) -> None:
    """Measured extra per access (over the pitch's smallest walk) beside the model's and the one-page curve's."""
    errors: dict[str, list[float]] = {"prediction": [], "one-page curve alone": []}
    print("\nextra ns per access: measured / the prediction (with set conflicts) / the one-page curve alone")
    for pitch, costs in table.items():
        base = costs[min(costs)]
        cells = []
        for rows, ns in sorted(costs.items()):
            model, old = modelled(hierarchy, pitch, rows)
            errors["prediction"].append(abs(model - (ns - base)))
            errors["one-page curve alone"].append(abs(old - (ns - base)))
            cells.append(f"{rows}: {ns - base:.2f}/{model:.2f}/{old:.2f}")
        print(f"{pitch:9d}  " + "  ".join(cells))
    print("|model - measured|: " + ", ".join(
        f"{k} median {statistics.median(v):.2f} ns, mean {statistics.mean(v):.2f} ns" for k, v in errors.items()))


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pitches", default=",".join(map(str, PITCHES)), help="row pitches in bytes")
    parser.add_argument("--rows", default=",".join(map(str, ROWS)), help="row counts (pages walked)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per point (the fastest is kept)")
    parser.add_argument("--cpu", type=int, help="CPU to pin to (default: the calibration's)")
    parser.add_argument("--machine", help="a calibrated machine database: its TLB model beside the timings")
    args = parser.parse_args(argv)
    table: dict[int, dict[int, float]] = {}
    pitches = [int(p) for p in args.pitches.split(",") if p]
    rows = sorted(int(r) for r in args.rows.split(",") if r)
    cpu = args.cpu if args.cpu is not None else pinned_cpu()
    with tempfile.TemporaryDirectory(prefix="sad-tlb-") as tmp:
        src, exe = Path(tmp) / "walk.c", Path(tmp) / "walk"
        src.write_text(SOURCE, encoding="utf-8")
        subprocess.run(["gcc", "-O2", str(src), "-o", str(exe)], check=True)
        print("pitch (B)  pages/row  " + " ".join(f"{r:>7d}" for r in rows) + "   onset (rows)")
        for pitch in pitches:
            costs = table[pitch] = {r: ns_per_access(exe, pitch, r, cpu, args.repeats) for r in rows}
            print(f"{pitch:9d}  {pitch / 4096:9.3f}  " + " ".join(f"{costs[r]:7.3f}" for r in rows)
                  + f"   {onset(costs)}", flush=True)
    print(f"ns per access, the best of {args.repeats} runs pinned to CPU {cpu}; onset: the last row count within "
          f"{ONSET}x the smallest walk's cost")
    if args.machine:
        from sad.machine.model import load_machine
        hierarchy = load_machine(Path(args.machine)).hierarchy
        if hierarchy is None:
            print(f"{args.machine}: no hierarchy section")
            return 1
        compare(hierarchy, table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
