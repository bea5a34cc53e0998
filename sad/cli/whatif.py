"""What-if commands: `sad sweep` (a grid of parameter values), `sad compare` (variants side by side) and
`sad tune` (the tuning parameters that minimize the predicted time, optionally checked against real runs).

Data flow: arguments → one analysis per variant (sad.analysis.pipeline), swept names kept symbolic, fixed ones
bound → the mapper's formulas on each machine (sad.predict.mapper) → sad.predict.sweep / compare / tune →
tables (text, CSV, JSON), plots (sad.predict.sweep_plot) and, for `tune --validate`, timed runs
(sad.measure.tune_runs). Exit status: 0 success; 1 when a source file had errors; 2 when the command cannot run
(bad range, a name that is not a parameter, unbound parameters, no feasible point).
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sad import __version__
from sad.cli.args import takes_command

if TYPE_CHECKING:  # numpy and sympy are imported where a command uses them (not at `sad` start-up)
    import sympy

PLOT_SUFFIXES = (".png", ".svg", ".pdf")


class UsageError(Exception):
    """A user error: printed as `sad: error: ...`, exit 2."""


class _Define(argparse.Action):
    """-D NAME=VALUE, -D NAME=RANGE, or Kerncraft's two-word -D NAME RANGE. Further words are source files."""

    def __call__(self, parser, namespace, values, option_string=None):
        words = list(values)
        if "=" in words[0] or len(words) == 1:
            define, spill = words[0], words[1:]
        else:
            define, spill = f"{words[0]}={words[1]}", words[2:]
        setattr(namespace, self.dest, [*(getattr(namespace, self.dest) or []), define])  # never the default list
        namespace.spill = [*getattr(namespace, "spill", []), *spill]


# ------------------------------------------------------------------------------------------------ parsers

def _add_program(p: argparse.ArgumentParser, machines: bool = True) -> None:
    p.add_argument("files", nargs="*", metavar="FILE", help="Fortran 77 (.f .for .F) or C (.c) source")
    p.add_argument("-I", dest="include", action="append", default=[], metavar="DIR",
                   help="add DIR to the INCLUDE / #include search path")
    p.add_argument("-D", dest="defines", action=_Define, nargs="+", default=[], metavar="NAME=VALUE|RANGE",
                   help="bind a parameter to a value, or sweep it over a range: 100-10000:10log (Kerncraft), "
                   "64:512:x2, 0:100:25, a list 1,2,4,8; -D NAME RANGE also works")
    p.add_argument("--params", metavar="FILE", help="bind the values of a params file (-D wins)")
    if machines:
        p.add_argument("--machine", "-m", action="append", required=True, metavar="NAME|PATH",
                       help="machine database; repeat for one column (curve) per machine")


def _add_output(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=("text", "csv", "json"), default="text")
    p.add_argument("-o", "--output", metavar="FILE", help="write the table to FILE (not over an existing one "
                   "unless --force)")
    p.add_argument("--plot", metavar="FILE", help="plot to FILE.png, FILE.svg or FILE.pdf")
    p.add_argument("--force", action="store_true", help="replace an existing -o or --plot file")


