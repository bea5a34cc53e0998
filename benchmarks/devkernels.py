#!/usr/bin/env python3
"""Held-out development kernels for the loop-cost model: C kernels written from their mathematics (gemver,
syrk, jacobi-2d, seidel-2d, trisolv, covariance, floyd-warshall, mvt; benchmarks/devkernels/), not tuned
against, timed and predicted at -O0 and -O2.

Data flow: benchmarks/devkernels/*.c (sizes are #define constants, so the analysis needs no input) → gcc at the
level, run pinned to one CPU (``taskset -c 1``), median CPU time of 5 runs after a warm-up → sad's prediction
with this host's calibration for the level (benchmarks/calibration/, as benchmarks/accuracy.py writes it) →
per kernel measured / predicted / error, per level the median absolute error and the count off by more than 2x.
A branch or select probability the analysis leaves open is bound to 0.5 (named in the output): the kernels'
selects cost the same either way at -O2 (if-converted).

--save FILE writes the measured times (JSON); --measured FILE reuses them (to compare models on the same
measurements: the machine is shared, timings drift).

Usage: python3 benchmarks/devkernels.py [--levels -O0,-O2] [--only NAME,...] [--save FILE | --measured FILE]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import sympy

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sad.machine.model import load_machine  # noqa: E402
from sad.predict.job import Options, run  # noqa: E402

KERNELS = ROOT / "benchmarks" / "devkernels"
CAL_DIR = ROOT / "benchmarks" / "calibration"


def cpu_seconds(cmd: list[str]) -> float:
    """CPU seconds (user + system) of one run of the command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(src: Path, level: str, work: Path, runs: int = 5) -> float:
    """Median CPU seconds of the kernel compiled at the level, pinned to CPU 1."""
    exe = work / f"{src.stem}{level}"
    subprocess.run(["gcc", "-std=gnu99", "-w", level, str(src), "-o", str(exe), "-lm"], check=True)
    cmd = ["taskset", "-c", "1", str(exe)]
    cpu_seconds(cmd)
    return statistics.median(cpu_seconds(cmd) for _ in range(runs))


def predict(src: Path, machine) -> tuple[float | None, list[str], str]:
    """sad's predicted seconds, the parameters bound to 0.5, and the loop-coverage line."""
    result = run([str(src)], Options([], {}, {}), machine)
    prediction = result.prediction
    guessed: list[str] = []
    if prediction.time_value is None:
        guessed = list(prediction.unbound)
        result = run([str(src)], Options([], {}, {n: sympy.Rational(1, 2) for n in guessed}), machine)
        prediction = result.prediction
    coverage = prediction.loop_coverage.summary() if prediction.loop_coverage else "no loops priced from code"
    return prediction.time_value, guessed, coverage


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="-O0,-O2")
    parser.add_argument("--only", default="")
    parser.add_argument("--save", type=Path)
    parser.add_argument("--measured", type=Path)
    parser.add_argument("-v", "--verbose", action="store_true", help="print each kernel's loop coverage")
    args = parser.parse_args()
    sources = sorted(KERNELS.glob("*.c"))
    if args.only:
        sources = [s for s in sources if s.stem in args.only.split(",")]
    measured: dict[str, float] = json.loads(args.measured.read_text()) if args.measured else {}
    errors: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="sad-devkernels-") as tmp:
        for level in args.levels.split(","):
            machine = load_machine(CAL_DIR / f"this_machine{level.replace('-', '_')}.yaml")
            for src in sources:
                key = f"{src.stem} {level}"
                if key not in measured:
                    measured[key] = measure(src, level, Path(tmp))
                predicted, guessed, coverage = predict(src, machine)
                m = measured[key]
                err = (predicted - m) / m if predicted is not None else None
                if err is not None:
                    errors.setdefault(level, []).append(err)
                print(f"{level} {src.stem:12s} measured {m:8.4g} s  predicted "
                      + (f"{predicted:8.4g} s  {err:+7.1%}" if predicted is not None and err is not None
                         else "unbound")
                      + (f"  ({', '.join(guessed)} = 0.5)" if guessed else "")
                      + (f"  [{coverage}]" if args.verbose else ""), flush=True)
    print(f"\nload average {os.getloadavg()[0]:.2f}")
    for level, errs in errors.items():
        absolute = [abs(e) for e in errs]
        off = sum(1 for e in errs if e > 1.0 or e < -0.5)
        print(f"{level}: {len(errs)} kernels, median |error| {statistics.median(absolute):.1%}, "
              f"worst {max(absolute):.1%}, off by more than 2x: {off}")
    if args.save:
        args.save.write_text(json.dumps(dict(sorted(measured.items())), indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
