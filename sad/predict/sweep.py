"""What-if sweeps: parameter ranges, grids, and the predicted-time formula compiled once and evaluated over a grid.

Data flow: `-D NAME=RANGE` text → Axis (the values of one swept name) → Grid (the cartesian product of the axes,
as flat numpy columns) ; the mapper's time formula (sad.predict.mapper) with the fixed parameters bound →
`compile_formula` (sympy.lambdify with numpy, once) → one array of seconds per grid point. The CLI
(sad.cli.whatif) turns the columns into tables and plots; the tuner (sad.predict.tune) minimizes over a grid.

Range notation is the one HPC users know from Kerncraft, plus geometric and stepped forms:
    100-10000:10log   10 points from 100 to 10000, logarithmically spaced (Kerncraft)
    100-10000:10      10 points, linearly spaced (Kerncraft)
    64:512:x2         64, 128, 256, 512 (start:stop:xFACTOR, geometric)
    0:100:25          0, 25, 50, 75, 100 (start:stop:step) ; 1:8 is 1, 2, ..., 8
    1,2,4,8           a list
Endpoints that are integers give integer points (log-spaced points are rounded and duplicates dropped), since
the swept names are sizes, counts and process numbers.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy
import sympy

from sad.analysis.counting import evaluate_sums, outer
from sad.analysis.freesymbols import free_symbols
from sad.common.exactdiv import exact_divisions, numpy_functions

MAX_POINTS = 10_000_000
"""A grid larger than this is refused (memory: a few float64 columns of this length)."""


SUM_TERMS = 20_000_000
"""Open sums are added term by term; up to this many terms over the whole grid in one vectorized pass."""


class RangeError(ValueError):
    """A range that gives no usable points: unparsable, empty, reversed, too large."""


@dataclass(frozen=True)
class Axis:
    """The values of one swept name."""
    name: str
    values: numpy.ndarray = field(compare=False)
    log: bool          # logarithmic spacing: plot on a log axis
    text: str          # the range as written

    @property
    def integer(self) -> bool:
        """True when every value on the axis is a whole number."""
        return bool(numpy.all(numpy.mod(self.values, 1) == 0))

    def __len__(self) -> int:
        return len(self.values)


_NUMBER = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
_KERNCRAFT = re.compile(rf"^({_NUMBER})-({_NUMBER}):(\d+)(log)?$")
_COLON = re.compile(rf"^({_NUMBER}):({_NUMBER})(?::(x?)({_NUMBER}))?$")
# `100-10` where a range is expected: Kerncraft's start-stop without its point count (or with the ends
# swapped). Read as the difference it would sweep one point, 90, which is never what was meant.
_DASHED = re.compile(r"^(\d+\.?\d*|\.\d+)-(\d+\.?\d*|\.\d+)$")


def is_range(text: str) -> bool:
    """Does a -D value denote several points (a range or a list) rather than one value or expression?"""
    text = text.strip()
    return bool(_KERNCRAFT.match(text) or _COLON.match(text) or _DASHED.match(text)
                or ("," in text and "(" not in text))


def _num(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise RangeError(f"'{text}' is not a finite number")
    return value


def _as_int_if_integral(values: numpy.ndarray, integral: bool) -> numpy.ndarray:
    if not integral:
        return values.astype(float)
    return numpy.unique(numpy.rint(values)).astype(float)  # rounded, sorted, duplicates dropped


def parse_range(name: str, text: str) -> Axis:
    """`text` (one of the notations of the module docstring) → the Axis of `name`. Raises RangeError."""
    raw = text.strip()
    where = f"-D {name}={raw}"
    if not raw:
        raise RangeError(f"{where}: empty range")
    try:
        axis = _parse(name, raw)
    except RangeError as exc:
        raise RangeError(f"{where}: {exc}") from None
    if len(axis.values) == 0:
        raise RangeError(f"{where}: empty range (no points)")
    if len(axis.values) > MAX_POINTS:
        raise RangeError(f"{where}: {len(axis.values)} points, more than {MAX_POINTS}")
    return axis


def _parse(name: str, raw: str) -> Axis:
    match = _KERNCRAFT.match(raw)
    if match:
        return _spaced(name, raw, _num(match[1]), _num(match[2]), int(match[3]), bool(match[4]),
                       _integral(match[1], match[2]))
    match = _DASHED.match(raw)
    if match:
        start, stop = _num(match[1]), _num(match[2])
        if stop < start:
            raise RangeError(f"reversed range ({start:g} > {stop:g}); write the smaller end first")
        raise RangeError(f"a range start-stop needs its number of points: {raw}:10 or {raw}:10log")
    match = _COLON.match(raw)
    if match:
        start, stop = _num(match[1]), _num(match[2])
        if match[3]:
            return _geometric(name, raw, start, stop, _num(match[4]), _integral(match[1], match[2]))
        step = _num(match[4]) if match[4] else 1.0
        return _stepped(name, raw, start, stop, step, _integral(match[1], match[2], match[4] or "1"))
    if "," in raw:
        return _listed(name, raw)
    try:
        return Axis(name, numpy.array([_num(raw)]), False, raw)
    except ValueError:
        raise RangeError("expected a number, a list 1,2,4 or a range like 100-10000:10log, 64:512:x2, "
                         "0:100:25") from None


def _integral(*texts: str) -> bool:
    return all(re.fullmatch(r"[+-]?\d+", t) for t in texts)


def _spaced(name: str, raw: str, start: float, stop: float, count: int, log: bool, integral: bool) -> Axis:
    if count == 0:
        raise RangeError("empty range (0 points)")
    if stop < start:
        raise RangeError(f"reversed range ({start:g} > {stop:g}); write the smaller end first")
    if log:
        if start <= 0:
            raise RangeError("a log range needs positive ends")
        values = numpy.logspace(math.log10(start), math.log10(stop), count)
    else:
        values = numpy.linspace(start, stop, count)
    return Axis(name, _as_int_if_integral(values, integral), log, raw)


def _geometric(name: str, raw: str, start: float, stop: float, factor: float, integral: bool) -> Axis:
    if stop < start:
        raise RangeError(f"reversed range ({start:g} > {stop:g}); write the smaller end first")
    if start <= 0 or factor <= 1:
        raise RangeError("a geometric range start:stop:xF needs start > 0 and F > 1")
    count = int(math.floor(math.log(stop / start) / math.log(factor) * (1 + 1e-12))) + 1
    if count > MAX_POINTS:
        raise RangeError(f"{count} points, more than {MAX_POINTS}")
    values = start * factor ** numpy.arange(count, dtype=float)
    return Axis(name, _as_int_if_integral(values, integral and float(factor).is_integer()), True, raw)


def _stepped(name: str, raw: str, start: float, stop: float, step: float, integral: bool) -> Axis:
    if step <= 0:
        raise RangeError("the step must be positive")
    if stop < start:
        raise RangeError(f"reversed range ({start:g} > {stop:g}); write the smaller end first")
    count = int(math.floor((stop - start) / step * (1 + 1e-12))) + 1
    if count > MAX_POINTS:
        raise RangeError(f"{count} points, more than {MAX_POINTS}")
    values = start + step * numpy.arange(count, dtype=float)
    return Axis(name, _as_int_if_integral(values, integral), False, raw)


def _listed(name: str, raw: str) -> Axis:
    parts = [p.strip() for p in raw.split(",")]
    if any(not p for p in parts):
        raise RangeError("an empty value in the list")
    try:
        values = numpy.array([_num(p) for p in parts])
    except ValueError:
        raise RangeError("a list holds numbers only, e.g. 1,2,4,8") from None
    values = numpy.unique(values)  # sorted: tables and crossovers walk the axis in order
    log = bool(values[0] > 0 and len(values) > 2 and values[-1] / values[0] >= 50)
    return Axis(name, values, log, raw)


@dataclass
class Grid:
    """The cartesian product of the axes; point i has the coordinates `columns()[name][i]`, the first axis
    varying slowest (row-major, as the table prints it)."""
    axes: list[Axis]

    def __post_init__(self) -> None:
        names = [a.name for a in self.axes]
        if len(set(names)) != len(names):
            raise RangeError(f"a name is swept twice: {', '.join(sorted(n for n in names if names.count(n) > 1))}")
        if self.size > MAX_POINTS:
            raise RangeError(f"the grid has {self.size} points, more than {MAX_POINTS}")

    @property
    def names(self) -> list[str]:
        """The axes' parameter names, in order."""
        return [a.name for a in self.axes]

    @property
    def shape(self) -> tuple[int, ...]:
        """The number of values on each axis."""
        return tuple(len(a) for a in self.axes)

    @property
    def size(self) -> int:
        """The number of grid points (product of the axis lengths)."""
        return math.prod(self.shape)

    def columns(self) -> dict[str, numpy.ndarray]:
        """Parameter name → its value at every grid point (flattened mesh, first axis slowest)."""
        meshes = numpy.meshgrid(*[a.values for a in self.axes], indexing="ij")
        return {a.name: m.ravel() for a, m in zip(self.axes, meshes)}


