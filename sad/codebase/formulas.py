"""A routine's time formula at a reference point, and its complexity class.

Data flow: a routine's time (a sympy expression, sad.codebase.routines) and the values of its symbols at a
point (sad.codebase.points.values_at) → seconds per call; the ratio at two sizes → `1`, `n`, `n^2`, ….
Kept apart from the points themselves so that a run whose results are all cached imports no sympy.

Formulas are evaluated by a walk over their tree in floating point (sympy's own evaluation rebuilds the
formula with numbers, a hundred times slower): floors, ceilings and remainders of rational forms exactly, a
sum's trips all at once with numpy, and a nest of sums (a callee's loops bound at each trip of a caller's)
over all its trips at once as ragged arrays; what the walk does not know falls back to sympy.
"""
from __future__ import annotations

import functools
import math
import operator
from collections.abc import Callable
from typing import Any

import sympy

from sad.analysis.counting import evaluate_sums, outer, substitute
from sad.analysis.freesymbols import free_symbols
from sad.analysis.products import larger_than

Value = Any  # what the walk computes: a float at a point, a numpy array over a sum's trips

# Sizes at which the complexity class is read off: every value parameter at n1, then at n2.
_N1, _N2 = 1000.0, 2000.0
# A sum walked trip by trip (its body holds sums) is estimated from this many trips there: the class is a
# rounded logarithm of a ratio, and all 2 000 trips of STREVC's loop over the eigenvectors took 110 s.
_SAMPLED = 64


class Family:
    """Evaluations of one formula at points that differ only in the symbols `varying` (a routine's options,
    sad.codebase.options, at one reference point): a subexpression free of them has one value at the
    top and at each trip of each sum, walked once for all of them. STREVC's nine option combinations each
    walked its loop over the eigenvectors, whose sums' bodies are mostly free of SIDE and HOWMNY."""

    def __init__(self, varying: frozenset[sympy.Symbol]) -> None:
        self.varying = varying
        self.shared: dict[tuple, Value] = {}
        self.nodes = _Nodes()


class _Nodes:
    """The subexpressions of the formulas walked: for each node object, the first node equal to it met (its
    memo key) and its free symbols. A large formula holds equal subtrees that are distinct objects (a
    callee's counts bound at each call site); as dictionary keys each lookup compared them node by node
    (Basic.__eq__: a fifth of STREVC's walk). Here each object is compared once per walk (or family of
    walks), and looked up by identity after that."""

    def __init__(self) -> None:
        self.first: dict[sympy.Basic, tuple[sympy.Basic, frozenset]] = {}
        self.by_id: dict[int, tuple[sympy.Basic, int, frozenset]] = {}  # the object kept: its id stays its own

    def of(self, e: sympy.Basic) -> tuple[sympy.Basic, int, frozenset]:
        """(e, the id of the first node equal to it, its free symbols)."""
        known = self.by_id.get(id(e))
        if known is not None and known[0] is e:
            return known
        first = self.first.get(e)
        if first is None:
            first = self.first[e] = (e, free_symbols(e))
        known = self.by_id[id(e)] = (e, id(first[0]), first[1])
        return known


def evaluate(expr: sympy.Expr, values: dict[str, float], sampled: int | None = None,
             family: Family | None = None) -> float | None:
    """The formula's value with every symbol bound; None if it does not evaluate to a finite number. With
    `sampled`, a sum walked trip by trip (its body holds sums) over more trips than that is estimated from
    that many trips spread evenly over its range: an estimate, for the complexity class. With `family`,
    the values of subexpressions free of its varying symbols are shared with the family's other
    evaluations (which must give every other symbol the same value, and the same `sampled`)."""
    number: float | None
    try:
        number = _numeric(expr, values, sampled, family)
    except _Fallback:
        if larger_than(expr, _SYMPY_NODES):
            return None  # sympy's own walks (atoms, has, evalf) repeat shared subtrees: no end in sight
        try:
            number = _sympy_value(expr, values)
        except (ValueError, ZeroDivisionError, OverflowError, TypeError):
            return None
    except (ValueError, ZeroDivisionError, OverflowError, KeyError, TypeError):
        return None
    return number if number is not None and math.isfinite(number) else None


