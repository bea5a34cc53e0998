"""The profiling campaign behind `sad profile`: one coverage build, one run per size point, every unresolved
parameter derived from gcov's line counts, fitted over the sizes, written as params-file entries.

Data flow: an Analysis (sad.analysis.pipeline) and its gcov line model (sad.measure.profile.gcov_model) →
sad.measure.gcov (build with --coverage, run COMMAND at each point with {NAME} and the input template
filled in, read the counts) → sad.measure.profile.derive (solve the line equations at that point) →
sad.measure.fit (a model over the sizes when one size parameter varies) → entries for
sad.measure.params_io.render, with the campaign's provenance; sad.measure.extrap and sad.measure.plot take
the same point results. The command line (sad.cli.profile) only parses, reports progress and writes files.
"""
from __future__ import annotations

import datetime
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sympy

from sad import __version__
from sad.analysis.bindings import parse_define
from sad.analysis.description import Analysis
from sad.measure import gcov
from sad.measure.extrap import render as render_extrap
from sad.measure.fit import Fit, fit
from sad.measure.params_io import export_entries
from sad.measure.profile import Derivation, LineModel, check, derive, known_values

PROFILED_KINDS = ("loop_count", "branch_probability", "value")  # call costs are seconds, not counts

# One run point: NAME → (the value as written, its parsed value).
SizePoint = dict[str, tuple[str, sympy.Expr]]


@dataclass
class Campaign:
    """What to run: the program's sources (as built by sad.measure.gcov), its command and the points."""
    files: list[str]
    include_dirs: list[str]
    defines: dict[str, str]  # preprocessor macros as written
    command: str
    points: list[SizePoint]
    template_text: str | None = None  # the input template's text, rendered per point
    input_template: str | None = None  # its path, for the provenance
    timeout: float = 600.0


@dataclass
class PointResult:
    """One profiled size point: the run and the parameter values derived from it."""
    point: SizePoint
    run: gcov.Run
    derivation: Derivation
    mismatches: int  # lines whose count still disagrees with gcov's after binding the derived values


@dataclass
class Entries:
    """Params-file entries of the profiled parameters and the fitted models behind their values."""
    entries: list[dict[str, Any]] = field(default_factory=list)
    fits: dict[str, Fit] = field(default_factory=dict)


def size_points(texts: list[str]) -> list[SizePoint]:
    """--size A=1,B=2 → [{A: ('1', 1), B: ('2', 2)}]; no --size is one run without sizes. Raises BindingError."""
    points = []
    for text in texts:
        point = {}
        for part in text.split(","):
            name, raw, value = parse_define(part)
            point[name] = (raw, value)
        points.append(point)
    return points or [{}]


def substitute(template: str, point: SizePoint) -> str:
    """{NAME} replaced by the point's value as written."""
    for name, (raw, _) in point.items():
        template = template.replace("{" + name + "}", raw)
    return template


def run_point(build: gcov.Build, command: str, point: SizePoint, template_text: str | None,
              timeout: float) -> gcov.Run:
    """Run the instrumented program once at a point: {exe}, {NAME} and {input} filled in, the rendered
    template as input.txt (when the command names {input}) or as stdin."""
    cmd = substitute(command, point).replace("{exe}", f"./{build.executable.name}")
    stdin_text = None
    if template_text is not None:
        rendered = substitute(template_text, point)
        if "{input}" in cmd:
            (build.directory / "input.txt").write_text(rendered)
            cmd = cmd.replace("{input}", "input.txt")
        else:
            stdin_text = rendered
    return gcov.run(build, cmd, Path.cwd(), timeout=timeout, stdin_text=stdin_text)


def run_values(analysis: Analysis, run: gcov.Run) -> dict[str, sympy.Expr]:
    """What the run itself tells: a C main's argument count (`int main(int argc, char **argv)`) is the
    command's, so a test such as `if (argc > 42 && ...)` is decided rather than fitted to the counts."""
    main = analysis.program.procedure("main")
    if run.argc is None or main is None or main.language != "c" or not main.formals:
        return {}
    param = analysis.table.get(main.formals[0])
    if param is None or param.cls != "unresolved" or param.kind != "value" or param.procedure != "main":
        return {}
    return {param.name: sympy.Integer(run.argc)}


