#!/usr/bin/env python3
"""Check-only SPMD programs in styles the corpus does not have (benchmarks/spmdheld/, written from the
description of Brehm 1999, Fig. 6.17 and Sec. 6.1.3; not tuning targets): what `sad analyze -D NPROCS=P
--format json` prints for each, on ncube2 against the nCUBE/2's measured CG times (Brehm 1999, Tab. 6.7
Simple, 6.8 Tree; the collectives programs against Tab. 6.8 as in spmd_scale.py) and for the ring matrix
multiplies on paragon against PerPreT's model (Tab. 6.2), P = 1 ... 128, with nothing bound but NPROCS (and,
for the one program that reads its size at run time, that size). Then the P from which each Tree program
beats each Simple one, on ncube2 and paragon (measured: 16 and 32), and the time of a 10^5-point
`sad sweep` of a rank-dependent program (heatlog.f).

The figures are those of benchmarks/spmd_scale.py's targets (issue 28): worst error <= 15 % and median
<= 5 % per CG variant, ring MM worst <= 10 %. A program that gives no number prints the error instead.

Usage: python3 benchmarks/spmd_held.py [--machine ncube2|paragon ...]
"""
from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from spmd_scale import MEASURED, MEASURED_CROSSOVER, MM_MODEL, MM_PROCS, PROCS, crossover  # noqa: E402

from sad.cli.main import run  # noqa: E402

HELD = ROOT / "benchmarks" / "spmdheld"
CG = (  # program, what it is, the measured table it is compared with, what it binds besides NPROCS
    ("cgs_nb.c", "simple", "simple", ()),      # C, MPI_Irecv + MPI_Waitall at the root, global row loops
    ("cgsany.f", "simple", "simple", ()),      # F77, MPI_ANY_SOURCE at the root, A(I - IOFF, J)
    ("cgs_probe.c", "simple", "simple", ()),   # C, MPI_Probe + MPI_Get_count from any source; Reduce + Bcast
    ("cgtbits.c", "tree", "tree", ()),         # C, binomial tree with & ^ | and break, a[(i - lo) * n + j]
    ("cgtheap.f", "tree", "tree", ()),         # F77, heap numbered from 1, MPI_IRECV + MPI_WAITALL, GOTO loops
    ("cgthalve.c", "tree", "tree", ()),        # C, recursive halving in a while loop, Sendrecv doubling sums
    ("cgtmod.f", "tree", "tree", ()),          # F77, binomial tree by MOD(ME, 2*K2), GOTO loops, DSUM function
    ("cgcred.f", "coll", "tree", ()),          # F77, MPI_GATHERV + MPI_BCAST, MPI_REDUCE + MPI_BCAST
    ("cgcread.c", "coll", "tree", ("n=1024",)),  # C, size read by rank 0 and broadcast, MPI_Gather, Allreduce
    ("cggcnt.c", "coll", "tree", ()),          # C, counts gathered as ints, displacements at rank 0, Gatherv
)
RING = (("ringnb.c", ()), ("ringoe.f", ()))  # C MPI_Isend/Irecv + Waitall, pointer swap; F77 odd/even send/recv


def analyze(source: Path, machine: str, nprocs: int, binds: tuple[str, ...]) -> tuple[float | None, str]:
    """`sad analyze SOURCE -m MACHINE -D NPROCS=P --format json`: the time and the model that priced it, or
    None and why there is no number."""
    args = ["analyze", str(source), "-m", machine, "-D", f"NPROCS={nprocs}", "--format", "json"]
    for bind in binds:
        args += ["-D", bind]
    out, err = io.StringIO(), io.StringIO()
    try:
        status = run(args, stdout=out, stderr=err)
    except Exception as exc:  # a crash is a finding to print, not a reason to stop the table
        return None, f"crash: {type(exc).__name__}: {exc}"
    if status not in (0,):
        return None, f"status {status}: {err.getvalue().strip()[:160]}"
    doc = json.loads(out.getvalue())
    if doc.get("time_s") is None:
        return None, "no number: unbound " + ", ".join(doc.get("unbound", []))[:160]
    return doc["time_s"], doc.get("model", "?")