_SYMPY_NODES = 100_000  # nodes (as a tree) of a formula left to sympy at most


class _Fallback(Exception):
    """A node the float walk does not know: evaluate the whole formula with sympy instead."""


_RELATIONS = {sympy.Lt: operator.lt, sympy.Le: operator.le, sympy.Gt: operator.gt, sympy.Ge: operator.ge,
              sympy.Eq: operator.eq, sympy.Ne: operator.ne}


class _Scalars:
    """The float walk at one point: Python floats, sums exactly rounded (fsum); products by _product."""
    add = staticmethod(math.fsum)
    maximum = staticmethod(max)
    minimum = staticmethod(min)

    @staticmethod
    def floor(x: float) -> float:
        return float(math.floor(x))

    @staticmethod
    def ceiling(x: float) -> float:
        return float(math.ceil(x))

    @staticmethod
    def piecewise(e: sympy.Piecewise, v: dict) -> float:
        for value, cond in e.args:
            if _truth(cond, v, _Scalars):
                return _walk(value, v, _Scalars)
        raise _Fallback

    every = staticmethod(all)
    some = staticmethod(any)

    @staticmethod
    def negation(x: bool) -> bool:
        return not x


def early_trips(values: dict[str, float], leaving: dict[str, sympy.Expr], unbound: set[str],
                most: float, kinds_default: Callable[[str], float]) -> dict[str, float]:
    """`values` with the trips of each loop left early that the point leaves `unbound` derived from the
    flow leaving it per trip, q: min(`most`, 1/(2q)). Such a loop falls through 1 - X·q times per entry,
    so the trips and the body's probabilities cannot take their defaults apart (10 trips and an exit taken
    with probability 1/2 fall through -4 times); with these trips it is left early half of the time at
    most. A q that reads the trips of an inner loop left early is evaluated after it; a symbol of q the
    point does not give takes `kinds_default(name)`."""
    out = dict(values)
    todo = sorted(name for name in leaving if name in unbound)
    while todo:
        ready = [name for name in todo if not {s.name for s in free_symbols(leaving[name])} & set(todo) - {name}]
        for name in ready or todo[:1]:  # a cycle (not built by nested loops) is cut at its first name
            needed = {s.name: out[s.name] if s.name in out else kinds_default(s.name)
                      for s in free_symbols(leaving[name])}
            needed[name] = most
            q = evaluate(leaving[name], needed)
            out[name] = most if q is None or not q > 0 else min(most, 1.0 / (2.0 * q))
            todo.remove(name)
    return out


def _reduce(function: str | Callable) -> staticmethod:
    """An operation of the array walk that folds its arguments with a numpy ufunc (by name: numpy is
    imported only when a formula has a sum) or an operator."""
    def fold(values) -> Value:
        return functools.reduce(getattr(_np(), function) if isinstance(function, str) else function, values)
    return staticmethod(fold)


def _apply(function: str) -> staticmethod:
    """An operation of the array walk that applies a numpy ufunc (by name) to one argument."""
    def apply(x) -> Value:
        return getattr(_np(), function)(x)
    return staticmethod(apply)


class _Arrays:
    """The same walk over all the trips of a sum at once: numpy arrays indexed by the summation index."""
    add, mul = _reduce(operator.add), _reduce(operator.mul)
    maximum, minimum = _reduce("maximum"), _reduce("minimum")
    every, some = _reduce("logical_and"), _reduce("logical_or")
    floor, ceiling, negation = _apply("floor"), _apply("ceil"), _apply("logical_not")

    @staticmethod
    def piecewise(e: sympy.Piecewise, v: dict) -> Value:
        """The first branch whose condition holds, trip by trip; a branch no trip takes is not walked (as
        in the scalar walk), and a condition that holds for every trip left ends the walk."""
        np = _np()
        chosen: Value = None
        left: Value = True  # the trips no condition has held for yet
        for value, cond in e.args:
            holds = _truth(cond, v, _Arrays)
            take = np.logical_and(holds, left)
            if not np.any(take):
                continue
            x = _walk(value, v, _Arrays)
            chosen = x if chosen is None and np.all(take) else np.where(take, x, np.nan if chosen is None
                                                                            else chosen)
            left = np.logical_and(left, np.logical_not(holds))
            if not np.any(left):
                break
        if chosen is None or np.any(left) or np.any(np.isnan(chosen)):
            raise _Fallback  # no branch holds for some trip (or no value): as the scalar walk, sympy's
        return chosen


