"""`sad validate`: measured against predicted execution time of one program over a range of problem sizes.

Data flow, per size V of the size parameter NAME, first for every size:
    source → sad.analysis.pipeline.analyze → sad.predict.job.predict_analysis with NAME=V, -D values and
             --params values (`sad profile` writes them; the API's ``profile=True`` derives the counts still open
             from a gcov profile of the command: sad.measure.gcov, sad.measure.profile); a size whose prediction
             stays unbound stops the study here, before anything is compiled or run, naming what to give
    then source → compiler (user's flags) → COMMAND with {NAME}=V run several times, CPU time of each (median)
    → a table (measured, predicted, error) and a PNG plot of both against V (the original study's figure of
      estimated and real execution time against the number of particles).
Nothing here prices operations: the machine database and the mapper do.
"""
from __future__ import annotations

import re
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import sympy

from sad.common.numbertext import number
from sad.ir.languages import FREE_FORM_SUFFIXES

FORTRAN_SUFFIXES = {".f", ".for", ".f77", ".F", ".fpp"} | FREE_FORM_SUFFIXES


class ValidateError(Exception):
    """Validation cannot go on: the program does not compile, the command fails, bad arguments."""


@dataclass
class SizeResult:
    """Predicted and measured times of a program at one size."""
    size: float
    runs: list[float]                       # CPU seconds (user + system) of each timed run (none yet: [])
    predicted: float | None
    unbound: list[str] = field(default_factory=list)
    profiled: dict[str, float] = field(default_factory=dict)   # values derived from gcov at this size
    excluded: list[str] = field(default_factory=list)  # unpriced calls the prediction leaves out (mapper)

    @property
    def measured(self) -> float:
        """The median of the measured run times at this size (NaN before any run)."""
        return statistics.median(self.runs) if self.runs else float("nan")

    @property
    def error(self) -> float | None:
        """(predicted - measured) / measured."""
        if self.predicted is None or not self.measured > 0:
            return None
        return (self.predicted - self.measured) / self.measured


# ---------------------------------------------------------------------------------------------- running


def compile_program(sources: Path | list[Path], flags: list[str], workdir: Path,
                    defines: dict[str, str] | None = None, include: list[str] | tuple[str, ...] = ()) -> Path:
    """Compile the sources with gfortran (-std=legacy) or gcc (-std=gnu99) and the user's flags, each to an
    object, and link them (with gfortran when any is Fortran); the program is named after the first. -D
    values become macros where the analysis makes them macros too (-D LARGE_DATASET); ``include`` are the
    user's -I directories, the ones the analysis read the sources with."""
    from sad.analysis.pipeline import preprocessor_defines
    sources = [sources] if isinstance(sources, Path) else list(sources)
    exe = workdir / sources[0].stem
    from sad.measure.gcov import compile_order  # Fortran 90 modules before the files that USE them
    sources = [Path(name) for name in compile_order([str(s) for s in sources], Path.cwd())]
    objects = []
    incs = [f"-I{Path(d).resolve()}" for d in include]
    for k, source in enumerate(sources):
        obj = workdir / f"{k}_{source.stem}.o"
        macros = [f"-D{n}={v}" for n, v in sorted(preprocessor_defines(str(source), defines or {}).items())]
        if source.suffix in FORTRAN_SUFFIXES:
            cmd = ["gfortran", "-std=legacy", "-w", *flags, *incs, *macros, f"-J{workdir}", "-c", str(source),
                   "-o", str(obj)]
        elif source.suffix == ".c":
            cmd = ["gcc", "-std=gnu99", "-w", *flags, *incs, *macros, "-c", str(source), "-o", str(obj)]
        else:
            raise ValidateError(f"{source}: unknown source suffix (expected .f .for .F or .c)")
        _tool(cmd, f"{source}: does not compile")
        objects.append(str(obj))
    fortran = any(s.suffix in FORTRAN_SUFFIXES for s in sources)
    _tool(["gfortran" if fortran else "gcc", *flags, *objects, "-o", str(exe), "-lm"], "linking failed")
    return exe


def _tool(cmd: list[str], what: str) -> None:
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise ValidateError(f"{cmd[0]} not found on PATH") from None
    if proc.returncode != 0:
        raise ValidateError(f"{what} ({' '.join(cmd)}):\n{proc.stderr[-1500:]}")