def cg(machine: str) -> dict[str, list[float | None]]:
    measured_here = machine == "ncube2"
    print(f"CG (Brehm 1999, Fig. 6.17), psize 1024, one iteration, on {machine}"
          + (" vs Tab. 6.7 (simple) / 6.8 (tree, coll)" if measured_here else "") + "\n")
    print(f"{'program':<11}{'variant':<8}{'P':>5}{'measured':>10}{'sad':>10}{'error':>9}  model")
    times: dict[str, list[float | None]] = {}
    for name, variant, table, binds in CG:
        errors, times[name] = [], []
        for p, measured in zip(PROCS, MEASURED[table]):
            t, model = analyze(HELD / name, machine, p, binds)
            times[name].append(t)
            if t is None:
                print(f"{name:<11}{variant:<8}{p:>5}{'':>10}{'--':>10}{'':>9}  {model}")
                continue
            if not measured_here:
                print(f"{name:<11}{variant:<8}{p:>5}{'':>10}{t:>10.4f}{'':>9}  {model}")
                continue
            errors.append(t / measured - 1)
            print(f"{name:<11}{variant:<8}{p:>5}{measured:>10.4f}{t:>10.4f}{errors[-1] * 100:>+8.1f}%  {model}")
        if errors:
            worst = max(errors, key=abs)
            print(f"{name:<11}worst {worst * 100:+.1f} %, median |error| "
                  f"{statistics.median(abs(e) for e in errors) * 100:.1f} %"
                  + ("" if len(errors) == len(PROCS) else f" ({len(PROCS) - len(errors)} points without a number)"))
        print()
    known = MEASURED_CROSSOVER[machine]
    simples = [name for name, variant, *_ in CG if variant == "simple"]
    for tree in (name for name, variant, *_ in CG if variant != "simple"):
        for simple in simples:
            if None in times[tree] or None in times[simple]:
                print(f"{tree} vs {simple}: no crossover (points without a number)")
                continue
            cross = crossover(times[simple], times[tree])  # type: ignore[arg-type]
            ok = cross is not None and known / 2 <= cross <= known * 2
            print(f"{tree:<11} faster than {simple:<10} from P = {cross} (measured {known}): "
                  f"{'within' if ok else 'NOT within'} a factor 2")
    print()
    return times


def ring(machine: str) -> None:
    print(f"Ring matrix multiply, N = 256, on {machine}"
          + (" vs PerPreT's model (Tab. 6.2)" if machine == "paragon" else "") + "\n")
    for name, binds in RING:
        errors = []
        for p, model_total in zip(MM_PROCS, MM_MODEL):
            t, model = analyze(HELD / name, machine, p, binds)
            if t is None:
                print(f"{name:<11}{p:>5}{'--':>10}  {model}")
                continue
            if machine != "paragon":
                print(f"{name:<11}{p:>5}{t:>10.4f}  {model}")
                continue
            errors.append(t / model_total - 1)
            print(f"{name:<11}{p:>5}{model_total:>10.4f}{t:>10.4f}{errors[-1] * 100:>+8.1f}%  {model}")
        if errors:
            print(f"{name:<11}worst {max(errors, key=abs) * 100:+.1f} %")
        print()


def sweep() -> None:
    """heatlog.f (the last rank's remainder block, rank 0's WRITE in the time loop) swept over 10^5 points
    of NPROCS x N on ncube2: the wall time, and the error instead if sad refuses."""
    args = ["sweep", str(HELD / "heatlog.f"), "-m", "ncube2", "-D", "NPROCS=1:1000", "-D", "N=1000-100000:100",
            "--format", "csv"]
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    status = run(args, stdout=out, stderr=err)
    seconds = time.perf_counter() - start
    rows = len(out.getvalue().splitlines()) - 1
    print(f"sad sweep heatlog.f, NPROCS = 1 ... 1000 x 100 values of N on ncube2: status {status}, {rows} rows, "
          f"{seconds:.1f} s" + ("" if status == 0 else f" ({err.getvalue().strip()[-160:]})"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--machine", action="append", help="ncube2, paragon (default: both)")
    args = parser.parse_args()
    for machine in args.machine or ["ncube2", "paragon"]:
        cg(machine)
        ring(machine)
    sweep()


if __name__ == "__main__":
    main()
