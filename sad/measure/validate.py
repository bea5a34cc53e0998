"""`sad validate`: measured against predicted execution time of one program over a range of problem sizes.

Data flow, per size V of the size parameter NAME:
    source → compiler (user's flags) → COMMAND with {NAME}=V run several times, CPU time of each (median)
    source → sad.analysis.pipeline.analyze → sad.predict.mapper.predict with NAME=V, -D values, --params values and, for the
             unresolved parameters still open, values derived from a gcov profile of the same run
             (sad.measure.gcov builds with --coverage and runs COMMAND, sad.measure.profile solves the line-count equations)
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

FORTRAN_SUFFIXES = {".f", ".for", ".f77", ".F", ".fpp"}


class ValidateError(Exception):
    """Validation cannot go on: the program does not compile, the command fails, bad arguments."""


@dataclass
class SizeResult:
    size: float
    runs: list[float]                       # CPU seconds (user + system) of each timed run
    predicted: float | None
    unbound: list[str] = field(default_factory=list)
    profiled: dict[str, float] = field(default_factory=dict)   # values derived from gcov at this size

    @property
    def measured(self) -> float:
        return statistics.median(self.runs)

    @property
    def error(self) -> float | None:
        """(predicted - measured) / measured."""
        if self.predicted is None or self.measured <= 0:
            return None
        return (self.predicted - self.measured) / self.measured


# ---------------------------------------------------------------------------------------------- running


def compile_program(source: Path, flags: list[str], workdir: Path) -> Path:
    """Compile one source with gfortran (-std=legacy) or gcc (-std=gnu99) and the user's flags."""
    exe = workdir / source.stem
    if source.suffix in FORTRAN_SUFFIXES:
        cmd = ["gfortran", "-std=legacy", "-w", *flags, str(source), "-o", str(exe)]
    elif source.suffix == ".c":
        cmd = ["gcc", "-std=gnu99", "-w", *flags, str(source), "-o", str(exe), "-lm"]
    else:
        raise ValidateError(f"{source}: unknown source suffix (expected .f .for .F or .c)")
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise ValidateError(f"{cmd[0]} not found on PATH") from None
    if proc.returncode != 0:
        raise ValidateError(f"{source}: does not compile ({' '.join(cmd)}):\n{proc.stderr[-1500:]}")
    return exe


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
    cpu_time(command, cwd)                           # warm-up: page cache, dynamic loader
    return [cpu_time(command, cwd) for _ in range(max(1, runs))]


# ------------------------------------------------------------------------------------------- predicting


def analyze_file(source: Path, defines: dict[str, str], values: dict[str, sympy.Expr]):
    from sad.analysis.pipeline import analyze
    analysis = analyze([str(source)], [], defines, overrides=values)
    if analysis.failed_files:
        msgs = "\n".join(str(d) for d in analysis.diagnostics if d.severity == "error")
        raise ValidateError(f"{source}: cannot be analyzed\n{msgs}")
    return analysis


def profile_values(source: Path, analysis, values: dict[str, sympy.Expr], defines: dict[str, str],
                   command: str, cwd: Path) -> dict[str, float]:
    """Values of the unresolved parameters still open, from a gcov profile of COMMAND (sad.measure.gcov, sad.measure.profile)."""
    from sad.measure import gcov, profile
    open_names = [p.name for p in analysis.table.unresolved() if p.name not in values]
    if not open_names:
        return {}
    build = gcov.build([str(source)], [], {})   # sizes are run-time inputs: no macros, as compile_program
    try:
        run = gcov.run(build, command, cwd)
    except gcov.ToolError as exc:
        raise ValidateError(f"profiling failed: {exc}") from None
    finally:
        gcov.cleanup(build)
    model = profile.gcov_model(analysis)
    derivation = profile.derive(analysis, model, run.counts, profile.known_values(analysis, values), open_names)
    return dict(derivation.values)


def predict_seconds(analysis, machine, values: dict[str, sympy.Expr]) -> tuple[float | None, list[str]]:
    from sad.analysis.description import group_blocks
    from sad.predict.mapper import predict
    prediction = predict(group_blocks(analysis.counts), machine, values)
    return prediction.time_value, sorted(prediction.unbound)


# --------------------------------------------------------------------------------------------- the study


