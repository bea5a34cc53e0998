#!/usr/bin/env python3
"""sad against Kerncraft's ECM model on the loop-kernel suite, both against measured kernel times (issue 9).

Data flow: the calibrated database of this host that benchmarks/accuracy.py writes (benchmarks/calibration/,
gcc -O2; calibrated here when missing) → ``machine_file``: a Kerncraft machine description derived from it with
no hand editing: the clock sad calibrate measured (not the OS's figure), cache sizes from the database and
sets/ways from the OS (sysfs), per-level transfer throughputs from the measured per-line read costs (the ECM
model adds one term per level, so each level gets the increment over the level above: T_L1L2 = read(L2) −
read(L1), ...), the memory bandwidths of Kerncraft's benchmark kernels (load, copy, update, triad) computed from
the measured per-line read, write and copy costs of memory, and OSACA's model of this core for the in-core part →
for every C kernel of benchmarks/kernelsuite.py that Kerncraft's restricted kernel format can express (one
loop nest over arrays of constant size; the suite's bodies are converted automatically, the ones Kerncraft
rejects are listed with its reason) at its four sizes: Kerncraft's ECM prediction (layer-condition cache
predictor) in cycles per cache line → seconds of the kernel = cycles per iteration × iterations / clock.

Measured kernel time = CPU time of the suite's program with its repetitions minus the same program with none
(allocation, initialization, start and exit are not the kernel's), each the median of 5 runs of the program
alone, pinned to one CPU, between two samples of the host-speed sentinel (sad.machine.hostspeed; timed again
while the host is slow, the cases still timed slow named); sad's kernel time is its prediction of the two runs'
difference, the same way. Per case: measured, sad, Kerncraft and both errors; per model the median absolute
error and the count within 25 %.

Kerncraft is an optional dependency (``pip install kerncraft`` or the ``kerncraft`` extra, which brings OSACA);
without it this script says so and exits 0. Its in-core model here is OSACA: Kerncraft 0.8's LLVM-MCA path
passes the llvm-mca flag string to OSACA's assembly parser as an architecture name and fails
(FileNotFoundError '-mcpu=znver1.yml').
Kerncraft's own 'cy/It' and 'It/s' figures are wrong by the square of the iterations per line in 0.8.18
(64 cy/It for 8 cy/CL of doubles): the cycles per cache line are used and divided here.

--measured FILE (an earlier --save) keeps its measurements and Kerncraft's figures and predicts with sad again.

Usage: python3 benchmarks/kerncraft_compare.py [--level -O2] [--only NAME,...] [--runs 5] [--cpu N] [--save FILE]
       [--measured FILE]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import sympy

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import kernelsuite as ks  # noqa: E402
from accuracy import LEVELS, machine_for, program_runs  # noqa: E402

from sad.machine import hostspeed  # noqa: E402
from sad.machine.hierarchy import Hierarchy, pinned_cpu  # noqa: E402
from sad.machine.model import load_machine  # noqa: E402
from sad.measure.validate import analyze_file, compile_program, predict_seconds, profile_values  # noqa: E402

SYSFS = Path("/sys/devices/system/cpu")


def osaca_arch() -> str | None:
    """OSACA's name of this host's core from /proc/cpuinfo (x86 cores OSACA models), None if it has none."""
    try:
        info = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    except OSError:
        return None
    field = {k.strip(): v.strip() for k, _, v in (ln.partition(":") for ln in info.splitlines()) if v}
    vendor, family, model = field.get("vendor_id"), int(field.get("cpu family", 0)), int(field.get("model", 0))
    if vendor == "AuthenticAMD":
        return {23: "ZEN1" if model < 0x30 else "ZEN2", 25: "ZEN3", 26: "ZEN4"}.get(family)
    if vendor == "GenuineIntel" and family == 6:      # a few well-known models; others: not modelled here
        # Emerald Rapids (0xCF) has Sapphire Rapids' core (Raptor Cove, Golden Cove's ports and latencies)
        return {0x3F: "HSW", 0x4F: "BDW", 0x55: "SKX", 0x6A: "ICX", 0x8F: "SPR", 0xCF: "SPR"}.get(model)
    return None


def _sets_ways(level: int, size: int, line: int) -> tuple[int, int]:
    """Sets and ways of the data/unified cache of a level from sysfs (8 ways when the OS does not say)."""
    cpu = pinned_cpu() or 0
    for index in sorted((SYSFS / f"cpu{cpu}" / "cache").glob("index*")):
        try:
            if int((index / "level").read_text()) == level and (index / "type").read_text().strip() != "Instruction":
                ways = int((index / "ways_of_associativity").read_text())
                return size // (ways * line), ways
        except (OSError, ValueError):
            continue
    return size // (8 * line), 8


def machine_file(h: Hierarchy, arch: str, flags: str) -> dict:
    """A Kerncraft machine description from sad's calibrated hierarchy (see the module docstring)."""
    line, clock = h.line_bytes, h.clock_hz
    caches = [lv for lv in h.levels if lv.size_bytes is not None]
    memory = h.levels[-1]
    ports = {"ZEN1": (["0", "1", "2", "3", "3DV", "4", "5", "6", "7"], ["8", "9", "8D", "9D", "ST"]),
             "ZEN2": (["0", "1", "2", "3", "3DV", "4", "5", "6", "7"], ["8", "9", "8D", "9D", "ST"])}
    overlap, data_ports = ports.get(arch, (["0", "1", "5", "6"], ["2", "3", "4", "7", "2D", "3D"]))
    hierarchy = []
    for k, lv in enumerate(caches):
        sets, ways = _sets_ways(k + 1, int(lv.size_bytes or 0), line)
        entry = {"level": lv.name, "cache per group": {
            "sets": sets, "ways": ways, "cl_size": line, "replacement_policy": "LRU",
            "write_allocate": True, "write_back": True}, "cores per group": 1, "groups": 1,
            "size per group": f"{lv.size_bytes} B", "threads per group": 1, "transfers overlap": False}
        if k + 1 < len(caches):
            entry["cache per group"].update({"load_from": caches[k + 1].name, "store_to": caches[k + 1].name})
        if k == 0:
            entry["upstream throughput"] = ["architecture code analyzer", list(data_ports)]
        else:   # ECM adds a term per level: this level's increment over the one above, in bytes per cycle
            step = max(lv.line_s - caches[k - 1].line_s, 0.05 * lv.line_s)
            entry["upstream throughput"] = [f"{line / (step * clock):.2f} B/cy", "half-duplex"]
        hierarchy.append(entry)
    hierarchy.append({"level": "MEM", "cores per group": 1, "size per group": None, "threads per group": 1,
                      "upstream throughput": ["full socket memory bandwidth", "half-duplex"],
                      "transfers overlap": False})
    last = caches[-1].line_s if caches else 0.0
    kernels = {"load": (1, 0, 0), "copy": (1, 1, 0), "update": (1, 1, 1), "triad": (3, 1, 0)}
    results = {}
    for name, (reads, writes, both) in kernels.items():
        # seconds per iteration of 8-byte elements beyond the last cache's share (ECM sums the levels);
        # Kerncraft's bandwidths count the kernel's bytes (likwid-bench convention: no write-allocate)
        # a write beside a read of its own (copy, triad) at the measured copy's excess over the read
        # (sad.machine.hierarchy.Level.beside_read_s), as sad prices it; the write alone's figure otherwise
        write_s = memory.beside_read_s() if reads - both >= writes else memory.store_line_s
        lines = (reads - both) * max(memory.line_s - last, 1e-12) + writes * max(write_s - last, 1e-12)
        seconds = lines * 8 / line
        results[name] = [f"{8 * (reads + writes - both) / seconds / 1e9:.2f} GB/s"]
    bench_kernels = {name: {"FLOPs per iteration": 0, "read streams": {"bytes": f"{8 * r} B", "streams": r},
                            "read+write streams": {"bytes": f"{8 * b} B", "streams": b},
                            "write streams": {"bytes": f"{8 * w} B", "streams": w}}
                     for name, (r, w, b) in kernels.items()}
    return {
        "kerncraft version": "0.8.18", "model name": "this host (from sad calibrate)",
        "model type": arch, "clock": f"{clock / 1e9:.4f} GHz", "sockets": 1, "cores per socket": 1,
        "threads per core": 1, "NUMA domains per socket": 1, "cores per NUMA domain": 1,
        "in-core model": {"OSACA": arch}, "isa": "x86",
        "FLOPs per cycle": {"DP": {"ADD": 2, "FMA": 2, "MUL": 2, "total": 4},
                            "SP": {"ADD": 4, "FMA": 4, "MUL": 4, "total": 8}},
        "compiler": {"gcc": flags},
        "non-overlapping model": {"performance counter metric": "none", "ports": {"OSACA": list(data_ports)}},
        "overlapping model": {"performance counter metric": "none", "ports": {"OSACA": overlap}},
        "cacheline size": f"{line} B", "memory hierarchy": hierarchy,
        "benchmarks": {"kernels": bench_kernels, "measurements": {"MEM": {1: {
            "cores": [1], "threads per core": 1, "threads": [1], "results": results,
            "size per core": ["64 MB"], "size per thread": ["64 MB"], "total size": ["64 MB"]}}}},
    }


