"""The commands around unresolved parameters: `sad params`, `sad profile`, `sad check-counts`.

Data flow: arguments → sad.analysis.pipeline (the SAD and its parameter table) →
- params:       sad.measure.params_io export → YAML / CSV / JSON;
- profile:      sad.measure.gcov (build with --coverage, run COMMAND at each --size point, read gcov) → sad.measure.profile
                (solve the line equations for the parameters) → sad.measure.fit (models over the sizes) →
                a params file with provenance, optional PNGs (sad.measure.plot) and Extra-P input (sad.measure.extrap);
- check-counts: sad.measure.gcov → sad.measure.profile.check: our count of every line against gcov's, in gcov's convention.

`profile` and `check-counts` take the program's command after `--` (split by sad.cli.args, like every
command that runs the user's program).
"""
from __future__ import annotations

import argparse
import datetime
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import sympy

from sad import __version__
from sad.cli.args import exit_status, takes_command

PROFILED_KINDS = ("loop_count", "branch_probability", "value")  # call costs are seconds, not counts


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
    p.add_argument("--plot", metavar="DIR", help="one PNG per profiled parameter against the size")
    p.add_argument("--extrap", metavar="FILE", help="measured per-block counts in Extra-P's text format")


def _check_options(p: argparse.ArgumentParser) -> None:
    _base_options(p, "Compile FILE... with --coverage -O0, run COMMAND (after --), and "
                     "print for every statement line the SAD's count (in gcov's convention) next to gcov's. "
                     "Exit status 1 if any line disagrees.")
    p.add_argument("--params", metavar="FILE", help="bind the values of a params file (-D wins)")
    p.add_argument("--mismatches-only", "-q", action="store_true", help="print only lines that disagree")


def _err(message: str) -> None:
    print(f"sad: error: {message}", file=sys.stderr)


def _analysis(args, extra_values: dict | None = None):
    """Defines, analysis, diagnostics; None on bad -D (already reported)."""
    from sad.analysis.bindings import BindingError, parse_defines
    from sad.analysis.pipeline import analyze
    from sad.cli.main import _print_diagnostics
    try:
        raw, values = parse_defines(args.defines)
    except BindingError as exc:
        _err(str(exc))
        return None
    overrides = dict(extra_values or {})
    overrides.update(values)
    analysis = analyze(args.files, args.include, raw, overrides=overrides)
    _print_diagnostics([d for d in analysis.diagnostics if d.severity != "note"])
    return raw, values, analysis


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


# ------------------------------------------------------------------------------------------ running
def _sizes(texts: list[str]) -> list[dict[str, tuple[str, sympy.Expr]]]:
    """--size A=1,B=2 → [{A: ('1', 1), B: ('2', 2)}]; raises BindingError."""
    from sad.analysis.bindings import parse_define
    points = []
    for text in texts:
        point = {}
        for part in text.split(","):
            name, raw, value = parse_define(part)
            point[name] = (raw, value)
        points.append(point)
    return points or [{}]


def _substitute(template: str, point: dict[str, tuple[str, sympy.Expr]]) -> str:
    for name, (raw, _) in point.items():
        template = template.replace("{" + name + "}", raw)
    return template


def _run_point(build, command: str, point, template_text: str | None, timeout: float):
    from sad.measure import gcov
    cmd = _substitute(command, point).replace("{exe}", f"./{build.executable.name}")
    stdin_text = None
    if template_text is not None:
        rendered = _substitute(template_text, point)
        if "{input}" in cmd:
            (build.directory / "input.txt").write_text(rendered)
            cmd = cmd.replace("{input}", "input.txt")
        else:
            stdin_text = rendered
    return gcov.run(build, cmd, Path.cwd(), timeout=timeout, stdin_text=stdin_text)


@dataclass
class PointResult:
    point: dict
    run: object
    derivation: object
    mismatches: int


# ------------------------------------------------------------------------------------------ sad profile
def cmd_profile(args) -> int:
    """`sad profile`: bind the unresolved parameters from gcov runs at one or more sizes."""
    from sad.analysis.bindings import BindingError
    from sad.measure import gcov
    from sad.measure.profile import gcov_model
    for path in (args.output, args.extrap):
        if path and Path(path).exists() and not args.force:
            _err(f"{path}: exists; not overwritten (use --force to replace it)")
            return 2
    try:
        points = _sizes(args.size)
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
    if analysis.failed_files:
        _err("the sources have errors; fix them before profiling")
        return 1
    model = gcov_model(analysis)
    try:
        build = gcov.build(args.files, args.include, raw)
    except gcov.ToolError as exc:
        _err(str(exc))
        return 2
    try:
        results = [_profile_point(analysis, model, build, args, point, defined, template_text, k, len(points))
                   for k, point in enumerate(points)]
    except gcov.ToolError as exc:
        _err(str(exc))
        return 2
    finally:
        if args.keep:
            print(f"sad: build directory kept: {build.directory}", file=sys.stderr)
        else:
            gcov.cleanup(build)
    return _profile_outputs(args, analysis, build, results, defined, raw)