def validate(source: Path, machine, flags: list[str], name: str, sizes: list[str], template: str,
             values: dict[str, sympy.Expr], defines: dict[str, str], runs: int = 5,
             cwd: Path | None = None, profile: bool = True, progress=None) -> list[SizeResult]:
    """Measure and predict ``source`` at every size; see the module docstring."""
    from sad.common.exprparse import parse_expr
    cwd = cwd or Path.cwd()
    results = []
    with tempfile.TemporaryDirectory(prefix="sad-validate-") as tmp:
        exe = compile_program(source, flags, Path(tmp))
        for size in sizes:
            bound = {**values, name: parse_expr(size)}
            raw = {**defines, name: size}
            times = time_runs(fill(template, name, size, exe), cwd, runs)
            analysis = analyze_file(source, _preprocessor_defines(source, raw), bound)
            profiled = {}
            if profile:
                profiled = profile_values(source, analysis, bound, raw, fill(template, name, size), cwd)
            bound.update({k: sympy.Float(v) for k, v in profiled.items()})
            seconds, unbound = predict_seconds(analysis, machine, bound)
            results.append(SizeResult(float(sympy.sympify(bound[name])), times, seconds, unbound, profiled))
            if progress:
                progress(results[-1])
    return results


def _preprocessor_defines(source: Path, raw: dict[str, str]) -> dict[str, str]:
    return raw


def table(results: list[SizeResult], name: str) -> str:
    lines = [f"{name:>10s} {'measured':>12s} {'predicted':>12s} {'error':>8s}  runs"]
    for r in results:
        pred = f"{r.predicted:12.4g}" if r.predicted is not None else f"{'unbound':>12s}"
        err = f"{r.error * 100:+7.1f}%" if r.error is not None else f"{'-':>8s}"
        spread = f"{min(r.runs):.4g}..{max(r.runs):.4g} s ({len(r.runs)})"
        lines.append(f"{r.size:10.6g} {r.measured:11.4g}s {pred}{'s' if r.predicted is not None else ' '} {err}"
                     f"  {spread}")
    errors = [abs(r.error) for r in results if r.error is not None]
    if errors:
        lines.append(f"median |error| {statistics.median(errors) * 100:.1f} %, worst {max(errors) * 100:.1f} %")
    for r in results:
        if r.unbound:
            lines.append(f"{name}={r.size:g}: still unbound: {', '.join(r.unbound)}")
    return "\n".join(lines) + "\n"


def plot(results: list[SizeResult], name: str, path: Path, title: str) -> None:
    """Measured and predicted time against the size (PNG)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    xs = [r.size for r in results]
    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=120)
    ax.plot(xs, [r.measured for r in results], "o-", label="measured (median CPU time)")
    ax.fill_between(xs, [min(r.runs) for r in results], [max(r.runs) for r in results], alpha=0.2)
    pred = [(r.size, r.predicted) for r in results if r.predicted is not None]
    if pred:
        ax.plot([p[0] for p in pred], [p[1] for p in pred], "s--", label="predicted (sad)")
    ax.set_xlabel(name)
    ax.set_ylabel("execution time (s)")
    ax.set_title(title, fontsize=9)
    ax.set_xlim(left=0)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def parse_sizes(text: str) -> tuple[str, list[str]]:
    """'NPART=500,864' → ('NPART', ['500', '864'])."""
    name, sep, rest = text.partition("=")
    values = [v.strip() for v in rest.split(",") if v.strip()]
    if not sep or not re.fullmatch(r"[A-Za-z_]\w*", name.strip()) or not values:
        raise ValidateError(f"--sizes {text}: expected NAME=V1,V2,...")
    return name.strip(), values


def main_validate(args) -> int:
    from sad.analysis.bindings import BindingError, parse_defines
    from sad.machine.model import MachineError, load_machine
    command = args.command
    try:
        if not command:
            raise ValidateError("no COMMAND given (after --), e.g. -- './md1 < input_{NPART}.in'")
        template = " ".join(command) if len(command) > 1 else command[0]
        name, sizes = parse_sizes(args.sizes)
        raw, values = parse_defines(args.defines)
        if args.params:
            from sad.measure.params_io import ParamsError, load
            try:
                values = {**load(args.params).values(), **values}
            except ParamsError as exc:
                raise ValidateError(str(exc)) from None
        machine = load_machine(args.machine)
        source = Path(args.file)
        print(f"sad validate: {source} on {machine.name} ({' '.join(machine.models.values())}), "
              f"compiled with {args.flags}", file=sys.stderr)
        results = validate(source, machine, __import__("shlex").split(args.flags), name, sizes, template, values,
                           raw, args.runs, profile=True,
                           progress=lambda r: print(f"  {name}={r.size:g}: measured {r.measured:.4g} s",
                                                    file=sys.stderr))
    except (ValidateError, BindingError, MachineError) as exc:
        print(f"sad validate: error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(table(results, name))
    out = Path(args.plot) if args.plot else Path(source.stem + "_validate.png")
    plot(results, name, out, f"{source.name} on {machine.name}: measured vs predicted ({args.flags})")
    print(f"plot: {out}")
    return 0
