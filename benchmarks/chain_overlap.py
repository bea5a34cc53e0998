#!/usr/bin/env python3
"""How much of a loop's body a chain through memory hides: the measurement sad.predict.overlap.chained rests on.

Data flow: the C program `sad calibrate` fits the share on at -O0 (sad.predict.chainshare: ``LOOPS``, 24 loops
over arrays in L1, each the inner loop of a repeat loop, timed in one process one after the other, ``REPS``
rounds) compiled with gcc -O0 (every variable in a
stack slot: the index's chain through memory in every loop, an accumulator's or an element's in some) → run
pinned to one CPU ``--runs`` times, ns of CPU time per iteration (the process's CPU clock, as sad calibrate
times its figures; the twenty-sixth session's figures were wall time), the fastest of the runs per loop →
the same file priced on ``--machine FILE`` (a database `sad calibrate` wrote at -O0 on this
host): each loop's core (llvm-mca), longest chain and index chain → per loop the measured time beside max(core,
chain) and core & chain at half (sad.predict.overlap.chained: the longer of core and index chain + a share of the
shorter, or a longer chain beside them), and per share (0, 0.25, 0.5, 0.75, 1) the median of measured / model
and the median absolute deviation of its log over the loops (the empty loop left out: its time is the index
floor itself); then the program's column walks (``WALKS``) beside core & chain + each share of their fills into
L1, and the walks' share `sad calibrate` fits (sad.predict.chainshare.fit_walks: the walks' ratios nearest the
L1 loops' level).

The scale of the ratios follows the host's state (calibrated in one state, timed in another); the deviation is
what a composition rule must make small: a rule that fits the loops' relative times in every state. Figures,
not tests. Usage: python3 benchmarks/chain_overlap.py --machine FILE [--runs 5] [--cpu N] [--keep DIR]
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sad.machine.hierarchy import pinned_cpu  # noqa: E402
from sad.predict.chainshare import (  # noqa: E402
    LOOPS,
    WALKS,
    fit,
    fit_walks,
    loop_lines,
    priced,
    source,
    summary,
    timed,
    timed_lines,
    walk_row,
)
from sad.predict.overlap import chained  # noqa: E402

SHARES = (0.0, 0.25, 0.5, 0.75, 1.0)


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
        times = timed(exe, args.runs, cpu)
        prices = priced(src, args.machine)
    model = {line: (lp.core_s * 1e9, lp.chain_s * 1e9, lp.index_s * 1e9) for line, lp in prices.items()}
    if not model:
        sys.exit("chain_overlap.py: error: no loop priced from the compiled code (llvm-mca?)")
    rows = []
    print(f"{'loop':8} {'measured':>9} {'core':>6} {'chain':>6} {'index':>6} {'max':>6} {'+half':>6}  "
          f"(ns per iteration; +half: core & chain at share 0.5)")
    for (name, _), line, ns in zip(LOOPS, loop_lines(text), times):
        if line not in model:
            print(f"{name:8} {ns:9.3f}  not priced from the compiled code")
            continue
        core, chain, index = model[line]
        if name != "empty":   # its time is the index floor itself
            rows.append((ns, core, chain, index))
        print(f"{name:8} {ns:9.3f} {core:6.2f} {chain:6.2f} {index:6.2f} {max(core, chain):6.2f} "
              f"{float(chained(core, chain, 0.5, index)):6.2f}")
    print("share of the shorter added: median measured / model, median absolute deviation of its log")
    for share in SHARES:
        ratio, spread = summary(rows, share)
        print(f"  {share:4.2f}  {ratio:5.2f}  {spread:.3f}")
    found = fit(rows)
    if found is None:
        return 0
    print(f"fitted (sad calibrate's rule, steps of 0.05): {found.share:g}, measured / model {found.ratio:.2f}, "
          f"deviation {found.deviation:.3f} over {found.loops} loops")
    walk_lines = timed_lines(text)[len(LOOPS):]
    walks = [(name, walk_row(ns, prices[line], found.share))
             for (name, _), line, ns in zip(WALKS, walk_lines, times[len(LOOPS):]) if line in prices]
    print(f"{'walk':8} {'measured':>9} {'c&c':>6} {'other':>6} {'fills':>6}  (ns per iteration, chain share "
          f"{found.share:g})")
    for name, (ns, chain, rest, fills) in walks:
        print(f"{name:8} {ns:9.3f} {chain:6.2f} {rest:6.2f} {fills:6.2f}")
    walked = fit_walks([row for _, row in walks], found.ratio)
    if walked is not None:
        print(f"walks' share fitted: {walked[0]:g}, deviation {walked[1]:.3f} from the L1 loops' level "
              f"{found.ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
