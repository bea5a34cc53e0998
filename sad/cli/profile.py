"""The commands around unresolved parameters: `sad params`, `sad profile`, `sad check-counts`.

Data flow: arguments → sad.analysis.pipeline (the SAD and its parameter table) →
- params:       sad.measure.params_io export → YAML / CSV / JSON;
- profile:      sad.measure.campaign (build with --coverage, run COMMAND at each --size point, derive and fit
                every parameter) → a params file with provenance, optional PNGs (sad.measure.plot) and
                Extra-P input (sad.measure.extrap); this module parses, reports progress and writes files;
- check-counts: sad.measure.gcov → sad.measure.profile.check: our count of every line against gcov's, in
                gcov's convention.

`profile` and `check-counts` take the program's command after `--` (split by sad.cli.args, like every
command that runs the user's program).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sad.cli.args import add_generic_data, exit_status, takes_command


# ------------------------------------------------------------------------------------------ registration
def register(sub, add_common) -> None:
    """Register `sad params`, `sad profile` and `sad check-counts` with the command-line parser."""
    params = sub.add_parser("params", help="list the unresolved parameters as a params file to fill in",
                            description="Every unresolved parameter with its kind, place, code, fingerprint, "
                            "dependencies, a suggested default and an empty value.")
    add_common(params)
    params.add_argument("--format", choices=("yaml", "csv", "json"), default="yaml")
    params.add_argument("-o", "--output", metavar="FILE", help="write to FILE (never over an existing one "
                        "unless --force)")
    params.add_argument("--force", action="store_true", help="replace an existing -o FILE")
    params.set_defaults(func=cmd_params)

    for name, helptext, fill, func in (
            ("profile", "build with coverage, run, and derive every unresolved parameter from gcov's counts",
             _profile_options, cmd_profile),
            ("check-counts", "compare the SAD's count of every line with gcov's on a real run",
             _check_options, cmd_check_counts)):
        p = sub.add_parser(name, help=helptext)
        fill(p)
        takes_command(p)
        p.set_defaults(func=func)


def _base_options(p: argparse.ArgumentParser, description: str) -> None:
    p.description = description
    p.add_argument("files", nargs="+", metavar="FILE", help="Fortran 77 (.f .for .F) or C (.c) source")
    p.add_argument("-I", dest="include", action="append", default=[], metavar="DIR")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE",
                   help="bind a parameter (also a macro for .F and C files)")
    p.add_argument("--timeout", type=float, default=600.0, metavar="SECONDS", help="per run (default 600)")
    p.add_argument("--keep", action="store_true", help="keep the build directory (its path is printed)")
    add_generic_data(p)


def _profile_options(p: argparse.ArgumentParser) -> None:
    _base_options(p, "Compile FILE... with --coverage -O0, run COMMAND (after --) once per "
                     "--size point, read gcov's line counts and derive every unresolved parameter; with "
                     "several points, fit each against the size (Extra-P style). COMMAND runs in the build "
                     "directory: ./STEM is the instrumented program, paths of your working directory are "
                     "made absolute, {NAME} is replaced by the size, {input} by the rendered input template.")
    p.add_argument("--size", action="append", default=[], metavar="NAME=VALUE[,NAME=VALUE]",
                   help="one run point (repeat for several); bound for the derivation, substituted for "
                   "{NAME} in COMMAND and in the input template")
    p.add_argument("--input-template", metavar="FILE",
                   help="a file with {NAME} placeholders, rendered per run and given as {input} or stdin")
    p.add_argument("-o", "--output", metavar="FILE", help="params file to write (default: stdout)")
    p.add_argument("--format", choices=("yaml", "json", "csv"), default="yaml")
    p.add_argument("--force", action="store_true", help="replace an existing output, plot or Extra-P file")
    p.add_argument("--plot", metavar="DIR", help="one plot per profiled parameter against the size")
    p.add_argument("--plot-format", choices=("png", "svg", "pdf"), default="png", help="format of the plots")
    p.add_argument("--plot-to", type=float, metavar="SIZE",
                   help="continue each fitted curve to this size (the predictions you will make; default 8× "
                   "the largest measured size); fitted loop counts are held non-negative from 1 up to it")
    p.add_argument("--extrap", metavar="FILE", help="measured per-block counts in Extra-P's text format")


def _check_options(p: argparse.ArgumentParser) -> None:
    _base_options(p, "Compile FILE... with --coverage -O0, run COMMAND (after --), and "
                     "print for every statement line the SAD's count (in gcov's convention) next to gcov's. "
                     "Exit status 1 if any line disagrees.")
    p.add_argument("--params", metavar="FILE", help="bind the values of a params file (-D wins)")
    p.add_argument("--mismatches-only", "-q", action="store_true", help="print only lines that disagree")
    p.add_argument("--rtol", type=float, default=None, metavar="R",
                   help="relative tolerance: counts within R of gcov's are 'close', not a mismatch (default 0, "
                   "or 0.05 with --params, whose fitted values are not exact)")
    p.add_argument("--require-bound", action="store_true",
                   help="exit status 1 also when lines stay unbound (values missing)")


def _err(message: str) -> None:
    print(f"sad: error: {message}", file=sys.stderr)


def _analysis(args, extra_values: dict | None = None):
    """Defines, analysis, diagnostics; None on bad -D (already reported)."""
    from sad.analysis.bindings import BindingError, parse_defines
    from sad.analysis.pipeline import analyze
    from sad.cli.common import print_diagnostics
    try:
        raw, values = parse_defines(args.defines)
    except BindingError as exc:
        _err(str(exc))
        return None
    overrides = dict(extra_values or {})
    overrides.update(values)
    analysis = analyze(args.files, args.include, raw, overrides=overrides,
                       generic_data=getattr(args, "generic_data", True))
    from sad.cli import verbosity
    print_diagnostics([d for d in analysis.diagnostics if d.severity != "note" or verbosity.level(args) > 0])
    return raw, values, analysis


def _incomplete(analysis, what: str) -> bool:
    """Whether the analysis itself failed on a procedure (a defect of sad, reported above as an internal
    error): then `what` is not done, as `sad analyze` prints no time (exit status 3, README)."""
    if not analysis.internal_errors:
        return False
    _err(f"{what}: {', '.join(analysis.internal_errors)} could not be analyzed (errors above)")
    return True


# ------------------------------------------------------------------------------------------ sad params
def cmd_params(args) -> int:
    """`sad params`: the unresolved parameters as a params file to fill in."""
    from sad.measure.params_io import ParamsError, export_entries, render, write_new
    if args.output and Path(args.output).exists() and not args.force:
        _err(f"{args.output}: exists; not overwritten (use --force to replace it)")
        return 2
    got = _analysis(args)
    if got is None:
        return 2
    raw, values, analysis = got
    if not analysis.program.procedures:
        _err("no file could be analyzed")
        return exit_status(args.files, args.files)
    if _incomplete(analysis, "no params file"):
        return 3
    entries = [e for e in export_entries(analysis) if e["name"] not in values]
    header = {"source": {"files": list(args.files), "defines": dict(sorted(raw.items()))}}
    text = render(entries, args.format, header)
    if not args.output:
        sys.stdout.write(text)
    else:
        try:
            write_new(args.output, text, args.force)
        except (ParamsError, OSError) as exc:
            _err(str(exc))
            return 2
        print(f"sad: {len(entries)} unresolved parameters written to {args.output}", file=sys.stderr)
    return exit_status(args.files, analysis.failed_files)


# ------------------------------------------------------------------------------------------ sad profile
def cmd_profile(args) -> int:
    """`sad profile`: bind the unresolved parameters from gcov runs at one or more sizes."""
    from sad.analysis.bindings import BindingError
    from sad.measure import campaign as cp
    from sad.measure import gcov
    from sad.measure.profile import gcov_model
    for path in (args.output, args.extrap):
        if path and Path(path).exists() and not args.force:
            _err(f"{path}: exists; not overwritten (use --force to replace it)")
            return 2
    try:
        points = cp.size_points(args.size)
        template_text = Path(args.input_template).read_text() if args.input_template else None
    except BindingError as exc:
        _err(f"--size: {exc}".replace("-D ", ""))
        return 2
    except OSError as exc:
        _err(f"--input-template: {exc}")
        return 2
    got = _analysis(args)
    if got is None:
        return 2
    raw, defined, analysis = got
    if _incomplete(analysis, "not profiled"):
        return 3
    if analysis.failed_files:
        _err("the sources have errors; fix them before profiling")
        return 1
    campaign = cp.Campaign(list(args.files), list(args.include), raw, args.command, points, template_text,
                           args.input_template, args.timeout)
    model = gcov_model(analysis)
    try:
        build = gcov.build(args.files, args.include, raw)
    except gcov.ToolError as exc:
        _err(str(exc))
        return 2
    try:
        results = []
        for k, point in enumerate(points):
            results.append(cp.profile_point(analysis, model, build, campaign, point, defined))
            _report_point(results[-1], k, len(points))
    except gcov.ToolError as exc:
        _err(str(exc))
        return 2
    finally:
        if args.keep:
            print(f"sad: build directory kept: {build.directory}", file=sys.stderr)
        else:
            gcov.cleanup(build)
    return _profile_outputs(args, analysis, campaign, build, results, defined)


def _report_point(result, k: int, total: int) -> None:
    from sad.common.numbertext import number
    derivation = result.derivation
    label = ", ".join(f"{n}={raw}" for n, (raw, _) in result.point.items()) or "run"
    print(f"sad: {label} ({k + 1}/{total}): {len(derivation.values) - len(derivation.unexercised)} derived, "
          f"{len(derivation.unexercised)} not exercised, {len(derivation.undetermined)} undetermined; "
          f"{result.mismatches} line(s) disagree after binding", file=sys.stderr)
    for key, got, want in derivation.residuals:
        print(f"{key[0]}:{key[1]}: warning: cross-check: model gives {number(got)}, gcov {want}", file=sys.stderr)


def _profile_outputs(args, analysis, campaign, build, results, defined) -> int:
    from sad.measure import campaign as cp
    from sad.measure.params_io import ParamsError, render, write_new
    changing = cp.varying_parameters(results)
    if len(changing) > 1:
        print(f"sad: warning: several size parameters vary ({', '.join(changing)}); models are fitted in "
              f"{changing[0]} only", file=sys.stderr)
    varying = changing[0] if changing else None
    profiled = cp.profiled_entries(analysis, results, varying, defined, args.plot_to)
    _report_fits(profiled.fits)
    header = {"provenance": cp.provenance(campaign, build, results)}
    text = render(profiled.entries, args.format, header)
    try:
        if args.output:
            write_new(args.output, text, args.force)
            print(f"sad: {len(profiled.entries)} parameters written to {args.output}", file=sys.stderr)
        else:
            sys.stdout.write(text)
        if args.extrap:
            extrap = cp.extrap_input(analysis, results, varying)
            if extrap is None:
                raise OSError("--extrap needs at least one --size parameter")
            write_new(args.extrap, extrap, args.force)
            print(f"sad: Extra-P input written to {args.extrap}", file=sys.stderr)
        if args.plot and varying:
            _write_plots(args, profiled, results, varying)
    except (ParamsError, OSError) as exc:
        _err(str(exc))
        return 2
    undetermined = sorted({n for r in results for n in r.derivation.undetermined})
    if undetermined:
        print(f"sad: warning: not determined by the runs: {', '.join(undetermined)}", file=sys.stderr)
    costs = sorted(p.name for p in analysis.table.unresolved() if p.kind == "call_cost" and p.name not in defined)
    if costs:  # seconds, not line counts: a profile cannot give them, and the file does not hold them
        print(f"sad: warning: call costs not profiled (seconds per call, not counts): {', '.join(costs)}; "
              f"predictions leave them out unless given with -D NAME=SECONDS", file=sys.stderr)
    return 1 if any(r.mismatches for r in results) else 0


def _report_fits(fits) -> None:
    """Each fitted model with its error at the measured sizes (relative RMS) and left-one-out."""
    for name, model in sorted(fits.items()):
        loo = "" if model.cv_error != model.cv_error else f", leave-one-out {model.cv_error:.2%}"
        held = f"; held >= 0 over {model.parameter} {model.bounded[0]:g}..{model.bounded[1]:g}" \
            if model.bounded and model.bent else ""
        print(f"sad: fit {name} = {model.expression} over {model.parameter} {model.low:g}..{model.high:g} "
              f"({model.points} points): relative RMS error {model.rms_error:.2%}{loo}{held}", file=sys.stderr)


def _write_plots(args, profiled, results, varying: str) -> None:
    from sad.measure.campaign import plot_series
    from sad.measure.plot import plot_parameter
    directory = Path(args.plot)
    written = 0
    for entry in profiled.entries:
        xs, ys = plot_series(entry["name"], results, varying)
        if len(xs) < 2:
            continue
        target = directory / f"{entry['name']}.{args.plot_format}"
        if target.exists() and not args.force:
            raise OSError(f"{target}: exists; not overwritten (use --force to replace it)")
        plot_parameter(directory, entry["name"], varying, xs, ys, profiled.fits.get(entry["name"]),
                       args.plot_format, args.plot_to)
        written += 1
    print(f"sad: {written} plots written to {directory}", file=sys.stderr)


# ------------------------------------------------------------------------------------------ check-counts
def cmd_check_counts(args) -> int:
    """`sad check-counts`: the SAD's count of every line against gcov's on a real run."""
    from sad.analysis.bindings import BindingError, parse_defines
    from sad.cli.common import check_params, load_params
    from sad.measure import gcov
    from sad.measure.campaign import run_point, run_values
    from sad.measure.profile import check, gcov_model, known_values
    try:
        _, defined = parse_defines(args.defines)
    except BindingError as exc:
        _err(str(exc))
        return 2
    binding = load_params(getattr(args, "params", None), defined)
    if binding is None:
        return 2
    values = binding.values
    got = _analysis(args, {k: v for k, v in values.items() if k not in defined})
    if got is None:
        return 2
    raw, _, analysis = got
    if not check_params(binding, analysis, defined, raw):
        return 2
    model = gcov_model(analysis)
    try:
        build = gcov.build(args.files, args.include, raw)
        try:
            run = run_point(build, args.command, {}, None, args.timeout)
        finally:
            if args.keep:
                print(f"sad: build directory kept: {build.directory}", file=sys.stderr)
            else:
                gcov.cleanup(build)
    except gcov.ToolError as exc:
        _err(str(exc))
        return 2
    rtol = args.rtol if args.rtol is not None else (0.05 if args.params else 0.0)
    values = {**run_values(analysis, run), **values}
    if not run.by_rank:
        checks = check(model, run.counts, known_values(analysis, values), rtol, run.branches)
        status = _check_status(_print_checks(checks, args, rtol), args)
        return 3 if _incomplete(analysis, "counts incomplete") else status
    # An MPI program: every rank's counts against the SAD at that rank (RANK = r, NPROCS = ranks run).
    import sympy
    statuses = []
    for rank, counts in sorted(run.by_rank.items()):
        at_rank = dict(values)
        at_rank.update({"RANK": sympy.Integer(rank), "NPROCS": sympy.Integer(len(run.by_rank))})
        print(f"rank {rank} of {len(run.by_rank)} (RANK={rank}, NPROCS={len(run.by_rank)}):")
        tally = _print_checks(check(model, counts, known_values(analysis, at_rank), rtol), args, rtol)
        statuses.append(_check_status(tally, args))
        print()
    return 3 if _incomplete(analysis, "counts incomplete") else max(statuses)


def _print_checks(checks, args, rtol: float) -> dict[str, int]:
    """The table of one run (one rank's, for an MPI program) and its summary; the tally by status."""
    from sad.common.numbertext import number
    from sad.measure.profile import source_text
    tally: dict[str, int] = {}
    arms: dict[str, int] = {}
    print(f"{'line':<32} {'sad':>14} {'gcov':>12}  status      code")
    for c in checks:
        tally[c.status] = tally.get(c.status, 0) + 1
        if c.arm:  # gcov's branch count of an arm on its test's line: a row apart, summed apart
            tally[c.status] -= 1
            arms[c.status] = arms.get(c.status, 0) + 1
        if args.mismatches_only and c.status != "MISMATCH":
            continue
        ours = "-" if c.ours is None and not c.unbound else (
            "(" + ",".join(c.unbound[:2]) + ("…" if len(c.unbound) > 2 else "") + ")" if c.ours is None
            else number(c.ours))
        measured = "-" if c.measured is None else str(c.measured)
        place = c.key[0] + ":" + str(c.key[1]) + (" arm" if c.arm else "")
        print(f"{place:<32} {ours:>14} {measured:>12}  {c.status:<10}  "
              f"{source_text(*c.key).strip()[:48]}")
    order = ["ok", "close", "MISMATCH", "unbound", "no-code", "not-measured", "gcov-only"]
    summary = ", ".join(f"{tally[s]} {s}" for s in order if tally.get(s))
    lines = len(checks) - sum(arms.values())
    arm_summary = ", ".join(f"{arms[s]} {s}" for s in order if arms.get(s))
    print(f"\nsummary: {lines} lines: {summary}" + (f"; {sum(arms.values())} arms on their test's line "
                                                    f"(gcov's branch counts): {arm_summary}" if arms else ""))
    for status, n in arms.items():
        tally[status] = tally.get(status, 0) + n
    if tally.get("unbound"):
        print("(unbound lines need values: -D NAME=VALUE, --params FILE, or `sad profile`)")
    if tally.get("close"):
        print(f"(close: within the relative tolerance {rtol:g} of gcov's count)")
    return tally


def _check_status(tally: dict[str, int], args) -> int:
    if tally.get("MISMATCH"):
        return 1
    if tally.get("unbound") and args.require_bound:
        print(f"sad: error: {tally['unbound']} line(s) unbound (--require-bound)", file=sys.stderr)
        return 1
    return 0