def register(sub, add_common) -> None:
    """Register `sad sweep`, `sad compare` and `sad tune` with the command-line parser."""
    sw = sub.add_parser("sweep", help="predicted time over a grid of parameter values (one analysis)",
                        description="Analyze once, compile the time formula and evaluate it at every point of "
                        "the grid of the swept names: a table with TOTAL (and COMP, COMM for SPMD programs; "
                        "SP and EFF when NPROCS is swept) per machine.")
    _add_program(sw)
    _add_output(sw)
    sw.set_defaults(func=cmd_sweep)

    cmp = sub.add_parser("compare", help="variants of a computation side by side: winner and crossover points",
                         description="Each FILE (or each --variant 'A.f B.f' group) is one variant of the same "
                         "computation; the table has one column per variant (and machine), the winner at "
                         "each point, and the crossovers along the first swept name.")
    _add_program(cmp)
    cmp.add_argument("--variant", action="append", default=[], metavar="'FILE...'",
                     help="a variant made of several files (repeat); FILEs alone are one variant each")
    _add_output(cmp)
    cmp.set_defaults(func=cmd_compare)

    tune = sub.add_parser("tune", help="the values of tuning parameters that minimize the predicted time",
                          description="Minimize the predicted time over the integer grid of the --vary names, "
                          "with the --fix values bound and subject to --constraint conditions (exhaustive on "
                          "small grids, branch and bound with interval bounds on large ones; exact for the "
                          "grid either way). With --validate -- COMMAND, run the program at the choice and at "
                          "other points and report the loss of the choice against the best measured point.",
                          usage="sad tune FILE... --machine M --vary NAME=RANGE... [--fix NAME=V...] "
                          "[--constraint EXPR]... [--validate [--runs N]]")
    _add_program(tune)
    tune.add_argument("--vary", action="append", default=[], metavar="NAME=RANGE", required=True,
                      help="a tuning parameter and its integer range (repeat)")
    tune.add_argument("--fix", action="append", default=[], metavar="NAME=VALUE", help="same as -D NAME=VALUE")
    tune.add_argument("--constraint", action="append", default=[], metavar="EXPR",
                      help="a condition every point must satisfy, e.g. '1 <= G <= N/NPROCS' (repeat: all hold)")
    tune.add_argument("--top", type=int, default=5, help="how many ranked points to print (default 5)")
    tune.add_argument("--method", choices=("auto", "exhaustive", "bnb"), default="auto",
                      help="auto: exhaustive up to 10^6 points, else branch and bound")
    tune.add_argument("--format", choices=("text", "json"), default="text")
    tune.add_argument("--runs", type=int, default=3, help="--validate: timed runs per point, median (default 3)")
    tune.add_argument("--points", type=int, default=8,
                      help="--validate: how many grid points to run besides the choice (default 8; all of a "
                      "grid that small)")
    tune.add_argument("--flags", default="-O0", help="--validate: compiler flags, one string (default -O0)")
    tune.add_argument("--validate", action="store_true",
                      help="run COMMAND (given after --; {NAME} is replaced by each value, ./STEM is the compiled "
                      "program) at the choice and other points; report the loss of the choice")
    tune.set_defaults(func=cmd_tune)
    takes_command(tune, "'echo 512 {ts} | ./matmul_tiled'", required=False)


# ------------------------------------------------------------------------------------------------ models

@dataclass
class Setup:
    """What the -D options say: fixed values (raw text for preprocessors and parsed) and swept axes."""
    raw: dict[str, str]
    fixed: dict[str, sympy.Expr]
    axes: list


def _setup(defines: list[str], vary: list[str] | None = None) -> Setup:
    from sad.analysis.bindings import BindingError, parse_define
    from sad.predict.sweep import RangeError, is_range, parse_range
    raw: dict[str, str] = {}
    fixed: dict[str, sympy.Expr] = {}
    axes = []
    for text in defines:
        name, sep, value = text.partition("=")
        name = name.strip()
        try:
            if sep and is_range(value):
                axes.append(parse_range(name, value))
                continue
            name, value_text, parsed = parse_define(text)
        except (RangeError, BindingError) as exc:
            raise UsageError(str(exc)) from None
        raw[name], fixed[name] = value_text, parsed
    for text in vary or []:
        name, sep, value = text.partition("=")
        if not sep:
            raise UsageError(f"--vary {text}: expected NAME=RANGE")
        try:
            axes.append(parse_range(name.strip(), value))
        except RangeError as exc:
            raise UsageError(str(exc).replace("-D ", "--vary ", 1)) from None
    swept = [a.name for a in axes]
    twice = sorted({n for n in swept if swept.count(n) > 1} | (set(swept) & set(fixed)))
    if twice:
        raise UsageError(f"{', '.join(twice)} is given more than one value or range")
    return Setup(raw, fixed, axes)