def write_machine(data: dict, path: Path) -> None:
    """YAML as Kerncraft reads it: 'in-core model' and 'compiler' are ordered maps (!!omap)."""
    import yaml

    class Omap(dict):
        pass

    def omap(dumper, value):
        return dumper.represent_sequence("tag:yaml.org,2002:omap", [{k: v} for k, v in value.items()])

    yaml.add_representer(Omap, omap, Dumper=yaml.SafeDumper)
    data = dict(data, **{"in-core model": Omap(data["in-core model"]), "compiler": Omap(data["compiler"])})
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


# ------------------------------------------------------------------------------------------- kernels

_FOR = re.compile(r"for \((\w) = ")


def kerncraft_kernel(k: ks.Kernel) -> str | None:
    """The suite's C body in Kerncraft's kernel format (arrays of constant size N, loop variables declared in
    the for), or None for Fortran kernels."""
    if k.lang != "c":
        return None
    length = k.length.replace("n", "N")
    body = _FOR.sub(lambda m: f"for (int {m.group(1)} = ", k.body)
    body = re.sub(r"\bn\b", "N", body)
    decl = "\n".join(f"double {a}[{length}];" for a in k.arrays)
    return f"{decl}\ndouble s, t, u, v, w;\n{body}\n"


def kerncraft_cycles_per_iteration(kernel_c: Path, machine: Path, n: int, workdir: Path) -> tuple[float | None, str]:
    """Kerncraft's ECM cycles per iteration of the innermost loop for N = n (cache-simulation predictor), or
    (None, why it failed). Run in this process through Kerncraft's own command-line entry (create_parser,
    check_arguments, run): a new process per case spends most of its time loading Kerncraft and OSACA."""
    import contextlib
    import io

    from kerncraft import kerncraft as kc
    out = workdir / f"{kernel_c.stem}_{n}.json"
    why = ""
    for extra in ([], ["--pointer-increment", "8"]):
        # Kerncraft finds the store pointer's increment per assembly block itself; where the loop stores
        # nothing (y[i] kept in a register over the loop on j) it cannot and asks: one double per iteration
        parser = kc.create_parser()
        args = parser.parse_args(["-p", "ECM", "-m", str(machine), str(kernel_c), "-D", "N", str(n), "--json",
                                  str(out), *extra])
        log = io.StringIO()
        try:
            with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log), contextlib.chdir(workdir):
                kc.check_arguments(args, parser)
                kc.run(parser, args, output_file=log)
            break
        except (Exception, SystemExit) as exc:    # Kerncraft's own assertions on kernels it cannot model
            text = str(exc).strip() or log.getvalue().strip()
            why = f"{type(exc).__name__}: {' '.join(text.split())}"[:200]
            if "pointer_increment" not in log.getvalue():
                return None, why
    else:
        return None, why
    result = next(iter(json.loads(out.read_text(encoding="utf-8")).values()))
    t_ol, terms = result["ECM"]
    per_line = max(float(t_ol), sum(float(x) for x in terms))
    return per_line / float(sympy.sympify(result["iterations per cacheline"])), ""


