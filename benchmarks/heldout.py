#!/usr/bin/env python3
"""Held-out accuracy: any directory of kernels, built, timed and predicted the way a user would.

Data flow: a manifest in each directory given (``heldout.yaml``, format below) → per optimization level asked: a
machine database (``--machine LEVEL=FILE``, else this host calibrated with gcc at that level as
benchmarks/accuracy.py does: a file younger than a day in benchmarks/calibration/ is reused) → per kernel: compile
its sources with the manifest's compiler and flags plus the level, time the program pinned to one CPU (CPU time
of the program alone, median of ``--runs`` runs after one warm-up, between two samples of sad.machine.hostspeed's
sentinel on the same CPU: a host slower than SLOW x its fastest is waited for, a kernel timed beside a slow sample
timed again, and those still slow listed with the sentinel's spread), predict it with ``sad analyze`` (the kernel's
``-I``/``-D`` flags and bound values; values only a run can tell, such as a data-dependent branch's probability,
from ``sad profile`` of the same run unless ``--no-profile``) → per kernel measured / predicted / error, and per
level the median absolute error, the count within 25 %, the count off by more than 2x and the close pairs
(measured within 1.25x of each other) whose order the prediction gets right.

The manifest (YAML, read with safe_load; paths relative to the manifest's directory)::

    compiler: gcc                  # optional; default by suffix: .c gcc, Fortran (.f .F .f90 ...) gfortran
    flags: [-I, include]           # optional, for every kernel (before the kernel's own)
    kernels:
      - name: daxpy_L2             # unique in the directory
        source: daxpy.c            # or a list of sources, one program
        flags: [-DN=4000, -I, inc] # compile flags; -I and -D are also given to `sad analyze`
        libs: [-lm]                # optional, link flags (after the sources)
        args: ["4000", "100"]      # optional, the program's arguments
        stdin: "4000 100"          # optional, its standard input (a newline added; or stdin_file: input.txt)
        bind: {n: 4000, reps: 100} # values the program reads at run time, bound for the prediction

The level (-O0, -O2, ... from ``--levels``) is appended to the flags; the predicted figure is ``sad analyze``'s
whole-program time (start-up included where the machine database gives it), the measured one the program's
user + system CPU time. ``--export-own-suite DIR`` writes benchmarks/kernelsuite.py's kernels (the own suite of
``accuracy.py --suite``, development data) as such a directory, one entry per kernel and cache size.

Usage: python3 benchmarks/heldout.py DIR [DIR ...] [--levels -O0,-O2] [--machine LEVEL=FILE ...] [--cpu N]
       [--runs N] [--only NAME,...] [--no-profile] [--quick] [--json FILE] [--measured FILE ...]
       python3 benchmarks/heldout.py --export-own-suite DIR [--cases L1,L2,L3,memory] [--only NAME,...]
"""
from __future__ import annotations

import argparse
import io
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from sad.cli.main import run as sad_run  # noqa: E402
from sad.machine.hostspeed import SLOW, Sample, Sentinel  # noqa: E402

MANIFEST = "heldout.yaml"
FORTRAN = (".f", ".for", ".F", ".f77", ".f90", ".F90")
SMALL = "_small"  # a kernel so named is an in-cache size: its figures are also given on their own
CLOSE = 1.25      # a pair of kernels whose measured times are within this factor is a close pair
WAITS = 5         # host-speed samples a slowed host is waited for before a kernel is timed
TRIES = 3         # timings of a kernel measured beside a slow sample


class ManifestError(Exception):
    """A manifest that cannot be read: the message names the file and the entry."""


@dataclass
class Kernel:
    """One kernel of a manifest: its sources, how to build and run it, and the values bound for the prediction."""
    name: str
    directory: Path
    sources: list[Path]
    compiler: str
    flags: list[str]
    libs: list[str] = field(default_factory=list)
    args: list[str] = field(default_factory=list)
    stdin: str = ""
    bind: dict[str, str] = field(default_factory=dict)

    def compile_flags(self) -> list[str]:
        """The compile flags with -I directories made absolute (the compiler runs elsewhere)."""
        out: list[str] = []
        for flag in self.flags:
            if out and out[-1] == "-I":
                out.append(str(self.directory / flag))
            elif flag.startswith("-I") and flag != "-I":
                out.append("-I" + str(self.directory / flag[2:]))
            else:
                out.append(flag)
        return out

    def analyze_flags(self) -> list[str]:
        """The -I and -D flags among the compile flags, as `sad analyze` takes them."""
        out, flags = [], iter(self.flags)
        for flag in flags:
            if flag in ("-I", "-D"):
                value = next(flags, "")
                out += [flag, str(self.directory / value) if flag == "-I" else value]
            elif flag.startswith("-I"):
                out += ["-I", str(self.directory / flag[2:])]
            elif flag.startswith("-D"):
                out += ["-D", flag[2:] if "=" in flag else flag[2:] + "=1"]
        return out


