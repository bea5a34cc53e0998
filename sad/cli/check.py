"""`sad check PATH...`: a whole codebase routine by routine, against a baseline, in a CI-readable format.

Data flow: arguments → reference points (sad.codebase.points) → units and their cache keys, then results
(sad.codebase.runner) → comparison with --baseline (sad.codebase.baseline) → report (sad.codebase.report) on
stdout or -o FILE; diagnostics of the sources on stderr as `file:line: severity: message`. Exit status: 0;
1 when a regression is reported as an error (a grown complexity class; a time grown over --fail-over; none
with --warn-only) or a source file had errors; 2 when the command cannot run (bad option, a name in --at that
binds no parameter of any routine, unreadable baseline or config, broken machine file, an output file that
exists without --force).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def register(sub, add_common) -> None:
    """Register `sad check` with the command-line parser."""
    check = sub.add_parser(
        "check", help="every routine of a codebase: predicted time per call, baselines, regressions",
        description="Analyze every procedure of the given files and directories as an entry point (its formal "
        "arguments are parameters), compare with a baseline, and report in a format CI systems read.")
    check.add_argument("paths", nargs="+", metavar="PATH", help="source files or directories (searched "
                       "recursively for .f .for .f77 .F .fpp .c)")
    check.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                       help="skip files whose path or name matches GLOB (repeatable)")
    check.add_argument("--machine", "-m", default="sparc2", metavar="NAME|PATH",
                       help="machine database (default: the bundled sparc2)")
    check.add_argument("-I", dest="include", action="append", default=[], metavar="DIR",
                       help="add DIR to the INCLUDE / #include search path")
    check.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE",
                       help="a preprocessor macro for .F and C files")
    check.add_argument("--at", action="append", default=[], metavar="[LABEL:]NAME=V,...",
                       help="a reference point (repeatable); NAME is a parameter (DGEMM.M) or a formal's name "
                       "in every routine (M)")
    check.add_argument("--config", metavar="FILE", help="reference points and defaults (YAML; default: "
                       "the nearest .sad-check.yaml from a checked path up to the repository's root)")
    check.add_argument("--save-baseline", metavar="FILE", help="write the routines' times as a baseline")
    check.add_argument("--baseline", metavar="FILE", help="compare with this baseline")
    check.add_argument("--fail-over", metavar="PCT", type=_percent,
                       help="a routine's time at a reference point that grew by more than PCT (e.g. 5%%) is an "
                       "error (exit 1), less is a warning; a grown complexity class is an error with or without it")
    check.add_argument("--warn-only", action="store_true",
                       help="report every regression as a warning, so that regressions alone never fail the "
                       "check (errors in the sources still do)")
    check.add_argument("--format", choices=("text", "json", "sarif", "markdown"), default="text")
    check.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE instead of stdout")
    check.add_argument("--force", action="store_true", help="replace an existing -o or --save-baseline file")
    check.add_argument("-j", "--jobs", type=int, default=None, metavar="N",
                       help="worker processes (default: the cores available)")
    check.add_argument("--cache-dir", metavar="DIR", help="result cache (default: $XDG_CACHE_HOME/sad)")
    check.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    check.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS",
                       help="CPU-time limit per file; past it the file is analyzed again alone, its calls into "
                            "other files priced by name (a warning), and past it again it becomes an error "
                            "(default 60; 0: none)")
    check.add_argument("--scheduler", metavar="ADDRESS",
                       help="run on a dask.distributed cluster (tcp://host:8786); workers share the file system")
    check.add_argument("--no-progress", action="store_true", help="no progress bar (none is shown off a terminal)")
    check.set_defaults(func=cmd_check)


def _percent(text: str) -> float:
    value = text.strip().rstrip("%")
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a percentage such as 5%") from None
    if number < 0:
        raise argparse.ArgumentTypeError("a negative threshold makes no sense")
    return number / 100.0


def cmd_check(args) -> int:
    """`sad check`: every routine of a codebase predicted, compared with a baseline, reported."""
    from sad.codebase.baseline import BaselineError, compare, load, save
    from sad.codebase.points import PointError, find_config, point_set
    from sad.codebase.report import build, render
    from sad.codebase.results import Options
    from sad.codebase.runner import cpu_count, machine_name, plan, run
    from sad.common.english import plural
    from sad.machine.files import resolve_path

    for target in (args.output, args.save_baseline):
        if target and os.path.exists(target) and not args.force:
            print(f"sad: error: {target} exists; use --force to replace it", file=sys.stderr)
            return 2
    config = args.config or find_config(args.paths)
    try:
        points = point_set(args.at, config, args.paths)
        baseline = load(args.baseline) if args.baseline else None
    except (PointError, BaselineError) as exc:
        print(str(exc) if ": error:" in str(exc) else f"sad: error: {exc}", file=sys.stderr)
        return 2
    defines = _defines(args.defines)
    if defines is None:
        return 2
    options = Options(str(resolve_path(args.machine).resolve()), points, tuple(args.include), defines)
    name = machine_name(args.machine, options, args.cache_dir, use_cache=not args.no_cache)
    if name is None:
        return 2
    units, missing = plan(args.paths, args.exclude, options)
    for path in missing:
        print(f"{path}: error: no such file or directory", file=sys.stderr)
    if not units:
        print("sad: error: no Fortran or C source file found", file=sys.stderr)
        return 2
    jobs = args.jobs if args.jobs is not None else cpu_count()
    outcome = run(units, options, jobs=jobs, cache_dir=args.cache_dir, use_cache=not args.no_cache,
                  scheduler=args.scheduler, timeout=args.timeout or None, progress=not args.no_progress)
    for result in outcome.results:
        for d in result.diagnostics:
            print(_diagnostic_line(d), file=sys.stderr)
    if _unknown_names(points, outcome.results, from_at=bool(args.at), config=config):
        return 2
    comparison = compare(baseline, args.baseline, outcome.results, args.fail_over, args.warn_only) \
        if baseline else None
    report = build(outcome.results, name, points.to_jsonable(), comparison, args.fail_over)
    text = render(report, args.format)
    if args.output:
        Path(args.output).write_text(text)
    else:
        sys.stdout.write(text)
    if args.save_baseline:
        save(args.save_baseline, outcome.results, name, points.to_jsonable())
    slowest = max(outcome.results, key=lambda r: (r.seconds, r.path))
    workers = "dask workers" if args.scheduler else plural(jobs, "worker")
    print(f"sad check: {plural(len(units), 'file')}, {plural(outcome.lines, 'line')} in {outcome.seconds:.1f} s "
          f"({outcome.hits} cached, {outcome.misses} analyzed, {workers})"
          + (f"; slowest file {slowest.path} ({slowest.seconds:.2f} s)" if outcome.misses else "")
          + (f"; reference points from {config}" if config and not args.at else ""),
          file=sys.stderr)
    # a regression printed as `error:` fails the check (a grown class always, a time over --fail-over);
    # --warn-only prints every regression as a warning instead
    failing = comparison is not None and comparison.failing
    errors = report["summary"]["errors"] > 0 or missing
    return 1 if failing or errors else 0


def _unknown_names(points, results, *, from_at: bool, config: str | None) -> bool:
    """Name the names the reference points give that bind no parameter of any routine checked (a typo such
    as `--at NNN=5` would silently leave every routine at the defaults), with close matches: an error for
    --at (True returned), a warning for a config file (one file may serve several trees) or when a file
    could not be analyzed (the name may be one of its routines')."""
    import difflib
    symbols = {name for result in results for routine in result.routines for name in routine.parameters}
    failed = any(d["severity"] == "error" for result in results for d in result.diagnostics)
    severity = "error" if from_at and not failed else "warning"
    shorts = sorted({s.rsplit(".", 1)[-1] for s in symbols})
    known = {s.upper() for s in symbols} | {s.upper() for s in shorts}
    unknown = []
    for point in points.points:
        for name, _ in point.values:
            if name.upper() in known or name in unknown:
                continue
            unknown.append(name)
            close = difflib.get_close_matches(name, shorts, n=3, cutoff=0.5) or \
                difflib.get_close_matches(name.upper(), [s.upper() for s in shorts], n=3, cutoff=0.5)
            hint = f" (did you mean {' or '.join(close)}?)" if close else \
                f" (they have {', '.join(shorts[:8])}{', ...' if len(shorts) > 8 else ''})" if shorts else ""
            where = "--at" if from_at else f"{config}: points.{point.name}"
            print(f"sad: {severity}: {where}: {name} binds no parameter of any routine's time{hint}",
                  file=sys.stderr)
    return bool(unknown) and severity == "error"
def _diagnostic_line(d: dict) -> str:
    """`file:line[:col]: severity: message` as `sad analyze` prints it."""
    from sad.codebase.wording import place
    return f"{place(d)}: {d['severity']}: {d['message']}"


def _defines(items: list[str]) -> tuple[tuple[str, str], ...] | None:
    out = []
    for item in items:
        name, sep, value = item.partition("=")
        if not name.strip():
            print(f"sad: error: -D {item}: expected NAME or NAME=VALUE", file=sys.stderr)
            return None
        out.append((name.strip(), value.strip() if sep else "1"))
    return tuple(sorted(out))