def _values(args, setup: Setup) -> dict[str, sympy.Expr]:
    from sad.cli.common import load_params
    binding = load_params(getattr(args, "params", None), dict(setup.fixed))
    if binding is None:
        raise UsageError("the params file cannot be used")
    values = binding.values
    if binding.params is not None:  # profiled values used at sizes they were not measured at: say so
        from sad.measure.params_io import outside_sizes
        swept = {a.name: (float(min(a.values)), float(max(a.values))) for a in setup.axes}
        for problem in outside_sizes(binding.params, values, swept):
            print(str(problem), file=sys.stderr)
    for axis in setup.axes:
        values.pop(axis.name, None)
    return values


def _analyze(files: list[str], args, setup: Setup, values: dict[str, sympy.Expr]):
    """One analysis with the swept names kept symbolic (a PARAMETER constant included)."""
    import sympy

    from sad.analysis.pipeline import analyze
    from sad.analysis.spelling import respellings
    from sad.cli.common import print_diagnostics
    for path in files:
        if not Path(path).is_file():
            raise UsageError(f"{path}: No such file")
    overrides = dict(values)
    overrides.update({a.name: sympy.Symbol(a.name) for a in setup.axes})
    analysis = analyze(files, args.include, setup.raw, overrides=overrides)
    print_diagnostics(analysis.diagnostics)
    if not analysis.program.procedures:
        raise UsageError("no file could be analyzed")
    known = {p.name for p in analysis.table}
    renames = respellings([a.name for a in setup.axes], analysis.program, analysis.table)
    for axis in setup.axes:
        if renames.get(axis.name, axis.name) not in known:
            raise UsageError(f"-D {axis.name}={axis.text}: {axis.name} is not a parameter of "
                             f"{' '.join(files)}{_hint(axis.name, known)}")
    _check_integers(analysis, setup, values)
    return analysis


def _check_integers(analysis, setup: Setup, values: dict[str, sympy.Expr]) -> None:
    """A variable declared INTEGER swept or fixed at a fraction (`-D N=0.5,1.5`) is an error, as for analyze."""
    from sad.measure.params_io import check_defines
    for problem in check_defines(analysis, setup.raw, setup.fixed, values):
        if problem.severity == "error":
            raise UsageError(str(problem).removeprefix("sad: error: "))
    for axis in setup.axes:
        symbol = analysis.table.symbol(axis.name)
        fraction = next((v for v in axis.values if not float(v).is_integer()), None)
        if symbol is not None and symbol.is_integer and fraction is not None:
            raise UsageError(f"-D {axis.name}={axis.text}: {axis.name} is an integer variable in the source; "
                             f"{fraction:g} is not an integer")


def _hint(name: str, known: set[str]) -> str:
    import difflib
    for k in sorted(known):
        if k.lower() == name.lower():
            return f"; did you mean {k}?"
    close = difflib.get_close_matches(name, sorted(known), n=1)
    if close:
        return f"; did you mean {close[0]}?"
    return f" (parameters: {', '.join(sorted(known)[:12])}{', …' if len(known) > 12 else ''})"


def _formulas(analysis, machine, values: dict[str, sympy.Expr]) -> tuple[dict[str, sympy.Expr], list[str]]:
    """TOTAL, and COMP and COMM when the prediction splits computation and communication (SPMD programs),
    without the unpriced calls nothing binds (sad.predict.mapper: Prediction.excluded), and those calls."""
    import sympy

    from sad.predict.job import predict_analysis
    from sad.predict.mapper import bind
    prediction = predict_analysis(analysis, machine, values).prediction
    values = {**values, **{name: sympy.Integer(0) for name in prediction.excluded}}
    out = {"TOTAL": bind(prediction.time, values)}
    comp = getattr(prediction, "computation", None)
    comm = getattr(prediction, "communication", None)
    if comp is not None and comm is not None and sympy.sympify(comm) != 0:
        out["COMP"] = bind(sympy.sympify(comp), values)
        out["COMM"] = bind(sympy.sympify(comm), values)
    return out, list(prediction.excluded)


