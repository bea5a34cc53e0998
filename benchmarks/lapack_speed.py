#!/usr/bin/env python3
"""sad check's speed on Reference LAPACK: lines per CPU second, the slowest file, the files past the limit.

Usage: python3 benchmarks/lapack_speed.py LAPACK_DIR [--set dgeev|tsqr|sample|precisions|whole ...] [--seed 29]
                                          [--size 150] [-j 1] [--timeout 60] [--keep DIR] [--warm]

LAPACK_DIR is an unpacked Reference LAPACK source tree (its SRC and BLAS/SRC directories; e.g. the netlib
release or a distribution's source package); nothing of it is kept here. The sets, each copied into a
scratch directory and checked with `sad check DIR -j J --no-cache --timeout T` in a child process (with
--warm, into a cache of its own instead, then once more from that cache: the warm wall and CPU seconds,
and whether the warm report is the cold one byte for byte):
- dgeev: DGEEV and every routine it reaches (SRC and BLAS/SRC files), the eigenvalue driver whose Schur
  routines (DHSEQR, DLAQR0-5) were stopped by the time limit before routine summaries;
- tsqr: DGETSLS and every routine it reaches (the tall-skinny QR and LQ family: DGEQR, DLATSQR, DTPQRT,
  DTPMQRT, ...), whose blocked loops pass sizes chosen by a test of the loop index (DTPQRT did not finish
  in 30 minutes before such terms were folded together);
- sample: SIZE files of SRC drawn with a fixed seed from its .f files, with every file they reach;
- precisions: ten routines in all four precisions (S, D, C, Z) with every file they reach, the shape of the
  whole library for -j N (each precision's routines share callees; all share LSAME, XERBLA and the BLAS);
- whole: all of SRC with BLAS/SRC (about 870 000 lines), the free-form files (.f90, .F90) with the fixed-form
  ones, as in the library a user builds.
"by name" counts the files past --timeout whose calls into other files were then priced by name (a warning
each), "stopped" those past it even so (an error). Figures, not tests: the CPU seconds are the child's
(user + system), so pin the run (`taskset -c 1`) and expect noise from other work on the machine. Exits 0
unless sad check cannot run.
"""
from __future__ import annotations

import argparse
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sad.codebase.sources import definers, dependencies, scan  # noqa: E402


def closure(chosen: list[Path], index: dict, scanned: dict) -> list[str]:
    """The chosen files and every file they reach through calls, in path order."""
    files = set()
    for path in chosen:
        files.add(str(path))
        files.update(dependencies(scanned[str(path)], scanned, index))
    return sorted(files)


_ROOTS = {"dgeev": "dgeev.f", "tsqr": "dgetsls.f"}  # the sets made of one routine and what it reaches
# the routines of the precisions set, each as SLATSQR, DLATSQR, CLATSQR, ZLATSQR
_PRECISIONS = ("latsqr", "gelsy", "geqrf", "steqr", "sysvx", "tbrfs", "lasr", "gelq2", "trsyl3", "lar1v")


def file_sets(lapack: Path, names: list[str], seed: int, size: int) -> dict[str, list[str]]:
    """The files of each set named."""
    src = sorted((lapack / "SRC").glob("*.f"))  # the sample draws from these: its seed's files stay the same
    # the free-form files too (DLARTG, DLASSQ, DNRM2 and their modules since 3.10): callees of half the library
    src_all, blas = _fortran(lapack / "SRC"), _fortran(lapack / "BLAS" / "SRC")
    if not src:
        sys.exit(f"lapack_speed.py: error: no Fortran files in {lapack / 'SRC'}")
    scanned = {str(p): scan(str(p)) for p in [*src_all, *blas]}
    index = definers(list(scanned.values()))
    sets: dict[str, list[str]] = {}
    for name in names:
        if name in _ROOTS:
            sets[name] = closure([lapack / "SRC" / _ROOTS[name]], index, scanned)
        elif name == "precisions":
            sets[name] = closure([lapack / "SRC" / f"{p}{base}.f" for base in _PRECISIONS for p in "sdcz"],
                                 index, scanned)
        elif name == "sample":
            sets[name] = closure(random.Random(seed).sample(src, min(size, len(src))), index, scanned)
        else:
            sets[name] = sorted(map(str, [*src_all, *blas]))
    return sets


def _fortran(directory: Path) -> list[Path]:
    """The Fortran files of a directory: fixed form (.f) and free form (.f90, .F90)."""
    return sorted(p for pattern in ("*.f", "*.f90", "*.F90") for p in directory.glob(pattern))