def _np():
    import numpy  # only formulas with a sum need it
    return numpy


def _numeric(e: sympy.Basic, v: dict[str, float], sampled: int | None = None, family: Family | None = None
             ) -> float:
    """A float walk over the formula's tree: rebuilding a large formula with numbers (xreplace) makes
    sympy re-evaluate every Max and Piecewise on the way, a hundred times slower. Reference points are
    floats anyway; anything unusual (intrinsics, a sum inside a sum) falls back to sympy."""
    point = _Point(v, sampled=sampled, family=family)
    return float(_walk(e, point, _Scalars))  # a complex power (a negative base) raises TypeError: no value


class _Point(dict):
    """A point's values, with the subexpressions already evaluated there. A formula shares subtrees (a
    callee's counts at each of its call sites, a loop's share in every term of its body): walked once per
    occurrence, the 1 600-line LSODA driver's formula took minutes.

    A trip of a sum is a point too, made from the point the sum is evaluated at (`outer`) with the sum's
    index bound (`index`, a number or, for all the trips at once, an array) and the walk's operations
    (`ops`). A subexpression free of the index has the value it has at the outer point, so it is evaluated
    and remembered there, once for all the trips: in STREVC's formula (a loop over the eigenvectors whose
    body holds the sums of the back substitution) the trips re-walked the same callee costs, 100 s of
    `sad check` at the sizes the complexity class is read at."""

    def __init__(self, values: dict, outer: _Point | None = None, index: sympy.Symbol | None = None,
                 ops: Any = None, sampled: int | None = None, family: Family | None = None, key: tuple = (),
                 bound: frozenset = frozenset()) -> None:
        super().__init__(values)
        self.memo: dict[int, Value] = {}  # by the id of the node's first equal (_Nodes)
        self.outer, self.index, self.ops = outer, index, ops
        # the indices this point binds beyond `outer`: a subexpression free of them is walked there
        self.bound = bound or (frozenset({index}) if index is not None else frozenset())
        self.sampled = sampled  # see evaluate
        self.trips: dict[tuple, _Point] = {}
        self.family = family  # see evaluate
        self.nodes: _Nodes = family.nodes if family is not None else outer.nodes if outer is not None else _Nodes()
        self.key = key  # the trips down to this point: the same point in each evaluation of the family

    def trip(self, index: sympy.Symbol, value: Value, ops: Any) -> _Point:
        """The point of a trip, one per index and value (a number, or an array of consecutive trips): the
        sums of a formula share their index (sad.analysis.counting's k) and limits, so that STREVC's 624
        sums over its eigenvectors walk their bodies' common subexpressions (a callee's cost, a
        probability) once per trip rather than once per sum and trip."""
        # an array of trips by its first, last and count: consecutive, or spread evenly (_trips' estimate)
        key = (index, ops, value) if isinstance(value, (int, float)) \
            else (index, ops, float(value[0]), float(value[-1]), len(value))
        point = self.trips.get(key)
        if point is None:
            point = self.trips[key] = _Point({**self, index.name: value}, self, index, ops, self.sampled,
                                             self.family, (*self.key, key))
        return point

    def ragged(self, index: sympy.Symbol, limits: tuple[int, int, bool], make: Callable[[], tuple]) -> _Point:
        """The point of all the trips of an inner sum over `index` at once, for every trip of this array
        point (`make()`: the segment of each trip, a segment per element here, and the index's values): the
        indices bound here repeated along the segments, `index` bound beside them, the same outer point. One
        per index and limits (the ids of their first equal nodes, and whether the trips are an estimate)."""
        key = (index, "ragged", *limits)
        point = self.trips.get(key)
        if point is None:
            segment, values = make()
            repeated = {s.name: _take(self[s.name], segment) for s in self.bound}
            point = self.trips[key] = _Point({**self, **repeated, index.name: values}, self.outer, index, _Arrays,
                                             self.sampled, self.family, (*self.key, key), self.bound | {index})
        return point