def _profile_point(analysis, model, build, args, point, defined, template_text, k, total) -> PointResult:
    from sad.measure.profile import check, derive, known_values
    run = _run_point(build, args.command, point, template_text, args.timeout)
    bound = dict(defined)
    bound.update({name: value for name, (_, value) in point.items()})
    known = known_values(analysis, bound)
    unknowns = [p.name for p in analysis.table.unresolved() if p.name not in bound and p.kind in PROFILED_KINDS]
    derivation = derive(analysis, model, run.counts, known, unknowns)
    values = dict(known)
    values.update({n: sympy.Float(v) for n, v in derivation.values.items()})
    mismatches = sum(1 for c in check(model, run.counts, values) if c.status == "MISMATCH")
    label = ", ".join(f"{n}={raw}" for n, (raw, _) in point.items()) or "run"
    print(f"sad: {label} ({k + 1}/{total}): {len(derivation.values) - len(derivation.unexercised)} derived, "
          f"{len(derivation.unexercised)} not exercised, {len(derivation.undetermined)} undetermined; "
          f"{mismatches} line(s) disagree after binding", file=sys.stderr)
    for key, got, want in derivation.residuals:
        print(f"{key[0]}:{key[1]}: warning: cross-check: model gives {got:g}, gcov {want}", file=sys.stderr)
    return PointResult(point, run, derivation, mismatches)


def _profile_outputs(args, analysis, build, results: list[PointResult], defined, raw) -> int:
    from sad.measure.params_io import ParamsError, export_entries, render, write_new
    varying = _varying(results)
    entries = []
    fits = {}
    for entry in export_entries(analysis):
        name = entry["name"]
        if name in defined or any(name in r.point for r in results) or entry["kind"] not in PROFILED_KINDS:
            continue
        entry = _profiled_entry(entry, results, varying)
        if entry.get("_fit") is not None:
            fits[name] = entry.pop("_fit")
        entry.pop("_fit", None)
        entries.append(entry)
    header = {"provenance": _provenance(args, build, results, raw)}
    text = render(entries, args.format, header)
    try:
        if args.output:
            write_new(args.output, text, args.force)
            print(f"sad: {len(entries)} parameters written to {args.output}", file=sys.stderr)
        else:
            sys.stdout.write(text)
        if args.extrap:
            _write_extrap(args, analysis, results, varying)
        if args.plot and varying:
            _write_plots(args, entries, results, varying, fits)
    except (ParamsError, OSError) as exc:
        _err(str(exc))
        return 2
    undetermined = sorted({n for r in results for n in r.derivation.undetermined})
    if undetermined:
        print(f"sad: warning: not determined by the runs: {', '.join(undetermined)}", file=sys.stderr)
    return 1 if any(r.mismatches for r in results) else 0


def _varying(results: list[PointResult]) -> str | None:
    """The size parameter that changes between runs (models are fitted in one parameter)."""
    names = sorted({n for r in results for n in r.point})
    changing = [n for n in names if len({float(r.point[n][1]) for r in results if n in r.point}) > 1]
    if len(changing) > 1:
        print(f"sad: warning: several size parameters vary ({', '.join(changing)}); models are fitted in "
              f"{changing[0]} only", file=sys.stderr)
    return changing[0] if changing else None


def _profiled_entry(entry: dict, results: list[PointResult], varying: str | None) -> dict:
    """The entry with its value: the number of a single run, or the fitted model over the runs."""
    from sad.measure.fit import fit
    name = entry["name"]
    seen = [(r, r.derivation.values.get(name)) for r in results]
    exercised = [(r, v) for r, v in seen if v is not None and name not in r.derivation.unexercised]
    entry["measured"] = [
        {**{n: _plain(v) for n, (_, v) in r.point.items()}, "value": _round(v),
         **({"note": r.derivation.how.get(name)} if name in r.derivation.unexercised or
            (r.derivation.how.get(name) or "").startswith("only known") else {})}
        for r, v in seen if v is not None]
    how = [r.derivation.how.get(name, "") for r in results]
    entry["derived_from"] = how[-1] if how else ""
    entry["_fit"] = None
    if not exercised:
        entry["value"] = _round(seen[-1][1]) if seen and seen[-1][1] is not None else None
        return entry
    if varying is None or len(exercised) == 1:
        entry["value"] = _round(exercised[-1][1])
        return entry
    sizes = [float(r.point[varying][1]) for r, _ in exercised]
    values = [v for _, v in exercised]
    model = fit(varying, sizes, values)
    entry["value"] = model.expression
    entry["fit"] = {"parameter": varying, "points": model.points,
                    "loo_error": None if model.cv_error != model.cv_error else _round(model.cv_error),
                    "fit_error": _round(model.fit_error)}
    entry["_fit"] = model
    return entry