def _machines(names: list[str]):
    from sad.machine.model import MachineError, load_machine
    machines = []
    for name in names:
        try:
            machines.append(load_machine(name))
        except MachineError as exc:
            raise UsageError(str(exc).removeprefix("sad: ").removeprefix("error: ")) from None
    return machines


def _fixed_numbers(values: dict[str, sympy.Expr]) -> dict[str, float]:
    import sympy

    from sad.analysis.freesymbols import free_symbols
    from sad.predict.mapper import bind
    out = {}
    for name, value in values.items():
        bound = bind(sympy.sympify(value), values)
        if not free_symbols(bound):
            try:
                out[name] = float(bound)
            except (TypeError, ValueError):
                continue
    return out


def _series(groups: list[list[str]], args, setup: Setup):
    """One Series per variant × machine; the analyses of the variants."""
    import sympy

    from sad.analysis.freesymbols import free_symbols  # each shared part once: a formula is a graph
    from sad.analysis.spelling import respelled, respellings
    from sad.predict.compare import Series
    from sad.predict.mapper import excluded_text
    from sad.predict.simulated import libraries
    values = _values(args, setup)
    machines = _machines(args.machine)
    series, failed = [], False
    for files in groups:
        analysis = _analyze(files, args, setup, values)
        failed |= bool(analysis.failed_files)
        variant = " ".join(files)
        spelled = respelled(values, analysis.program, analysis.table)  # -D n=100 binds a Fortran N
        # a swept Fortran N given as n: the formulas are in N, the grid's column is n
        back = {new: old for old, new in respellings([a.name for a in setup.axes], analysis.program,
                                                     analysis.table).items()}
        for machine in machines:
            label = _label(variant, machine.name, len(groups), len(machines))
            formulas, excluded = _formulas(analysis, machine, spelled)
            if back:
                subs = {sym: sympy.Symbol(back[sym.name], **sym.assumptions0)
                        for f in formulas.values() for sym in free_symbols(f) if sym.name in back}
                formulas = {k: f.xreplace(subs) for k, f in formulas.items()}
            used_libraries = libraries(analysis.program)
            series.append(Series(label, variant, machine.name, formulas, excluded=excluded,
                                 model="per-rank formula" if used_libraries else "formula",
                                 program=analysis.program if used_libraries == {"MPI"} else None, target=machine))
            if excluded:
                print(f"sad: warning: {label}: {excluded_text(excluded)} (give their seconds with -D NAME=VALUE)",
                      file=sys.stderr)
    swept = {a.name for a in setup.axes}
    for s in series:
        spmd = {"RANK"} if "NPROCS" in swept | set(_fixed_numbers(values)) else set()  # the slowest rank is sought
        unbound = sorted({sym.name for f in s.formulas.values() for sym in free_symbols(f)} - swept - spmd)
        if unbound:
            raise UsageError(f"{s.variant}: unbound parameters {', '.join(unbound)}; bind them with -D NAME=VALUE "
                             f"or --params FILE, or sweep them")
        used = {sym.name for f in s.formulas.values() for sym in free_symbols(f)}
        flat = [a.name for a in setup.axes if a.name not in used]
        for name in flat:
            print(f"sad: warning: {s.variant}: the predicted time does not depend on {name}", file=sys.stderr)
    return series, _fixed_numbers(values), failed


def _label(variant: str, machine: str, variants: int, machines: int) -> str:
    stem = " ".join(Path(f).stem for f in variant.split())
    if variants > 1 and machines > 1:
        return f"{stem}@{machine}"
    return stem if variants > 1 else machine


# ------------------------------------------------------------------------------------------------ output