def _take(value: Value, segment: Value) -> Value:
    """An array point's value along the segments of a ragged one (a number stays as it is)."""
    return value[segment] if hasattr(value, "shape") and value.shape else value


def _walk(e: sympy.Basic, v: dict, ops: Any) -> Value:
    if e.is_Number:
        # sympy's Number.__float__ goes through mpmath: 11 % of a large formula's walk
        return float(e.p) if e.is_Integer else (e.p / e.q if e.is_Rational else float(e))
    if e.is_Symbol:
        return v[e.name]
    if not isinstance(v, _Point):
        return _node(e, v, ops)
    _, key, symbols = v.nodes.of(e)
    while v.outer is not None and v.bound.isdisjoint(symbols):
        v = v.outer  # see _Point
        ops = v.ops or _Scalars
    out = v.memo.get(key)
    if out is None:
        family = v.family
        if family is not None and symbols.isdisjoint(family.varying):
            at = (v.key, key)
            out = family.shared.get(at)
            if out is None:
                out = family.shared[at] = _node(e, v, ops)
            v.memo[key] = out
        else:
            out = v.memo[key] = _node(e, v, ops)
    return out


def _node(e: sympy.Basic, v: dict, ops: Any) -> Value:
    if e.is_Add:
        return ops.add(_walk(a, v, ops) for a in e.args)
    if e.is_Mul:
        return _product(e.args, v) if ops is _Scalars else ops.mul(_walk(a, v, ops) for a in e.args)
    if e.is_Pow:
        return _walk(e.base, v, ops) ** _walk(e.exp, v, ops)
    if isinstance(e, sympy.Max):
        return ops.maximum(_walk(a, v, ops) for a in e.args)
    if isinstance(e, sympy.Min):
        return ops.minimum(_walk(a, v, ops) for a in e.args)
    if isinstance(e, (sympy.floor, sympy.ceiling)):
        return _rounded(e, v, ops)
    if isinstance(e, sympy.Mod):  # sympy's Mod is the floored remainder, as Python's % and numpy's mod
        return _mod(e.args[0], e.args[1], v, ops)
    if isinstance(e, sympy.Piecewise):
        return ops.piecewise(e, v)
    if isinstance(e, sympy.Sum):
        return _sum(e, v) if ops is _Scalars else _ragged_sum(e, v)
    if isinstance(e, sympy.Abs):  # a loop bound from ABS(MF) (VODE's method flag)
        return abs(_walk(e.args[0], v, ops))
    raise _Fallback


def _product(factors: tuple[sympy.Basic, ...], v: dict) -> float:
    """A product at a point: 0 when a factor is 0, even if another divides by 0. Such a term is code behind
    a flow that is 0 at this point (an entry check that sends every call to the error return, as a flag
    argument of 100 does in ODEPACK's drivers) times the same flow's inverse that normalises the visits of
    its region: code not reached, no time. A division by 0 with no zero factor has no value."""
    out, undefined = 1.0, False
    for factor in factors:
        try:
            x = _walk(factor, v, _Scalars)
        except ZeroDivisionError:
            undefined = True
            continue
        if x == 0:
            return 0.0
        out *= x
    if undefined:
        raise ZeroDivisionError("a factor divides by 0")
    return out