# ------------------------------------------------------------------------------------------ compiled formulas

_NUMPY_EXTRA = numpy_functions()


def _lambdify(args: list, expr: sympy.Expr) -> Callable:
    return sympy.lambdify(args, exact_divisions(expr), modules=[_NUMPY_EXTRA, "numpy"], cse=True)


@dataclass
class _SumTerm:
    """One Sum left open by the counting step, evaluated exactly once per distinct combination of its own free
    symbols on the grid: the summand is compiled once and added over numpy.arange of the index."""
    total: sympy.Sum
    free: list[sympy.Symbol]
    summand: Callable | None = None
    low: Callable | None = None
    high: Callable | None = None

    @classmethod
    def of(cls, total: sympy.Sum) -> _SumTerm:
        free = sorted(free_symbols(total), key=lambda s: s.name)
        term = cls(total, free)
        body, k, a, b = outer(total)
        if not body.has(sympy.Sum):
            term.summand = _lambdify([k, *free], body)
            term.low, term.high = _lambdify(free, a), _lambdify(free, b)
        return term

    def values(self, columns: dict, size: int) -> numpy.ndarray:
        if not self.free:
            return numpy.full(size, float(evaluate_sums(self.total)))
        stacked = numpy.stack([numpy.broadcast_to(numpy.asarray(columns[s.name], dtype=float), (size,))
                               for s in self.free], axis=1)
        unique, inverse = numpy.unique(stacked, axis=0, return_inverse=True)
        values = self._all(unique) if self.summand is not None else None
        if values is None:
            values = numpy.array([self._one(row) for row in unique])
        return values[numpy.ravel(inverse)]

    def _all(self, rows: numpy.ndarray) -> numpy.ndarray | None:
        """Every row's sum in one vectorized pass (the terms of all rows laid end to end), when they are few
        enough to hold in memory; None otherwise."""
        assert self.low is not None and self.high is not None and self.summand is not None
        cols = [rows[:, j] for j in range(rows.shape[1])]
        with numpy.errstate(all="ignore"):
            low = numpy.broadcast_to(numpy.asarray(self.low(*cols), dtype=numpy.float64), (len(rows),))
            high = numpy.broadcast_to(numpy.asarray(self.high(*cols), dtype=numpy.float64), (len(rows),))
        counts = numpy.maximum(0, high - low + 1)
        if not numpy.all(numpy.isfinite(counts)) or counts.sum() > SUM_TERMS:
            return None
        counts = counts.astype(numpy.int64)
        owner = numpy.repeat(numpy.arange(len(rows)), counts)
        starts = numpy.cumsum(counts) - counts
        ks = low[owner] + (numpy.arange(counts.sum()) - starts[owner])
        with numpy.errstate(all="ignore"):
            terms = numpy.broadcast_to(numpy.asarray(self.summand(ks, *[c[owner] for c in cols]),
                                                     dtype=numpy.float64),
                                       ks.shape)
        return numpy.bincount(owner, weights=terms, minlength=len(rows))

    def _one(self, row: numpy.ndarray) -> float:
        if self.summand is None:
            point = {s: _exact(v) for s, v in zip(self.free, row)}
            return float(evaluate_sums(self.total.xreplace(point)))
        assert self.low is not None and self.high is not None
        low, high = float(self.low(*row)), float(self.high(*row))
        if high < low:
            return 0.0
        ks = numpy.arange(low, high + 1, dtype=float)
        return float(numpy.sum(numpy.broadcast_to(self.summand(ks, *row), ks.shape)))