def fill(template: str, name: str, value: str, exe: Path | None = None) -> str:
    """COMMAND with {NAME} replaced; `./stem` (the program) or {exe} pointing at the compiled program."""
    text = template.replace("{" + name + "}", value)
    if exe is not None:
        text = text.replace("{exe}", shlex.quote(str(exe)))
        text = re.sub(rf"(?<![\w/.]){re.escape('./' + exe.name)}(?![\w.])", shlex.quote(str(exe)), text)
    return text


def cpu_time(command: str, cwd: Path) -> float:
    """CPU seconds (user + system) of the command and its children; raises ValidateError if it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(["/bin/sh", "-c", command], cwd=cwd, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise ValidateError(f"command failed (exit {proc.returncode}): {command}\n{proc.stderr[-800:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def time_runs(command: str, cwd: Path, runs: int) -> list[float]:
    """CPU seconds of `runs` runs of the command, after one warm-up run."""
    cpu_time(command, cwd)                           # warm-up: page cache, dynamic loader
    return [cpu_time(command, cwd) for _ in range(max(1, runs))]


# ------------------------------------------------------------------------------------------- predicting


def analyze_file(sources: Path | list[Path], defines: dict[str, str], values: dict[str, sympy.Expr],
                 include: list[str] | tuple[str, ...] = ()):
    """Analyze the source file(s) with the parameter values bound and the user's -I directories."""
    from sad.analysis.pipeline import analyze
    sources = [sources] if isinstance(sources, Path) else list(sources)
    analysis = analyze([str(s) for s in sources], list(include), defines, overrides=values)
    if analysis.failed_files:
        msgs = "\n".join(str(d) for d in analysis.diagnostics if d.severity == "error")
        raise ValidateError(f"{', '.join(map(str, sources))}: cannot be analyzed\n{msgs}")
    return analysis


def profile_values(sources: Path | list[Path], analysis, values: dict[str, sympy.Expr],
                   defines: dict[str, str],
                   command: str, cwd: Path, include: list[str] | tuple[str, ...] = ()) -> dict[str, float]:
    """Values of the unresolved parameters still open, from a gcov profile of COMMAND (sad.measure.gcov,
    sad.measure.profile)."""
    from sad.measure import gcov, profile
    from sad.measure.campaign import PROFILED_KINDS, derive_run
    # counts, probabilities and values only: a call's seconds are no line count (a profile would "solve" a call
    # cost no equation mentions as 0, and the prediction would leave the call out without a word)
    open_names = [p.name for p in analysis.table.unresolved() if p.name not in values and p.kind in PROFILED_KINDS]
    if not open_names:
        return {}
    sources = [sources] if isinstance(sources, Path) else list(sources)
    # sizes are run-time inputs: no macros, as compile_program; the user's -I as the analysis
    build = gcov.build([str(s) for s in sources], list(include), {})
    try:
        run = gcov.run(build, command, cwd)
    except gcov.ToolError as exc:
        raise ValidateError(f"profiling failed: {exc}") from None
    finally:
        gcov.cleanup(build)
    derivation = derive_run(analysis, profile.gcov_model(analysis), run, profile.known_values(analysis, values),
                            open_names, with_branches=False)
    return dict(derivation.values)


def predict_seconds(analysis, machine, values: dict[str, sympy.Expr]) -> tuple[float | None, list[str]]:
    """The predicted seconds of an analysis on a machine, and the names still unbound."""
    seconds, unbound, _ = predict_parts(analysis, machine, values)
    return seconds, unbound


def predict_parts(analysis, machine, values: dict[str, sympy.Expr]) -> tuple[float | None, list[str], list[str]]:
    """The predicted seconds of an analysis on a machine, the names still unbound and the unpriced calls the
    seconds leave out (sad.predict.mapper: Prediction.excluded)."""
    from sad.predict.job import predict_analysis
    prediction = predict_analysis(analysis, machine, values).prediction
    return prediction.time_value, sorted(prediction.unbound), list(prediction.excluded)


# --------------------------------------------------------------------------------------------- the study


