#!/usr/bin/env python3
"""The host check of `sad extrapolate` (issue 28): trace a CG program at `mpirun -np 2` on this host, predict
np 2 and np 4 on this host (the machine file `sad calibrate --mpi` wrote for it), and run np 2 and np 4 with
mpirun to compare. Each run is measured --runs times (a run's time: its slowest rank's MPI_Init to
MPI_Finalize, as the trace wrapper of sad.measure.mpitrace records it); the medians and spreads are printed,
with the time the slowest rank spent in message calls longer than 1 ms: on a core that other jobs share, a
rank that yields while it waits loses whole time slices to them, which no machine property describes.

The prediction is sad's timeline at NPROCS (sad.predict.timeline: the ranks simulated together with the
host's LogGP figures; ranks sharing the host file's cores stretched by P / cores), what `sad extrapolate`
prints after it has checked the traced calls against sad's events. Run it as sad would be run on a shared
host: pinned (`taskset -c 0`), so mpirun's ranks share that core (sad's mpirun binds nothing and lets the
ranks yield when they outnumber the CPUs, sad.machine.mpibench.mpirun_command) and the host file, calibrated
under the same pinning, says `cores: 1`.

Usage: taskset -c 0 python3 benchmarks/extrap_host.py --machine host.yaml [--runs 7] [--niter 50]
       [--program corpus/spmd/cgtree.f]
"""
from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sad.cli.main import run  # noqa: E402
from sad.machine.model import load_machine  # noqa: E402
from sad.measure import mpitrace  # noqa: E402

SLICE = 1e-3
"""A message call longer than this on a host whose ping-pong takes microseconds waited for a time slice of
another process (the ranks' own work is outside the calls)."""


def measured(source: Path, nprocs: int, flags: tuple[str, ...]) -> tuple[float, float]:
    """One run under mpirun: the slowest rank's time from MPI_Init to MPI_Finalize (seconds), and the time that
    rank spent in calls longer than SLICE."""
    calls = mpitrace.run([str(source)], nprocs, flags=flags)
    slow = max(calls, key=mpitrace.run_time)
    return mpitrace.run_time(slow), sum(c.end - c.start for c in slow if c.end - c.start > SLICE)


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
            times = [t for t, _ in runs]
            median = statistics.median(times)
            print(f"np {nprocs}: predicted {guess * 1e3:8.2f} ms; measured {spread(times)}; "
                  f"predicted / median {guess / median:.3f}")
            print(f"      of which in calls over {SLICE * 1e3:g} ms: {spread([s for _, s in runs])}; measured "
                  f"without them {spread([t - s for t, s in runs])}")


if __name__ == "__main__":
    main()