def derive_run(analysis: Analysis, model: dict[tuple[str, int], LineModel], run: gcov.Run,
               known: dict[str, sympy.Expr], unknowns: list[str], with_branches: bool = True) -> Derivation:
    """The unknowns a run's counts determine (sad.measure.profile.derive), C's argc among them taken from the
    run's command (run_values) rather than solved for."""
    told = {n: v for n, v in run_values(analysis, run).items() if n in unknowns}
    derivation = derive(analysis, model, run.counts, {**known, **told}, [n for n in unknowns if n not in told],
                        run.branches if with_branches else None)
    for name, value in told.items():  # written to the params file like a derived value
        derivation.values[name] = float(value)
        derivation.how[name] = "the program's argument count in the command that ran it"
    return derivation


def profile_point(analysis: Analysis, model: dict[tuple[str, int], LineModel], build: gcov.Build,
                  campaign: Campaign, point: SizePoint, defined: dict[str, sympy.Expr]) -> PointResult:
    """One run and the parameters its counts determine (bound: the -D values and the point's sizes)."""
    run = run_point(build, campaign.command, point, campaign.template_text, campaign.timeout)
    bound = dict(defined)
    bound.update({name: value for name, (_, value) in point.items()})
    if run.by_rank:  # an MPI run: derived from rank 0's counts, checked on every rank's
        bound.setdefault("NPROCS", sympy.Integer(len(run.by_rank)))
        bound["RANK"] = sympy.Integer(0)
    known = known_values(analysis, bound)
    unknowns = [p.name for p in analysis.table.unresolved() if p.name not in bound and p.kind in PROFILED_KINDS]
    derivation = derive_run(analysis, model, run, known, unknowns)
    values = dict(known)
    # a whole number bound as one: floor(log(768.0/3)/log(2)) is 7 in floating point, 8 in integers
    values.update({n: sympy.Integer(int(v)) if float(v).is_integer() else sympy.Float(v)
                   for n, v in derivation.values.items()})
    mismatches = 0
    for rank, counts in sorted((run.by_rank or {-1: run.counts}).items()):
        if rank >= 0:
            values["RANK"] = sympy.Integer(rank)
        arms = run.branches if rank <= 0 else None  # an MPI run's branch counts are not read
        mismatches += sum(1 for c in check(model, counts, values, branches=arms) if c.status == "MISMATCH")
    return PointResult(point, run, derivation, mismatches)


def varying_parameters(results: list[PointResult]) -> list[str]:
    """The size parameters that change between runs, by name (models are fitted in the first only)."""
    names = sorted({n for r in results for n in r.point})
    return [n for n in names if len({float(r.point[n][1]) for r in results if n in r.point}) > 1]


def constant_sizes(results: list[PointResult]) -> dict[str, int | float]:
    """The size parameters given at every run with one value, by name."""
    names = sorted({n for r in results for n in r.point})
    out = {}
    for name in names:
        values = {r.point[name][1] for r in results if name in r.point}
        if len(values) == 1 and all(name in r.point for r in results):
            out[name] = _plain(next(iter(values)))
    return out


def profiled_entries(analysis: Analysis, results: list[PointResult], varying: str | None,
                     defined: dict[str, sympy.Expr], top: float | None = None) -> Entries:
    """The entries of every profiled parameter not given on the command line or as a varying size; a size
    given the same value at every run (an input such as a cut-off radius) is written with that value, so
    that the file binds what the runs were made with. `top`: the largest size predictions will be made at
    (a fitted loop count is held non-negative from size 1 up to it; default 8x the largest measured)."""
    out = Entries()
    constant = constant_sizes(results)
    for entry in export_entries(analysis):
        name = entry["name"]
        if name in defined or entry["kind"] not in PROFILED_KINDS:
            continue
        if name in constant:
            entry["value"] = constant[name]
            entry["derived_from"] = "given with --size, the same at every run"
            out.entries.append(entry)
            continue
        if any(name in r.point for r in results):
            continue
        model = _fill_entry(entry, results, varying, top)
        if model is not None:
            out.fits[name] = model
        out.entries.append(entry)
    return out