@dataclass
class CompiledFormula:
    """A formula compiled for numpy: call with {name: array or number} and the grid size, get float64 seconds.

    Sums the counting step could not close (loop counts that depend on an outer index in a step-shaped way)
    cannot be vectorized by lambdify; each is a placeholder argument filled by a _SumTerm."""
    expr: sympy.Expr
    names: list[str]
    function: Callable
    sums: list[_SumTerm]

    @property
    def needs(self) -> set[str]:
        """The parameter names the formula reads (sum bounds included)."""
        return set(self.names) | {s.name for t in self.sums for s in t.free}

    def __call__(self, columns: dict[str, numpy.ndarray | float], size: int) -> numpy.ndarray:
        """The formula's values at `size` points, the columns broadcast to that length."""
        args = [numpy.broadcast_to(numpy.asarray(columns[n], dtype=float), (size,)) for n in self.names]
        extra = [term.values(columns, size) for term in self.sums]
        with numpy.errstate(all="ignore"):
            out = self.function(*args, *extra)
        return numpy.broadcast_to(numpy.asarray(out, dtype=float), (size,)).copy()


def _exact(value: float) -> sympy.Expr:
    return sympy.Integer(int(value)) if float(value).is_integer() else sympy.Float(value)


def _hoist(total: sympy.Sum) -> sympy.Expr:
    """Σ_k c·g(k) = c·Σ_k g(k) for factors c free of the index (an indicator's k-free value included), so
    that the sum is evaluated once per distinct value of fewer symbols (md1's Σ_k NPART·[k = NSTEP/2 − 1]
    depends on NSTEP alone)."""
    body, k, a, b = outer(total)
    if isinstance(body, sympy.Piecewise) and len(body.args) == 2 and body.args[1][1] == sympy.true \
            and body.args[1][0] == 0 and k not in body.args[0][0].free_symbols:
        body = body.args[0][0] * sympy.Piecewise((1, body.args[0][1]), (0, True))
    outside: list[sympy.Expr] = []
    inside: list[sympy.Expr] = []
    for factor in sympy.Mul.make_args(body):
        (inside if k in factor.free_symbols else outside).append(factor)
    if not outside:
        return total
    return sympy.Mul(*outside) * sympy.Sum(sympy.Mul(*inside), (k, a, b))