def _rounded(e: sympy.floor | sympy.ceiling, v: dict, ops: Any) -> Value:
    """floor(x) or ceiling(x), exactly for x with rational coefficients: floor(n/3 + 2/3) at n = 100 is 34,
    while 100/3 + 2/3 in floating point is 33.99999999999999. x is taken over its common denominator d,
    (n + 2)/3, its integer numerator added up and divided by d with floor division, which is exact
    (ceiling(x) = -floor(-x))."""
    down = isinstance(e, sympy.floor)
    scaled = _over_denominator(e.args[0])
    if scaled is None:
        x = _walk(e.args[0], v, ops)
        return ops.floor(x) if down else ops.ceiling(x)
    d, terms = scaled
    numerator = _numerator(terms, v, ops)
    return numerator // d if down else -(-numerator // d)


def _mod(p: sympy.Expr, q: sympy.Expr, v: dict, ops: Any) -> Value:
    """Mod(p, q), exactly for an integer q and p with rational coefficients (as _floor): the numerator of p
    over its denominator d taken modulo q·d, then divided by d."""
    scaled = _over_denominator(p) if q.is_Integer else None
    if scaled is None:
        return _walk(p, v, ops) % _walk(q, v, ops)
    d, terms = scaled
    return _numerator(terms, v, ops) % (int(q) * d) / d


def _numerator(terms: tuple[tuple[int, sympy.Expr], ...], v: dict, ops: Any) -> Value:
    return ops.add(a * _walk(t, v, ops) for a, t in terms)


@functools.lru_cache(maxsize=1 << 14)
def _over_denominator(arg: sympy.Expr) -> tuple[int, tuple[tuple[int, sympy.Expr], ...]] | None:
    """arg as (Σ a·t) / d with integers a and d (t is 1 for the constant term), when every term's
    coefficient is rational; None otherwise."""
    terms = [term.as_coeff_Mul() for term in sympy.Add.make_args(arg)]
    if not all(coeff.is_Rational for coeff, _ in terms):
        return None
    d = math.lcm(*[int(coeff.q) for coeff, _ in terms])
    return d, tuple((int(coeff * d), rest) for coeff, rest in terms)


_NESTED_TRIPS = 10_000  # trips of a sum whose body holds a sum walked one by one at most (as evaluate_sums)
_CHUNK = 1 << 20  # trips of a sum evaluated at once: bounds the memory of a sum over a large size
_MOST_TRIPS = 1 << 30  # a longer sum is left to sympy (which would take minutes as well)


def _trip(v: dict, k: sympy.Symbol, value: Value, ops: Any) -> dict:
    """The point of one trip (or of all at once) of a sum over k evaluated at v (see _Point)."""
    return v.trip(k, value, ops) if isinstance(v, _Point) else {**v, k.name: value}