def validate(source: Path | list[Path], machine, flags: list[str], name: str, sizes: list[str], template: str,
             values: dict[str, sympy.Expr], defines: dict[str, str], runs: int = 5,
             cwd: Path | None = None, profile: bool = False, progress=None,
             include: list[str] | tuple[str, ...] = ()) -> list[SizeResult]:
    """Predict ``source`` at every size, then (every size predicted) measure it; see the module docstring.
    Raises Unpredictable, before anything is compiled or timed, when a size's prediction cannot be bound by
    the values given (nor, with ``profile``, by a gcov profile of the command at that size)."""
    cwd = cwd or Path.cwd()
    predicted: list[SizeResult] = []
    for size in sizes:  # the first size that cannot be bound stops the study
        predicted.append(_predict_size(source, machine, name, size, template, values, defines, cwd, profile,
                                       include))
        if predicted[-1].predicted is None:
            break
    _require_bound(predicted, name, sizes, template, source)
    with tempfile.TemporaryDirectory(prefix="sad-validate-") as tmp:
        exe = compile_program(source, flags, Path(tmp), defines, include)
        for result, size in zip(predicted, sizes):
            result.runs = time_runs(fill(template, name, size, exe), cwd, runs)
            if progress:
                progress(result)
    return predicted


class Unpredictable(ValidateError):
    """A size's prediction keeps parameters no value binds: the study would time runs it cannot compare."""


def _predict_size(source: Path | list[Path], machine, name: str, size: str, template: str,
                  values: dict[str, sympy.Expr], defines: dict[str, str], cwd: Path, profile: bool,
                  include: list[str] | tuple[str, ...] = ()) -> SizeResult:
    """The prediction at one size (no timed run yet): the values given, then what a gcov profile of the
    command derives for the counts and probabilities still open (when they are all that is open)."""
    from sad.analysis.spelling import respelled
    from sad.common.exprparse import parse_expr
    from sad.measure.campaign import PROFILED_KINDS
    size_value = parse_expr(size)
    bound = {**values, name: size_value}
    raw = {**defines, name: size}
    analysis = analyze_file(source, _preprocessor_defines(source, raw), bound, include)
    bound = respelled(bound, analysis.program, analysis.table)  # --sizes n=... for a Fortran N
    seconds, unbound, excluded = predict_parts(analysis, machine, bound)
    kinds = {p.name: p.kind for p in analysis.table}
    profiled: dict[str, float] = {}
    if unbound and profile and all(kinds.get(u) in PROFILED_KINDS for u in unbound):
        profiled = profile_values(source, analysis, bound, raw, fill(template, name, size), cwd, include)
        bound.update({k: sympy.Float(v) for k, v in profiled.items()})
        seconds, unbound, excluded = predict_parts(analysis, machine, bound)
    return SizeResult(float(sympy.sympify(size_value)), [], seconds, unbound, profiled, excluded)


def _require_bound(predicted: list[SizeResult], name: str, sizes: list[str], template: str,
                   source: Path | list[Path]) -> None:
    """Unpredictable naming the parameters that keep a size's prediction open and how to give them."""
    open_at = [r for r in predicted if r.predicted is None]
    if not open_at:
        return
    names = sorted({u for r in open_at for u in r.unbound})
    where = ", ".join(f"{r.size:g}" for r in open_at)
    files = " ".join(map(str, source if isinstance(source, list) else [source]))
    points = " ".join(f"--size {name}={size}" for size in sizes)
    raise Unpredictable(
        f"the prediction cannot be bound at {name}={where}: no value for {', '.join(names)}; nothing was run. "
        f"Give them with -D NAME=VALUE or --params FILE (`sad profile {files} {points} -o params.yaml -- "
        f"'{template}'` derives counts, probabilities and values from runs of the program and writes that file)")


def _preprocessor_defines(source: Path | list[Path], raw: dict[str, str]) -> dict[str, str]:
    return raw