def _plain(v):
    v = sympy.sympify(v)
    return int(v) if v.is_Integer else float(v)


def _round(v: float) -> float:
    return float(f"{v:.10g}")


def _provenance(args, build, results: list[PointResult], raw) -> dict:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    when = (datetime.datetime.fromtimestamp(int(epoch), datetime.UTC) if epoch
            else datetime.datetime.now(datetime.UTC)).replace(microsecond=0)
    return {
        "tool": f"sad {__version__} profile",
        "date": when.isoformat(),
        "files": list(args.files),
        "defines": dict(sorted(raw.items())),
        "compilers": build.compilers,
        "flags": "-O0 --coverage",
        "gcov": results[0].run.gcov_version if results else "",
        "command": args.command,
        "input_template": args.input_template,
        "runs": [{"size": {n: r for n, (r, _) in res.point.items()}, "command": res.run.command,
                  "mismatched_lines": res.mismatches, "residual_lines": len(res.derivation.residuals)}
                 for res in results],
    }


def _write_plots(args, entries, results, varying, fits) -> None:
    from sad.measure.plot import plot_parameter
    directory = Path(args.plot)
    written = 0
    for entry in entries:
        pts = [(float(r.point[varying][1]), r.derivation.values[entry["name"]]) for r in results
               if entry["name"] in r.derivation.values and entry["name"] not in r.derivation.unexercised]
        if len(pts) < 2:
            continue
        target = directory / f"{entry['name']}.png"
        if target.exists() and not args.force:
            raise OSError(f"{target}: exists; not overwritten (use --force to replace it)")
        plot_parameter(directory, entry["name"], varying, [p[0] for p in pts], [p[1] for p in pts],
                       fits.get(entry["name"]))
        written += 1
    print(f"sad: {written} plots written to {directory}", file=sys.stderr)


def _write_extrap(args, analysis, results, varying) -> None:
    from sad.measure.extrap import render
    from sad.measure.params_io import write_new
    names = [varying] if varying else sorted({n for r in results for n in r.point})
    if not names:
        raise OSError("--extrap needs at least one --size parameter")
    points = [{n: float(r.point[n][1]) for n in names} for r in results]
    text = render(names, points, analysis.blocks, [r.run.counts for r in results])
    write_new(args.extrap, text, args.force)
    print(f"sad: Extra-P input written to {args.extrap}", file=sys.stderr)


# ------------------------------------------------------------------------------------------ check-counts
def cmd_check_counts(args) -> int:
    """`sad check-counts`: the SAD's count of every line against gcov's on a real run."""
    from sad.analysis.bindings import BindingError, parse_defines
    from sad.measure import gcov
    from sad.measure.params_io import cli_check, cli_load
    from sad.measure.profile import check, gcov_model, known_values, source_text
    try:
        _, defined = parse_defines(args.defines)
    except BindingError as exc:
        _err(str(exc))
        return 2
    values = cli_load(args, defined)
    if values is None:
        return 2
    got = _analysis(args, {k: v for k, v in values.items() if k not in defined})
    if got is None:
        return 2
    raw, _, analysis = got
    if not cli_check(args, analysis, values, defined):
        return 2
    model = gcov_model(analysis)
    try:
        build = gcov.build(args.files, args.include, raw)
        try:
            run = _run_point(build, args.command, {}, None, args.timeout)
        finally:
            if args.keep:
                print(f"sad: build directory kept: {build.directory}", file=sys.stderr)
            else:
                gcov.cleanup(build)
    except gcov.ToolError as exc:
        _err(str(exc))
        return 2
    checks = check(model, run.counts, known_values(analysis, values))
    tally: dict[str, int] = {}
    print(f"{'line':<32} {'sad':>14} {'gcov':>12}  status      code")
    for c in checks:
        tally[c.status] = tally.get(c.status, 0) + 1
        if args.mismatches_only and c.status != "MISMATCH":
            continue
        ours = "-" if c.ours is None and not c.unbound else (
            "(" + ",".join(c.unbound[:2]) + ("…" if len(c.unbound) > 2 else "") + ")" if c.ours is None
            else f"{c.ours:.6g}")
        measured = "-" if c.measured is None else str(c.measured)
        print(f"{c.key[0] + ':' + str(c.key[1]):<32} {ours:>14} {measured:>12}  {c.status:<10}  "
              f"{source_text(*c.key).strip()[:48]}")
    order = ["ok", "MISMATCH", "unbound", "no-code", "not-measured", "gcov-only"]
    summary = ", ".join(f"{tally[s]} {s}" for s in order if s in tally)
    print(f"\nsummary: {len(checks)} lines: {summary}")
    if tally.get("unbound"):
        print("(unbound lines need values: -D NAME=VALUE, --params FILE, or `sad profile`)")
    return 1 if tally.get("MISMATCH") else 0
