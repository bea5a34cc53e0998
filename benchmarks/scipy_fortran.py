#!/usr/bin/env python3
"""sad check on Fortran 77 code that no one here wrote: the libraries scipy's source distribution ships.

Usage: python3 benchmarks/scipy_fortran.py [--version 1.11.4] [--dir DIR] [--timeout 30] [-j 2] [LIB ...]

Downloads scipy's source distribution from PyPI once (into --dir, default ~/.cache/sad-bench), and runs
`sad check` on each library directory (MINPACK, QUADPACK, FITPACK, ARPACK, cdflib, AMOS, ODEPACK, the ID
library, PROPACK, ODRPACK, L-BFGS-B, COBYLA, SLSQP, DOP853, statlib, MINPACK-2, specfun): a directory is
one run, with its callees expanded across its files. It prints, per library, the files and lines, the wall
seconds, the files stopped by --timeout, the internal errors, the error diagnostics (syntax errors and the
like, the stopped files included), the warnings and the slowest file. Figures, not tests: it exits 0
unless it cannot download or run.

The libraries are real and varied: deep call trees (cdflib's CDFBET → CUMBET → BRATIO → BUP → …), large
GOTO regions (LSODA), IEEE tricks (LAPACK's IEEECK in PROPACK), F90 features in fixed form (RECURSIVE),
arrays named like intrinsics. Only the Fortran files and their INCLUDE files are extracted.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tarfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIBRARIES = ["optimize/minpack", "integrate/quadpack", "interpolate/fitpack", "sparse/linalg/_eigen/arpack/ARPACK",
             "special/cdflib", "special/amos", "integrate/odepack", "linalg/src/id_dist/src",
             "sparse/linalg/_propack/PROPACK/double", "odr/odrpack", "optimize/lbfgsb_src", "optimize/cobyla",
             "optimize/slsqp", "integrate/dop", "stats/statlib", "optimize/minpack2", "special/specfun"]
INDEX = "https://pypi.org/simple/scipy/"
SOURCES = (".f", ".F", ".h", ".inc", ".fi")  # Fortran and what it INCLUDEs (ARPACK's debug.h, stat.h)


def sdist(version: str, cache: Path) -> Path:
    """scipy-VERSION.tar.gz from PyPI's simple index (downloaded once)."""
    target = cache / f"scipy-{version}.tar.gz"
    if not target.exists():
        cache.mkdir(parents=True, exist_ok=True)
        with urllib.request.urlopen(INDEX, timeout=60) as page:
            html = page.read().decode()
        m = re.search(rf'href="([^"]*/scipy-{re.escape(version)}\.tar\.gz)[^"]*"', html)
        if m is None:
            sys.exit(f"scipy_fortran.py: error: no source distribution of scipy {version} on {INDEX}")
        partial = target.with_suffix(".part")
        urllib.request.urlretrieve(m.group(1), partial)
        partial.rename(target)
    return target


def extract(archive: Path, version: str) -> Path:
    """The Fortran files of the archive under archive's directory (once)."""
    top = archive.parent / f"scipy-{version}"
    if not (top / "scipy" / "sparse/linalg/_eigen/arpack/ARPACK/SRC/debug.h").is_file():
        with tarfile.open(archive) as tar:
            members = [m for m in tar.getmembers() if m.isfile() and m.name.endswith(SOURCES)]
            if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later: no paths outside the target
                tar.extractall(archive.parent, members=members, filter="data")
            else:  # the names were checked: regular files ending in .f or .F
                tar.extractall(archive.parent, members=[m for m in members if not m.name.startswith(("/", ".."))])
    return top / "scipy"


def lines_of(directory: Path) -> tuple[int, int]:
    files = [p for p in directory.rglob("*") if p.suffix in (".f", ".F")]
    return len(files), sum(len(p.read_bytes().splitlines()) for p in files)


def check(directory: Path, timeout: float, jobs: int, out: Path) -> dict:
    """One `sad check` run on a library directory: its figures from the exit and the diagnostics."""
    argv = [sys.executable, "-m", "sad", "check", str(directory), "--no-cache", "--no-progress", "-j", str(jobs),
            "--timeout", str(timeout), "--format", "json", "-o", str(out), "--force"]
    t0 = time.perf_counter()
    proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    err = proc.stderr.splitlines()
    slowest = re.search(r"slowest file (\S+) \(([\d.]+) s\)", proc.stderr)
    return {"seconds": seconds, "rc": proc.returncode,
            "stopped": sum("analysis stopped after" in line for line in err),
            "internal": sum("internal error" in line for line in err),
            "errors": sum(": error:" in line for line in err),
            "warnings": sum(": warning:" in line for line in err),
            "slowest": f"{Path(slowest.group(1)).name} {float(slowest.group(2)):.1f} s" if slowest else "-"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("libraries", nargs="*", default=LIBRARIES, help="directories under scipy/ (default: all)")
    ap.add_argument("--version", default="1.11.4")
    ap.add_argument("--dir", type=Path, default=Path.home() / ".cache" / "sad-bench")
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    args = ap.parse_args()
    tree = extract(sdist(args.version, args.dir), args.version)
    print(f"scipy {args.version} Fortran sources; sad check -j {args.jobs} --timeout {args.timeout:g}")
    print(f"{'library':40} {'files':>5} {'lines':>6} {'s':>6} {'stopped':>7} {'internal':>8} {'errors':>6} "
          f"{'warnings':>8}  slowest")
    total_lines, total_s, total_stopped = 0, 0.0, 0
    for lib in args.libraries:
        directory = tree / lib
        files, lines = lines_of(directory)
        r = check(directory, args.timeout, args.jobs, args.dir / "last.json")
        total_lines, total_s, total_stopped = total_lines + lines, total_s + r["seconds"], total_stopped + r["stopped"]
        print(f"{lib:40} {files:5d} {lines:6d} {r['seconds']:6.1f} {r['stopped']:7d} {r['internal']:8d} "
              f"{r['errors']:6d} {r['warnings']:8d}  {r['slowest']}", flush=True)
    print(f"all: {total_lines} lines in {total_s:.0f} s ({total_lines / total_s:.0f} lines/s), "
          f"{total_stopped} files stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