def compile_formula(expr: sympy.Expr) -> CompiledFormula:
    """Compile once; the arguments are the formula's free symbols by name (sorted). Symbols of one name with
    different assumptions (a parameter from the source and the same name bound from the command line) are one."""
    expr = sympy.sympify(expr)
    expr = expr.xreplace({s: sympy.Symbol(s.name) for s in free_symbols(expr)})
    expr = expr.replace(lambda e: isinstance(e, sympy.Sum), _hoist)
    every = expr.atoms(sympy.Sum)
    inner = set().union(*[s.args[0].atoms(sympy.Sum) for s in every]) if every else set()
    outer = sorted(every - inner, key=sympy.default_sort_key)
    placeholders = {total: sympy.Symbol(f"sad_sum_{i}_") for i, total in enumerate(outer)}
    body = expr.xreplace(placeholders) if placeholders else expr
    symbols = sorted(free_symbols(body) - set(placeholders.values()), key=lambda s: s.name)
    function = _lambdify([*symbols, *placeholders.values()], body)
    return CompiledFormula(expr, [s.name for s in symbols], function, [_SumTerm.of(t) for t in outer])


def sweep(formulas: dict[str, sympy.Expr], grid: Grid,
          fixed: dict[str, float] | None = None) -> dict[str, numpy.ndarray]:
    """Every formula over every grid point: {column: array}. The swept names come first, as columns too.
    A formula symbol that is neither swept nor in `fixed` raises KeyError naming it."""
    columns: dict[str, numpy.ndarray | float] = dict(fixed or {})
    columns.update(grid.columns())
    out: dict[str, numpy.ndarray] = {name: numpy.asarray(columns[name]) for name in grid.names}
    for label, expr in formulas.items():
        compiled = compile_formula(expr)
        missing = [n for n in compiled.needs if n not in columns]
        if missing:
            raise KeyError(", ".join(sorted(set(missing))))
        out[label] = compiled(columns, grid.size)
    return out


