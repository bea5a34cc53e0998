"""Side by side: one predicted-time series per machine and per program variant over a grid, PerPreT-style tables
(TOTAL, COMP, COMM, speedup, efficiency), the winner at each point and the crossover points.

Data flow: Series (a variant's time formulas on one machine, from sad.predict.mapper) × a Grid
(sad.predict.sweep) → a Table of numpy columns; for several series, the winner per point and the crossovers
along the first swept name (refined to the first integer value at which the new winner is faster). The CLI
(sad.cli.whatif) prints the table as text, CSV or JSON and plots it (sad.predict.sweep_plot).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy
import sympy

from sad.predict.sweep import NPROCS, RANK, CompiledFormula, Grid, compile_formula, slowest_rank


@dataclass
class Series:
    """One curve: a variant of the program on one machine; formulas TOTAL and, for SPMD programs, COMP, COMM."""
    label: str
    variant: str
    machine: str
    formulas: dict[str, sympy.Expr]
    compiled: dict[str, CompiledFormula] = field(default_factory=dict, repr=False)
    excluded: list[str] = field(default_factory=list)  # unpriced calls the formulas leave out (as 0 s)
    model: str = "formula"  # "per-rank formula" for a message-passing program: each rank priced alone
    program: object = field(default=None, repr=False, compare=False)  # an MPI program's IR (simulated points)
    target: object = field(default=None, repr=False, compare=False)  # its machine (sad.machine.model.Machine)

    def compile(self) -> None:
        """Compile every formula of the series for vectorised evaluation."""
        self.compiled = {k: compile_formula(v) for k, v in self.formulas.items()}

    def needs(self) -> set[str]:
        """The parameter names the compiled formulas need values for."""
        return set().union(*[c.needs for c in self.compiled.values()]) if self.compiled else set()


@dataclass
class Crossover:
    """Along `name`, between the grid values `low` and `high`, `after` overtakes `before` (is faster from
    `value` on, the first integer where it is, when the axis is integer)."""
    name: str
    at: dict[str, float]
    low: float
    high: float
    value: float | None
    before: str
    after: str


@dataclass
class Table:
    """A comparison table: the grid, its computed columns and their kinds, the series and their crossovers."""
    grid: Grid
    columns: dict[str, numpy.ndarray]
    kinds: dict[str, str]            # column → "param" | "seconds" | "speedup" | "efficiency" | "label"
    series: list[Series]
    crossovers: list[Crossover] = field(default_factory=list)

    @property
    def size(self) -> int:
        """The number of grid points."""
        return self.grid.size


def column(name: str, series: Series, many: bool) -> str:
    """A column title, with the series label when several series are shown."""
    return f"{name}[{series.label}]" if many else name


def _evaluate(series: Series, name: str, columns: dict, size: int) -> numpy.ndarray:
    return series.compiled[name](columns, size)


def series_values(series: Series, points: dict, size: int) -> dict[str, numpy.ndarray]:
    """TOTAL (and COMP, COMM) of one series at the points. An SPMD formula still in RANK is the slowest rank's
    at each point (sad.predict.sweep.slowest_rank), COMP and COMM taken at that rank, which is returned too."""
    if RANK in series.needs() and RANK not in points:
        total, ranks = slowest_rank(series.compiled["TOTAL"], points, size)
        at_rank = dict(points)
        at_rank[RANK] = ranks
        out = {"TOTAL": total, "RANK": ranks}
        for name in ("COMP", "COMM"):
            if name in series.formulas:
                out[name] = _evaluate(series, name, at_rank, size)
        return out
    return {name: _evaluate(series, name, points, size) for name in ("COMM", "COMP", "TOTAL")
            if name in series.formulas}


def build_table(series: list[Series], grid: Grid, fixed: dict[str, float]) -> Table:
    """Every series over the grid. Raises KeyError naming a parameter that is neither swept nor fixed."""
    points: dict[str, numpy.ndarray | float] = dict(fixed)
    points.update(grid.columns())
    out: dict[str, numpy.ndarray] = {n: numpy.asarray(points[n]) for n in grid.names}
    kinds = {n: "param" for n in grid.names}
    many = len(series) > 1
    for s in series:
        if not s.compiled:
            s.compile()
        missing = sorted(s.needs() - set(points) - ({RANK} if NPROCS in points else set()))
        if missing:
            raise KeyError(", ".join(missing))
        values = series_values(s, points, grid.size)
        for name in ("COMM", "COMP", "TOTAL", "RANK"):
            if name in values:
                out[column(name, s, many)] = values[name]
                kinds[column(name, s, many)] = "seconds" if name != "RANK" else "param"
        if NPROCS in grid.names:
            serial_points = dict(points)
            serial_points[NPROCS] = 1.0
            serial = series_values(s, serial_points, grid.size)["TOTAL"]
            with numpy.errstate(all="ignore"):
                speedup = serial / out[column("TOTAL", s, many)]
                out[column("SP", s, many)] = speedup
                out[column("EFF", s, many)] = speedup / numpy.asarray(points[NPROCS], dtype=float)
            kinds[column("SP", s, many)] = "speedup"
            kinds[column("EFF", s, many)] = "efficiency"
    table = Table(grid, out, kinds, series)
    if many:
        totals = numpy.stack([out[column("TOTAL", s, True)] for s in series], axis=1)
        best = numpy.argmin(numpy.where(numpy.isnan(totals), numpy.inf, totals), axis=1)
        out["best"] = numpy.array([series[i].label for i in best], dtype=object)
        kinds["best"] = "label"
        table.crossovers = crossovers(table, points, best)
    return table


def crossovers(table: Table, points: dict, best: numpy.ndarray) -> list[Crossover]:
    """Where the winner changes between consecutive values of the first swept name (for each combination of the
    others), refined by bisection on the integers between them when the axis is integer."""
    grid = table.grid
    first = grid.axes[0]
    winners = best.reshape(grid.shape)
    found: list[Crossover] = []
    others = grid.shape[1:]
    for rest in numpy.ndindex(*others):
        line = winners[(slice(None), *rest)]
        at = {a.name: float(a.values[i]) for a, i in zip(grid.axes[1:], rest)}
        for i in numpy.flatnonzero(line[1:] != line[:-1]):
            before, after = table.series[int(line[i])], table.series[int(line[i + 1])]
            low, high = float(first.values[i]), float(first.values[i + 1])
            value = _refine(first.name, low, high, at, points, before, after) if first.integer else None
            found.append(Crossover(first.name, at, low, high, value, before.label, after.label))
    return found


def _refine(name: str, low: float, high: float, at: dict[str, float], points: dict, before: Series,
            after: Series) -> float:
    """The first integer in (low, high] where `after` is faster than `before` (bisection; one crossing)."""
    scalar = {k: v for k, v in points.items() if not isinstance(v, numpy.ndarray)}
    scalar.update(at)

    def after_wins(x: float) -> bool:
        scalar[name] = x
        return bool(series_values(after, scalar, 1)["TOTAL"][0] < series_values(before, scalar, 1)["TOTAL"][0])

    lo, hi = int(low), int(high)   # before wins at lo, after at hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if after_wins(mid):
            hi = mid
        else:
            lo = mid
    return float(hi)