def _fill_entry(entry: dict[str, Any], results: list[PointResult], varying: str | None,
                top: float | None = None) -> Fit | None:
    """Give the entry its value: the number of a single run, or the fitted model over the runs (returned);
    and the range of every --size parameter over the runs the value comes from (`sizes`), so that a use
    outside it is warned about (sad.measure.params_io.outside_sizes)."""
    name = entry["name"]
    seen = [(r, r.derivation.values.get(name)) for r in results]
    exercised = [(r, v) for r, v in seen if v is not None and name not in r.derivation.unexercised]
    ranges = size_ranges([r for r, _ in exercised] or [r for r, v in seen if v is not None])
    if ranges:
        entry["sizes"] = ranges
    entry["measured"] = [
        {**{n: _plain(v) for n, (_, v) in r.point.items()}, "value": _round(v),
         **({"note": r.derivation.how.get(name)} if name in r.derivation.unexercised or
            (r.derivation.how.get(name) or "").startswith("only known") else {})}
        for r, v in seen if v is not None]
    how = [r.derivation.how.get(name, "") for r in results]
    entry["derived_from"] = how[-1] if how else ""
    if not exercised:
        entry["value"] = _round(seen[-1][1]) if seen and seen[-1][1] is not None else None
        return None
    if varying is None or len(exercised) == 1:
        entry["value"] = _round(exercised[-1][1])
        return None
    sizes = [float(r.point[varying][1]) for r, _ in exercised]
    values = [v for _, v in exercised]
    count = entry.get("kind") == "loop_count"
    domain = (1.0, max(top or 0.0, 8 * max(sizes))) if count else None
    model = fit(varying, sizes, values, probability=entry.get("kind") == "branch_probability",
                lower=0.0 if count else None, domain=domain)
    entry["value"] = model.expression
    entry["fit"] = {"parameter": varying, "points": model.points,
                    "range": [_round(model.low), _round(model.high)],
                    **({"space": "logit"} if model.logit else {}),
                    "loo_error": None if model.cv_error != model.cv_error else _round(model.cv_error),
                    "fit_error": _round(model.fit_error), "rms_error": _round(model.rms_error),
                    **({"nonnegative_over": [_round(v) for v in model.bounded]} if model.bounded else {})}
    return model


def size_ranges(results: list[PointResult]) -> dict[str, list[int | float]]:
    """[least, largest] of every --size parameter over the runs (numbers only)."""
    out: dict[str, list[int | float]] = {}
    for name in sorted({n for r in results for n in r.point}):
        values = [r.point[name][1] for r in results if name in r.point]
        if values and all(sympy.sympify(v).is_number for v in values):
            plain = sorted((_plain(v) for v in values), key=float)
            out[name] = [plain[0], plain[-1]]
    return out


def _plain(v: sympy.Expr) -> int | float:
    v = sympy.sympify(v)
    return int(v) if v.is_Integer else float(v)


def _round(v: float) -> float:
    return float(f"{v:.10g}")


def provenance(campaign: Campaign, build: gcov.Build, results: list[PointResult]) -> dict[str, Any]:
    """Where the values come from: tool, date (SOURCE_DATE_EPOCH when set), sources, compilers, runs."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    when = (datetime.datetime.fromtimestamp(int(epoch), datetime.UTC) if epoch
            else datetime.datetime.now(datetime.UTC)).replace(microsecond=0)
    return {
        "tool": f"sad {__version__} profile",
        "date": when.isoformat(),
        "files": list(campaign.files),
        "defines": dict(sorted(campaign.defines.items())),
        "compilers": build.compilers,
        "flags": "-O0 --coverage",
        "gcov": results[0].run.gcov_version if results else "",
        "command": campaign.command,
        "input_template": campaign.input_template,
        "runs": [{"size": {n: r for n, (r, _) in res.point.items()}, "command": res.run.command,
                  "mismatched_lines": res.mismatches, "residual_lines": len(res.derivation.residuals)}
                 for res in results],
    }


def plot_series(name: str, results: list[PointResult], varying: str) -> tuple[list[float], list[float]]:
    """A parameter's derived values against the varying size, over the runs that exercised it."""
    pts = [(float(r.point[varying][1]), r.derivation.values[name]) for r in results
           if name in r.derivation.values and name not in r.derivation.unexercised]
    return [p[0] for p in pts], [p[1] for p in pts]


def extrap_input(analysis: Analysis, results: list[PointResult], varying: str | None) -> str | None:
    """Extra-P's text input: every block's measured count at each point; None without size parameters."""
    names = [varying] if varying else sorted({n for r in results for n in r.point})
    if not names:
        return None
    points = [{n: float(r.point[n][1]) for n in names} for r in results]
    return render_extrap(names, points, analysis.blocks, [r.run.counts for r in results])