def _number(kind: str, value) -> str:
    import numpy
    if kind == "label":
        return str(value)
    value = float(value)
    if not numpy.isfinite(value):
        return "nan" if numpy.isnan(value) else "inf"
    if kind == "param":
        from sad.common.numbertext import number
        return number(value)
    if kind == "speedup":
        return f"{value:.3f}"
    if kind == "efficiency":
        return f"{value:.4f}"
    return f"{value:.6g}"


def _text_table(table) -> list[str]:
    names = list(table.columns)
    cells = [[_number(table.kinds[n], table.columns[n][i]) for n in names] for i in range(table.size)]
    widths = [max([len(n)] + [len(row[j]) for row in cells]) for j, n in enumerate(names)]
    lines = ["  ".join(n.rjust(w) for n, w in zip(names, widths)).rstrip()]
    lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    return lines


def _json_value(kind: str, value):
    import numpy
    if kind == "label":
        return str(value)
    value = float(value)
    if not numpy.isfinite(value):
        return None
    return int(value) if kind == "param" and value.is_integer() else value


def _csv(kind: str, value) -> str:
    if kind in ("param", "label"):
        return _number(kind, value)
    value = _json_value(kind, value)
    return "" if value is None else f"{value:.10g}"


def render(table, fmt: str, header: dict) -> str:
    """The table as text, CSV or JSON; `header` holds files, machines, fixed values, formulas."""
    from sad.predict.mapper import excluded_text
    from sad.predict.report import formula
    names = list(table.columns)
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(names)
        for i in range(table.size):
            writer.writerow([_csv(table.kinds[n], table.columns[n][i]) for n in names])
        return buffer.getvalue()
    crossings = [{"name": c.name, "at": c.at, "between": [c.low, c.high], "value": c.value, "before": c.before,
                  "after": c.after} for c in table.crossovers]
    if fmt == "json":
        doc = {"sad_version": __version__, **header,
               "swept": [{"name": a.name, "range": a.text, "log": a.log, "points": len(a)} for a in table.grid.axes],
               "series": [{"label": s.label, "variant": s.variant, "machine": s.machine,
                           "formulas": {k: formula(v, 15) for k, v in sorted(s.formulas.items())},
                           "model": s.model, **({"excluded_calls": s.excluded} if s.excluded else {})}
                          for s in table.series],
               "columns": names,
               "rows": [{n: _json_value(table.kinds[n], table.columns[n][i]) for n in names}
                        for i in range(table.size)]}
        if len(table.series) > 1:
            doc["crossovers"] = crossings
        return json.dumps(doc, indent=1) + "\n"
    out = [f"sad {header['command']}: {', '.join(header['files'])} on {', '.join(header['machines'])}"]
    if header["fixed"]:
        out.append("fixed: " + ", ".join(f"{k}={_number('param', v)}" for k, v in sorted(header["fixed"].items())))
    for s in table.series:
        if s.excluded:
            out.append(f"{s.label}: {excluded_text(s.excluded)}")
    if any(s.model == "per-rank formula" for s in table.series):
        sim = any(n.startswith("SIM") for n in table.columns)
        out.append("TOTAL, COMP, COMM: the per-rank formula, each rank priced alone (no waits or overlap); "
                   + ("SIM: the ranks simulated together, as `sad analyze -D NPROCS=P` prints" if sim else
                      "`sad analyze -D NPROCS=P` and `sad timeline` simulate the ranks together"))
    out.append(f"{table.size} points; times in seconds" + ("; SP = T(NPROCS=1)/T, EFF = SP/NPROCS"
                                                          if "NPROCS" in table.grid.names else ""))
    if len(table.series) > 1:
        out.append("series: " + "; ".join(f"{s.label} = {s.variant} on {s.machine}" for s in table.series))
    out.append("")
    out.extend(_text_table(table))
    if len(table.series) > 1:
        out.append("")
        if not table.crossovers:
            winners = sorted(set(table.columns["best"]))
            out.append(f"no crossover: {' and '.join(winners)} {'wins' if len(winners) == 1 else 'win'} "
                       f"everywhere on this grid" if len(winners) == 1 else "no crossover along "
                       f"{table.grid.axes[0].name}")
        for c in table.crossovers:
            where = (" at " + ", ".join(f"{k}={_number('param', v)}" for k, v in c.at.items())) if c.at else ""
            first = (f" from {c.name}={_number('param', c.value)}" if c.value is not None else "")
            out.append(f"crossover{where}: {c.after} overtakes {c.before} between {c.name}="
                       f"{_number('param', c.low)} and {_number('param', c.high)}{first}")
    return "\n".join(out) + "\n"