def table(results: list[SizeResult], name: str) -> str:
    """The measured-versus-predicted table, one row per size."""
    from sad.predict.mapper import excluded_text
    lines = [f"{name:>10s} {'measured':>12s} {'predicted':>12s} {'error':>8s}  runs"]
    for r in results:
        pred = f"{r.predicted:12.4g}" if r.predicted is not None else f"{'unbound':>12s}"
        err = f"{r.error * 100:+7.1f}%" if r.error is not None else f"{'-':>8s}"
        spread = f"{min(r.runs):.4g}..{max(r.runs):.4g} s ({len(r.runs)})"
        lines.append(f"{number(r.size):>10s} {r.measured:11.4g}s {pred}{'s' if r.predicted is not None else ' '} {err}"
                     f"  {spread}")
    errors = [abs(r.error) for r in results if r.error is not None]
    if errors:
        lines.append(f"median |error| {statistics.median(errors) * 100:.1f} %, worst {max(errors) * 100:.1f} %")
    for r in results:
        if r.unbound:
            lines.append(f"{name}={number(r.size)}: still unbound: {', '.join(r.unbound)}")
    excluded = sorted({c for r in results for c in r.excluded})
    if excluded:
        lines.append(f"predicted {excluded_text(excluded)}")
    return "\n".join(lines) + "\n"


def prediction_curve(sources: list[Path], machine, name: str, values: dict[str, sympy.Expr],
                     defines: dict[str, str], lo: float, hi: float, points: int = 120,
                     include: list[str] | tuple[str, ...] = ()) -> list[tuple[float, float]]:
    """The predicted time as a function of the size over [lo, hi], when nothing had to be profiled: the
    SAD's formula with every other parameter bound, evaluated on a grid (logarithmic when the sizes span a
    decade). Empty when the formula keeps other unbound parameters."""
    import numpy as np

    from sad.predict.job import predict_analysis
    from sad.predict.mapper import bind
    free = {k: v for k, v in values.items() if k != name}
    analysis = analyze_file(sources, defines, free, include)
    total = bind(predict_analysis(analysis, machine, free).prediction.time, free)
    symbols = {s.name: s for s in total.free_symbols}
    if set(symbols) - {name}:
        return []
    grid = np.geomspace(lo, hi, points) if hi >= 10 * lo > 0 else np.linspace(lo, hi, points)
    if name not in symbols:
        return [(float(x), float(total)) for x in grid]
    f = sympy.lambdify(symbols[name], total, modules=["math", "mpmath"])
    return [(float(x), float(f(float(x)))) for x in grid]


