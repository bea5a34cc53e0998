"""The trips of an innermost loop whose count differs from entry to entry (a triangular nest), as a few points.

Place in the data flow: prediction. sad.predict.loopcost prices a loop's iteration from the trips per entry of
its nest (``loop_trips``: iterations over entries, the mean); where the innermost loop's bounds depend on an
enclosing loop's index (``for (k = i + 1; k < M; k++)``, ``for (k = 0; k < j; k++)``), its walks cover a
different number of rows at every entry, and what an iteration costs is not linear in that number: nothing
from the TLBs or the next cache level up to a reach, then several ns an access (Jensen's inequality: the cost
at the mean is below the mean cost). LU at n = 2000 walks a column over 0 to 1999 rows, 667 on average (46 KiB
between reuses, no TLB miss); a third of its iterations are in walks of more than 1 500 rows 16 000 B apart,
which miss the TLBs (measured here at -O2: 5.2 s where the mean's price is 2.0 s). The loop is then priced at
``trip_points``' points, each weighed by the iterations it stands for.

The entries are sampled, not enumerated: each enclosing loop whose index the trips or an inner loop's bounds
mention takes evenly spaced values of its range (``SAMPLES`` entries at most in all) at each value of the loops
outside it, each standing for its share of the range, and another loop multiplies the entries by its count
(``for (j = i; j < n; j++) for (k = 0; k < i; k++)``: n - i entries of i trips); the iterations (trips x
entries) are then cut into ``POINTS`` parts of equal weight, each given by its mean trips.

Each point also carries the enclosing loops' trips at its entries (``TripPoint.outer``, their mean over the
point's iterations): what an innermost iteration reuses depends on them too. Cholesky's ``A[i][j] -= A[i][k] *
A[j][k]`` (k < j < i) reads rows 0..i-1 again at the next i: 16 MB between reuses at i = 2 000, next to
nothing at i = 100, and the iterations of many trips (j large) are those of large i, the rows beyond the L3's
reach; at the j loop's mean trips (its mean over the entries, 1 000) every point reused 5 MB, from L3.
"""
from __future__ import annotations

from typing import NamedTuple

import sympy

from sad import ir
from sad.analysis.bindings import bind, evaluate
from sad.analysis.counting import trip_count
from sad.predict import opmodel
from sad.predict.sourceloops import SourceLoop

SAMPLES = 256
"""Entries sampled at most: each of d enclosing loops whose range is sampled takes SAMPLES ** (1/d) values of it
(16 for two such loops, 6 for three)."""
POINTS = 8
"""Points the iterations are cut into (equal shares of them). Each point stands for its share at its mean trips,
so the convexity within a share is lost: in LU at n = 2 000 the top quarter of the iterations walks 1 348 to
1 999 rows, one point at 1 580 (near the TLBs' reach of this host, hardly a miss), where 14 % of all iterations
walk beyond 1 536. In eighths the top one is 1 558 to 1 999 at 1 711. Predicted with the development suite's
measured times unchanged (-O2, LARGE): lu 2.97 -> 3.22 s (5.76 s measured), ludcmp -39 -> -34 %, lu_p -38 -> -33 %,
the medians unchanged; at -O0 nussinov -51 -> -48 %; in-cache within 0.4 points. The price: twice the pricing
of such loops."""


class TripPoint(NamedTuple):
    """One point of a nest's iterations: the innermost loop's trips per entry there, the share of the
    iterations it stands for, and the enclosing loops' trips per entry there (loop id, mean over the point's
    iterations), outermost first."""
    trips: int
    share: float
    outer: tuple[tuple[int, float], ...]


def nest_points(loop: SourceLoop, bindings: dict[str, sympy.Expr] | None = None,
                trips: dict[int, sympy.Expr] | None = None) -> list[TripPoint]:
    """``POINTS`` points of the loop's iterations (``TripPoint``), where the innermost loop's trip count
    depends on enclosing loops' indices and every bound is a number once ``bindings`` and those indices are
    given; [] otherwise (one count for every entry, or one a run must tell). ``trips``: the mean trips per
    entry of the nest's loops by id (sad.predict.loopcost), which give a size the bounds name but the bindings
    do not (``sized``)."""
    inner = loop.nest[-1]
    enclosing = [lp for lp in loop.nest[:-1] if isinstance(lp, ir.Do)]
    if not isinstance(inner, ir.Do) or len(enclosing) != len(loop.nest) - 1:
        return []
    bindings = sized(enclosing, dict(bindings or {}), trips or {})
    bounds = _bounds(inner, bindings)
    if bounds is None or not bounds[2].is_number or bounds[2] == 0:
        return []
    count = trip_count(*bounds)
    referenced = _referenced(count, enclosing, bindings)
    if not referenced or not {s.name for s in count.free_symbols} & referenced:
        return []
    weighted: list[Entry] = []
    per = max(2, round(SAMPLES ** (1 / len(referenced))))
    if not _sample(enclosing, referenced, per, 0, {}, 1.0, count, bindings, weighted):
        return []
    return _cut(weighted)


class Entry(NamedTuple):
    """Sampled entries of the innermost loop: its trips there, the entries they stand for, and the enclosing
    loops' trips per entry there (loop id, trips), outermost first."""
    trips: float
    entries: float
    outer: tuple[tuple[int, float], ...]