def timed_child(argv: list[str], cwd: Path) -> tuple[subprocess.CompletedProcess, float, float]:
    """Run a child process: its result, its CPU seconds (user + system) and the wall seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return proc, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def check(files: list[str], jobs: int, timeout: float, scratch: Path, warm: bool = False) -> dict:
    """One `sad check` of the files copied into `scratch`: lines, CPU and wall seconds, stopped files. With
    `warm`, the cold run fills a cache of its own (emptied first) and a second run reads it: its wall and
    CPU seconds, and whether its report is the cold one byte for byte."""
    if scratch.exists():
        shutil.rmtree(scratch)
    scratch.mkdir(parents=True)
    lines = 0
    for path in files:
        shutil.copy(path, scratch / Path(path).name)
        lines += len(Path(path).read_bytes().splitlines())
    report = scratch.parent / "last.json"
    report.unlink(missing_ok=True)
    cache = scratch.parent / f"{scratch.name}.cache"
    shutil.rmtree(cache, ignore_errors=True)
    caching = ["--cache-dir", str(cache)] if warm else ["--no-cache"]
    argv = [sys.executable, "-m", "sad", "check", str(scratch), *caching, "--no-progress", "-j", str(jobs),
            "--timeout", str(timeout), "--format", "json", "-o", str(report), "--force"]
    proc, cpu, wall = timed_child(argv, ROOT)
    again = _warm_run(argv, report) if warm and report.exists() else {}
    err = proc.stderr.splitlines()
    slowest = re.search(r"slowest file (\S+) \(([\d.]+) s\)", proc.stderr)
    stopped = sorted(Path(line.split(":")[0]).name for line in err if "analysis stopped after" in line)
    by_name = sorted({Path(line.split(":")[0]).name for line in err if "passed --timeout" in line})
    return {"files": len(files), "lines": lines, "cpu": cpu, "wall": wall, "rc": proc.returncode,
            "reported": report.exists(), "error": err[-1] if err else "",
            "stopped": stopped, "by_name": by_name, "internal": sum("internal error" in line for line in err),
            "slowest": f"{Path(slowest.group(1)).name} {float(slowest.group(2)):.1f} s" if slowest else "-",
            **again}


def _warm_run(argv: list[str], report: Path) -> dict:
    """The same check again on the cache the cold run filled (issue 29: the whole of LAPACK warm in 10 s):
    its seconds, and whether it reports what the cold run did, byte for byte."""
    warm_report = report.with_name("last-warm.json")
    out = argv[argv.index("-o") + 1]
    argv = [str(warm_report) if arg == out else arg for arg in argv]
    _, cpu, wall = timed_child(argv, ROOT)
    same = warm_report.exists() and warm_report.read_bytes() == report.read_bytes()
    return {"warm_wall": wall, "warm_cpu": cpu, "warm_same": same}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("lapack", type=Path, help="an unpacked Reference LAPACK source tree (SRC, BLAS/SRC)")
    ap.add_argument("--set", dest="sets", action="append", choices=[*_ROOTS, "sample", "precisions", "whole"],
                    help="file sets to check (repeatable; default: dgeev and sample)")
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--size", type=int, default=150, help="SRC files drawn for the sample set")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--keep", type=Path, help="scratch directory (default: a temporary one, removed)")
    ap.add_argument("--warm", action="store_true",
                    help="cold run into a cache of its own, then a warm run from it (wall and CPU s, same report)")
    args = ap.parse_args()
    sets = file_sets(args.lapack, args.sets or ["dgeev", "sample"], args.seed, args.size)
    caching = "a fresh cache, then again warm" if args.warm else "--no-cache"
    print(f"sad check -j {args.jobs} --timeout {args.timeout:g} with {caching} on {args.lapack}")
    warm_head = f" {'warm wall':>9} {'warm CPU':>8} {'same':>4}" if args.warm else ""
    print(f"{'set':8} {'files':>5} {'lines':>7} {'CPU s':>7} {'wall s':>7} {'lines/CPU s':>11} {'by name':>7} "
          f"{'stopped':>7} {'internal':>8}{warm_head}  slowest")
    work = args.keep or Path(tempfile.mkdtemp(prefix="sad-lapack-"))
    try:
        for name, files in sets.items():
            r = check(files, args.jobs, args.timeout, work / name, args.warm)
            if not r["reported"]:   # sad check stopped before its report: no figure to print
                print(f"{name:8} sad check failed (exit {r['rc']}): {r['error']}", flush=True)
                continue
            warm = f" {r['warm_wall']:9.1f} {r['warm_cpu']:8.1f} {'yes' if r['warm_same'] else 'NO':>4}" \
                if "warm_wall" in r else (f" {'-':>9} {'-':>8} {'-':>4}" if args.warm else "")
            print(f"{name:8} {r['files']:5d} {r['lines']:7d} {r['cpu']:7.1f} {r['wall']:7.1f} "
                  f"{r['lines'] / max(r['cpu'], 1e-9):11.0f} {len(r['by_name']):7d} {len(r['stopped']):7d} "
                  f"{r['internal']:8d}{warm}  {r['slowest']}", flush=True)
            if r["by_name"]:
                print(f"  past the limit, calls priced by name: {' '.join(r['by_name'])}")
            if r["stopped"]:
                print(f"  stopped: {' '.join(r['stopped'])}")
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