def _write(text: str, args) -> None:
    if args.output:
        Path(args.output).write_text(text)
    else:
        sys.stdout.write(text)


def _check_outputs(args) -> None:
    if args.plot and Path(args.plot).suffix.lower() not in PLOT_SUFFIXES:
        raise UsageError(f"--plot {args.plot}: the file name must end in .png, .svg or .pdf")
    for path in (args.output, args.plot):
        if path and Path(path).exists() and not args.force:
            raise UsageError(f"{path} exists; use --force to replace it")


# ------------------------------------------------------------------------------------------------ commands

def _files(args) -> list[str]:
    return [*args.files, *getattr(args, "spill", [])]


def _run(body, args) -> int:
    try:
        return body(args)
    except UsageError as exc:
        print(f"sad: error: {exc}", file=sys.stderr)
        return 2


def cmd_sweep(args) -> int:
    """`sad sweep`: predicted time over a grid of parameter values."""
    return _run(_sweep, args)


def cmd_compare(args) -> int:
    """`sad compare`: the same sweep on several machines side by side."""
    return _run(_compare, args)


def cmd_tune(args) -> int:
    """`sad tune`: the parameter values that minimize the predicted time."""
    return _run(_tune, args)


def _grid(setup: Setup):
    from sad.predict.sweep import Grid, RangeError
    if not setup.axes:
        raise UsageError("nothing to sweep: give at least one -D NAME=RANGE (e.g. -D N=100-10000:10log)")
    try:
        return Grid(setup.axes)
    except RangeError as exc:
        raise UsageError(str(exc)) from None


def _table_command(args, groups: list[list[str]], command: str) -> int:
    from sad.predict.compare import build_table
    from sad.predict.sweep import RankError
    _check_outputs(args)
    setup = _setup(args.defines)
    grid = _grid(setup)
    series, fixed, failed = _series(groups, args, setup)
    t0 = time.perf_counter()
    try:
        table = build_table(series, grid, fixed)
    except RankError as exc:
        raise UsageError(str(exc)) from None
    _simulated_columns(table, fixed)
    elapsed = time.perf_counter() - t0
    files = [f for g in groups for f in g]
    header = {"command": command, "files": files, "machines": list(dict.fromkeys(s.machine for s in series)),
              "fixed": {k: fixed[k] for k in sorted(fixed)}}
    _write(render(table, args.format, header), args)
    overflow = _overflow(table)
    if args.plot:
        from sad.predict.sweep_plot import plot_table
        title = f"{' vs '.join(dict.fromkeys(s.variant for s in series))} on {', '.join(header['machines'])}"
        if fixed:
            title += " (" + ", ".join(f"{k} = {_number('param', v)}" for k, v in sorted(fixed.items())) + ")"
        plot_table(table, Path(args.plot), title)
    print(f"sad: {grid.size} points evaluated in {elapsed * 1e3:.1f} ms", file=sys.stderr)
    if overflow:
        print(overflow, file=sys.stderr)
        return 2
    return 1 if failed else 0


SIMULATED_POINTS = 64
"""A sweep of NPROCS alone over at most this many points also simulates an MPI program's ranks at each."""