def sized(enclosing: list[ir.Do], bindings: dict[str, sympy.Expr], trips: dict[int, sympy.Expr]
          ) -> dict[str, sympy.Expr]:
    """``bindings`` with the sizes the enclosing loops' mean trips tell: a loop whose bounds name one name that
    is neither bound nor an enclosing index, and no index, runs (hi - lo) / step + 1 times an entry, which its
    mean trips give (PolyBench's ``kernel_lu(int n, ...)``: ``for (i = 0; i < n; i++)`` 2000 times an entry
    is n = 2000, which the counts know from the call and the loop's bounds do not)."""
    indices = {do.index for do in enclosing}
    for do in enclosing:
        bounds = _bounds(do, bindings)
        mean = trips.get(id(do))
        if bounds is None or mean is None or not mean.is_number or not bounds[2].is_number or bounds[2] == 0:
            continue
        free = {s for e in bounds for s in e.free_symbols}
        unknown = [s for s in free if s.name not in indices]
        if len(unknown) != 1 or len(free) != 1:
            continue
        lo, hi, step = bounds
        solved = sympy.solve(sympy.Eq((hi - lo) / step + 1, mean), unknown[0])
        if len(solved) == 1 and solved[0].is_number:
            bindings[unknown[0].name] = sympy.Integer(round(float(solved[0])))
    return bindings


def _bounds(do: ir.Do, bindings: dict[str, sympy.Expr]) -> tuple[sympy.Expr, sympy.Expr, sympy.Expr] | None:
    lo, hi = opmodel.subscript(do.lo), opmodel.subscript(do.hi)
    step = opmodel.subscript(do.step) if do.step is not None else sympy.Integer(1)
    if lo is None or hi is None or step is None:
        return None
    return bind(lo, bindings), bind(hi, bindings), bind(step, bindings)


def _referenced(trips: sympy.Expr, enclosing: list[ir.Do], bindings: dict[str, sympy.Expr]
                ) -> set[str] | None:
    """The indices of the enclosing loops that the trips or an inner enclosing loop's bounds mention (their values
    are sampled; the other loops only multiply the entries); None where a bound is not a formula of numbers and
    indices (a parameter left unbound, a call)."""
    names = {s.name for s in trips.free_symbols}
    for do in reversed(enclosing):
        bounds = _bounds(do, bindings)
        if bounds is None:
            return None
        names |= {s.name for e in bounds for s in e.free_symbols}
    indices = {do.index for do in enclosing}
    return names & indices if names <= indices else None


def _sample(loops: list[ir.Do], referenced: set[str], per: int, depth: int, at: dict[sympy.Symbol, sympy.Integer],
            weight: float, trips: sympy.Expr, bindings: dict[str, sympy.Expr], out: list[Entry],
            counts: tuple[tuple[int, float], ...] = ()) -> bool:
    """Adds the entries (``Entry``) over ``loops[depth:]`` at the outer values ``at`` (``counts``: the trips of
    ``loops[:depth]`` there): a loop whose index is referenced takes ``per`` evenly spaced values of its range,
    each standing for its share of it, another multiplies the entries by its count; False where a bound or the
    trips are not a number there."""
    if depth == len(loops):
        value = evaluate(trips.xreplace(at))
        if value is None:
            return False
        out.append(Entry(value, weight, counts))
        return True
    do = loops[depth]
    bounds = _bounds(do, bindings)
    assert bounds is not None   # _referenced checked it
    lo, hi, step = (evaluate(e.xreplace(at)) for e in bounds)
    if lo is None or hi is None or step is None or step == 0:
        return False
    count = max(0, int((hi - lo) // step) + 1)
    if count == 0:
        return True
    counts = (*counts, (id(do), float(count)))
    if do.index not in referenced:
        return _sample(loops, referenced, per, depth + 1, at, weight * count, trips, bindings, out, counts)
    taken = min(count, per)
    symbol = sympy.Symbol(do.index)
    for k in range(taken):
        # the middle of each of `taken` equal parts of the range
        value = int(lo + step * int((k + 0.5) * count / taken))
        inner = {**at, symbol: sympy.Integer(value)}
        if not _sample(loops, referenced, per, depth + 1, inner, weight * count / taken, trips, bindings, out,
                       counts):
            return False
    return True


def _cut(weighted: list[Entry]) -> list[TripPoint]:
    """``POINTS`` points of equal shares of the iterations (trips x entries): each its mean trips, rounded, and
    the enclosing loops' mean trips over its iterations; [] where every entry has the same trips or none runs."""
    rows = sorted((e for e in weighted if e.trips > 0), key=lambda e: e.trips)
    total = sum(e.entries * e.trips for e in rows)
    if not rows or total <= 0 or rows[0].trips == rows[-1].trips:
        return []
    points: list[TripPoint] = []
    bucket: list[tuple[Entry, float]] = []        # (entries, iterations of them in this point)
    edge = total / POINTS
    filled = 0.0
    for entry in rows:
        w = entry.entries * entry.trips
        while w > 0:
            room = edge * (len(points) + 1) - filled
            part = min(w, room) if len(points) < POINTS - 1 else w
            bucket.append((entry, part))
            filled += part
            w -= part
            if len(points) < POINTS - 1 and filled >= edge * (len(points) + 1) - 1e-12:
                points.append(_mean(bucket, total))
                bucket = []
    if bucket:
        points.append(_mean(bucket, total))
    return points


def _mean(bucket: list[tuple[Entry, float]], total: float) -> TripPoint:
    weight = sum(w for _, w in bucket)
    trips = max(1, round(sum(e.trips * w for e, w in bucket) / weight))
    # every entry lists the same enclosing loops in the same order (``_sample``)
    outer = tuple((loop, sum(e.outer[k][1] * w for e, w in bucket) / weight)
                  for k, (loop, _) in enumerate(bucket[0][0].outer))
    return TripPoint(trips, weight / total, outer)
