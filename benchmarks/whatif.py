#!/usr/bin/env python3
"""Do the what-if answers hold on this machine? Two figures against real runs, printed, not asserted.

1. `sad compare` crossover: corpus/tuning/rangesum_direct.c (q queries summed directly, q·len additions) against
   rangesum_prefix.c (prefix sums: n additions once, then two loads per query), n = 4·10^6, len = 4000, q over a
   ×2 grid. Both programs are compiled with gcc -O0 and run pinned to one core (taskset -c CPU); each point is
   the median CPU time of --runs runs. The measured crossover is the first grid value from which the prefix
   variant is faster; the predicted one is `sad compare`'s on the calibrated machine. Target: within one grid
   step.
2. `sad tune --validate` on corpus/tuning/matmul_tiled.c (n = 512, ts = 8 … 512 with n % ts == 0, every
   feasible tile run): the loss of the tuner's choice against the best measured tile. Target: within 10 %.

The machine database is --machine FILE, or one made here by `sad calibrate --quick` (pinned to the same core).

Usage: python3 benchmarks/whatif.py [--machine FILE] [--runs 5] [--cpu 1]
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DIRECT = "corpus/tuning/rangesum_direct.c"
PREFIX = "corpus/tuning/rangesum_prefix.c"
TILED = "corpus/tuning/matmul_tiled.c"
N, LEN = 4_000_000, 4000
QUERIES = "64:16384:x2"


def sad(argv: list[str]) -> tuple[int, str]:
    from sad.cli.main import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(argv)
    return code, out.getvalue()


def cpu_seconds(exe: Path, stdin: str, cpu: int) -> float:
    """CPU time (user + system) of one pinned run, from the kernel's rusage of the child."""
    import resource
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(["taskset", "-c", str(cpu), str(exe)], input=stdin, text=True, check=True,
                   stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def compile_c(source: str, work: Path) -> Path:
    exe = work / Path(source).stem
    subprocess.run(["gcc", "-std=gnu99", "-O0", "-w", str(ROOT / source), "-o", str(exe)], check=True)
    return exe


def crossover(machine: str, runs: int, cpu: int, work: Path) -> None:
    code, out = sad(["compare", DIRECT, PREFIX, "-m", machine, "-D", f"n={N}", "-D", f"len={LEN}",
                     "-D", f"q={QUERIES}", "--format", "json"])
    doc = json.loads(out)
    qs = [row["q"] for row in doc["rows"]]
    predicted = [c for c in doc["crossovers"] if c["after"] == "rangesum_prefix"]
    exes = {DIRECT: compile_c(DIRECT, work), PREFIX: compile_c(PREFIX, work)}
    measured: dict[str, list[float]] = {DIRECT: [], PREFIX: []}
    print(f"crossover: n = {N}, len = {LEN}; median CPU s of {runs} runs pinned to CPU {cpu}")
    print(f"  {'q':>6} {'direct':>10} {'prefix':>10} {'pred. direct':>13} {'pred. prefix':>13}")
    for q, row in zip(qs, doc["rows"]):
        for source, exe in exes.items():
            stdin = f"{N} {LEN} {q}\n"
            cpu_seconds(exe, stdin, cpu)
            measured[source].append(statistics.median(cpu_seconds(exe, stdin, cpu) for _ in range(runs)))
        print(f"  {q:>6} {measured[DIRECT][-1]:>10.4f} {measured[PREFIX][-1]:>10.4f} "
              f"{row['TOTAL[rangesum_direct]']:>13.4f} {row['TOTAL[rangesum_prefix]']:>13.4f}")
    faster = [i for i, q in enumerate(qs) if measured[PREFIX][i] < measured[DIRECT][i]]
    first_measured = qs[faster[0]] if faster else None
    first_predicted = predicted[0]["between"][1] if predicted else None
    steps = None
    if first_measured is not None and first_predicted is not None:
        steps = abs(qs.index(first_measured) - qs.index(first_predicted))
    print(f"  measured: prefix sums faster from q = {first_measured}; predicted (sad compare): from grid "
          f"q = {first_predicted} (refined q = {predicted[0]['value'] if predicted else None}); "
          f"{steps} grid step(s) apart: {'ok' if steps is not None and steps <= 1 else 'MISSED'} (target <= 1)")


def tune(machine: str, runs: int, cpu: int) -> None:
    code, out = sad(["tune", TILED, "-m", machine, "--vary", "ts=8:512", "--fix", "n=512", "--constraint",
                     "n % ts == 0", "--validate", "--runs", str(runs), "--points", "7", "--format", "json",
                     "--", f"echo {{n}} {{ts}} | taskset -c {cpu} ./matmul_tiled"])
    doc = json.loads(out)
    check = doc["validation"]
    print(f"tune: matmul_tiled.c n = 512, ts in 8..512 (n % ts == 0) on {Path(machine).name}; "
          f"median of {runs} runs pinned to CPU {cpu}")
    for p in sorted(check["points"], key=lambda p: p["point"]["ts"]):
        print(f"  ts = {int(p['point']['ts']):>4}: predicted {p['predicted_s']:.4g} s, measured "
              f"{statistics.median(p['runs_s']):.4g} s")
    loss = check["loss"]
    print(f"  choice ts = {int(doc['best']['ts'])} measured {check['chosen_measured_s']:.4g} s; best measured "
          f"ts = {int(check['best_measured']['ts'])} {check['best_measured_s']:.4g} s; loss {loss:+.1%}: "
          f"{'ok' if loss <= 0.10 else 'MISSED'} (target <= 10 %)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--machine", help="machine database of this host (default: calibrate one, --quick)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cpu", type=int, default=1)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="sad-whatif-") as tmp:
        work = Path(tmp)
        machine = args.machine
        if machine is None:
            machine = str(work / "here.yaml")
            subprocess.run(["taskset", "-c", str(args.cpu), sys.executable, "-m", "sad", "calibrate", "--quick",
                            "-o", machine], check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        with contextlib.chdir(ROOT):
            crossover(machine, args.runs, args.cpu, work)
            tune(machine, args.runs, args.cpu)
    return 0


if __name__ == "__main__":
    sys.exit(main())