def _simulated_columns(table, fixed: dict) -> None:
    """SIM: what `sad analyze -D NPROCS=P` prints at each point (the ranks simulated together,
    sad.predict.simulated), beside the per-rank formula's TOTAL, when NPROCS is the only swept name and the
    grid is small (each point traces every rank); a point that cannot be simulated is nan, with a warning."""
    import numpy

    from sad.predict.compare import column
    from sad.predict.simulated import simulate_bound
    spmd = [s for s in table.series if s.program is not None]
    if not spmd or table.grid.names != ["NPROCS"]:
        return
    if table.size > SIMULATED_POINTS:
        print(f"sad: note: more than {SIMULATED_POINTS} values of NPROCS: no SIM column (the ranks simulated "
              "together); `sad analyze -D NPROCS=P` gives it at one point", file=sys.stderr)
        return
    many = len(table.series) > 1
    for s in spmd:
        times = []
        for p in table.columns["NPROCS"]:
            simulated = simulate_bound(s.program, s.target, {**fixed, "NPROCS": int(p)})
            if simulated is not None and simulated.failure:
                print(f"sad: warning: {s.label}: NPROCS = {int(p)}: the ranks are not simulated together "
                      f"({simulated.failure}): SIM is nan there", file=sys.stderr)
            times.append(simulated.time if simulated is not None and simulated.time is not None else float("nan"))
        name = column("SIM", s, many)
        table.columns[name] = numpy.array(times)
        table.kinds[name] = "seconds"


def _overflow(table) -> str | None:
    """`sad: error: ...` naming the first point whose predicted time is infinite (beyond double precision:
    `-D N=1e100,1e200` prices N**3 operations), else None; such cells show `inf` (JSON null)."""
    import numpy
    names = [n for n in table.columns if table.kinds[n] == "seconds"]
    bad = numpy.zeros(table.size, dtype=bool)
    for n in names:
        bad |= numpy.isinf(numpy.asarray(table.columns[n], dtype=float))
    if not bad.any():
        return None
    first = int(numpy.flatnonzero(bad)[0])
    at = ", ".join(f"{n}={_number('param', table.columns[n][first])}" for n in table.grid.names)
    more = int(bad.sum()) - 1
    return (f"sad: error: the predicted time overflows (inf s) at {at}" + (f" and {more} more point"
            + ("s" if more > 1 else "") if more else "") + ": the values are beyond what double precision can price")


def _sweep(args) -> int:
    files = _files(args)
    if not files:
        raise UsageError("no source FILE given")
    return _table_command(args, [files], "sweep")


def _compare(args) -> int:
    groups = [[f] for f in _files(args)] + [shlex.split(v) for v in args.variant]
    if len(groups) < 2:
        raise UsageError("compare needs at least two variants (FILEs, or --variant 'A.f B.f')")
    return _table_command(args, groups, "compare")


def _tune(args) -> int:
    from sad.common.exprparse import ExprError, parse_condition
    from sad.predict.tune import Problem, TuneError, solve
    files = _files(args)
    if not files:
        raise UsageError("no source FILE given")
    command = _validate_command(args)
    setup = _setup([*args.defines, *args.fix], args.vary)
    if any(a.name not in {v.partition("=")[0].strip() for v in args.vary} for a in setup.axes):
        raise UsageError("tune takes the names to vary with --vary NAME=RANGE, fixed values with --fix or -D")
    if len(args.machine) > 1:
        raise UsageError("tune minimizes on one --machine")
    series, fixed, failed = _series([files], args, setup)
    constraints = []
    for text in args.constraint:
        try:
            constraints.append(parse_condition(text))
        except ExprError as exc:
            raise UsageError(f"--constraint {text}: {exc}") from None
    problem = Problem(series[0].formulas["TOTAL"], setup.axes, fixed, constraints, list(args.constraint))
    t0 = time.perf_counter()
    try:
        result = solve(problem, keep=max(1, args.top), method=args.method)
    except TuneError as exc:
        raise UsageError(str(exc)) from None
    elapsed = time.perf_counter() - t0
    check = None
    if command is not None:
        check = _validate_runs(args, files, problem, result, command, fixed)
    sys.stdout.write(_tune_report(args, files, series[0], problem, result, elapsed, check))
    return 1 if failed else 0


