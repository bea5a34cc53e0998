"""`sad tune`: the values of tuning parameters that minimize the predicted time over an integer grid.

Data flow: the mapper's time formula with the fixed parameters bound, the varied names' axes
(sad.predict.sweep.Axis, integer values) and constraints (sympy conditions read by
sad.common.exprparse.parse_condition, never eval) → the optimum, its predicted time, the runners-up and how
flat the optimum is (how many grid points lie within 1 % and 5 % of it, and the span of each name among them).

Method, exact for the grid either way:
- a grid of at most `EXHAUSTIVE_LIMIT` points is evaluated completely (compiled formula, in chunks);
- a larger one by best-first branch and bound over boxes of grid indices: a box is bounded below by interval
  arithmetic on the symbolic formula (sad.predict.interval), dropped when its bound exceeds what can still
  matter (the k-th best value found so far, or 5 % above the best) or when a constraint fails on the whole box,
  split along its longest side otherwise, and evaluated point by point once it holds at most `LEAF` points.
The La Laguna pipeline tool minimized its complexity formula over (p, G, B) in the same way after profiling the
constants; here the formula comes from the source.
"""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

import numpy
import sympy

from sad.analysis.freesymbols import free_symbols
from sad.predict.interval import bounds, truth
from sad.predict.sweep import NPROCS, RANK, Axis, CompiledFormula, _lambdify, compile_formula, slowest_rank

EXHAUSTIVE_LIMIT = 1_000_000
LEAF = 4096
CHUNK = 1 << 18
NEAR = (0.01, 0.05)
"""Flatness is reported as the grid points within these relative distances of the optimum."""


class TuneError(ValueError):
    """The problem has no answer: no feasible point, a name that is not a parameter, a non-integer domain."""


@dataclass
class Problem:
    """A tuning search: the time formula to minimize over the axes, with fixed values and constraints."""
    objective: sympy.Expr
    axes: list[Axis]
    fixed: dict[str, float] = field(default_factory=dict)
    constraints: list[sympy.Basic] = field(default_factory=list)
    # each constraint as the user wrote it (`n % bz == 0`, `MOD(N, BZ) .EQ. 0`), for messages; sympy's
    # own form (`Eq(Mod(n, bz), 0)`) where none is given
    texts: list[str] = field(default_factory=list)

    @property
    def size(self) -> int:
        """The number of points in the search space (product of the axis lengths)."""
        return math.prod(len(a) for a in self.axes)


@dataclass
class Result:
    """The outcome of a tuning search: best point and time, the runners-up, and how much was evaluated."""
    best: dict[str, float]
    time: float
    ranked: list[tuple[dict[str, float], float]]   # the best `keep` points, best first (the optimum included)
    near: dict[float, int]                         # relative distance → number of grid points within it
    spans: dict[str, tuple[float, float]]          # per name, its range among the points within NEAR[-1]
    method: str
    evaluated: int                                 # grid points whose time was computed
    grid_points: int


class _Evaluator:
    """Objective and feasibility of grid points given by index arrays, both compiled once."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.formula: CompiledFormula = compile_formula(problem.objective)
        known = set(problem.fixed) | {a.name for a in problem.axes}
        # an SPMD time still in RANK is the slowest rank's at each point (NPROCS varied or fixed)
        self.slowest = RANK in self.formula.needs and RANK not in known and NPROCS in known
        missing = sorted(self.formula.needs - known - ({RANK} if self.slowest else set()))
        if missing:
            raise TuneError(f"unbound parameters: {', '.join(missing)}; bind them with -D or --fix NAME=VALUE")
        self.checks = []
        for k, cond in enumerate(problem.constraints):
            names = sorted(free_symbols(cond), key=lambda s: s.name)
            unknown = [s.name for s in names if s.name not in known]
            if unknown:
                shown = problem.texts[k] if k < len(problem.texts) else str(cond)
                raise TuneError(f"constraint {shown}: {', '.join(unknown)} is neither varied nor bound")
            self.checks.append((names, _lambdify(names, cond)))
        self.evaluated = 0

    def columns(self, indices: list[numpy.ndarray]) -> dict[str, numpy.ndarray | float]:
        cols: dict[str, numpy.ndarray | float] = dict(self.problem.fixed)
        for axis, idx in zip(self.problem.axes, indices):
            cols[axis.name] = axis.values[idx]
        return cols

    def times(self, indices: list[numpy.ndarray]) -> numpy.ndarray:
        """Seconds at the points; +inf where a constraint fails."""
        size = len(indices[0])
        cols = self.columns(indices)
        ok = numpy.ones(size, dtype=bool)
        for names, check in self.checks:
            with numpy.errstate(all="ignore"):
                ok &= numpy.broadcast_to(numpy.asarray(check(*[cols[s.name] for s in names]), dtype=bool), (size,))
        out = numpy.full(size, numpy.inf)
        if ok.any():
            sub = {k: (v[ok] if isinstance(v, numpy.ndarray) else v) for k, v in cols.items()}
            if self.slowest:
                out[ok] = slowest_rank(self.formula, sub, int(ok.sum()))[0]
            else:
                out[ok] = self.formula(sub, int(ok.sum()))
        self.evaluated += size
        return numpy.where(numpy.isnan(out), numpy.inf, out)


class _Collector:
    """The best `keep` points and every point within NEAR[-1] of the best found so far."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.top: list[tuple[float, tuple[int, ...]]] = []    # max-heap by -time of the best points
        self.near_times: list[numpy.ndarray] = []
        self.near_points: list[numpy.ndarray] = []

    @property
    def best(self) -> float:
        return min((-t for t, _ in self.top), default=math.inf)

    @property
    def threshold(self) -> float:
        """A point (or box) whose time exceeds this cannot change the answer."""
        kth = -self.top[0][0] if len(self.top) >= self.keep else math.inf
        return max(kth, self.best * (1 + NEAR[-1]))

    def add(self, indices: list[numpy.ndarray], times: numpy.ndarray) -> None:
        finite = numpy.isfinite(times)
        if not finite.any():
            return
        order = numpy.argsort(times[finite], kind="stable")[: self.keep]
        points = numpy.stack([i[finite] for i in indices], axis=1)
        for j in order:
            item = (-float(times[finite][j]), tuple(int(v) for v in points[j]))
            if len(self.top) < self.keep:
                heapq.heappush(self.top, item)
            elif item > self.top[0]:
                heapq.heapreplace(self.top, item)
        close = times[finite] <= self.best * (1 + NEAR[-1])
        if close.any():
            self.near_times.append(times[finite][close])
            self.near_points.append(points[close])


