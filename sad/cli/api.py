"""The Python API behind `import sad`: run a command, analyze files, load a machine, from a script or a notebook.

The top layer, next to the command line: `sad.run(argv)` is the command line in this process;
`sad.analyze(paths, machine=..., defines=...)` does what `sad analyze` does (frontends → SAD → machine →
prediction, sad.predict.job) and returns an `AnalysisResult` whose `table` holds one row per block of the SAD
with its count and time; `sad.load_machine(name_or_path)` is the machine database reader. sad/__init__.py
imports this module on first use of one of these names, so that `import sad` itself stays cheap.
"""
from __future__ import annotations

import io
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TextIO

import sympy

from sad.machine.model import Machine
from sad.machine.model import load_machine as _load_machine
from sad.predict.job import Result


class AnalysisError(ValueError):
    """A call of the API that cannot run: a bad define, a machine that cannot be read, no file analyzed."""


def run(argv: Sequence[str], stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run one `sad` command (`["analyze", "md1.f", "-m", "sparc2"]`) in this process; return its exit status.

    Output goes to sys.stdout and sys.stderr, or to the streams given (io.StringIO to capture it)."""
    from sad.cli.main import run as run_command
    return run_command(list(argv), stdout, stderr)


def load_machine(name_or_path: str) -> Machine:
    """A machine database: a bundled name (`sparc2`, `paragon`, `ncube2`; `sad machines` lists them) or the
    path of a YAML file. Raises sad.machine.model.MachineError naming the problem."""
    return _load_machine(name_or_path)


@dataclass
class AnalysisResult:
    """What `sad analyze` prints, as Python values.

    `seconds` is the predicted time when every parameter is bound (else None, and `unbound` names the
    parameters to bind); `time` is the formula; `table` has one row per block of the SAD (procedure, file,
    lines, kind, count, seconds, share of the total), slowest first when the time is bound; `parameters` one
    row per parameter (name, class, kind, place, value); `diagnostics` the notes, warnings and errors as
    `file:line: severity: message` lines; `to_json()` and `to_text()` the command's own reports."""
    result: Result
    origins: dict[str, str]

    @property
    def seconds(self) -> float | None:
        """The predicted time in seconds, or None while a parameter is unbound."""
        return self.result.prediction.time_value

    @property
    def time(self) -> sympy.Expr:
        """The predicted time as a formula in the unbound parameters (a number when all are bound)."""
        return self.result.prediction.time

    @property
    def unbound(self) -> list[str]:
        """The parameters still to bind for a number."""
        return list(self.result.prediction.unbound)

    @property
    def diagnostics(self) -> list[str]:
        """The analysis's diagnostics, one `file:line: severity: message` line each."""
        return [str(d) for d in self.result.analysis.diagnostics]

    @cached_property
    def table(self) -> list[dict[str, Any]]:
        """One row per block of the SAD: where it is, how often it runs and how long it takes."""
        total = self.seconds
        rows = []
        for bt in self.result.prediction.blocks:
            b = bt.block
            rows.append({"procedure": b.procedure, "file": b.file, "first_line": b.first_line,
                         "last_line": b.last_line, "kind": b.kind,
                         "count": bt.count_value if bt.count_value is not None else b.count,
                         "seconds": bt.time_value,
                         "share": bt.time_value / total if total and bt.time_value is not None else None})
        if total is not None:
            rows.sort(key=lambda r: -float(r["seconds"] or 0.0))
        return rows

    @cached_property
    def parameters(self) -> list[dict[str, Any]]:
        """One row per parameter, as in `sad analyze --format json`."""
        from sad.predict.report import parameter_rows
        return parameter_rows(self.result.analysis, self.result.bindings, self.result.op_parameters, self.origins)

    def to_json(self) -> str:
        """The document `sad analyze --format json` prints."""
        from sad.predict.report import to_json
        r = self.result
        return to_json(r.analysis, r.prediction, r.machine, r.bindings, r.op_parameters, self.origins)

    def to_text(self, top: int = 10) -> str:
        """The report `sad analyze` prints."""
        from sad.predict.report import to_text
        r = self.result
        return to_text(r.analysis, r.prediction, r.machine, r.bindings, r.op_parameters, top, self.origins)


def analyze(paths: str | os.PathLike | Iterable[str | os.PathLike], machine: str | Machine,
            defines: Mapping[str, object] | Iterable[str] = (), include: Iterable[str] = (),
            params: str | None = None) -> AnalysisResult:
    """Analyze the source files (or directories) as one program and predict its time on `machine`.

    `defines` binds parameters, as `-D` does: a mapping `{"NPART": 4000}` or strings `["NPART=4000"]`;
    `params` is a params file (its values under the defines). Raises AnalysisError when the defines, the
    params file or the machine cannot be used, or no file could be analyzed; the diagnostics of the
    sources (syntax errors in one file of several, notes) are in the result's `diagnostics`."""
    from sad.analysis.inputs import expand_sources
    from sad.cli.args import ArgumentError, parse_defines
    from sad.machine.model import MachineError
    from sad.predict.job import Options
    from sad.predict.job import run as run_job
    files = expand_sources([os.fspath(p) for p in ([paths] if isinstance(paths, str | os.PathLike) else paths)])
    texts = ([f"{k}={v}" for k, v in defines.items()] if isinstance(defines, Mapping)
             else [str(d) for d in defines])
    try:
        raw, defined = parse_defines(texts)
    except ArgumentError as exc:
        raise AnalysisError(str(exc)) from None
    values = dict(defined)
    origins = dict.fromkeys(defined, "-D")
    if params:
        from sad.measure.params_io import ParamsError, load
        try:
            from_file = load(params).values()
        except ParamsError as exc:
            raise AnalysisError(str(exc)) from None
        origins = {**dict.fromkeys(from_file, "params"), **origins}
        values = {**from_file, **values}
    try:
        chosen = machine if isinstance(machine, Machine) else _load_machine(machine)
    except MachineError as exc:
        raise AnalysisError(str(exc)) from None
    result = run_job(files, Options(list(include), raw, values), chosen)
    if not result.analysis.program.procedures:
        shown = io.StringIO()
        for d in result.analysis.diagnostics:
            print(d, file=shown)
        raise AnalysisError("no file could be analyzed:\n" + shown.getvalue().rstrip())
    return AnalysisResult(result, origins)