# ------------------------------------------------------------------------------------------- measuring


def measured_kernel(exe: Path, n: int, reps: int, cpu: int | None, runs: int,
                    guard: hostspeed.Guard | None = None, what: str = "") -> tuple[float, float, float]:
    """(median CPU seconds of the program with the repetitions, with none, the host-speed sentinel's ratio
    around them): the program alone, pinned; with a ``guard``, timed again while the host is slow (the try on
    the fastest host kept; 0: not watched)."""
    def both() -> tuple[float, float]:
        return (statistics.median(program_runs(exe, f"{n} {reps}\n", cpu, runs)),
                statistics.median(program_runs(exe, f"{n} 0\n", cpu, runs)))

    if guard is None:
        return (*both(), 0.0)
    watched = guard.measure(what or exe.name, both)
    return (*watched.value, watched.ratio)


def sad_kernel(src: Path, n: int, reps: int, machine, work: Path) -> float | None:
    """sad's predicted seconds with the repetitions minus its prediction with none."""
    out = []
    for r in (reps, 0):
        values = {"n": sympy.Integer(n), "reps": sympy.Integer(r)}
        analysis = analyze_file(src, {}, values)
        profiled = profile_values(src, analysis, values, {}, f"echo {n} {r} | ./{src.stem}", work)
        values.update({name: sympy.Float(v) for name, v in profiled.items()})
        seconds, _ = predict_seconds(analysis, machine, values)
        if seconds is None:
            return None
        out.append(seconds)
    return out[0] - out[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="-O2", choices=sorted(LEVELS), help="optimization level (default -O2)")
    parser.add_argument("--only", default="", help="comma-separated kernel names of the suite")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per case (median)")
    parser.add_argument("--cpu", type=int, help="CPU the kernels are timed on (default: the calibration's)")
    parser.add_argument("--save", default="", help="write the table's figures to this JSON file")
    parser.add_argument("--measured", default="", help="an earlier --save: its measured and Kerncraft figures "
                        "are kept, only sad predicts again (model changes compared on the same measurements)")
    args = parser.parse_args()
    if args.measured:
        return repredict(args)
    if shutil.which("kerncraft") is None:
        print("kerncraft is not installed (optional: pip install kerncraft): nothing to compare; skipped")
        return 0
    arch = osaca_arch()
    if arch is None:
        print("this host's core has no OSACA model known here (Kerncraft's in-core part): skipped")
        return 0
    db = load_machine(machine_for(args.level, False, True))
    h: Hierarchy | None = db.hierarchy
    if h is None:
        print("the calibrated database has no hierarchy section: skipped")
        return 0
    wanted = {x for x in args.only.split(",") if x}
    kernels = [k for k in ks.KERNELS if k.lang == "c" and (not wanted or k.name in wanted)]
    cpu = args.cpu if args.cpu is not None else pinned_cpu()
    rows, skipped = [], {}
    print(f"load average before {os.getloadavg()}; clock {h.clock_hz / 1e9:.3f} GHz (sad calibrate), OSACA {arch}")
    with tempfile.TemporaryDirectory(prefix="sad-kerncraft-") as tmp:
        work = Path(tmp)
        guard = hostspeed.Guard(hostspeed.Sentinel.build(work, cpu))
        guard.settle()
        mfile = work / "machine.yml"
        write_machine(machine_file(h, arch, " ".join(LEVELS[args.level])), mfile)
        for k in kernels:
            kc_src = work / f"kc_{k.name}.c"
            kc_src.write_text(kerncraft_kernel(k) or "", encoding="utf-8")
            src = work / f"{k.name}.c"
            src.write_text(ks.source(k), encoding="utf-8")
            exe = compile_program(src, LEVELS[args.level], work)
            for cache, n, reps in ks.cases(k):
                cy_it, why = kerncraft_cycles_per_iteration(kc_src, mfile, n, work)
                if cy_it is None:
                    skipped[k.name] = why
                    print(f"{k.name:14s} {cache:6s} n={n:<8d} kerncraft: {why}", flush=True)
                    break
                full, empty, ratio = measured_kernel(exe, n, reps, cpu, max(3, args.runs), guard,
                                                     f"{k.name} {cache}")
                measured = full - empty
                iterations = ks.WORK[k.work](n) * reps
                kerncraft = cy_it * iterations / h.clock_hz
                sad = sad_kernel(src, n, reps, db, work)
                rows.append((k.name, cache, n, measured, sad, kerncraft))
                slow = f"  host {ratio:.2f}x" if ratio > hostspeed.SLOW else ""
                print(f"{k.name:14s} {cache:6s} n={n:<8d} measured {measured:9.4g} s  sad {_fmt(sad)} "
                      f"{_err(sad, measured)}  kerncraft {_fmt(kerncraft)} {_err(kerncraft, measured)}{slow}",
                      flush=True)
        print(guard.sentinel.spread_text())
        if guard.slowed:
            print(f"timed while the host was slow (sentinel > {hostspeed.SLOW:.2f}x its fastest, after "
                  f"{1 + guard.retries} tries): " + ", ".join(f"{k} {v:.2f}x" for k, v in sorted(guard.slowed.items())))
    _summary(rows, skipped)
    print(f"load average after {os.getloadavg()}")
    if args.save:
        Path(args.save).write_text(json.dumps({"rows": rows, "skipped": skipped}, indent=1), encoding="utf-8")
    return 0


