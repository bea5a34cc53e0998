#!/usr/bin/env python3
"""SPMD programs at scale: the CG programs of Brehm 1999, Fig. 6.17 (psize 1024, one iteration; corpus/spmd/
cgsimple.f, cgtree.f (heap-numbered tree), cgcube.f (the tree as a hypercube), cgcoll.f (MPI collectives), and
the same CG in the corpus's other styles: cgsimple_any.c, cgtree_mpi.c, cghalve.f, cgcoll_v.c and cgallg.f
(MPI_ALLGATHER(V))) predicted on ncube2 against the times measured on the nCUBE/2 (Brehm 1999, Tab. 6.7
Simple and 6.8 Tree; the tree-shaped variants are compared with Tab. 6.8 too), P = 1 ... 128, and on paragon
(predictions and the crossover only: the book's Paragon CG times are not tabulated here); then the ring matrix
multiply (corpus/spmd/ringmm.f, N = 256), beside PerPreT's model table Tab. 6.2 on the Paragon.

Two predictions per point: the timeline (`sad timeline`: the ranks simulated together with the machine's LogGP
figures, sad.predict.timeline) and what `sad analyze -D NPROCS=P --format json` prints, run through the
command line's own code (it simulates the ranks too; marked f where it fell back to its per-rank formula).
Nothing is bound by hand but NPROCS; the machine figures are Brehm's (machine_db/ncube2.yaml, paragon.yaml).
Targets (issue 28): worst error <= 15 %, median <= 5 % per variant; the P from which Tree beats Simple
within a factor 2 of the measured one (16 on the nCUBE/2, 32 on the Paragon).

With --speed: the time to trace and simulate P = 1024 (--procs) ranks x 100 iterations of CG-Tree (NITER = 100),
wall and CPU seconds (the CPU figure is the steadier one on a shared host), median of --runs; as `sad timeline` does it
(equal trips folded, sad.predict.timeline.simulate_folded); on ncube2 unless --machine is given.

Usage: python3 benchmarks/spmd_scale.py [--machine ncube2|paragon ...] [--speed [--runs N] [--procs P]]
"""
from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sad.analysis.pipeline import load_program  # noqa: E402
from sad.cli.main import run  # noqa: E402
from sad.machine.model import load_machine  # noqa: E402
from sad.predict.timeline import Network, simulate, simulate_folded  # noqa: E402
from sad.predict.trace import traces  # noqa: E402

SPMD = ROOT / "corpus" / "spmd"
PROCS = (1, 4, 16, 32, 64, 128)
MEASURED = {  # Brehm 1999, Tab. 6.7 (Simple) and 6.8 (Tree): nCUBE/2, psize 1024, one iteration, seconds
    "simple": (4.874, 1.232, 0.351, 0.242, 0.252, 0.383),
    "tree": (4.874, 1.232, 0.344, 0.201, 0.132, 0.102),
}
MEASURED_CROSSOVER = {"ncube2": 16, "paragon": 32}  # Brehm 1999: Tree faster than Simple from this P on


def timeline_seconds(source: Path, machine, nprocs: int) -> float:
    program, failed = load_program([str(source)], [], {})
    if failed:
        raise SystemExit(f"{source}: does not load")
    events, _ = traces(program, machine, nprocs, {})
    return simulate(events, Network.of(machine), path=False).time


def static_seconds(source: Path, machine_name: str, nprocs: int) -> tuple[float, str]:
    """What `sad analyze SOURCE -m MACHINE -D NPROCS=P --format json` prints (its own code path, in this
    process): the time and the model that priced it (timeline: the ranks simulated together; formula: each
    rank priced alone, where they could not be simulated)."""
    out, err = io.StringIO(), io.StringIO()
    status = run(["analyze", str(source), "-m", machine_name, "-D", f"NPROCS={nprocs}", "--format", "json"],
                 stdout=out, stderr=err)
    if status != 0:
        raise SystemExit(f"{source}: sad analyze failed ({status}): {err.getvalue()}")
    doc = json.loads(out.getvalue())
    return doc["time_s"], doc["model"]


def crossover(simple: list[float], tree: list[float]) -> int | None:
    """The first P of the table from which Tree is faster than Simple at every larger P."""
    for i, p in enumerate(PROCS):
        if p > 1 and all(t < s for s, t in zip(simple[i:], tree[i:])):
            return p
    return None


VARIANTS = (  # corpus program, the measured table it is compared with (Brehm 1999, nCUBE/2)
    ("simple", "cgsimple.f", "simple"), ("tree", "cgtree.f", "tree"),
    ("cube", "cgcube.f", "tree"), ("coll", "cgcoll.f", "tree"),
    # the same CG in the other corpus styles (tests/spmd/test_cg_styles.py), the held-out programs' shape
    ("any", "cgsimple_any.c", "simple"), ("treec", "cgtree_mpi.c", "tree"), ("halve", "cghalve.f", "tree"),
    ("collv", "cgcoll_v.c", "tree*"), ("allg", "cgallg.f", "tree*"),
)
"""tree*: MPI_ALLGATHER(V) in place of the collect at rank 0 and the broadcast: less communication than the
measured Tree program (every block moves once, no 8 KB broadcast down the tree), so Tab. 6.8 is a reference,
not this program's measurement; its errors are printed but not counted against the targets."""
TREES = ("tree", "cube", "coll", "treec", "halve", "collv", "allg")
MM_PROCS = (1, 2, 4, 8, 16, 32, 64, 128)
MM_MODEL = (14.217980, 7.120926, 3.572610, 1.798871, 0.912842, 0.471508, 0.254200, 0.152267)
"""Brehm 1999, Tab. 6.2: PerPreT's model of the ring matrix multiply on the Paragon (N = 256), TOTAL (s)."""