def _trips(lo: int, hi: int, v: dict) -> tuple[list[float], float]:
    """The trips lo … hi a sum walks one by one, and the weight of each: all of them, or where the point
    asks for an estimate (evaluate's `sampled`) and there are more, that many spread evenly, each standing
    for its share of the range."""
    count = hi - lo + 1
    most = v.sampled if isinstance(v, _Point) else None
    if most is None or count <= most:
        return [float(x) for x in range(lo, hi + 1)], 1.0
    return [float(lo + (i * (count - 1)) // (most - 1)) for i in range(most)], count / most


_outer = functools.lru_cache(maxsize=1 << 12)(outer)  # a sum's outer limit split off once, not per trip


def _sum(e: sympy.Sum, v: dict[str, float]) -> float:
    """Σ body(k) for k = a … b, the bounds whole numbers at this point: the body evaluated for all k at once
    (exact for the integer-valued summands loop counts are made of, as long as the total stays below 2^53)."""
    body, k, a, b = _outer(e)
    lo, hi = _walk(a, v, _Scalars), _walk(b, v, _Scalars)
    if not (float(lo).is_integer() and float(hi).is_integer()) or hi - lo >= _MOST_TRIPS:
        raise _Fallback
    if len(e.limits) > 1 or body.has(sympy.Sum):
        # Σ_k Σ_j f (sympy merges a sum of a sum), or a sum in a term of the body (a callee's loop under a
        # test): as sympy's evaluate_sums would, without rebuilding it with numbers
        if hi - lo >= (_CHUNK if len(e.limits) > 1 else _NESTED_TRIPS):
            raise _Fallback
        xs, weight = _trips(int(lo), int(hi), v)
        return weight * _nested_total(body, k, xs, v)
    np = _np()
    total = 0.0
    with np.errstate(all="ignore"):
        for first in range(int(lo), int(hi) + 1, _CHUNK):
            ks = np.arange(first, min(first + _CHUNK, int(hi) + 1), dtype=np.float64)
            terms = _walk(body, _trip(v, k, ks, _Arrays), _Arrays)
            total += float(np.sum(np.broadcast_to(terms, ks.shape)))
    return total


def _nested_total(body: sympy.Expr, k: sympy.Symbol, xs: list[float], v: dict) -> float:
    """Σ body(k) over the trips `xs` of a sum whose body holds sums: every trip at once, the inner sums over
    ragged arrays of all their trips (_ragged_sum), where the nest's trips stay within _RAGGED_MOST and each
    trip's value is a finite number; otherwise trip by trip (a product whose zero factor hides a division by
    zero there, code not reached, is 0 only in the scalar walk). A callee's triangular loops bound at each
    trip of a caller's triangular nest took minutes trip by trip (28 lines of Fortran, 152 s)."""
    np = _np()
    if isinstance(v, _Point) and xs:
        try:
            with np.errstate(all="ignore"):
                ks = np.array(xs, dtype=np.float64)
                terms = np.broadcast_to(_walk(body, _trip(v, k, ks, _Arrays), _Arrays), ks.shape)
                if np.all(np.isfinite(terms)):
                    return math.fsum(terms.tolist())
        except _Fallback:
            pass
    return math.fsum(_walk(body, _trip(v, k, x, _Scalars), _Scalars) for x in xs)


_RAGGED_MOST = 1 << 21  # trips of a nest walked at once at most (its arrays: 16 MiB each)


def _ragged_sum(e: sympy.Sum, v: dict) -> Value:
    """An inner sum at every trip of an array point at once: Σ body(k) for k = a … b, a and b arrays over the
    point's trips. The trips of all of them in one array (each point's trip repeated along its segment), the
    body walked over it once, added up per segment. A sum whose body holds sums takes at most the point's
    `sampled` trips of each segment, spread evenly and weighted, as _trips does trip by trip (an innermost sum
    only where all its trips would pass _RAGGED_MOST)."""
    if not isinstance(v, _Point):
        raise _Fallback
    np = _np()
    body, k, a, b = _outer(e)
    size = next((len(v[s.name]) for s in sorted(v.bound, key=str) if getattr(v[s.name], "shape", ())), None)
    if size is None:
        raise _Fallback
    lo = np.broadcast_to(np.asarray(_walk(a, v, _Arrays), dtype=np.float64), (size,))
    hi = np.broadcast_to(np.asarray(_walk(b, v, _Arrays), dtype=np.float64), (size,))
    if not (np.all(np.isfinite(lo)) and np.all(np.isfinite(hi))) or np.any(np.floor(lo) != lo) \
            or np.any(np.floor(hi) != hi):
        raise _Fallback
    counts = np.maximum(hi - lo + 1, 0).astype(np.int64)
    # an estimate (evaluate's `sampled`) samples a sum whose body holds sums, as _trips does, and an innermost
    # one too where its trips would pass _RAGGED_MOST: the nest's trips multiply
    most = v.sampled if len(e.limits) > 1 or body.has(sympy.Sum) or int(counts.sum()) > _RAGGED_MOST else None
    taken = np.minimum(counts, most) if most else counts
    if int(taken.sum()) > _RAGGED_MOST:
        raise _Fallback

    segment = np.repeat(np.arange(size), taken)  # the outer trip each inner trip belongs to

    def make() -> tuple:
        step = np.arange(len(segment)) - np.repeat(np.cumsum(taken) - taken, taken)  # within its segment
        if most:  # _trips' spread: lo + (i * (count - 1)) // (most - 1) where a segment has more trips
            count, took = np.repeat(counts, taken), np.repeat(taken, taken)
            step = np.where(count > took, (step * (count - 1)) // np.maximum(took - 1, 1), step)
        return segment, np.repeat(lo, taken) + step

    _, first_lo, _ = v.nodes.of(a)
    _, first_hi, _ = v.nodes.of(b)
    point = v.ragged(k, (first_lo, first_hi, bool(most)), make)
    terms = np.broadcast_to(_walk(body, point, _Arrays), segment.shape)
    if most:
        terms = terms * np.repeat(counts / np.maximum(taken, 1), taken)
    return np.bincount(segment, weights=terms, minlength=size)


def _truth(c: sympy.Basic, v: dict, ops: Any = _Scalars) -> Value:
    if c is sympy.true:
        return True
    if c is sympy.false:
        return False
    op = _RELATIONS.get(type(c))
    if op is not None:
        return op(_walk(c.args[0], v, ops), _walk(c.args[1], v, ops))
    if isinstance(c, sympy.And):
        return ops.every(_truth(a, v, ops) for a in c.args)  # lazily for a point: And(N > 0, M/N > 1)
    if isinstance(c, sympy.Or):
        return ops.some(_truth(a, v, ops) for a in c.args)
    if isinstance(c, sympy.Not):
        return ops.negation(_truth(c.args[0], v, ops))
    if isinstance(c, sympy.Symbol):  # a LOGICAL argument tested as it is: true for any value but 0, as in C
        return _walk(c, v, ops) != 0
    if isinstance(c, sympy.ITE):  # sympy's if-then-else, from folding Piecewise conditions
        test, then, otherwise = c.args
        if ops is _Scalars:  # lazily, as And
            return _truth(then if _truth(test, v, ops) else otherwise, v, ops)
        return _np().where(_truth(test, v, ops), _truth(then, v, ops), _truth(otherwise, v, ops))
    raise _Fallback


def _sympy_value(expr: sympy.Expr, values: dict[str, float]) -> float | None:
    subs = {s: sympy.Float(values[s.name], 15) for s in free_symbols(expr) if s.name in values}
    if any(not subs.keys().isdisjoint(sympy.Tuple(*limits[1:]).free_symbols)
           for s in expr.atoms(sympy.Sum) for limits in s.limits):
        # a sum over loop trips whose limits hold a bound value (Max(0, N) - 1) is summed only with integer
        # limits: bind the whole-number values as integers (the trips of a loop are whole numbers)
        subs = {s: sympy.Integer(int(values[s.name])) if float(values[s.name]).is_integer() else f
                for s, f in subs.items()}
    bound = substitute(expr, subs)  # xreplace, without sympy.Max's search for comparable arguments
    if bound.has(sympy.Sum):
        bound = evaluate_sums(bound)
    try:
        return float(bound)
    except (TypeError, ValueError):
        return None


def complexity(expr: sympy.Expr, base: dict[str, float], sizes: list[str],
               derive: Callable[[dict[str, float]], dict[str, float]] | None = None) -> str:
    """The growth of the formula when every size parameter grows together: `1`, `n`, `n^2`, … read off
    the ratio of its values at n = 1000 and n = 2000 (exponent rounded to the nearest integer), a sum walked
    trip by trip estimated from _SAMPLED of its trips. `derive` completes the values with those that
    follow from the sizes (a blocked loop's chosen block size)."""
    if not sizes:
        return "1"
    derive = derive or (lambda values: values)
    lo = evaluate(expr, derive({**base, **{name: _N1 for name in sizes}}), _SAMPLED)
    hi = evaluate(expr, derive({**base, **{name: _N2 for name in sizes}}), _SAMPLED)
    if lo is None or hi is None or lo <= 0 or hi <= 0:
        return "?"
    exponent = round(math.log2(hi / lo))
    return "1" if exponent <= 0 else ("n" if exponent == 1 else f"n^{exponent}")