def plot(results: list[SizeResult], name: str, path: Path, title: str,
         curve: list[tuple[float, float]] | None = None) -> None:
    """Measured and predicted time against the size, and the relative error below (PNG, SVG or PDF by the
    suffix of `path`). Measured: median CPU time with min–max error bars; predicted: a curve over the whole
    range when the formula is known, else the predicted sizes joined; log axes when the sizes span a decade."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    xs = [r.size for r in results]
    fig, (ax, err_ax) = plt.subplots(2, 1, figsize=(7.0, 6.0), dpi=150, sharex=True,
                                     gridspec_kw={"height_ratios": [3, 1.3]})
    med = [r.measured for r in results]
    lo = [r.measured - min(r.runs) for r in results]
    hi = [max(r.runs) - r.measured for r in results]
    runs = max(len(r.runs) for r in results)
    ax.errorbar(xs, med, yerr=[lo, hi], fmt="o", color="black", capsize=3, zorder=3,
                label=f"measured: median CPU time, bars min–max of {runs} runs")
    pred = [(r.size, r.predicted) for r in results if r.predicted is not None]
    if curve:
        ax.plot([c[0] for c in curve], [c[1] for c in curve], "-", color="tab:blue", label="predicted (sad)")
        ax.plot([p[0] for p in pred], [p[1] for p in pred], "s", color="tab:blue", mfc="none")
    elif pred:
        ax.plot([p[0] for p in pred], [p[1] for p in pred], "s-", color="tab:blue", mfc="none",
                label="predicted (sad) at the measured sizes")
    log = len(xs) > 1 and min(xs) > 0 and max(xs) >= 10 * min(xs)
    if log:
        ax.set_xscale("log")
        ax.set_yscale("log")
    else:
        ax.set_ylim(bottom=0)
    ax.set_ylabel("execution time (s)")
    ax.set_title(title, fontsize=9)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    errors = [(r.size, 100.0 * r.error) for r in results if r.error is not None]
    err_ax.axhline(0.0, color="grey", lw=0.8)
    if errors:
        err_ax.plot([e[0] for e in errors], [e[1] for e in errors], "D-", color="tab:red")
    err_ax.set_ylabel("error (%)\n(pred − meas) / meas", fontsize=8)
    err_ax.set_xlabel(f"${_tex_name(name)}$")
    err_ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    from sad.measure.plot import SVG_TEXT
    with plt.rc_context(SVG_TEXT):
        fig.savefig(path, metadata=_fixed_metadata(path))
    plt.close(fig)


def _tex_name(name: str) -> str:
    return r"\mathrm{" + name.replace("_", r"\_") + "}"


def _fixed_metadata(path: Path) -> dict:
    """No creation dates or tool versions in the file: the same data give the same bytes."""
    suffix = path.suffix.lower()
    if suffix == ".svg":
        return {"Date": None, "Creator": None}
    if suffix == ".pdf":
        return {"CreationDate": None, "Producer": None, "Creator": None}
    return {"Software": None}


PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def main_validate(args) -> int:
    """`sad validate`: compile, run and time at each size, predict, print the table and plot."""
    from sad.analysis.bindings import BindingError, parse_defines, parse_value
    from sad.machine.model import MachineError, load_machine
    try:
        template = args.command
        name, sizes = parse_sizes(args.sizes)
        raw, values = parse_defines(args.defines)
        sources = [Path(f) for f in args.files]
        out = Path(args.plot) if args.plot else Path(sources[0].stem + "_validate.png")
        if out.suffix.lower() not in PLOT_SUFFIXES:
            raise ValidateError(f"--plot {out}: unknown format (use .png, .svg or .pdf)")
        if out.exists() and not args.force:
            raise ValidateError(f"{out}: exists; not overwritten (use --force to replace it)")
        for source in sources:
            if not source.is_file():
                raise ValidateError(f"{source}: No such file")
        if args.params:
            from sad.measure.params_io import ParamsError, load, outside_sizes
            try:
                params = load(args.params)
            except ParamsError as exc:
                raise ValidateError(str(exc)) from None
            values = {**params.values(), **values}
            # a value profiled at other sizes than the ones validated is an extrapolation: said, as sweep does
            span = [float(parse_value(v)) for v in sizes]
            for problem in outside_sizes(params, values, {name: (min(span), max(span))}):
                print(str(problem), file=sys.stderr)
        machine = load_machine(args.machine)
        label = ", ".join(map(str, sources))
        print(f"sad validate: {label} on {machine.name}{f' ({machine.models_text})' if machine.models_text else ''}, "
              f"compiled with {args.flags}", file=sys.stderr)
        results = validate(sources, machine, shlex.split(args.flags), name, sizes, template, values,
                           raw, args.runs, profile=False, include=args.include,
                           progress=lambda r: print(f"  {name}={number(r.size)}: measured {r.measured:.4g} s",
                                                    file=sys.stderr))
        excluded = sorted({c for r in results for c in r.excluded})
        if excluded:
            from sad.predict.mapper import excluded_text
            print(f"sad validate: warning: predicted {excluded_text(excluded)} (give their seconds with -D NAME=VALUE)",
                  file=sys.stderr)
        curve = []
        if all(not r.profiled for r in results) and len(results) > 1:
            curve = prediction_curve(sources, machine, name, values, raw, min(r.size for r in results),
                                     max(r.size for r in results), include=args.include)
    except (ValidateError, BindingError, MachineError) as exc:
        print(f"sad validate: error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(table(results, name))
    plot(results, name, out, f"{sources[0].name} on {machine.name}: measured vs predicted ({args.flags})",
         curve)
    print(f"plot: {out}")
    return 0


def parse_sizes(text: str) -> tuple[str, list[str]]:
    """'NPART=500,864' → ('NPART', ['500', '864']); every value must be a number (checked here, before
    anything is compiled)."""
    from sad.analysis.bindings import BindingError, parse_value
    name, sep, rest = text.partition("=")
    values = [v.strip() for v in rest.split(",")]
    if not sep or not re.fullmatch(r"[A-Za-z_]\w*", name.strip()) or not rest.strip() or "" in values:
        raise ValidateError(f"--sizes {text}: expected NAME=V1,V2,...")
    for value in values:
        try:
            number = parse_value(value)
        except BindingError as exc:
            raise ValidateError(f"--sizes {text}: {exc}") from None
        if not number.is_number:
            raise ValidateError(f"--sizes {text}: '{value}' is not a number")
    return name.strip(), values