def speedup_columns(total: numpy.ndarray, nprocs: numpy.ndarray,
                    serial: numpy.ndarray) -> tuple[numpy.ndarray, numpy.ndarray]:
    """Speedup T(1)/T(P) and efficiency speedup/P, as Brehm 1999 tabulates them (Tab. 6.1/6.2)."""
    with numpy.errstate(all="ignore"):
        speedup = serial / total
        return speedup, speedup / nprocs


RANK, NPROCS = "RANK", "NPROCS"
MAX_RANK_POINTS = 20_000_000
"""Grid points × ranks evaluated at once when the slowest rank is sought rank by rank (no rank classes)."""


class RankError(ValueError):
    """The slowest rank cannot be sought: NPROCS not a positive integer, or too many (point, rank) pairs."""


def rank_classes(expr: sympy.Expr) -> list[sympy.Expr] | None:
    """Representative ranks, as expressions in the other parameters (NPROCS, …), such that at every point the
    slowest rank is one of them: the formula depends on RANK only through conditions linear in RANK
    (``RANK = 0``, ``2·RANK + 1 < NPROCS``) and terms linear in RANK, so between two consecutive break points
    of the conditions it is linear in RANK and takes its maximum at an end of the piece. The representatives
    are 0, NPROCS − 1 and the ranks on both sides of every break point (ranks that behave alike are one
    class). None when RANK occurs in another form (MOD, a sum's bounds): the caller enumerates every rank."""
    rank, nprocs = sympy.Symbol(RANK), sympy.Symbol(NPROCS)
    expr = expr.xreplace({s: sympy.Symbol(s.name) for s in free_symbols(expr)})
    breaks: set[sympy.Expr] = set()
    if _rank_degree(expr, rank, breaks) is None:
        return None
    points: set[sympy.Expr] = {sympy.Integer(0), nprocs - 1}
    for x in breaks:
        base = sympy.floor(x)
        points.update(base + d for d in (-1, 0, 1, 2))
    return sorted(points, key=sympy.default_sort_key)


def _rank_degree(e: sympy.Expr, rank: sympy.Symbol, breaks: set) -> int | None:
    """The degree of `e` in RANK where it is a sum of products (1 at most), the conditions' break points added
    to `breaks`; None when RANK occurs in a form the classes cannot follow."""
    if rank not in e.free_symbols:
        return 0
    if e == rank:
        return 1
    if isinstance(e, sympy.Add):
        degrees = [_rank_degree(a, rank, breaks) for a in e.args]
        return None if None in degrees else max(d for d in degrees if d is not None)
    if isinstance(e, sympy.Mul):
        degrees = [_rank_degree(a, rank, breaks) for a in e.args]
        if None in degrees or sum(d for d in degrees if d is not None) > 1:
            return None
        return sum(d for d in degrees if d is not None)
    if isinstance(e, sympy.Piecewise):
        degrees = []
        for value, cond in e.args:
            if not _conditions(cond, rank, breaks):
                return None
            degrees.append(_rank_degree(value, rank, breaks))
        return None if None in degrees else max(d for d in degrees if d is not None)
    if isinstance(e, (sympy.Max, sympy.Min)):
        args = list(e.args)
        if any(isinstance(a, sympy.Piecewise) and rank in a.free_symbols for a in args):
            # Max(0, Piecewise((NB + rest, Eq(RANK, NPROCS - 1)), (NB, True))): the Max in each piece
            folded = sympy.piecewise_fold(e)
            if isinstance(folded, sympy.Piecewise):
                return _rank_degree(folded, rank, breaks)
        degrees = [_rank_degree(a, rank, breaks) for a in args]
        if None in degrees:
            return None
        for i, a in enumerate(args):  # where two arguments cross
            for b in args[i + 1:]:
                if not _linear_break(a - b, rank, breaks):
                    return None
        return max(d for d in degrees if d is not None)
    return None