def read_manifest(directory: Path) -> list[Kernel]:
    """The kernels of ``directory/heldout.yaml``."""
    path = directory / MANIFEST
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ManifestError(f"{path}: error: cannot read: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("kernels"), list):
        raise ManifestError(f"{path}: error: expected a mapping with a list 'kernels'")
    common = [str(f) for f in data.get("flags") or []]
    out, seen = [], set()
    for i, entry in enumerate(data["kernels"]):
        where = f"{path}: error: kernels[{i}]"
        if not isinstance(entry, dict) or "name" not in entry or "source" not in entry:
            raise ManifestError(f"{where}: needs 'name' and 'source'")
        name = str(entry["name"])
        if name in seen:
            raise ManifestError(f"{where}: name '{name}' given twice")
        seen.add(name)
        sources = [directory / s for s in ([entry["source"]] if isinstance(entry["source"], str) else entry["source"])]
        missing = [str(s) for s in sources if not s.is_file()]
        if missing:
            raise ManifestError(f"{where} ({name}): no such source {', '.join(missing)}")
        compiler = str(entry.get("compiler") or data.get("compiler") or
                       ("gfortran" if sources[0].suffix in FORTRAN else "gcc"))
        stdin = str(entry.get("stdin", ""))
        stdin += "\n" if stdin and not stdin.endswith("\n") else ""
        if "stdin_file" in entry:
            stdin = (directory / str(entry["stdin_file"])).read_text(encoding="utf-8")
        out.append(Kernel(name, directory, sources, compiler, common + [str(f) for f in entry.get("flags") or []],
                          [str(f) for f in entry.get("libs") or []], [str(a) for a in entry.get("args") or []],
                          stdin, {str(k): str(v) for k, v in (entry.get("bind") or {}).items()}))
    return out


# ------------------------------------------------------------------------------------------- build, time


def build(k: Kernel, level: str, work: Path) -> Path:
    """Compile the kernel's sources at ``level`` in ``work``: the executable."""
    exe = work / f"{k.name}{level.replace('-', '_')}"
    cmd = [k.compiler, *k.compile_flags(), level, *map(str, k.sources), "-o", str(exe), *k.libs]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{k.name}: compile failed: {' '.join(cmd)}\n{proc.stderr[-1500:]}")
    return exe


def cpu_seconds(cmd: list[str], stdin: str, cpu: int | None, cwd: Path) -> float:
    """User + system CPU seconds of the program alone, pinned to ``cpu``: accuracy.py's measurement (this
    process pinned around the start, so no taskset start-up is timed), with the kernel's arguments and folder."""
    from accuracy import program_cpu_seconds
    return program_cpu_seconds(Path(cmd[0]), stdin, cpu, tuple(cmd[1:]), cwd)


def measure(k: Kernel, exe: Path, cpu: int | None, runs: int) -> float:
    """Median CPU seconds of ``runs`` pinned runs after one warm-up."""
    cmd = [str(exe), *k.args]
    cpu_seconds(cmd, k.stdin, cpu, k.directory)
    return statistics.median(cpu_seconds(cmd, k.stdin, cpu, k.directory) for _ in range(max(1, runs)))


def measure_watched(k: Kernel, exe: Path, cpu: int | None, runs: int, sentinel: Sentinel
                    ) -> tuple[float, list[Sample]]:
    """``measure`` between two host-speed samples (sad.machine.hostspeed): a host slowed before the kernel is
    waited for (up to WAITS samples, a second apart), a kernel with a slow sample on either side is timed
    again (up to TRIES times); the time of the try with the fastest host, and that try's two samples."""
    best: tuple[float, float, list[Sample]] | None = None
    for _ in range(TRIES):
        for _ in range(WAITS):
            if sentinel.sample() <= SLOW:
                break
            time.sleep(1.0)
        before = sentinel.samples[-1]
        seconds = measure(k, exe, cpu, runs)
        sentinel.sample()
        pair = [before, sentinel.samples[-1]]
        ratio = max(sentinel.ratio(s) for s in pair)
        if best is None or ratio < best[0]:
            best = (ratio, seconds, pair)
        if ratio <= SLOW:
            break
    assert best is not None
    return best[1], best[2]


# ------------------------------------------------------------------------------------------- predict


def analyze_json(argv: list[str]) -> tuple[dict | None, str]:
    """`sad ARGV --format json` in this process: (the JSON result, what it said on stderr)."""
    out, err = io.StringIO(), io.StringIO()
    rc = sad_run(argv + ["--format", "json"], out, err)
    if rc not in (0, 1) or not out.getvalue().strip():
        return None, err.getvalue()
    return json.loads(out.getvalue()), err.getvalue()


def profile(k: Kernel, exe_name: str, work: Path) -> Path | None:
    """`sad profile` of one run of the kernel (counts do not depend on the level): a params file, or None."""
    params = work / f"{k.name}.params.yaml"
    if params.exists():
        return params
    stdin_file = work / f"{k.name}.stdin"
    stdin_file.write_text(k.stdin, encoding="utf-8")
    command = " ".join([f"./{exe_name}", *map(_quote, k.args), "<", _quote(str(stdin_file))])
    argv = ["profile", *map(str, k.sources), *k.analyze_flags(), *_defines(k), "-o", str(params), "--force",
            "--", command]
    err = io.StringIO()
    if sad_run(argv, io.StringIO(), err) != 0 or not params.exists():
        print(f"  {k.name}: sad profile failed: {err.getvalue().strip()[-300:]}", file=sys.stderr)
        return None
    return params


def _quote(text: str) -> str:
    import shlex
    return shlex.quote(text)


def _defines(k: Kernel) -> list[str]:
    return [a for name, value in k.bind.items() for a in ("-D", f"{name}={value}")]


def predict(k: Kernel, machine: Path, use_profile: bool, work: Path) -> tuple[float | None, str]:
    """`sad analyze`'s seconds for the kernel on ``machine`` (None and why when it stays unbound)."""
    base = ["analyze", *map(str, k.sources), "-m", str(machine), *k.analyze_flags(), *_defines(k)]
    result, err = analyze_json(base)
    if result is None:
        return None, err.strip()[-300:]
    params = None
    if any(not name.startswith("C_") for name in result.get("unbound", [])) and use_profile:
        params = profile(k, k.sources[0].stem, work)
        if params is not None:
            result, err = analyze_json(base + ["--params", str(params)])
            if result is None:
                return None, err.strip()[-300:]
    calls = [name for name in result.get("unbound", []) if name.startswith("C_")]
    if calls and len(calls) == len(result["unbound"]):
        # a library call the machine does not price (malloc of the arrays, once): said, and 0 s, as
        # accuracy.py's gcov profile binds it; a database that prices library calls never gets here
        extra = [a for name in calls for a in ("-D", f"{name}=0")]
        result, err = analyze_json(base + extra + (["--params", str(params)] if params else []))
        if result is None:
            return None, err.strip()[-300:]
        note = "unpriced calls taken as 0 s: " + ", ".join(calls)
    else:
        note = ""
    if result.get("unbound"):
        return None, "unbound: " + ", ".join(result["unbound"])
    return float(result["time_s"]), note


# ------------------------------------------------------------------------------------------- figures


def summary(rows: list[tuple[str, float, float | None]]) -> dict[str, object]:
    """median |error|, within 25 %, off by more than 2x, close pairs ranked right, of (name, measured, predicted)."""
    done = [(n, m, p) for n, m, p in rows if p is not None and m > 0]
    errors = [abs(p - m) / m for _, m, p in done]
    pairs = right = 0
    for i, (_, m1, p1) in enumerate(done):
        for _, m2, p2 in done[i + 1:]:
            if max(m1, m2) / min(m1, m2) <= CLOSE and m1 != m2:
                pairs += 1
                right += (p1 - p2) * (m1 - m2) > 0
    return {"kernels": len(rows), "predicted": len(done),
            "median_abs_error": statistics.median(errors) if errors else None,
            "within_25": sum(e <= 0.25 for e in errors),
            "off_2x": [n for n, m, p in done if not 0.5 <= p / m <= 2],
            "close_pairs": pairs, "close_pairs_right": right}


def print_summary(level: str, s: dict) -> None:
    """One level's figures, as the issue's table gives them."""
    med = s["median_abs_error"]
    pairs, right = s["close_pairs"], s["close_pairs_right"]
    off = s["off_2x"]
    assert isinstance(off, list) and isinstance(pairs, int) and isinstance(right, int)
    print(f"{level}: {s['predicted']}/{s['kernels']} predicted; median |error| "
          f"{'n/a' if med is None else f'{med:.1%}'}; within 25 %: {s['within_25']}/{s['predicted']}; "
          f"off by more than 2x: {len(off)}" + (f" ({', '.join(off)})" if off else "")
          + f"; close pairs ranked right: {right}/{pairs}" + (f" ({right / pairs:.0%})" if pairs else ""))


def machine_for(level: str, given: dict[str, str], quick: bool) -> Path:
    """The machine file of a level: given on the command line, else this host's calibration (accuracy.py's)."""
    if level in given:
        return Path(given[level])
    import accuracy
    accuracy.LEVELS.setdefault(level, [level])
    return accuracy.machine_for(level, False, quick)


def earlier_times(paths: list[str]) -> dict[str, dict[str, float]]:
    """Measured seconds per level and kernel from earlier ``--json`` reports; where several give a kernel, the
    fastest: a shared host only ever slows a program down (on a two-core VM the same LARGE cholesky at -O0
    measured 8.3, 5.6 and 4.4 s in three sessions), so the fastest of several sessions' medians is the one
    nearest a quiet host."""
    times: dict[str, dict[str, float]] = {}
    for path in paths:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            for level, figures in data["levels"].items():
                mine = times.setdefault(level, {})
                for row in figures["rows"]:
                    mine[row["name"]] = min(float(row["measured"]), mine.get(row["name"], math.inf))
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ManifestError(f"{path}: error: no earlier --json report: {type(exc).__name__}: {exc}") from exc
    return times


def host_speed(sentinel: Sentinel, watched: dict[str, dict[str, list[Sample]]]) -> dict[str, object]:
    """The sentinel's spread over the session and, per level, the kernels timed while the host ran slower than
    SLOW x its fastest (judged at the end, against the fastest sample of the whole session): printed and kept."""
    print(sentinel.spread_text())
    slow: dict[str, dict[str, float]] = {}
    for level, pairs in watched.items():
        ratios = {name: max(sentinel.ratio(s) for s in pair) for name, pair in pairs.items()}
        slow[level] = {name: r for name, r in ratios.items() if r > SLOW}
        if slow[level]:
            print(f"{level}: timed while the host was slow (sentinel > {SLOW:.2f}x its fastest, after "
                  f"{TRIES} tries): " + ", ".join(f"{n} {r:.2f}x" for n, r in slow[level].items()))
        else:
            print(f"{level}: every kernel timed with the host within {SLOW:.2f}x of its fastest")
    return {"spread": sentinel.spread(), "slow": slow,
            "kernels": {level: {n: [list(s) for s in pair] for n, pair in pairs.items()}
                        for level, pairs in watched.items()}}


def run_dirs(args) -> int:
    """Every kernel of every directory at every level: measured vs predicted, then the figures per level."""
    from sad.machine.hierarchy import pinned_cpu
    try:
        kernels = [k for d in args.dirs for k in read_manifest(Path(d).resolve())]
        earlier = earlier_times(args.measured)
    except ManifestError as exc:
        print(exc, file=sys.stderr)
        return 2
    wanted = {n for n in args.only.split(",") if n}
    kernels = [k for k in kernels if not wanted or k.name in wanted]
    given = dict(item.split("=", 1) for item in args.machine)
    cpu = args.cpu if args.cpu is not None else pinned_cpu()
    levels = [lv for lv in args.levels.split(",") if lv]
    report: dict[str, object] = {"load_before": os.getloadavg(), "levels": {}}
    with tempfile.TemporaryDirectory(prefix="sad-heldout-") as tmp:
        work = Path(tmp)
        sentinel = Sentinel.build(work, cpu)
        for _ in range(WAITS):       # the host's speed before any kernel: the fastest of a few samples
            sentinel.sample()
        watched: dict[str, dict[str, list[Sample]]] = {}
        for level in levels:
            machine = machine_for(level, given, args.quick)
            print(f"{level}: machine {machine}", flush=True)
            rows: list[tuple[str, float, float | None]] = []
            for k in kernels:
                try:
                    if k.name in earlier.get(level, {}):
                        measured = earlier[level][k.name]
                    else:
                        measured, pair = measure_watched(k, build(k, level, work), cpu, args.runs, sentinel)
                        watched.setdefault(level, {})[k.name] = pair
                except RuntimeError as exc:
                    print(f"  {k.name}: {exc}", file=sys.stderr)
                    continue
                predicted, why = predict(k, machine, not args.no_profile, work)
                rows.append((k.name, measured, predicted))
                err = f"{(predicted - measured) / measured:+8.1%}" if predicted is not None else ""
                err += f"  ({why})" if why else ""
                shown = f"{predicted:10.4g}" if predicted is not None else f"{'-':>10s}"
                host = f"  host {max(sentinel.ratio(s) for s in pair):.2f}x" if k.name in watched.get(level, {}) \
                    else ""
                print(f"{level} {k.name:24s} measured {measured:10.4g} s  predicted {shown} s  {err}{host}",
                      flush=True)
            s = summary(rows)
            print_summary(level, s)
            small = [row for row in rows if row[0].endswith(SMALL)]
            if small:
                print_summary(f"{level} in-cache sizes (names ending in {SMALL})", summary(small))
            report["levels"][level] = {"machine": str(machine), "summary": s,   # type: ignore[index]
                                       "rows": [{"name": n, "measured": m, "predicted": p} for n, m, p in rows]}
        report["host_speed"] = host_speed(sentinel, watched)
    report["load_after"] = os.getloadavg()
    print(f"load average before {report['load_before']}, after {report['load_after']}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, sort_keys=True), encoding="utf-8")
    return 0


# ------------------------------------------------------------------------------------------- the own suite


def export_own_suite(directory: Path, cases: set[str], only: set[str]) -> int:
    """benchmarks/kernelsuite.py's kernels as a manifest directory: one source per kernel, one entry per size."""
    import kernelsuite as ks
    directory.mkdir(parents=True, exist_ok=True)
    entries = []
    for k in ks.KERNELS:
        if only and k.name not in only:
            continue
        src = directory / (k.name + (".c" if k.lang == "c" else ".f"))
        src.write_text(ks.source(k), encoding="utf-8")
        names = ("n", "reps") if k.lang == "c" else ("N", "REPS")
        for cache, n, reps in ks.cases(k):
            if cases and cache not in cases:
                continue
            entries.append({"name": f"{k.name}_{k.lang}_{cache}", "source": src.name, "stdin": f"{n} {reps}",
                            "bind": {names[0]: n, names[1]: reps}})
    header = ("# benchmarks/kernelsuite.py's kernels (the own suite of benchmarks/accuracy.py --suite), written by\n"
              "# benchmarks/heldout.py --export-own-suite: run them with benchmarks/heldout.py DIR\n")
    (directory / MANIFEST).write_text(header + yaml.safe_dump({"kernels": entries}, sort_keys=False),
                                      encoding="utf-8")
    print(f"wrote {len(entries)} kernels to {directory / MANIFEST}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="*", metavar="DIR", help=f"directories with a {MANIFEST}")
    parser.add_argument("--levels", default="-O0,-O2", help="optimization levels, comma-separated")
    parser.add_argument("--machine", action="append", default=[], metavar="LEVEL=FILE",
                        help="machine database of a level (default: this host calibrated as accuracy.py does)")
    parser.add_argument("--cpu", type=int, help="CPU to pin to (default: the calibration's)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per kernel (the median is kept)")
    parser.add_argument("--only", default="", help="kernel names, comma-separated")
    parser.add_argument("--no-profile", action="store_true", help="leave values only a run tells unbound")
    parser.add_argument("--quick", action="store_true", help="a quick calibration when one is needed")
    parser.add_argument("--json", metavar="FILE", help="write every figure to FILE")
    parser.add_argument("--measured", metavar="FILE", action="append", default=[],
                        help="reuse the measured times of an earlier --json (only predict: model changes compared "
                        "on the same measurements); repeated, each kernel's fastest")
    parser.add_argument("--export-own-suite", metavar="DIR", help="write the own kernel suite as a manifest directory")
    parser.add_argument("--cases", default="", help="with --export-own-suite: cache sizes (L1,L2,L3,memory)")
    from sad.cli.args import _attach_dash_values
    # `--levels -O0,-O2` and `--machine -O2=FILE` as the usage line spells them: values that begin with a dash
    args = parser.parse_args(_attach_dash_values(sys.argv[1:] if argv is None else argv, ("--levels", "--machine")))
    if args.export_own_suite:
        return export_own_suite(Path(args.export_own_suite), {c for c in args.cases.split(",") if c},
                                {n for n in args.only.split(",") if n})
    if not args.dirs:
        parser.error("give at least one DIR (or --export-own-suite DIR)")
    if shutil.which("gcc") is None:
        print("heldout: error: no gcc on PATH", file=sys.stderr)
        return 2
    return run_dirs(args)


if __name__ == "__main__":
    sys.exit(main())