def _validate_command(args) -> str | None:
    text = (getattr(args, "command", None) or "").strip()
    if args.validate and not text:
        raise UsageError("--validate needs the program to run after --, e.g. -- 'echo 512 {ts} | ./matmul_tiled'")
    if text and not args.validate:
        raise UsageError("a COMMAND after -- is run only with --validate")
    return text or None


def _validate_runs(args, files, problem, result, command, fixed):
    from sad.cli.args import ArgumentError, check_placeholders
    from sad.measure.tune_runs import RunError, measure_choice
    try:
        check_placeholders(command, {a.name for a in problem.axes} | set(fixed) | {"exe"})
    except ArgumentError as exc:
        raise UsageError(str(exc)) from None
    try:
        return measure_choice(files, args.flags, command, problem, result, fixed, args.runs, args.points,
                              include=args.include)
    except RunError as exc:
        raise UsageError(str(exc)) from None


def _point_text(point: dict[str, float]) -> str:
    return ", ".join(f"{k}={_number('param', v)}" for k, v in point.items())


def _tune_report(args, files, series, problem, result, elapsed, check) -> str:
    from sad.predict.report import seconds
    if args.format == "json":
        doc = {"sad_version": __version__, "files": files, "machine": series.machine,
               "fixed": {k: problem.fixed[k] for k in sorted(problem.fixed)},
               "vary": [{"name": a.name, "range": a.text, "points": len(a)} for a in problem.axes],
               "constraints": args.constraint, "method": result.method, "grid_points": result.grid_points,
               "evaluated": result.evaluated, "best": result.best, "time_s": result.time,
               "ranked": [{"point": p, "time_s": t} for p, t in result.ranked],
               "near": {f"{rel:g}": n for rel, n in result.near.items()},
               "spans_within_5pct": {k: list(v) for k, v in result.spans.items()}}
        if check is not None:
            doc["validation"] = check.to_json()
        return json.dumps(doc, indent=1) + "\n"
    out = [f"sad tune: {' '.join(files)} on {series.machine}"]
    if problem.fixed:
        out.append("fixed: " + _point_text({k: problem.fixed[k] for k in sorted(problem.fixed)}))
    out.append("vary: " + ", ".join(f"{a.name} in {a.text} ({len(a)} values)" for a in problem.axes)
               + (f"; subject to {' and '.join(args.constraint)}" if args.constraint else ""))
    how = "every point evaluated" if result.method == "exhaustive" else \
        f"branch and bound, {result.evaluated} of them evaluated"
    out.append(f"grid: {result.grid_points} points ({how})")
    if series.excluded:
        from sad.predict.mapper import excluded_text
        out.append(f"predicted {excluded_text(series.excluded)}")
    print(f"sad: tuned in {elapsed:.3f} s", file=sys.stderr)  # timings on stderr: stdout is the same every run
    out.append("")
    out.append(f"optimum: {_point_text(result.best)}   predicted {seconds(result.time)}")
    out.append("")
    out.append(f"  {'rank':>4}  {'point':<40} {'predicted':>12} {'vs optimum':>10}")
    for i, (point, t) in enumerate(result.ranked, 1):
        out.append(f"  {i:>4}  {_point_text(point):<40} {seconds(t):>12} {100 * (t / result.time - 1):>+9.2f}%")
    out.append("")
    n1, n5 = result.near[0.01], result.near[0.05]
    spans = ", ".join(f"{k} {_number('param', lo)}–{_number('param', hi)}" for k, (lo, hi) in result.spans.items())
    out.append(f"flatness: {n1} point{'s' if n1 != 1 else ''} within 1 % of the optimum, {n5} within 5 % "
               f"({spans})")
    if check is not None:
        out.append("")
        out.extend(check.lines())
    return "\n".join(out) + "\n"