def _conditions(cond, rank: sympy.Symbol, breaks: set) -> bool:
    if cond in (sympy.true, sympy.false) or rank not in getattr(cond, "free_symbols", set()):
        return True
    if isinstance(cond, (sympy.And, sympy.Or, sympy.Not)):
        return all(_conditions(c, rank, breaks) for c in cond.args)
    if isinstance(cond, sympy.core.relational.Relational):
        return _linear_break(cond.lhs - cond.rhs, rank, breaks)
    return False


def _linear_break(diff: sympy.Expr, rank: sympy.Symbol, breaks: set) -> bool:
    """`diff` = a·RANK + f with a a nonzero number and f free of RANK: record −f/a, where its sign changes."""
    diff = sympy.expand(diff)
    a = diff.coeff(rank, 1)
    rest = sympy.expand(diff - a * rank)
    if rank in rest.free_symbols or not a.is_number:
        return False
    if a != 0:
        breaks.add(-rest / a)
    return True


def slowest_rank(total: CompiledFormula, columns: dict[str, numpy.ndarray | float],
                 size: int) -> tuple[numpy.ndarray, numpy.ndarray]:
    """An SPMD program takes as long as its slowest rank: at every point, the formula's maximum over RANK = 0 …
    NPROCS−1 (ties to the lowest rank, as `sad analyze` chooses). Returns (times, ranks). Only the rank
    classes' representatives are evaluated (`rank_classes`), so the work does not grow with NPROCS; where
    the classes cannot be found, every rank is. Raises RankError when NPROCS is not a positive integer at
    some point or, enumerating, the (point, rank) pairs are too many."""
    nprocs = numpy.broadcast_to(numpy.asarray(columns[NPROCS], dtype=float), (size,))
    if not numpy.all((nprocs >= 1) & (numpy.mod(nprocs, 1) == 0)):
        raise RankError("NPROCS must be a positive integer to find the slowest rank")
    classes = rank_classes(total.expr)
    if classes is not None:
        return _slowest_of_classes(total, columns, size, nprocs, classes)
    counts = nprocs.astype(numpy.int64)
    if counts.sum() > MAX_RANK_POINTS:
        raise RankError(f"the slowest rank is sought by evaluating every rank (RANK occurs in a form whose rank "
                        f"classes sad cannot find): {int(counts.sum())} (point, rank) pairs, more than "
                        f"{MAX_RANK_POINTS}; sweep fewer points or smaller NPROCS, or bind RANK with -D")
    owner = numpy.repeat(numpy.arange(size), counts)
    starts = numpy.cumsum(counts) - counts
    index = numpy.arange(counts.sum())
    expanded = {k: (numpy.broadcast_to(numpy.asarray(v, dtype=float), (size,))[owner]
                    if isinstance(v, numpy.ndarray) else v) for k, v in columns.items()}
    expanded[RANK] = (index - starts[owner]).astype(float)
    times = total(expanded, len(index))
    worst = numpy.maximum.reduceat(times, starts)
    first = numpy.minimum.reduceat(numpy.where(times == worst[owner], index, len(index)), starts)
    return worst, (first - starts).astype(float)


def _slowest_of_classes(total: CompiledFormula, columns: dict[str, numpy.ndarray | float], size: int,
                        nprocs: numpy.ndarray, classes: list[sympy.Expr]) -> tuple[numpy.ndarray, numpy.ndarray]:
    worst = numpy.full(size, -numpy.inf)
    best_rank = numpy.zeros(size)
    for representative in classes:
        names = sorted(free_symbols(representative), key=lambda s: s.name)
        function = _lambdify(names, representative)
        with numpy.errstate(all="ignore"):
            ranks = numpy.broadcast_to(numpy.asarray(
                function(*[numpy.broadcast_to(numpy.asarray(columns[n.name], dtype=float), (size,))
                           for n in names]), dtype=float), (size,))
        ranks = numpy.clip(numpy.nan_to_num(ranks), 0, nprocs - 1)
        at = dict(columns)
        at[RANK] = ranks
        times = total(at, size)
        better = (times > worst) | ((times == worst) & (ranks < best_rank))
        worst = numpy.where(better, times, worst)
        best_rank = numpy.where(better, ranks, best_rank)
    return worst, best_rank