def accuracy(machine_name: str) -> None:
    machine = load_machine(machine_name)
    measured_here = machine_name == "ncube2"
    predicted: dict[str, list[float]] = {}
    print(f"CG, psize 1024, one iteration, on {machine_name}"
          + (" vs Brehm 1999 Tab. 6.7 (Simple) / 6.8 (Tree; cube and coll against it too)" if measured_here
             else " (the book's Paragon CG times are not tabulated here)") + "\n")
    print(f"{'variant':<8}{'P':>5}{'measured':>11}{'timeline':>11}{'error':>9}{'static':>11}{'error':>9}")
    for variant, name, table in VARIANTS:
        source = SPMD / name
        errors, static_errors, predicted[variant] = [], [], []
        for p, measured in zip(PROCS, MEASURED[table.rstrip("*")]):
            sim = timeline_seconds(source, machine, p)
            static, model = static_seconds(source, machine_name, p)
            mark = " " if model == "timeline" else "f"  # f: priced by the per-rank formula (no simulation)
            predicted[variant].append(sim)
            if not measured_here:
                print(f"{variant:<8}{p:>5}{'':>11}{sim:>11.4f}{'':>9}{static:>11.4f}{mark}")
                continue
            errors.append(sim / measured - 1)
            static_errors.append(static / measured - 1)
            print(f"{variant:<8}{p:>5}{measured:>11.4f}{sim:>11.4f}{errors[-1] * 100:>+8.1f}%"
                  f"{static:>11.4f}{(static / measured - 1) * 100:>+8.1f}%{mark}")
        if errors and table.endswith("*"):
            print(f"{variant:<8} (an allgather program against Tab. 6.8: not its measurement, not counted)")
        elif errors:
            worst = max(errors, key=abs)
            median = statistics.median(abs(e) for e in errors)
            print(f"{variant:<8} timeline: worst {worst * 100:+.1f} %, median |error| {median * 100:.1f} %  "
                  f"(targets: 15 %, 5 %)")
            worst = max(static_errors, key=abs)
            median = statistics.median(abs(e) for e in static_errors)
            print(f"{variant:<8} analyze:  worst {worst * 100:+.1f} %, median |error| {median * 100:.1f} %")
        print()
    print("(static: what `sad analyze -D NPROCS=P` prints; f: priced by its per-rank formula, each rank alone, "
          "where the ranks could not be simulated together)\n")
    known = MEASURED_CROSSOVER.get(machine_name)
    for tree in TREES:
        cross = crossover(predicted["simple"], predicted[tree])
        within = known is not None and cross is not None and known / 2 <= cross <= known * 2
        print(f"{tree:<5} faster than simple from P = {cross} (measured, Tree: {known}); within a factor 2: "
              f"{'yes' if within else 'no'}")
    print()
    ring(machine)


def ring(machine) -> None:
    """The ring matrix multiply (corpus/spmd/ringmm.f, N = 256): the timeline beside PerPreT's model TOTAL of
    Brehm 1999, Tab. 6.2 (Paragon; a model table, not a measurement: the book's measured Tab. 6.3 is not
    tabulated here)."""
    source = SPMD / "ringmm.f"
    paragon = machine.name == "paragon"
    print(f"Ring matrix multiply, N = 256, on {machine.name}"
          + (" vs PerPreT's model (Brehm 1999, Tab. 6.2)" if paragon else "") + "\n")
    print(f"{'P':>5}{'Tab. 6.2':>11}{'timeline':>11}{'diff':>9}{'static':>11}{'diff':>9}")
    for p, model in zip(MM_PROCS, MM_MODEL):
        sim = timeline_seconds(source, machine, p)
        static, _ = static_seconds(source, machine.name, p)
        if paragon:
            print(f"{p:>5}{model:>11.4f}{sim:>11.4f}{(sim / model - 1) * 100:>+8.1f}%{static:>11.4f}"
                  f"{(static / model - 1) * 100:>+8.1f}%")
        else:
            print(f"{p:>5}{'':>11}{sim:>11.4f}{'':>9}{static:>11.4f}")


def speed(machine_name: str, runs: int, procs: int = 1024) -> None:
    machine = load_machine(machine_name)
    text = (SPMD / "cgtree.f").read_text().replace("NITER = 1)", "NITER = 100)")
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "cgtree100.f"
        source.write_text(text)
        program, _ = load_program([str(source)], [], {})
        walls, cpus, sims = [], [], []
        for _ in range(runs):
            w0, c0 = time.perf_counter(), time.process_time()
            events, shared = traces(program, machine, procs, {})
            c1 = time.process_time()
            result = simulate_folded(events, shared.repeats, Network.of(machine), path=True)
            walls.append(time.perf_counter() - w0)
            cpus.append(time.process_time() - c0)
            sims.append(time.process_time() - c1)
    print(f"CG-Tree, P = {procs} ranks x 100 iterations on {machine_name}: {result.messages} messages, predicted "
          f"{result.time:.4f} s; trace + simulation {statistics.median(walls):.2f} s wall, "
          f"{statistics.median(cpus):.2f} s CPU (simulation {statistics.median(sims):.2f} s CPU), median of {runs}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--machine", action="append", help="ncube2, paragon (default: both)")
    parser.add_argument("--speed", action="store_true")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--procs", type=int, default=1024, help="ranks of the --speed run (default 1024)")
    args = parser.parse_args()
    machines = args.machine or (["ncube2"] if args.speed else ["ncube2", "paragon"])
    for i, name in enumerate(machines):
        if args.speed:
            speed(name, args.runs, args.procs)
        else:
            print("\n" if i else "", end="")
            accuracy(name)


if __name__ == "__main__":
    main()
