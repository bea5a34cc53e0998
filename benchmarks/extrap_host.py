#!/usr/bin/env python3
"""The host check of `sad extrapolate` (issue 28): trace a CG program at `mpirun -np 2` on this host, predict
np 2 and np 4 on this host (the machine file `sad calibrate --mpi` wrote for it), and run np 2 and np 4 with
mpirun to compare. Each run is measured --runs times; the medians and spreads are printed of
  wall   the run's time: its slowest rank's MPI_Init to MPI_Finalize, as the trace wrapper of
         sad.measure.mpitrace records it;
  alone  the ranks' CPU time (the wrapper's CLOCK_THREAD_CPUTIME_ID) over the cores they could use: what the
         run takes on this host without other load, the ranks keeping their cores busy between them (ranks that
         outnumber the cores yield while they wait, sad.machine.mpibench.mpirun_command);
  share  alone / wall: the part of the cores' time the run got (sad.measure.mpitrace.core_share).
On a shared host the wall time is the alone time over the share, which no machine property describes; sad
predicts the alone time, and `sad extrapolate` says when the traced run got less than 85 % of its cores.

The prediction is sad's timeline at NPROCS (sad.predict.timeline: the ranks simulated together with the
host's LogGP figures; ranks sharing the host file's cores stretched by P / cores; innermost loops priced by the
loop model as `sad analyze` prices them, sad.predict.traceloops), what `sad extrapolate` prints after it has
checked the traced calls against sad's events. Run it pinned (`taskset -c 0`), so mpirun's ranks share that
core and the host file, calibrated under the same pinning, says `cores: 1`; or on two cores with a host file
that says `cores: 2`.

Usage: taskset -c 0 python3 benchmarks/extrap_host.py --machine host.yaml [--runs 7] [--niter 50]
       [--program corpus/spmd/cgtree.f]
"""
from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sad.cli.main import run  # noqa: E402
from sad.machine.model import load_machine  # noqa: E402
from sad.measure import mpitrace  # noqa: E402


def measured(source: Path, nprocs: int, flags: tuple[str, ...]) -> tuple[float, float, float]:
    """One run under mpirun: its wall time (the slowest rank's MPI_Init to MPI_Finalize), its ranks' CPU time
    over the cores they could use (seconds), and the part of the cores' time it got."""
    calls = mpitrace.run([str(source)], nprocs, flags=flags)
    cores = min(nprocs, len(os.sched_getaffinity(0)))
    wall = max(mpitrace.run_time(c) for c in calls)
    return wall, sum(mpitrace.cpu_time(c) for c in calls) / cores, mpitrace.core_share(calls, cores) or 0.0


def predicted(source: Path, machine: str, nprocs: int) -> float:
    """`sad extrapolate SOURCE -m MACHINE -D NPROCS=P --trace-np 2 --format json`: the predicted time."""
    out, err = io.StringIO(), io.StringIO()
    status = run(["extrapolate", str(source), "-m", machine, "-D", f"NPROCS={nprocs}", "--trace-np", "2",
                  "--format", "json"], stdout=out, stderr=err)
    if status not in (0, 1):
        raise SystemExit(f"sad extrapolate failed ({status}): {err.getvalue()}")
    text = out.getvalue()
    return float(json.loads(text[text.index("\n{") + 1:])["time"])


def spread(values: list[float]) -> str:
    low, high = min(values) * 1e3, max(values) * 1e3
    return f"median {statistics.median(values) * 1e3:8.2f} ms (min {low:.2f}, max {high:.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--machine", required=True, help="the host's machine file (sad calibrate --mpi)")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--niter", type=int, default=50)
    parser.add_argument("--program", default=str(ROOT / "corpus" / "spmd" / "cgtree.f"))
    args = parser.parse_args()
    machine = load_machine(args.machine)
    flags, why = mpitrace.build_flags(machine, None)
    text = Path(args.program).read_text()
    if "NITER = 1)" in text:
        text = text.replace("NITER = 1)", f"NITER = {args.niter})")
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / Path(args.program).name
        source.write_text(text)
        print(f"{Path(args.program).name}, NITER = {args.niter}, built with {' '.join(flags)} ({why}); "
              f"{args.runs} runs each")
        for nprocs in (2, 4):
            guess = predicted(source, args.machine, nprocs)
            runs = [measured(source, nprocs, flags) for _ in range(args.runs)]
            wall, alone = [t for t, _, _ in runs], [a for _, a, _ in runs]
            print(f"np {nprocs}: predicted {guess * 1e3:8.2f} ms")
            print(f"      wall   {spread(wall)}; predicted / median {guess / statistics.median(wall):.3f}")
            print(f"      alone  {spread(alone)}; predicted / median {guess / statistics.median(alone):.3f}")
            shares = [s * 100 for _, _, s in runs]
            print(f"      share  median {statistics.median(shares):5.1f} % (min {min(shares):.1f}, "
                  f"max {max(shares):.1f}) of the cores' time")


if __name__ == "__main__":
    main()