def _unravel(flat: numpy.ndarray, shape: tuple[int, ...]) -> list[numpy.ndarray]:
    return list(numpy.unravel_index(flat, shape))


def _exhaustive(problem: Problem, ev: _Evaluator, col: _Collector) -> None:
    shape = tuple(len(a) for a in problem.axes)
    for start in range(0, problem.size, CHUNK):
        idx = _unravel(numpy.arange(start, min(start + CHUNK, problem.size)), shape)
        col.add(idx, ev.times(idx))


def _box_points(box: tuple[tuple[int, int], ...]) -> list[numpy.ndarray]:
    meshes = numpy.meshgrid(*[numpy.arange(lo, hi + 1) for lo, hi in box], indexing="ij")
    return [m.ravel() for m in meshes]


def _branch_and_bound(problem: Problem, ev: _Evaluator, col: _Collector) -> None:
    symbols = {a.name: sympy.Symbol(a.name) for a in problem.axes}
    fixed = {sympy.Symbol(k): (float(v), float(v)) for k, v in problem.fixed.items()}
    objective = ev.formula.expr

    def lower_bound(box) -> float | None:
        ranges = dict(fixed)
        for axis, (lo, hi) in zip(problem.axes, box):
            ranges[symbols[axis.name]] = (float(axis.values[lo]), float(axis.values[hi]))
        if ev.slowest:  # the slowest rank's time is at least the least of any rank's: a valid lower bound
            ranges[sympy.Symbol(RANK)] = (0.0, max(0.0, ranges[sympy.Symbol(NPROCS)][1] - 1))
        if any(truth(c, ranges) is False for c in problem.constraints):
            return None
        try:
            return bounds(objective, ranges)[0]
        except (KeyError, OverflowError, ValueError, ZeroDivisionError):
            return -math.inf

    root = tuple((0, len(a) - 1) for a in problem.axes)
    queue: list[tuple[float, int, tuple]] = [(-math.inf, 0, root)]
    counter = 1
    while queue:
        bound, _, box = heapq.heappop(queue)
        if bound > col.threshold * (1 + 1e-9):
            break  # best-first: every box left is bounded above the threshold too
        if math.prod(hi - lo + 1 for lo, hi in box) <= LEAF:
            idx = _box_points(box)
            col.add(idx, ev.times(idx))
            continue
        side = max(range(len(box)), key=lambda i: box[i][1] - box[i][0])
        lo, hi = box[side]
        mid = (lo + hi) // 2
        for half in ((lo, mid), (mid + 1, hi)):
            child = box[:side] + (half,) + box[side + 1:]
            child_bound = lower_bound(child)
            if child_bound is None or child_bound > col.threshold * (1 + 1e-9):
                continue
            heapq.heappush(queue, (child_bound, counter, child))
            counter += 1


def solve(problem: Problem, keep: int = 5, method: str = "auto") -> Result:
    """Minimize the objective over the grid; method 'auto', 'exhaustive' or 'bnb'. Raises TuneError."""
    for axis in problem.axes:
        if not axis.integer:
            raise TuneError(f"--vary {axis.name}={axis.text}: tuning parameters take integer values")
    ev = _Evaluator(problem)
    col = _Collector(max(1, keep))
    if method == "auto":
        method = "exhaustive" if problem.size <= EXHAUSTIVE_LIMIT else "bnb"
    (_exhaustive if method == "exhaustive" else _branch_and_bound)(problem, ev, col)
    if not col.top:
        raise TuneError("no grid point satisfies the constraints (or every predicted time is undefined)")
    return _result(problem, col, method, ev.evaluated)


def _point(problem: Problem, index: tuple[int, ...]) -> dict[str, float]:
    return {a.name: float(a.values[i]) for a, i in zip(problem.axes, index)}


def _result(problem: Problem, col: _Collector, method: str, evaluated: int) -> Result:
    ranked = sorted(((-t, idx) for t, idx in col.top), key=lambda x: (x[0], x[1]))
    best_time = ranked[0][0]
    times = numpy.concatenate(col.near_times)
    points = numpy.concatenate(col.near_points)
    near = {}
    for rel in NEAR:
        near[rel] = int(numpy.count_nonzero(times <= best_time * (1 + rel)))
    within = points[times <= best_time * (1 + NEAR[-1])]
    spans = {a.name: (float(a.values[within[:, i].min()]), float(a.values[within[:, i].max()]))
             for i, a in enumerate(problem.axes)}
    return Result(_point(problem, ranked[0][1]), best_time,
                  [(_point(problem, idx), t) for t, idx in ranked], near, spans, method, evaluated, problem.size)
