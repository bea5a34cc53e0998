"""`sad tune --validate`: the tuner's choice against real runs of the program.

Data flow: the tuning problem and its result (sad.predict.tune) → the points to run: the choice, the
runners-up and points spread over the grid (all feasible points of a small grid) → the program compiled once
(sad.measure.validate.compile_program, every FILE) → COMMAND with every {NAME} replaced by the point's value, timed
(median CPU seconds of several runs) → the tuner's choice, the best measured point and the relative loss of
the choice, (measured at the choice − best measured) / best measured: the figure the La Laguna pipeline tool
reported (2–5 % on its pipelines).
"""
from __future__ import annotations

import statistics
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy

from sad.measure.validate import ValidateError, compile_program, cpu_time


class RunError(Exception):
    """The program does not compile or the command fails."""


@dataclass
class Measured:
    """A point of a tuning search measured: its predicted time and the run times."""
    point: dict[str, float]
    predicted: float
    runs: list[float]

    @property
    def median(self) -> float:
        """The median of the measured run times."""
        return statistics.median(self.runs)


@dataclass
class Check:
    """A tuning choice validated by runs: the chosen point against every point measured."""
    chosen: Measured
    points: list[Measured] = field(default_factory=list)   # every point run, the choice included

    @property
    def best(self) -> Measured:
        """The point with the smallest measured median (ties broken by the point's values)."""
        return min(self.points, key=lambda m: (m.median, tuple(m.point.values())))

    @property
    def loss(self) -> float:
        """How much slower the chosen point measured than the best one, as a fraction."""
        return (self.chosen.median - self.best.median) / self.best.median

    def lines(self) -> list[str]:
        """The validation as a text table, one line per point, fastest first, then the verdict."""
        def pt(m: Measured) -> str:
            return ", ".join(f"{k}={int(v) if float(v).is_integer() else v}" for k, v in m.point.items())
        out = [f"validation: {len(self.points)} points run, median of {len(self.chosen.runs)} runs each (CPU s)",
               f"  {'point':<40} {'predicted':>11} {'measured':>11} {'spread':>8}"]
        for m in sorted(self.points, key=lambda m: m.median):
            spread = (max(m.runs) - min(m.runs)) / m.median if m.median else 0.0
            mark = "  <- choice" if m is self.chosen else ""
            out.append(f"  {pt(m):<40} {m.predicted:>11.5g} {m.median:>11.5g} {spread:>7.1%}{mark}")
        out.append(f"choice: {pt(self.chosen)} measured {self.chosen.median:.5g} s; best measured: "
                   f"{pt(self.best)} {self.best.median:.5g} s; loss of the choice {self.loss:+.1%}")
        return out

    def to_json(self) -> dict:
        """The validation as a JSON object."""
        return {"chosen": self.chosen.point, "chosen_measured_s": self.chosen.median,
                "best_measured": self.best.point, "best_measured_s": self.best.median, "loss": self.loss,
                "points": [{"point": m.point, "predicted_s": m.predicted, "runs_s": m.runs} for m in self.points]}


def candidate_points(problem, result, extra: int) -> list[dict[str, float]]:
    """The choice, two runners-up, then feasible points spread evenly over the grid's feasible points, at most
    1 + extra in all; every feasible point when there are that few. A grid too large to enumerate is thinned
    to a few values per axis first."""
    from sad.predict.tune import EXHAUSTIVE_LIMIT, _Evaluator
    ev = _Evaluator(problem)
    shape = tuple(len(a) for a in problem.axes)
    if problem.size <= EXHAUSTIVE_LIMIT:
        picks = [numpy.arange(n) for n in shape]
    else:
        per_axis = max(2, int(round((extra + 1) ** (1 / len(shape)))) + 1)
        picks = [numpy.unique(numpy.linspace(0, n - 1, min(n, per_axis)).round().astype(int)) for n in shape]
    meshes = [m.ravel() for m in numpy.meshgrid(*picks, indexing="ij")]
    feasible = numpy.flatnonzero(numpy.isfinite(ev.times(meshes)))
    points = [{a.name: float(a.values[i[k]]) for a, i in zip(problem.axes, meshes)} for k in feasible]
    if len(points) <= 1 + extra:
        chosen = [result.best] + [p for p in points if p != result.best]
        return chosen
    ordered = [result.best] + [p for p, _ in result.ranked[1:3]]
    for j in numpy.linspace(0, len(points) - 1, extra).round().astype(int):
        if points[j] not in ordered:
            ordered.append(points[j])
    return ordered[: 1 + extra]


def predicted_at(problem, point: dict[str, float]) -> float:
    """The predicted time at a point of the tuned parameters."""
    from sad.predict.sweep import compile_formula
    columns = dict(problem.fixed)
    columns.update(point)
    return float(compile_formula(problem.objective)(columns, 1)[0])


def fill_point(command: str, point: dict[str, float], fixed: dict[str, float], exe: Path) -> str:
    """The run command with the point's values (and the fixed ones) substituted."""
    from sad.measure.validate import fill
    for name, value in {**fixed, **point}.items():
        command = fill(command, name, str(int(value)) if float(value).is_integer() else repr(value))
    return fill(command, "\x00", "", exe)  # only the program path: ./STEM and {exe}


def measure_choice(files: list[str], flags: str, command: str, problem, result, fixed: dict[str, float],
                   runs: int, extra: int, stream=None, include: list[str] | tuple[str, ...] = ()) -> Check:
    """Compile the program and time it at the best candidate points, to check the tuned choice. A progress
    bar of the runs goes to `stream` (stderr by default) when it is a terminal (under --quiet it is not)."""
    import sys

    import tqdm
    known = {a.name for a in problem.axes}
    if not any("{" + n + "}" in command for n in known):
        raise RunError(f"--validate COMMAND must pass the tuned values to the program: use "
                       f"{', '.join('{' + n + '}' for n in sorted(known))} in it")
    points = candidate_points(problem, result, extra)
    with tempfile.TemporaryDirectory(prefix="sad-tune-") as tmp:
        work = Path(tmp)
        try:
            exe = compile_program([Path(f).resolve() for f in files], flags.split(), work, include=include)
            measured = []
            with tqdm.tqdm(total=len(points) * (max(1, runs) + 1), unit="run", desc="sad tune --validate",
                           file=stream if stream is not None else sys.stderr, disable=None, leave=False) as bar:
                for point in points:
                    text = fill_point(command, point, fixed, exe)
                    cpu_time(text, Path.cwd())   # warm-up
                    bar.update()
                    times = []
                    for _ in range(max(1, runs)):
                        times.append(cpu_time(text, Path.cwd()))
                        bar.update()
                    measured.append(Measured(point, predicted_at(problem, point), times))
        except ValidateError as exc:
            raise RunError(str(exc)) from None
    return Check(measured[0], measured)