def repredict(args) -> int:
    """sad's figures again for the cases of an earlier --save (its measurements and Kerncraft's figures kept)."""
    saved = json.loads(Path(args.measured).read_text(encoding="utf-8"))
    db = load_machine(machine_for(args.level, False, True))
    wanted = {x for x in args.only.split(",") if x}
    by_name = {k.name: k for k in ks.KERNELS}
    rows = []
    with tempfile.TemporaryDirectory(prefix="sad-kerncraft-") as tmp:
        work = Path(tmp)
        for name, cache, n, measured, _, kerncraft in saved["rows"]:
            if wanted and name not in wanted:
                continue
            k = by_name[name]
            reps = next(r for c, size, r in ks.cases(k) if c == cache and size == n)
            src = work / f"{k.name}.c"
            if not src.exists():
                src.write_text(ks.source(k), encoding="utf-8")
                compile_program(src, LEVELS[args.level], work)
            sad = sad_kernel(src, n, reps, db, work)
            rows.append((name, cache, n, measured, sad, kerncraft))
            print(f"{name:14s} {cache:6s} n={n:<8d} measured {measured:9.4g} s  sad {_fmt(sad)} "
                  f"{_err(sad, measured)}  kerncraft {_fmt(kerncraft)} {_err(kerncraft, measured)}", flush=True)
    _summary(rows, saved.get("skipped", {}))
    if args.save:
        Path(args.save).write_text(json.dumps({"rows": rows, "skipped": saved.get("skipped", {})}, indent=1),
                                   encoding="utf-8")
    return 0


def _fmt(x: float | None) -> str:
    return f"{x:9.4g} s" if x is not None else f"{'unbound':>11s}"


def _err(p: float | None, m: float) -> str:
    return f"{(p - m) / m:+7.1%}" if p is not None and m > 0 else f"{'':7s}"


def _summary(rows, skipped: dict[str, str]) -> None:
    print(f"\n{'model':10s} {'cache':7s} {'cases':>5s} {'median |err|':>13s} {'worst':>9s} {'within 25 %':>12s}")
    for label, col in (("sad", 4), ("kerncraft", 5)):
        for cache in ("L1", "L2", "L3", "memory", "all"):
            errs = [abs(r[col] - r[3]) / r[3] for r in rows if (cache == "all" or r[1] == cache)
                    and r[col] is not None and r[3] > 0]
            if errs:
                print(f"{label:10s} {cache:7s} {len(errs):5d} {statistics.median(errs):13.1%} {max(errs):9.1%} "
                      f"{sum(e <= 0.25 for e in errs):8d}/{len(errs)}")
    for name, why in sorted(skipped.items()):
        print(f"not expressible for kerncraft: {name}: {why}")


if __name__ == "__main__":
    sys.exit(main())
