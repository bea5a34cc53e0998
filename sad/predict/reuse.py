"""The data part of the loop-cost model: which level of the memory hierarchy serves each array reference.

Data flow: an innermost loop (sad.predict.sourceloops) with the trips of its nest and the machine's
``Hierarchy`` → per reference of one iteration: the footprint touched between two uses of its data or line
(``reuse_footprint``: the reuse distance of the nest), the smallest level that holds it (``serving_level``:
a layer condition, with the part of a cache a walk's pitch can use: ``usable_bytes``; a ``Piecewise`` in the
size parameters), the lines it moves (several references on one line share it; a reference behind another of
its array, a stencil's A[i-1][j] behind A[i+1][j], reuses what that one brought: ``trailing``; a gather such
as h[key[i]] uses its array's lines in turn, no more bytes than the array has: ``indirect``; the lines new to a
column walk that an outer loop moves along come from where the larger footprint fits: ``fresh_lines``), the TLB misses
of walks whose pages between reuses exceed the TLBs' reach (``tlb_seconds``); a shared last cache prices the
footprints beyond what it holds whole by its measured ramp (``Level.ramp``) → ``data_seconds``: seconds per
iteration of the transfers, and what --explain shows per stream; ``transfer_seconds``: the part of them that
brings lines into L1 through the caches (the ECM model's non-overlapping transfers). sad.predict.loopcost
composes them with the in-core part (sad.predict.overlap).
"""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import sympy

from sad import ir
from sad.analysis.bindings import bind, evaluate
from sad.analysis.cost import Layout, is_strided, unit_step
from sad.ir.walk import walk
from sad.machine import walkprobe
from sad.machine.hierarchy import FIT_FRACTION, TLB_PAGES, Hierarchy, Level, tlb_conflicts
from sad.predict import opmodel
from sad.predict.sourceloops import Ref, SourceLoop, _as_ir, _fastest, _index, _mentions, _slow


def footprint(refs: list[Ref], loops: list[ir.Stmt], trips: dict[int, sympy.Expr], fastest: str,
              line: int) -> sympy.Expr:
    """Bytes the references touch while ``loops`` (innermost first) run once: per array, the elements its
    subscripts reach (a product of the trip counts of the loops they mention), at element granularity when
    one of the loops walks its fastest subscript, at line granularity otherwise. References of one array
    count once per region: the same rows (slow subscripts equal, or moved by these loops) once, rows these
    loops do not move but that differ (A[i][k] and A[j][k] over k, a stencil's A[i-1][j], A[i][j], A[i+1][j]
    over j) each: the rows of the layer condition. A loop stepping by s counts the lines between the elements it
    visits (x[i] over i += 2 touches every line of x) and the rows its references' offsets fill (A[i][j] and
    A[i+1][j] over i += 2: every row, not every other one: ``_rows_filled``)."""
    per_array: dict[tuple[str, ...], sympy.Expr] = {}
    members: dict[tuple[str, ...], list[Ref]] = {}
    indices = [_index(lp) for lp in loops]
    for ref in refs:
        region = (ref.array, *("*" if any(_mentions(e, i) for i in indices) else repr(e)
                               for e in _slow(ref, fastest)))
        members.setdefault(region, []).append(ref)
        used = [lp for lp in loops if moves(ref, lp, loops)]
        # element granularity only where a loop walks the fastest subscript by one element: A[i*n+j] over i
        # alone touches a line per row
        unit = any(_mentions(_fastest(ref, fastest), _index(lp)) and
                   not is_strided(_as_ir(ref), Layout(_index(lp), fastest)) for lp in used)
        size = sympy.Integer(ref.elem_bytes if unit else line)
        for lp in used:
            size *= trips[id(lp)]
            idx = _index(lp)
            if unit and idx is not None and unit_step(_fastest(ref, fastest), idx):
                # the elements skipped lie on the lines visited (up to a line's worth)
                size *= min(do_step(lp), max(1, line // ref.elem_bytes))
        size = _at_most_declared(size, ref)
        if region not in per_array or _bigger(size, per_array[region]):
            per_array[region] = size
    for region, size in per_array.items():
        filled = _rows_filled(members[region], loops, fastest)
        if filled > 1:
            per_array[region] = _at_most_declared(size * filled, members[region][0])
    return sympy.Add(*per_array.values()) if per_array else sympy.Integer(0)


def _rows_filled(refs: list[Ref], loops: list[ir.Stmt], fastest: str) -> int:
    """How many of the rows between two visited ones a region's references reach together: for each loop
    stepping s > 1 over a slow subscript of the form index + c in all of them, the distinct c mod s (at most
    s); a hand-unrolled A[i][j] + A[i+1][j] over i += 2 reads every row. 1 where no such loop."""
    filled = 1
    for lp in loops:
        idx, step = _index(lp), do_step(lp)
        if idx is None or step < 2:
            continue
        for position in range(len(refs[0].indices) - 1):
            residues = _offsets_mod(refs, position, fastest, idx, step)
            if residues:
                filled *= min(step, len(residues))
    return filled


def _offsets_mod(refs: list[Ref], position: int, fastest: str, idx: str, step: int) -> set[int]:
    """{c mod step} of the slow subscripts at ``position`` that are ``idx + c`` in every reference (empty
    otherwise, or where none mentions idx)."""
    symbol = sympy.Symbol(idx)
    residues: set[int] = set()
    for ref in refs:
        slow = _slow(ref, fastest)
        if len(slow) <= position or not _mentions(slow[position], idx):
            return set()
        value = opmodel.subscript(slow[position])
        offset = sympy.expand(value - symbol) if value is not None else None
        if offset is None or not offset.is_Integer:
            return set()
        residues.add(int(offset) % step)
    return residues


def first_touch_bytes(loop: SourceLoop, trips: dict[int, sympy.Expr], line: int,
                      arrays: list[str] | None = None) -> sympy.Expr:
    """Bytes of the arrays this loop touches first (or of those of `arrays`), over one run of its whole nest
    (element granularity where the nest walks an array's fastest subscript, a line per element otherwise)."""
    names = loop.first_touch if arrays is None else [a for a in loop.first_touch if a in arrays]
    refs = [r for r in loop.refs if r.array in names]
    total = sympy.Integer(0)
    for name in names:
        total += footprint([r for r in refs if r.array == name], list(reversed(loop.nest)), trips, loop.fastest, line)
    return total


def moves(ref: Ref, loop: ir.Stmt, nest: list[ir.Stmt]) -> bool:
    """Whether the next iteration of `loop` (one of `nest`) makes `ref` read other elements: its index is in
    the subscripts, or in a start read from data of a loop of the nest whose index is (CSR's val[k] for k
    from start[i] to start[i + 1] - 1: each i's row elsewhere). A start computed from the index (a triangle's
    j from 0 to i, a window from i to i + w) reads the same elements again, but for the ends."""
    idx = _index(loop)
    if idx is None:
        return False
    if any(_mentions(e, idx) for e in ref.indices):
        return True
    return any(isinstance(inner, ir.Do) and inner is not loop and any(_mentions(e, inner.index) for e in ref.indices)
               and _mentions(inner.lo, idx) and any(isinstance(n, ir.ArrayRef) for n in walk(inner.lo))
               for inner in nest)


def declared_bytes(ref: Ref) -> int | None:
    """The bytes of a reference's array as declared (every extent a constant), else None."""
    if not ref.extents or any(e is None or e <= 0 for e in ref.extents):
        return None
    return math.prod(e for e in ref.extents if e is not None) * ref.elem_bytes


def _at_most_declared(size: sympy.Expr, ref: Ref) -> sympy.Expr:
    """A footprint of one array no larger than the array: a histogram's h[key[i]] over four million i touches
    a line per i, but of a 32 KiB array (taken as 256 MiB from memory, its time 5.6x too high at -O2)."""
    cap = declared_bytes(ref)
    # a footprint in parameters stays as it is: Min in the layer conditions' relations is more than their
    # comparison with each level's size takes
    return sympy.Integer(cap) if cap is not None and size.is_number and size > cap else size


def indirect(ref: Ref) -> bool:
    """Whether a subscript is read from data (another array's element, a function's value): x[col[k]]."""
    return any(isinstance(n, (ir.ArrayRef, ir.FuncCall)) for e in ref.indices for n in walk(e))


def _indirect_reuse(ref: Ref, loop: SourceLoop, trips: dict[int, sympy.Expr], line: int,
                    counted: list[Ref]) -> sympy.Expr | None:
    """The bytes between two uses of one line of an array read at subscripts taken from data, spread over
    the array: its lines are used in turn, about one every (array's lines) iterations, and between two uses
    of one of them the iterations touch the array (at most) and what the other references bring in that
    many iterations. None where the array's size is not declared."""
    size = declared_bytes(ref)
    if size is None:
        return None
    innermost = loop.nest[-1]
    per_iteration = footprint([r for r in counted if r.array != ref.array], [innermost],
                              {**trips, id(innermost): sympy.Integer(1)}, loop.fastest, line)
    return sympy.Integer(size) + max(1, size // line) * per_iteration


def _bigger(a: sympy.Expr, b: sympy.Expr) -> bool:
    """Whether the footprint ``a`` is taken over ``b`` for one region: the larger of two numbers; of formulas, the
    one in more parameters, or the longer in the same ones (a guess: which is larger depends on their values).
    Numbers compared by their operations were all equal, so the last reference's footprint stood for the
    region: floyd's path[i][k] (a column, 96 000 B over i and j at N = 1 500) for path[i][j] (the whole 18 MB
    matrix), which priced the matrix's sweep from L2 where it streams from L3 and memory."""
    if a.is_number and b.is_number:
        return bool(a > b)
    return len(a.free_symbols) > len(b.free_symbols) or (a.free_symbols == b.free_symbols and
                                                         sympy.count_ops(a) >= sympy.count_ops(b))


def reuse_footprint(ref: Ref, loop: SourceLoop, trips: dict[int, sympy.Expr], line: int,
                    refs: list[Ref] | None = None) -> sympy.Expr:
    """The bytes touched between two uses of the data (or cache line) ``ref`` reads in one iteration: the
    nest inside the innermost enclosing loop whose next iteration reuses it (its index is not in the
    reference, or moves it along its fastest subscript only: the same line again for a column walk, the
    same elements shifted by one for a reference the inner loops sweep along that subscript, a sliding
    window: durbin's ``r[k - i - 1]`` over i, k's next iteration reads them all again but one). With no such
    loop, the whole nest (reuse from one run of the nest to the next). ``refs``: count only these references
    (default all of the loop's)."""
    counted = loop.refs if refs is None else refs
    spread = _indirect_reuse(ref, loop, trips, line, counted) if indirect(ref) else None
    if spread is not None:
        whole = _nest_reuse(ref, loop, trips, line, counted)
        return spread if not whole.is_number or whole > spread else whole
    return _nest_reuse(ref, loop, trips, line, counted)


def neighbour_footprint(ref: Ref, loop: SourceLoop, trips: dict[int, sympy.Expr], line: int) -> sympy.Expr | None:
    """The bytes touched between two uses of ``ref``'s data where a neighbour of the loop (``SourceLoop.neighbours``,
    another innermost loop in the same enclosing loop) runs before it and touches the same elements in the same
    iteration of that loop (its reference with the neighbour's index read as this loop's is ``ref``'s): what all
    of them touch in one such iteration, each over its own loop, at most. atax at LARGE (-O2, rows 16 800 B): the
    second loop's A[i][j] was priced from memory (31 MB between reuses over the nest) where the first loop had
    just read the row (66 KB, L2): +25 % predicted, -1 % now; at the smaller size +37 -> +4 %; no other
    development kernel moved by more than 4 %, none at -O0 (its loops are bound by their chains). None where no
    earlier neighbour touches them, or a trip count is not known."""
    return None if _earlier_toucher(ref, loop) is None else _iteration_footprint(loop, trips, line)


def _iteration_footprint(loop: SourceLoop, trips: dict[int, sympy.Expr], line: int) -> sympy.Expr | None:
    """What the loop and its neighbours touch in one iteration of their enclosing loop, each over its own loop;
    None where a trip count is not known."""
    loops = [(loop.refs, loop.nest[-1]), *((near.refs, near.nest[-1]) for near in loop.neighbours)]
    if any(id(lp) not in trips for _, lp in loops):
        return None
    return sympy.Add(*(footprint(refs, [lp], trips, loop.fastest, line) for refs, lp in loops))


def _earlier_toucher(ref: Ref, loop: SourceLoop) -> SourceLoop | None:
    """The last neighbour before the loop that touches ``ref``'s elements in the same iteration of their
    enclosing loop (``neighbour_footprint``); None where none does."""
    return max((near for near in loop.neighbours if near.line < loop.line
                and any(_same_elements(ref, loop, other, near) for other in near.refs)),
               key=lambda near: near.line, default=None)


def _written_before(ref: Ref, loop: SourceLoop) -> bool:
    """Whether a write of the loop stored the elements ``ref`` reads a few iterations of the loop before (a
    recurrence: adi's ``p[i][j] = -c / (a * p[i][j - 1] + b)`` reads what the iteration before wrote): the
    write's stream brought those lines, so the read moves none. Priced as a stream of its own, adi's
    p[i][j - 1] and q[i][j - 1] came from memory (23 MB between reuses over the nest)."""
    mine = _parsed(ref)
    if mine is None:
        return False
    for other in loop.refs:
        theirs = _parsed(other) if other.write and other.array == ref.array else None
        if theirs is None or len(theirs) != len(mine):
            continue
        k = _steps_ahead(mine, theirs, loop.nest[-1])
        if k is not None and k * ref.elem_bytes <= WRITTEN_AHEAD:
            return True
    return False


def _parsed(ref: Ref) -> list[sympy.Expr] | None:
    """The reference's subscripts as formulas (opmodel.subscript); None where one is not such a formula."""
    subscripts = [opmodel.subscript(e) for e in ref.indices]
    return None if any(e is None for e in subscripts) else subscripts


WRITTEN_AHEAD = 4096
"""Bytes of its own writes a loop reads back from L1 at most (a recurrence's distance; a quarter of the
smallest L1 data cache in use)."""


def _same_elements(ref: Ref, loop: SourceLoop, other: Ref, near: SourceLoop) -> bool:
    """Whether ``other`` (a reference of the neighbour ``near``) reaches ``ref``'s elements: the same array and
    subscripts, the neighbour's index read as this loop's."""
    if other.array != ref.array or len(other.indices) != len(ref.indices) or loop.index is None:
        return False
    mine, theirs = _parsed(ref), _parsed(other)
    if mine is None or theirs is None:
        return False
    rename = {sympy.Symbol(near.index): sympy.Symbol(loop.index)} if near.index is not None else {}
    return all(sympy.expand(a - b.xreplace(rename)) == 0 for a, b in zip(mine, theirs))


def _nest_reuse(ref: Ref, loop: SourceLoop, trips: dict[int, sympy.Expr], line: int, counted: list[Ref]
                ) -> sympy.Expr:
    """reuse_footprint from the nest's loops alone."""
    inner_first = list(reversed(loop.nest))
    d = _reusing_depth(ref, loop, 1)
    return footprint(counted, inner_first[:d] if d is not None else inner_first, trips, loop.fastest, line)


def _reusing_depth(ref: Ref, loop: SourceLoop, start: int) -> int | None:
    """Depth (1: the loop around the innermost) of the first loop from ``start`` out whose next iteration
    reuses ``ref``'s data or line: its index is not in the reference, or moves it along its line only."""
    inner_first = list(reversed(loop.nest))
    strided = is_strided(_as_ir(ref), Layout(loop.index, loop.fastest))
    for d in range(start, len(inner_first)):
        idx = _index(inner_first[d])
        fast = _fastest(ref, loop.fastest)
        # a step only a run knows (an FFT's `i += len` over blocks of len / 2) may leave the line and the
        # elements the inner loops swept: no reuse along the line is assumed
        along_line = idx is not None and _mentions(fast, idx) and (strided or unit_step(fast, idx)) and \
            not any(_mentions(e, idx) for e in _slow(ref, loop.fastest)) and constant_step(inner_first[d])
        if not moves(ref, inner_first[d], inner_first) or along_line:
            return d
    return None


def fresh_lines(ref: Ref, loop: SourceLoop, trips: dict[int, sympy.Expr], line: int, outer: int = 1
                ) -> tuple[float, sympy.Expr] | None:
    """A column walk whose lines the next iteration of an enclosing loop reuses by moving along them
    (transposing b[j][i] = a[i][j] over j: i's next iteration writes the next element of each line) reads a
    line it has not used before once every (elements a line holds) iterations of that loop: (that share,
    the bytes the nest touched since the line was last used: the footprint up to the next loop out that
    reuses it, or the whole nest). None for any other reference. The serving level of ``reuse_footprint``
    prices the other uses; these lines come from where that larger footprint fits (ECM's transfers from
    each level, Kerncraft's layer conditions per level). ``outer``: the source iterations of the enclosing loop
    one pass of the compiled loop covers (gcc vectorized it): the walk moves that many elements a pass, so a
    share that many times larger of its accesses finds a new line (threemm's B[k][j] over k with j vectorized by
    2, -O2: the probe's walk 8 000 B apart over 1 000 rows timed 1.8-2.0 ns an access moving 16 B a pass, 1.4-1.6
    moving 8 B, pinned, the same minutes on this host)."""
    if not is_strided(_as_ir(ref), Layout(loop.index, loop.fastest)) or indirect(ref):
        return None
    d = _reusing_depth(ref, loop, 1)
    inner_first = list(reversed(loop.nest))
    if d is None or not moves(ref, inner_first[d], inner_first):
        return None
    share = min(1.0, ref.elem_bytes * do_step(inner_first[d]) * (outer if d == 1 else 1) / line)
    beyond = _reusing_depth(ref, loop, d + 1)
    loops = inner_first[:beyond] if beyond is not None else inner_first
    return share, footprint(loop.refs, loops, trips, loop.fastest, line)


@dataclass(frozen=True)
class Walk:
    """A strided reference's walk between two reuses: ``pitch`` bytes between consecutive accesses and the
    ``bytes`` of the lines it touches (a line per access), which must stay resident for the reuse."""
    pitch: sympy.Expr
    bytes: sympy.Expr


def usable_bytes(level: Level, pitch: sympy.Expr, line: int, page: int = 0) -> sympy.Expr:
    """Bytes of ``level`` a walk with this pitch can keep (``Level.effective_bytes``: ways × the sets its
    lines map to × line). A number for a numeric pitch; for a symbolic one a Piecewise on the largest divisor
    of the level's span (sets × line) that divides the pitch, which is that gcd: a sweep over the size shows
    the drops at powers of two. Without the level's geometry, or for a pitch that is not a whole number of
    bytes, the whole size."""
    assert level.size_bytes is not None
    full = sympy.Integer(level.size_bytes)
    if level.ways <= 0 or level.sets <= 0:
        return full
    pitch = sympy.sympify(pitch)
    if pitch.is_Number:
        return sympy.Integer(level.effective_bytes(int(pitch), line, page)) if pitch.is_Integer else full
    pieces = [(sympy.Integer(usable), sympy.Eq(sympy.Mod(pitch, d), 0))
              for d, usable in _capacities(level, line, page)]
    return sympy.Piecewise(*pieces, (full, True))


def _capacities(level: Level, line: int, page: int = 0) -> list[tuple[int, int]]:
    """(d, bytes usable) for each divisor d of the level's span (sets × line) above one line, largest first:
    what a walk keeps whose pitch has gcd d with the span (``Level.effective_bytes`` of a pitch of d)."""
    return [(d, level.effective_bytes(d, line, page) or 0) for d in _span_divisors(level, line)]


def _span_divisors(level: Level, line: int) -> list[int]:
    """The divisors of a level's span (sets × line) above one line, largest first: the pitches whose gcd
    with the span decides which of its sets a walk reaches."""
    lb = level.line_bytes or line
    return [d for d in sorted(sympy.divisors(level.sets * lb), reverse=True) if d > lb]


def serving_level(bytes_between_reuses: sympy.Expr, hierarchy: Hierarchy, write: bool,
                  strided: bool = False, walk: Walk | None = None, one_set: sympy.Expr | int = 0,
                  ) -> sympy.Expr:
    """Seconds per line from the level that serves a reference: the smallest cache that holds the footprint
    between reuses (with the layer-condition safety factor FIT_FRACTION), memory otherwise. For a strided
    walk (``walk``) the level must also hold the walk's lines within the capacity its pitch can use
    (``usable_bytes``: set conflicts of a power-of-two pitch). ``one_set``: 1 / s for a strided walk that
    crowds s L1 sets (``one_set_shares``; a Piecewise of such values for a symbolic pitch), 0 when it does
    not: a level with a calibrated one-set figure then costs its column cost + (that figure - the column
    cost) × one_set². A Piecewise in the program's size parameters: a sweep across the cache sizes shows
    the steps."""
    share = sympy.sympify(one_set)
    weight = sympy.Piecewise(*[(v ** 2, c) for v, c in share.args]) if isinstance(share, sympy.Piecewise) \
        else share ** 2

    def cost(level: Level) -> sympy.Expr:
        if not strided:
            return sympy.Float(level.store_line_s if write else level.line_s, 6)
        column = level.column_store_s if write else level.column_s
        one = level.one_set_store_s if write else level.one_set_s
        figure = sympy.Float(column, 6)
        if walk is not None and not write and level.column_even_s:
            figure = even_lines(walk.pitch, hierarchy.line_bytes, sympy.Float(level.column_even_s, 6), figure)
        if not one or one <= column or weight == 0:
            return figure
        return figure + weight * sympy.Float(one - column, 6)
    return by_serving_level(bytes_between_reuses, hierarchy, walk, cost)


def even_lines(pitch: sympy.Expr, line: int, even: sympy.Expr, odd: sympy.Expr) -> sympy.Expr:
    """``even`` for rows an even number of lines apart (every access of the walk on a line of one parity:
    ``Level.column_even_s``), else ``odd``; a Piecewise where the pitch is a formula."""
    if pitch.is_number:
        return even if float(pitch) % (2 * line) == 0 else odd
    return sympy.Piecewise((even, sympy.Eq(sympy.Mod(pitch, 2 * line), 0)), (odd, True))


def by_serving_level(bytes_between_reuses: sympy.Expr, hierarchy: Hierarchy, walk: Walk | None,
                     value: Callable[[Level], sympy.Expr]) -> sympy.Expr:
    """Piecewise: value(level) of the first level that holds the footprint (and the walk), memory's last."""
    pieces = []
    levels = hierarchy.levels
    for k, level in enumerate(levels):
        figure = value(level)
        if level.size_bytes is None:
            pieces.append((figure, True))
            break
        if level.ramp and k + 1 < len(levels):
            # a shared last cache: the measured share of the lines that come from the next level (``Level.ramp``:
            # 0 at the footprint the level's own figure was timed at), linear between two measured footprints
            beyond = value(levels[k + 1])
            (b0, s0), line, page = level.ramp[0], hierarchy.line_bytes, hierarchy.page_bytes
            pieces.append((figure + sympy.Float(s0, 4) * (beyond - figure),
                           _holds(level, bytes_between_reuses, walk, line, page, b0)))
            for (b0, s0), (b1, s1) in zip(level.ramp, level.ramp[1:]):
                share = sympy.Float(s0, 4) + sympy.Float((s1 - s0) / (b1 - b0), 6) * (bytes_between_reuses - b0)
                pieces.append((figure + share * (beyond - figure),
                               _holds(level, bytes_between_reuses, walk, line, page, b1)))
            continue
        pieces.append((figure, _holds(level, bytes_between_reuses, walk, hierarchy.line_bytes, hierarchy.page_bytes)))
    if not pieces or pieces[-1][1] is not True:
        pieces.append((pieces[-1][0] if pieces else sympy.Integer(0), True))
    return sympy.Piecewise(*pieces)


def _holds(level: Level, footprint_bytes: sympy.Expr, walk: Walk | None, line: int, page: int = 0,
           bound: int | None = None):
    """The layer condition of one level: the footprint fits its size, and a walk's lines the part of it the
    walk's pitch can use (``usable_bytes``; both with the safety factor FIT_FRACTION). For a symbolic pitch
    the second part is: for every divisor d of the level's span that would shrink the usable part, d does not
    divide the pitch or the lines fit what is left (no Piecewise inside a relational: sympy would solve it)."""
    assert level.size_bytes is not None
    fraction = sympy.Rational(str(FIT_FRACTION))
    fits = sympy.Le(footprint_bytes, bound if bound is not None else level.fit_bytes())
    if walk is None or level.ways <= 0 or level.sets <= 0:
        return fits
    pitch = sympy.sympify(walk.pitch)
    if pitch.is_Number:
        usable = usable_bytes(level, pitch, line, page)
        return fits if usable == level.size_bytes else sympy.And(fits, sympy.Le(walk.bytes, usable * fraction))
    limits = []
    for d, usable in _capacities(level, line, page):
        if usable < level.size_bytes:
            # unevaluated: sympy's assumption queries on the Max of a trip count take seconds here, and
            # binding the size rebuilds (and so evaluates) every piece anyway
            limits.append(sympy.Or(sympy.Ne(sympy.Mod(pitch, d, evaluate=False), 0, evaluate=False),
                                   sympy.Le(walk.bytes, usable * fraction, evaluate=False)))
    return sympy.And(fits, *limits)


def one_set_shares(pitch: sympy.Expr, hierarchy: Hierarchy, window: float | None
                   ) -> list[tuple[sympy.Rational | int, sympy.Basic]]:
    """(1 / s, condition) pieces for a column walk with rows ``pitch`` bytes apart whose lines fall into s sets
    of the L1 (``Level.sets_reached``), where the core keeps more of the walk's accesses in flight (``window``:
    reorder-buffer entries / instructions per iteration) than those sets have ways (ways × s < window): then
    the fills of the lines in flight evict each other before their loads complete, and a level beyond L1
    serves each access at its column cost + the excess of its calibrated one-L1-set cost (``Level.one_set_s``,
    rows L1 sets × line apart) / s²: each set has 1/s of the accesses in flight, and the s sets fill side by
    side. The piece's value is 1 / s (``serving_level`` squares it). Otherwise (0, True): the calibrated
    column costs stand. A numeric pitch gives one piece; a symbolic one a piece per divisor d of the L1's span
    (sets × line) for which d divides the pitch (largest first: the gcd of pitch and span).

    Measured on this host (AMD EPYC, Zen 1; L1 8 ways × 64 sets, VIPT: its sets are the page offset's, the
    same for the program and the cache; a 5-instruction column sum at -O2, about 38 iterations in a
    192-entry window), per access against 1.2 ns for a pitch of an odd number of lines: rows 4096 B apart
    (one set) 3.4-4.2 ns from L2, 8.7-9.4 ns from L3; 2048 B (two sets) 2.2 / 3.3-3.6 ns (the rule: 1.5 / 3.2);
    1024 B and 3072 B (four) 1.2 / 1.3-2.3 ns (rule 1.0 / 1.8); 512 B (eight: 64 ways > 38) no excess; the
    same walks at -O0 (27 instructions, 7 iterations in flight, fewer than 8 ways) show none. A
    read-modify-write walk from L3: 25 / 13.7 / 3.1 ns for one / two / four sets (rule 25 / 7.4 / 3.0)."""
    l1 = hierarchy.levels[0] if hierarchy.levels else None
    if not window or l1 is None or l1.size_bytes is None or l1.ways <= 0 or l1.sets <= 0 or \
            not any(lv.one_set_s > 0 or lv.one_set_store_s > 0 for lv in hierarchy.levels):
        return [(0, sympy.true)]
    line = hierarchy.line_bytes
    pitch = sympy.sympify(pitch)
    if pitch.is_Number:
        crowded = pitch.is_Integer and int(pitch) > line and l1.ways * l1.sets_reached(int(pitch), line) < window
        return [(sympy.Rational(1, l1.sets_reached(int(pitch), line)), sympy.true)] if crowded else [(0, sympy.true)]
    pieces: list[tuple[sympy.Rational | int, sympy.Basic]] = []
    for d in _span_divisors(l1, line):
        sets = l1.sets_reached(d, line)
        if d <= line or l1.ways * sets >= window:
            break     # smaller divisors reach more sets: none of them crowds the L1 either
        pieces.append((sympy.Rational(1, sets), sympy.Eq(sympy.Mod(pitch, d, evaluate=False), 0, evaluate=False)))
    return [*pieces, (0, sympy.true)]


def level_name(bytes_value: float, hierarchy: Hierarchy, walk: tuple[float, float] | None = None) -> str:
    """The level a footprint of this many bytes fits in (for reports); ``walk``: (pitch, bytes) of a
    strided walk, whose lines must also fit the capacity its pitch can use."""
    for level in hierarchy.levels:
        if level.size_bytes is None:
            return level.name
        if bytes_value > (level.fit_bytes() or 0):
            continue
        if walk is not None and float(walk[0]).is_integer() and \
                walk[1] > (level.effective_bytes(int(walk[0]), hierarchy.line_bytes, hierarchy.page_bytes) or 0) \
                * FIT_FRACTION:
            continue
        return level.name
    return hierarchy.levels[-1].name


Stream = tuple[Ref, float, sympy.Expr, Walk | None, sympy.Expr, sympy.Basic, tuple[float, sympy.Expr] | None,
               walkprobe.Column | None]
"""One stream of an iteration: its reference, lines per iteration, footprint between reuses, its walk if strided,
1/s of the L1 sets it crowds (0: none), when it crowds them, a walk's lines new to it (``fresh_lines``; the
data part prices them and a chain through memory waits for them, sad.predict.overlap), and a row stream's runs
where it starts anew at every entry of the loop and the walk probe can time them (``restart_rows``)."""


def streams_of(loop: SourceLoop, trips: dict[int, sympy.Expr], hierarchy: Hierarchy,
               bindings: dict[str, sympy.Expr] | None = None, window: float | None = None, outer: int = 1
               ) -> tuple[list[Stream], list[tuple]]:
    """The streams of one iteration of the compiled loop (``data_seconds`` prices them, sad.predict.overlap their
    waits) and what --explain shows of each: (label, footprint, lines, walk). ``outer``: the enclosing loop's
    source iterations a pass covers where gcc vectorized it (``fresh_lines``)."""
    line = hierarchy.line_bytes
    streams: list[Stream] = []
    shown: list[tuple] = []                       # (label, footprint, lines, walk) per stream shown
    seen: set[tuple[str, str, bool]] = set()      # (array, subscripts, write): the same reference again
    written = {(r.array, repr(r.indices)) for r in loop.refs if r.write}
    step = loop_step(loop)
    # the same reference in both arms of an if (x[j] in ``if (...) s += x[j] * y[j]; else s += x[j];``) is read
    # in every iteration: the shares of its statements add up
    run_share: dict[tuple[str, str, bool], float] = {}
    for ref in loop.refs:
        key = (ref.array, repr(ref.indices), ref.write)
        run_share[key] = min(1.0, run_share.get(key, 0.0) + ref.share)
    for ref in loop.refs:
        key = (ref.array, repr(ref.indices), ref.write)
        if key in seen:   # a[i] read and the same a[i] read again in the iteration: one stream
            continue
        seen.add(key)
        if not ref.write and (ref.array, repr(ref.indices)) in written:
            continue      # c[i] += ...: the write's figure (read for ownership + write back) covers the read
        if not ref.write and _written_before(ref, loop):
            continue      # p[i][j - 1] after p[i][j] = ...: what an earlier iteration wrote, in L1
        if not any(_mentions(e, loop.index) for e in ref.indices):
            continue
        strided = is_strided(_as_ir(ref), Layout(loop.index, loop.fastest))
        lines = (1.0 if strided else min(1.0, ref.elem_bytes * step / line)) * run_share[key]
        if _same_stream(ref, loop, shown, line, [st[0] for st in streams]):
            continue
        fp = reuse_footprint(ref, loop, trips, line)
        toucher = None if strided else _earlier_toucher(ref, loop)
        near = None if toucher is None else _iteration_footprint(loop, trips, line)
        after = ""
        if toucher is not None and near is not None and (fp - near).is_positive:
            fp = near     # a neighbour loop touched the same elements in this iteration of their loop
            after = f" (after line {toucher.line})"
        walk, share, crowded_when = None, sympy.Integer(0), sympy.false
        trail = None if ref.write else trailing(ref, loop)
        if trail is not None:
            # the data was brought by a leading reference k iterations of a loop ago: what the nest touches
            # in those iterations is its reuse distance (Kerncraft's layer conditions), not the whole nest's
            depth, k = trail
            fp = footprint(loop.refs, list(reversed(loop.nest))[:depth], trips, loop.fastest, line) * k
            streams.append((ref, lines, fp, None, share, crowded_when, None, None))
            shown.append((f"{ref.array} (after {ref.array}{_subscripts(trail_leader(ref, loop))})", fp, lines, None))
            continue
        if strided and not indirect(ref):  # a gather (x[col[k]]) has no pitch: no set conflicts of a walk
            pitch = _bound_number(row_pitch(ref, loop, trips, line), bindings)
            walk = Walk(pitch, reuse_footprint(ref, loop, trips, line, [ref]))
            shares = one_set_shares(pitch, hierarchy, window)
            share = sympy.sympify(shares[0][0]) if len(shares) == 1 else sympy.Piecewise(*shares)
            crowded_when = sympy.Or(*[condition for s, condition in shares if s != 0])
        fresh = fresh_lines(ref, loop, trips, line, outer) if walk is not None else None
        rows = restart_rows(ref, loop, trips, fp, hierarchy) if walk is None and step == 1 else None
        streams.append((ref, lines, fp, walk, share, crowded_when, fresh, rows))
        shown.append((f"{ref.array}{'(w)' if ref.write else ''}{after}", fp, lines, walk))
    return streams, shown


def restart_rows(ref: Ref, loop: SourceLoop, trips: dict[int, sympy.Expr], fp: sympy.Expr, hierarchy: Hierarchy
                 ) -> walkprobe.Column | None:
    """A unit-stride stream of doubles that starts anew at every entry of the loop, as the walk probe times it
    (``walkprobe.Column`` with ``run``): the loop's trips per entry as the run, the bytes its first element
    moves from one entry to the next as the pitch (cholesky's A[j][k] over k < j: one row of the declared
    array, while a run covers j elements of it), its footprint between reuses in such rows. A prefetcher
    follows a stream only after its first lines missed, so every restart of a stream beyond L1 costs what
    those misses do, which a level's figure (one long stream) leaves out (the walk probe's docstring has the
    measurements). None where there is no probe, the run continues where the last one ended (a whole row: the
    next starts within a line of its end; seidel's rows less their two edges), the stream does not move
    forward between entries (x[j] read again: its reuse), its footprint lies in L1 or is not a number, its rows
    span more than the probe's ``MAX_BYTES`` (the level's figure then, as for a column walk), or its geometry is
    not known (an extent not declared, a bound that is not a formula of the enclosing index)."""
    if hierarchy.walk_probe is None or len(loop.nest) < 2 or ref.elem_bytes != 8 or indirect(ref):
        return None
    inner, outer = loop.nest[-1], loop.nest[-2]
    run = trips.get(id(inner))
    l1 = hierarchy.levels[0].size_bytes
    if run is None or not run.is_number or run < 2 or not fp.is_number or l1 is None or fp <= l1:
        return None
    pitch = _entry_pitch(ref, inner, outer, loop.fastest)
    run_bytes = int(round(run)) * ref.elem_bytes
    if pitch is None or pitch <= run_bytes + hierarchy.line_bytes:
        return None
    rows = max(2, int(round(fp / run_bytes)))
    if pitch * rows > walkprobe.MAX_BYTES:
        return None
    return walkprobe.Column(pitch, rows, 0, ref.write, run=int(round(run)))


def _entry_pitch(ref: Ref, inner: ir.Stmt, outer: ir.Stmt, fastest: str) -> int | None:
    """Bytes from the first element a unit-stride reference reads in one entry of its loop (``inner``) to the
    first it reads in the next (``outer``'s next iteration): its subscripts at the loop's lower bound, moved by
    the outer loop's step, over the declared extents (row-major unless ``fastest`` is "first"). None where the
    inner loop does not count up by one, a subscript or bound is not a formula that moves by a constant, or
    an extent is not declared."""
    if not (isinstance(inner, ir.Do) and isinstance(outer, ir.Do)) or _step_value(inner) != 1:
        return None
    subscripts, lo, outer_step = _parsed(ref), opmodel.subscript(inner.lo), _step_value(outer)
    if subscripts is None or lo is None or outer_step is None or ref.extents is None or \
            len(ref.extents) != len(subscripts):
        return None
    k_sym, o_sym = sympy.Symbol(inner.index), sympy.Symbol(outer.index)
    order = list(range(len(subscripts))) if fastest == "first" else list(reversed(range(len(subscripts))))
    stride, moved = 1, sympy.Integer(0)
    for position in order:      # fastest first: each subscript's move times the elements of the faster ones
        move = sympy.diff(subscripts[position].subs(k_sym, lo), o_sym)
        if not move.is_Integer:
            return None
        moved += move * stride
        extent = ref.extents[position]
        if extent is None or extent <= 0:
            if position != order[-1]:
                return None
            continue
        stride *= extent
    return int(moved) * outer_step * ref.elem_bytes


def run_seconds(rows: walkprobe.Column | None, hierarchy: Hierarchy, chained: bool = False) -> sympy.Expr | None:
    """Seconds per access of a row stream's runs timed on this host (``restart_rows``): the whole time, beyond L1
    and from L1, as a level's figure is a whole streaming loop's (the data term; in the transfers into L1 the
    probe gives no L1 part, ``into_l1``); ``chained``: what a serial chain of adds waits on them beyond its adds
    (sad.predict.overlap). None where there are no runs or the probe could not time them."""
    probe = hierarchy.chain_probe if chained else hierarchy.walk_probe
    timed = probe((rows,)) if rows is not None and probe is not None else None
    if timed is None:
        return None
    return sympy.Float(timed.ns if chained else timed.ns + timed.l1, 6)


def data_seconds(loop: SourceLoop, trips: dict[int, sympy.Expr], hierarchy: Hierarchy,
                 bindings: dict[str, sympy.Expr] | None = None, window: float | None = None,
                 given: tuple[list[Stream], list[tuple]] | None = None
                 ) -> tuple[sympy.Expr, list[tuple[str, sympy.Expr, float, Walk | None]]]:
    """Σ over the references of one iteration: lines moved × seconds per line of the serving level.
    A loop-invariant reference costs nothing (a register or L1); a unit-stride one elem/line of a line;
    a strided one a line. Writes count on the write figure (write-allocate and write-back). A walk's pitch
    that ``bindings`` (the parameters the user bound) make a number is that number: its set conflicts are
    then one condition per level, not one per divisor of the level's span (a formula sympy takes seconds to
    compare and print); the pitch cannot change unless those parameters do. ``window``: iterations of the
    loop the core keeps in flight (``one_set_shares``; None: not known, the rule is off). Returns the total
    and the streams shown by --explain. Several references on one line share it (``_same_stream``). ``given``:
    the loop's ``streams_of`` where the caller has them already."""
    line = hierarchy.line_bytes
    total = sympy.Integer(0)
    tlb = sympy.Integer(0)                        # the walks' TLB misses
    streams, shown = given if given is not None else streams_of(loop, trips, hierarchy, bindings, window)
    shown = list(shown)
    # crowded walks of one iteration wait together, each in its own L1 sets: one walk's crowding counts, a
    # written one's if there is one (its one-set figure is the larger: matmul jki at n = 512 on this host, the
    # update's excess 23.5 ns against the read's 7.5 ns; 22.8 ns per iteration measured, both would be 33)
    crowded = [s for s in streams if s[4] != 0]
    chosen = next((s for s in crowded if s[0].write), crowded[0]) if crowded else None
    paired = beside_reads(streams)
    for k in paired:
        shown[k] = (shown[k][0] + " beside a read (copy)", *shown[k][1:])
    # the loop's column walks timed together on this host (None: the model prices them): each access once
    probed = probed_seconds(streams, loop, trips, hierarchy)
    walks = sum(s[3] is not None for s in streams)
    together = f", with {walks - 1} other walk{'s' if walks > 2 else ''}" if walks > 1 else ""
    for k, stream in enumerate(streams):
        ref, lines, fp, walk, share, crowded_when, fresh, rows = stream
        timed = run_seconds(rows, hierarchy) if walk is None else None
        if rows is not None and timed is not None:   # rows of runs timed on this host: each access at their figure
            total += lines * line / ref.elem_bytes * timed
            shown[k] = (f"{shown[k][0]} starting anew at each entry, timed on this host (runs of "
                        f"{rows.run * ref.elem_bytes} B, {rows.pitch} B apart: {float(timed) * 1e9:.3g} ns an access)",
                        *shown[k][1:])
            continue
        if walk is None:
            # a gather's lines come in an order no prefetcher follows: each its own line, as a column walk's
            total += lines * (beside_read_level(fp, hierarchy) if k in paired else
                              serving_level(fp, hierarchy, ref.write, indirect(ref)))
            continue
        if probed is not None:   # timed on this host: the lines, the new ones and the pages of the walks
            total += lines * probed
            shown[k] = (f"{shown[k][0]} timed on this host (rows {walk.pitch} B apart{together}: "
                        f"{float(probed) * 1e9:.3g} ns an access)", *shown[k][1:])
            continue
        level_cost = serving_level(fp, hierarchy, ref.write, True, walk, share if stream is chosen else 0)
        # a pitch of one line (x[8*i] of doubles) is a stream of consecutive lines: prefetched
        total += lines * sympy.Piecewise((serving_level(fp, hierarchy, ref.write), sympy.Le(walk.pitch, line)),
                                         (level_cost, True))
        if fresh is not None:
            # the lines new to the walk come from where the larger footprint fits, not from the serving level
            new_share, beyond = fresh
            # (the whole rows between: no pitch limits the capacity that holds them)
            farther = serving_level(beyond, hierarchy, ref.write, True) - \
                serving_level(fp, hierarchy, ref.write, True, walk)
            total += lines * new_share * sympy.Piecewise((0, sympy.Le(walk.pitch, line)), (farther, True))
            shown.append((f"{shown[k][0]} new lines", beyond, lines * new_share, walk))
        # a crowded walk's page walks proceed while its fills wait: no TLB term where it is crowded (jki at
        # n = 512: the TLB term alone would be 37 ns per iteration)
        if hierarchy.tlb_pages and hierarchy.tlb_miss_s > 0 and crowded_when is not sympy.true:
            points = gap_points(streams, ref, walk, loop)
            term = sympy.Add(*(tlb_seconds(ref, loop, trips, fp, hierarchy, walk,
                                           [on_other_pages(s[3], s[0], ref, loop, hierarchy.page_bytes, trips, at)
                                            for s in streams if s[3] is not None and s[3] is not walk])
                               for at in points)) / len(points)
            tlb += term if crowded_when is sympy.false else sympy.Piecewise((0, crowded_when), (term, True))
    return total + tlb, shown


def transfer_seconds(loop: SourceLoop, trips: dict[int, sympy.Expr], hierarchy: Hierarchy,
                     bindings: dict[str, sympy.Expr] | None, window: float | None,
                     streams: tuple[list[Stream], list[tuple]]) -> sympy.Expr:
    """Seconds per iteration of the line transfers into L1 through the caches: ``data_seconds`` of the same
    streams priced by ``into_l1`` (each level's figure less L1's, memory's lines at the last cache's). The
    ECM model adds these to the cycles the load ports are busy (its non-overlapping part); the transfer
    from memory itself stays in the fully overlapping data bound. Which transfers overlap is a property of
    the core that only measurement settles: Kerncraft's machine file for AMD Zen 2 chooses the other way
    (the caches' transfers overlapping, memory's not); on this host's 71 development kernels, with the same
    measured times, the caches' transfers added (nussinov's column walk from L2 -36.6 -> -9.0 %) and memory's
    overlapping (added, the streaming stencils went fdtd2d +11 -> +44 %, jacobi1d +29 -> +47 %) fit."""
    return data_seconds(loop, trips, into_l1(hierarchy), bindings, window, streams)[0]


def into_l1(hierarchy: Hierarchy) -> Hierarchy:
    """The hierarchy with each level's figures made the part beyond L1's: a figure is a whole streaming loop's
    seconds per line (its own loads included, sad.machine.hierarchy), and the same loop over L1 times those
    loads alone, so the difference is the transfer into L1. Memory takes the last cache's figures, never more
    than its own (a figure memory does not have stays 0): a line from memory passes the caches as theirs do,
    and memory's bandwidth is the data term's bound. Sizes, ramps and the TLB stay: which level serves a
    stream does not change."""
    l1 = hierarchy.levels[0]
    last = next((lv for lv in reversed(hierarchy.levels) if lv.size_bytes is not None), l1)

    def beyond(level: Level) -> Level:
        def less(field: str, l1_field: str | None = None) -> float:
            own = getattr(level, field)
            if level.size_bytes is None:
                own = min(own, getattr(last, field))
            return max(0.0, own - getattr(l1, l1_field or field)) if own else 0.0
        return dataclasses.replace(level, line_s=less("line_s"), store_line_s=less("store_line_s"),
                                   column_s=less("column_s"), column_store_s=less("column_store_s"),
                                   column_even_s=less("column_even_s", "column_s"),
                                   one_set_s=less("one_set_s", "column_s"),
                                   one_set_store_s=less("one_set_store_s", "column_store_s"), copy_s=less("copy_s"))
    probe = hierarchy.walk_probe

    def probed_beyond(columns: tuple[walkprobe.Column, ...]) -> walkprobe.Timed | None:
        timed = probe(columns) if probe is not None else None
        return None if timed is None else timed._replace(l1=0.0)
    return dataclasses.replace(hierarchy, levels=tuple(beyond(lv) for lv in hierarchy.levels),
                               walk_probe=probed_beyond if probe is not None else None)


def l1_in_core(hierarchy: Hierarchy) -> Hierarchy:
    """The hierarchy with L1's own figures 0: for a compiled loop, whose loads and stores llvm-mca already
    issues on the core's ports (the in-core part, as in the ECM model of Hager, Treibig et al., where data
    from L1 costs nothing beyond the load instructions), a reference served by L1 adds nothing to the data
    term. Each L1 figure is a whole one-reference loop's time per line (0.38-0.41 ns a column access on this
    host's Zen 3, about its loop's own cycle): two column walks from L1 summed their loops' times, where the
    core runs both in one (Livermore loop 21 at 25 x 101: data 0.84 ns an iteration against a core of 0.53
    and about 0.58 measured). Other levels keep their whole figures: a stream from beyond L1 still bounds the
    loop by its level's time per line."""
    l1 = hierarchy.levels[0]
    free = dataclasses.replace(l1, line_s=0.0, store_line_s=0.0, column_s=0.0, column_store_s=0.0,
                               column_even_s=0.0, copy_s=0.0)
    return dataclasses.replace(hierarchy, levels=(free,) + tuple(hierarchy.levels[1:]))


def loop_step(loop: SourceLoop) -> int:
    """Elements the innermost loop's index moves per iteration: its constant step (``j += 2`` of a red-black
    sweep: 2), 1 where it has none or it is not a constant. A unit-stride reference then moves step elements
    an iteration: a red-black sweep touches every line of its rows in each colour, twice the bytes per
    iteration of a sweep over all points."""
    return do_step(loop.nest[-1])


def constant_step(lp: ir.Stmt) -> bool:
    """Whether a loop's step is a number (or absent: 1)."""
    return _step_value(lp) is not None


def do_step(lp: ir.Stmt) -> int:
    """A counted loop's constant step, positive (1 where it has none or it is not a constant)."""
    return abs(_step_value(lp) or 1)


def _step_value(lp: ir.Stmt) -> int | None:
    """A loop's step as a signed number (1 where it has none or is no counted loop); None where it is not a
    constant."""
    if not isinstance(lp, ir.Do) or lp.step is None:
        return 1
    step = opmodel.subscript(lp.step)
    return int(step) if step is not None and step.is_Integer else None


def beside_reads(streams: list[tuple]) -> set[int]:
    """Positions of the write streams that run beside a read stream of the same level: each contiguous write
    (no walk) paired with a contiguous read not yet paired whose footprint between reuses is the same
    expression (the same level serves both for every size: a copy's ``b[i] = a[i]``, a sweep of jacobi's or a
    triad's write beside its reads)."""
    reads = [k for k, st in enumerate(streams) if not st[0].write and st[3] is None]
    paired: set[int] = set()
    for k, st in enumerate(streams):
        if not st[0].write or st[3] is not None:
            continue
        match = next((r for r in reads if streams[r][2] == st[2] and streams[r][1] == st[1]), None)
        if match is not None:
            reads.remove(match)
            paired.add(k)
    return paired


def beside_read_level(bytes_between_reuses: sympy.Expr, hierarchy: Hierarchy) -> sympy.Expr:
    """Seconds per line of a write stream beside a read stream, both served by the level that holds the
    footprint (``Level.beside_read_s``: the calibrated copy's excess over the read). Measured on this host
    (AMD family 26, gcc -O2, 128 MiB per array, pinned, per line of each array): read 1.64 ns and write 2.08 ns
    alone, a copy 3.14 ns where their sum is 3.72, a triad (two reads, one write) 4.95 ns where the sum is
    5.36 and read + read + copy's write excess 4.78, two reads 3.23 ns against 3.28: reads add up, a write
    beside a read overlaps part of its write-allocate and write-back with it. Kerncraft's ECM model prices
    memory transfers the same way: with the bandwidth of the benchmark kernel (load, copy, update, triad)
    whose ratio of read to write streams is closest to the loop's."""
    return by_serving_level(bytes_between_reuses, hierarchy, None, lambda lv: sympy.Float(lv.beside_read_s(), 6))


def trailing(ref: Ref, loop: SourceLoop) -> tuple[int, int] | None:
    """(d, k) when another reference of ``ref``'s array touches, k iterations of the nest's loop d (0: the
    innermost) earlier, the element ``ref`` reads (a stencil's A[i-1][j] and A[i][j] over j trail A[i+1][j] by
    two and one iterations of i; a column walk's A[j-1][i] trails A[j][i] by one iteration of j): its subscripts
    equal ``ref``'s with that loop's index moved k steps on, every other subscript the same. The smallest d,
    then k; None when no reference leads it."""
    found = _leaders(ref, loop)
    return min(((d, k) for d, k, _ in found), default=None)


def trail_leader(ref: Ref, loop: SourceLoop) -> Ref:
    """The reference ``trailing`` found ahead of ``ref``."""
    return min(_leaders(ref, loop), key=lambda t: (t[0], t[1]))[2]


def _leaders(ref: Ref, loop: SourceLoop) -> list[tuple[int, int, Ref]]:
    mine = _parsed(ref)
    if mine is None:
        return []
    found = []
    inner_first = list(reversed(loop.nest))
    for other in loop.refs:
        if other is ref or other.array != ref.array or len(other.indices) != len(ref.indices):
            continue
        if [repr(e) for e in _slow(other, loop.fastest)] == [repr(e) for e in _slow(ref, loop.fastest)] \
                and not apart_in_loop(ref, other, loop):
            continue      # a[i][j - 1], a[i][j + 1] with a[i][j]: one stream (``_same_stream``), it leads itself
        theirs = _parsed(other)
        if theirs is None:
            continue
        for d, lp in enumerate(inner_first):
            swept = {sympy.Symbol(i) for i in (_index(inner) for inner in inner_first[:d]) if i is not None}
            k = _steps_ahead(mine, theirs, lp, swept)
            if k is not None:
                found.append((d, k, other))
    return found


def _steps_ahead(mine: list, theirs: list, lp: ir.Stmt, swept: set[sympy.Symbol] | None = None) -> int | None:
    """k >= 1 when ``theirs`` (subscripts) at this loop's iteration v equal ``mine`` at iteration v + k (by the
    loop's constant step, 1 if none), None otherwise. A subscript in the indices of the loops inside this one
    (``swept``: one iteration of it runs them all) may differ by a constant: the leading reference brought the
    neighbours too (Fortran's U(I - 1, J) behind U(I, J + 1) over I, one iteration of J; a 9-point stencil's
    A[i-1][j-1] behind A[i+1][j+1] over j, two of i)."""
    if not isinstance(lp, ir.Do):
        return None
    step = opmodel.subscript(lp.step) if lp.step is not None else sympy.Integer(1)
    if step is None or not step.is_Integer or step == 0:
        return None
    v = sympy.Symbol(lp.index)
    k = None
    for a, b in zip(mine, theirs):
        coef = sympy.diff(a, v)
        gap = sympy.expand(b - a)
        if coef == 0:
            if gap != 0 and not (gap.is_number and swept and a.free_symbols & swept):
                return None
            continue
        if sympy.diff(b, v) != coef:
            return None
        # a row of a flattened array, u[(i + 1)*n + j] ahead of u[i*n + j]: n / n, one step of i
        steps = sympy.cancel(gap / (coef * step))
        if not steps.is_Integer or steps <= 0 or (k is not None and steps != k):
            return None
        k = int(steps)
    return k


def _subscripts(ref: Ref) -> str:
    return "".join(f"[{opmodel.subscript(e)}]" for e in ref.indices)


def _bound_number(expr: sympy.Expr, bindings: dict[str, sympy.Expr] | None) -> sympy.Expr:
    """expr as a number when the bindings make it one (an Integer when it is whole), else expr."""
    if not bindings or not expr.free_symbols:
        return expr
    value = evaluate(bind(expr, bindings))
    if value is None:
        return expr
    return sympy.Integer(int(value)) if float(value).is_integer() else sympy.Float(value)


def row_pitch(ref: Ref, loop: SourceLoop, trips: dict[int, sympy.Expr], line: int) -> sympy.Expr:
    """Bytes between two consecutive accesses of a strided reference: a constant step of the fastest subscript
    times the element (x[8*i]: 64), else the array's footprint over the whole nest over the trips of the
    innermost loop (a[i*n+j] over n rows of a nest on j, i: 8 n)."""
    for node in walk(_fastest(ref, loop.fastest)):       # x[8 * i]: a constant step in the fastest subscript
        if isinstance(node, ir.BinOp) and node.op == "mul":
            for k, other in ((node.left, node.right), (node.right, node.left)):
                if isinstance(k, ir.Const) and isinstance(k.value, int) and _mentions(other, loop.index):
                    return sympy.Integer(abs(k.value) * ref.elem_bytes)
    declared = declared_pitch(ref, loop.index, loop.fastest)
    if declared is not None:
        return sympy.Integer(declared)
    whole = footprint([r for r in loop.refs if r.array == ref.array], list(reversed(loop.nest)), trips, loop.fastest,
                      line)
    return whole / sympy.Max(trips[id(loop.nest[-1])], 1)


def declared_pitch(ref: Ref, index: str | None, fastest: str) -> int | None:
    """Bytes between consecutive accesses of a reference whose loop index steps one slower subscript by ±1,
    from the array's declaration: the elements of the faster dimensions times the element (c[i][j] over i
    with c declared [256][256]: 2048 B, whatever part of the rows the loops use). None where the declaration
    does not fix it."""
    if ref.extents is None or index is None or len(ref.extents) != len(ref.indices):
        return None
    moving = [k for k, e in enumerate(ref.indices) if _mentions(e, index)]
    fast = 0 if fastest == "first" else len(ref.indices) - 1
    if len(moving) != 1 or moving[0] == fast or not unit_step(ref.indices[moving[0]], index):
        return None
    k = moving[0]
    faster = [e for e in (ref.extents[:k] if fastest == "first" else ref.extents[k + 1:]) if e is not None and e > 0]
    if len(faster) != (k if fastest == "first" else len(ref.indices) - 1 - k):
        return None
    return ref.elem_bytes * math.prod(faster)


def tlb_seconds(ref: Ref, loop: SourceLoop, trips: dict[int, sympy.Expr], fp: sympy.Expr, hierarchy: Hierarchy,
                walk: Walk | None = None, others: list[Walk] | None = None) -> sympy.Expr:
    """Extra seconds per access of a strided reference whose pages between two reuses exceed what the TLBs
    hold (a column walk with a pitch of a page or more touches a new page every access). The row pitch is the
    array's footprint over the whole nest over the trips of the innermost loop; pages between reuses
    (``pages_between_reuses``): the walk's lines × min(1, pitch / page), the same for the loop's ``others``
    walks, the rest of the footprint in whole pages. Served from memory, the calibrated column-walk cost
    already contains the misses: no extra there. With the first-level TLB measured (``Hierarchy.tlb_first``),
    a walk over more pages than it holds pays its miss from there on, and beyond the onset's baseline on top of
    the onset's figures (their baseline walk pays it already)."""
    page = hierarchy.page_bytes
    pitch = row_pitch(ref, loop, trips, hierarchy.line_bytes)
    share = sympy.Min(1, pitch / page)
    pages = pages_between_reuses(fp, share, walk, others or [], hierarchy)
    caches = hierarchy.caches()
    largest = _last_cache_bytes(hierarchy)
    # no extra up to the baseline of the measured onset of misses (``Hierarchy.tlb_onset``), else the reach;
    # the first-level TLB's misses from its reach on (``Hierarchy.tlb_first``: the onset's baseline pays them)
    free = hierarchy.tlb_onset[0][0] if hierarchy.tlb_onset else hierarchy.tlb_pages
    first_pages, first_s = hierarchy.tlb_first
    first = sympy.Float(first_s, 6) if first_pages and first_s > 0 else sympy.Integer(0)
    conflict = conflict_seconds(pitch, walk, hierarchy)
    pieces = [] if conflict != 0 else [(sympy.Integer(0), sympy.Le(pages, first_pages if first != 0 else free))]
    if largest is not None:
        pieces.append((sympy.Integer(0), sympy.Gt(fp, largest)))
        if walk is not None:     # set conflicts keep the walk out of the last cache: from memory as well
            pieces.append((sympy.Integer(0), sympy.Not(_holds(caches[-1], fp, walk, hierarchy.line_bytes,
                                                              hierarchy.page_bytes))))
    if first != 0 or conflict != 0:
        pieces.append(((first + conflict) * share, sympy.Le(pages, free)))
    curve = miss_seconds(pages, hierarchy)
    pieces.append((((curve if conflict == 0 else sympy.Max(curve, conflict)) + first) * share, True))
    return sympy.Piecewise(*pieces)


def probed_seconds(streams: list[Stream], loop: SourceLoop, trips: dict[int, sympy.Expr], hierarchy: Hierarchy,
                   chained: bool = False) -> sympy.Expr | None:
    """Seconds per access of a loop's column walks timed together on this host (``Hierarchy.walk_probe``,
    sad.machine.walkprobe): the walks' whole time per access, their lines and pages beyond L1 and the same
    passes from L1, charged to each walk's lines of an iteration in place of the model's lines, new lines and
    TLB misses; in the transfers into L1 (``transfer_seconds``, whose hierarchy's probe gives no L1 part) the
    part beyond L1 alone. The data term takes the whole, as every level's figure is a whole streaming loop's
    time per line, its loads included (``into_l1``): a loop cannot walk its columns faster than a loop doing
    nothing else. Charged beyond L1 alone, the walks' -O2 loops came out under their measured times where their
    core is short (gramschmidt's two loops over two walks of 1 001 rows 9 600 B apart, 1.06 ns an iteration
    predicted, the probe's whole 1.34, 1.30 measured); on this host's development suite at LARGE, with the same
    measured times (pinned, median of 5), -O2 went from 10.9 to 8.9 % median error, within 25 % 25 -> 26 of 29
    (gramschmidt -19 -> +7 %, symm -28 -> -4 %, mgs -11 -> +9 %; covp -10 -> +11 %, covariance -5 -> -9 %);
    -O0, against the unguarded figures beyond L1, from 12.6 to 11.8 %, 23 -> 25 of 29, close pairs ranked right
    64 -> 74 % (gramschmidt +27 -> +5 %, mgs +30 -> +6 %). Each walk (``probe_columns``) has its pitch, its rows
    between reuses, its step per pass of the loop that reuses its lines (none where that loop does not move it:
    trmm's A[k][i] over j) and its array (two columns of one array share the pages of their rows: covariance's
    data[k][i] and data[k][j]); the walks of one loop are timed interleaved, not as one walk of their rows
    summed (correlation at LARGE, two walks over 1 400 rows 9 600 B apart, timed as one of 2 800 rows: 11.1 s
    predicted, 7.1-10.2 s measured). Where two columns of one array lie a gap apart that the enclosing loops
    change, the figure is the mean over the model's points of that gap (``gap_points``). On this host's
    development suites at -O2 (stored measurements, four fresh probe caches): LARGE, 29 kernels, median error
    19.2 % by the model, 18.1-19.2 % timing a loop's one walk only, 15.4-17.4 % timing all (trmm -46.9 -> -13 to
    -26 %, symm -19.2 -> -3 to -16 %; worse: correlation -3.9 -> -16 to -34 %, syr2k -8.2 -> +14 to +43 %); the
    smaller sizes, 34 kernels, 16.8 % / 16.6 % / 10.1-13.3 %. None where there is no probe, a walk's pitch is
    under a page (the caches' model) or its pitch or rows are not numbers, a footprint exceeds the last cache
    (the calibrated memory walk prices it), the loop walks more than ``MAX_COLUMNS`` columns, or the probe could
    not time them. ``chained``: what a serial chain of adds waits on the walks per access beyond its adds
    (``Hierarchy.chain_probe``; sad.predict.overlap.wait_seconds), at the same points."""
    probe = hierarchy.chain_probe if chained else hierarchy.walk_probe
    walked = [Walked(s[0], s[2], s[3], s[6]) for s in streams if s[3] is not None]
    if probe is None or not walked or len(walked) > walkprobe.MAX_COLUMNS:
        return None
    points = max((gap_points(streams, w.ref, w.walk, loop) for w in walked), key=len)
    figures = []
    for at in points:
        columns = probe_columns(walked, loop, trips, hierarchy, at)
        timed = None if columns is None else probe(columns)
        if timed is None:
            return None
        figures.append(timed.ns if chained else timed.ns + timed.l1)
    return sympy.Float(sum(figures) / len(figures), 6)


class Walked(NamedTuple):
    """A stream with a walk, as the probe needs it: its reference, footprint between reuses, walk and the share of
    its lines new to it (``Stream``'s fields)."""
    ref: Ref
    fp: sympy.Expr
    walk: Walk
    fresh: tuple[float, sympy.Expr] | None


def probe_columns(walked: list[Walked], loop: SourceLoop, trips: dict[int, sympy.Expr], hierarchy: Hierarchy,
                  at: dict[str, float] | None = None) -> tuple[walkprobe.Column, ...] | None:
    """The probe's columns (sad.machine.walkprobe.Column) of a loop's column walks (``walked``), with the
    gaps between columns of one array taken at ``at`` (``on_other_pages``' points); None where one cannot be
    timed (see ``probed_seconds``). A walk's rows are its lines between reuses, and the rest of its footprint
    (rows read along, invariant data) in pages, shared among the walks (one walk: all of it as its rows)."""
    page, line = hierarchy.page_bytes, hierarchy.line_bytes
    largest = _last_cache_bytes(hierarchy)
    if not page or largest is None:
        return None
    walked_bytes = sum((w.walk.bytes for w in walked), sympy.Integer(0))
    columns: list[walkprobe.Column] = []
    for k, (ref, fp, column, fresh) in enumerate(walked):
        if not column.pitch.is_Integer or column.pitch < page or not fp.is_number or fp > largest:
            return None
        rows = sympy.ceiling(column.bytes / line + sympy.Max(0, fp - walked_bytes) / page / len(walked))
        if not rows.is_Integer:
            return None
        # the next pass of the loop that reuses its lines moves it (``fresh_lines``) or reads its column again
        advance = round(fresh[0] * line) if fresh is not None else 0
        shares, gap = None, 0
        for j, other in enumerate(walked[:k]):
            between = _column_gap(ref, other.ref, loop.fastest)
            if between is not None and other.walk.pitch == column.pitch:
                between = abs(_gap_at(between, loop, trips, at)) * ref.elem_bytes
                if not between.is_number:
                    return None
                shares, gap = j, int(sympy.floor(between))
                break
        columns.append(walkprobe.Column(int(column.pitch), int(rows), advance, ref.write, shares, gap))
    return tuple(columns)


def _last_cache_bytes(hierarchy: Hierarchy) -> int | None:
    """What the last cache holds of a footprint (``Level.fit_bytes``); None where its size is not known."""
    caches = hierarchy.caches()
    return caches[-1].fit_bytes() if caches and caches[-1].size_bytes else None


def conflict_seconds(pitch: sympy.Expr, walk: Walk | None, hierarchy: Hierarchy) -> sympy.Expr:
    """Extra seconds per access of a column walk whose pages crowd some sets of the second-level TLB: the share
    of its accesses to sets holding more of its pages than they have ways (``tlb_conflicts``, with the geometry
    fitted to the calibrated walks at several pitches, ``Hierarchy.tlb_geometry``) times the miss figure. A walk
    two pages and a line apart (8 256 B) puts its pages in half the sets and misses from about 1 100 rows, long
    before the reach that a walk a page apart shows. Measured on a Sapphire Rapids-class VM
    (benchmarks/tlb_pitch.py, 16 pitches of 4 160-24 640 B, 64-4 096 rows, among them the rows of PolyBench's
    LARGE sizes, 8 000-16 800 B): this with the one-page curve (``miss_seconds``) is 0.29 ns per access off
    (median; mean 0.65) where the curve alone is 0.37 (0.91); at pitches of whole pages it is off by 2.0 ns
    against 2.9, their lines crowding the caches' sets as well (the data term's part); at ten other pitches
    0.35 (1.04) against 0.35 (1.15), with one false alarm (8 320 B at 1 280-1 536 rows: 3.3-3.8 ns modelled,
    0.4-0.5 measured; the real index is likely hashed). 0 where the geometry is not known, the walk's rows or
    pitch are not numbers (the one-page curve alone), or rows are less than a page apart."""
    geometry = hierarchy.tlb_geometry()
    page, line = hierarchy.page_bytes, hierarchy.line_bytes
    if geometry is None or walk is None or not page or hierarchy.tlb_miss_s <= 0:
        return sympy.Integer(0)
    rows = walk.bytes / line
    # from the largest one-page walk on the curve charges the whole miss (or the ramp's more) to every access:
    # conflicts add nothing there, and the count below would walk millions of rows
    if not (pitch.is_Integer and rows.is_Integer) or pitch < page or rows >= TLB_PAGES[-1]:
        return sympy.Integer(0)
    share = tlb_conflicts(int(pitch), int(rows), *geometry, page)
    return sympy.Float(share * hierarchy.tlb_miss_s, 6) if share > 0 else sympy.Integer(0)


def miss_seconds(pages: sympy.Expr, hierarchy: Hierarchy) -> sympy.Expr:
    """Extra seconds of an access to a page for a walk over ``pages`` pages between reuses: the measured onset of
    misses below the reach (``tlb_onset``, from its baseline), the calibrated ``tlb_miss_s`` at the walk it was
    measured on (``TLB_PAGES``' largest), then the larger walks' figures (``tlb_ramp``: page-table entries of more
    pages than the L1 keeps), linear between two, the last beyond them. Without onset and ramp, ``tlb_miss_s``
    for every walk."""
    miss = sympy.Float(hierarchy.tlb_miss_s, 6)
    if not hierarchy.tlb_ramp and not hierarchy.tlb_onset:
        return miss
    points = [*hierarchy.tlb_onset, (TLB_PAGES[-1], hierarchy.tlb_miss_s), *hierarchy.tlb_ramp]
    pieces = [(sympy.Float(points[0][1], 6), sympy.Le(pages, points[0][0]))]
    for (p0, s0), (p1, s1) in zip(points, points[1:]):
        pieces.append((sympy.Float(s0, 6) + sympy.Float((s1 - s0) / (p1 - p0), 6) * (pages - p0),
                       sympy.Le(pages, p1)))
    pieces.append((sympy.Float(points[-1][1], 6), True))
    return sympy.Piecewise(*pieces)


def pages_between_reuses(fp: sympy.Expr, share: sympy.Expr, walk: Walk | None, others: list[Walk],
                         hierarchy: Hierarchy) -> sympy.Expr:
    """Pages a walk's accesses go to between two of its reuses (``fp`` bytes touched): its own lines, a page
    each where rows are a page or more apart (``share`` = min(1, pitch / page)), the lines of the loop's other
    walks the same way, and the rest of the footprint (rows read along, invariant data) in whole pages, not
    a page per line (matmul ijk at n = 1000: B's 1000 rows and A's row of 8000 B are 1002 pages, not the
    1125 lines of the footprint; measured here 1.85 ns per iteration, no TLB misses). Without the walk (the
    old callers), the footprint's lines × share."""
    line, page = hierarchy.line_bytes, hierarchy.page_bytes
    if walk is None:
        return fp / line * share
    rest = fp - walk.bytes - sum((o.bytes for o in others), sympy.Integer(0))
    return walk.bytes / line * share + sum((o.bytes / line * sympy.Min(1, o.pitch / page) for o in others),
                                           sympy.Integer(0)) + sympy.Max(0, rest) / page


def _same_stream(ref: Ref, loop: SourceLoop, shown, line: int = 64, counted: list[Ref] | None = None) -> bool:
    """a[i-1], a[i], a[i+1] are one stream of lines: count an array's reads (or writes) once per iteration
    when their slow subscripts are the same. A strided reference (a column walk over u[j][i-1], u[j][i],
    u[j][i+1] along j) shares the line of one already counted (``counted``) whose slow subscripts are the same
    and whose fastest subscript differs by a constant of less than a line's elements."""
    if not is_strided(_as_ir(ref), Layout(loop.index, loop.fastest)):
        slow = [repr(e) for e in _slow(ref, loop.fastest)]
        return any(o.array == ref.array and o.write == ref.write and [repr(e) for e in _slow(o, loop.fastest)] == slow
                   and not apart_in_loop(ref, o, loop) for o in counted or [])
    return any(_one_line(ref, other, loop.fastest, line) for other in counted or [])


def apart_in_loop(a: Ref, b: Ref, loop: SourceLoop) -> bool:
    """True when two references of one row never reach each other's elements in the innermost loop: their
    fastest subscripts move together, a gap apart that only a run knows (no constant) and that the loop's
    range provably does not cross. An FFT's butterfly reads RE[i + k] and RE[i + k + half] for k below
    half: the two halves of a block, two streams (taken for one, its lines were priced once: -64 % at -O2).
    A gap such as a flattened stencil's row, u[i*n + j] behind u[(i + 1)*n + j], is such a gap too: the
    trailing reference reuses the leading one's lines an iteration of i later (``trailing``)."""
    index = _index(loop.nest[-1])
    fa, fb = opmodel.subscript(_fastest(a, loop.fastest)), opmodel.subscript(_fastest(b, loop.fastest))
    if index is None or fa is None or fb is None:
        return False
    v = sympy.Symbol(index)
    coef = sympy.diff(fa, v)
    gap = sympy.expand(fb - fa)
    if coef == 0 or sympy.diff(fb, v) != coef or gap.is_number:
        return False
    lp = loop.nest[-1]
    if not isinstance(lp, ir.Do):
        return False
    lo, hi = opmodel.subscript(lp.lo), opmodel.subscript(lp.hi)
    if lo is None or hi is None or do_step(lp) != 1 or not constant_step(lp):
        return False
    # the sizes in a gap and a range are not negative: u[(i + 1)*n + j] and u[(i - 1)*n + j] are 2n apart,
    # more than j's n - 2 trips whatever n is
    sizes = {sym: sympy.Symbol(sym.name, nonnegative=True) for sym in (gap.free_symbols | hi.free_symbols
                                                                       | lo.free_symbols) - {v}}
    span = sympy.expand(hi - lo + 1).xreplace(sizes)
    steps = sympy.cancel(gap / coef).xreplace(sizes)
    return bool(sympy.expand(steps - span).is_nonnegative or sympy.expand(-steps - span).is_nonnegative)


def same_rows(a: Ref, b: Ref, fastest: str) -> bool:
    """Two references of one array in the same rows (equal slow subscripts)."""
    return a.array == b.array and len(a.indices) == len(b.indices) \
        and [repr(e) for e in _slow(a, fastest)] == [repr(e) for e in _slow(b, fastest)]


QUANTILES = (0.125, 0.375, 0.625, 0.875)
"""Where in an enclosing loop's range the gap between two columns of one walk is taken: the middles of four equal
parts (``gap_points``)."""


def gap_points(streams: list, ref: Ref, walk: Walk, loop: SourceLoop) -> list[dict[str, float]]:
    """The positions, per enclosing loop index, at which the gap between ``ref``'s column and another walk's over
    the same rows is taken, each equally weighted: the TLB's extra is convex in the pages a walk covers (none
    up to the reach, then steep), so its value at the middle gap is below its mean over the loops' ranges.
    Covariance-like ``data[k][i] * data[k][j]``, j from i + 1: pairs far apart keep two pages a row, those
    near share one; at 1200 columns of 1400 rows, the middle gap (2400 B) gives 2 200 pages, under this host's
    reach, where a third of the pairs walk 2 800 pages beyond it. One point (every index at its middle) where
    no gap depends on an index; the two innermost indices a gap depends on get the four ``QUANTILES`` each."""
    names: list[str] = []
    for s in streams:
        gap = _column_gap(ref, s[0], loop.fastest) if s[3] is not None and s[3] is not walk else None
        if gap is None:
            continue
        symbols = {v.name for v in gap.free_symbols}
        for enclosing in reversed(loop.nest[:-1]):
            if isinstance(enclosing, ir.Do) and enclosing.index in symbols and enclosing.index not in names:
                names.append(enclosing.index)
    chosen = names[:2]
    points: list[dict[str, float]] = [{}]
    for name in chosen:
        points = [{**point, name: q} for point in points for q in QUANTILES]
    return points


def _column_gap(ref: Ref, other: Ref, fastest: str) -> sympy.Expr | None:
    """Elements between two references' columns when they walk the same rows of one array, else None."""
    if not same_rows(other, ref, fastest):
        return None
    fa, fb = opmodel.subscript(_fastest(ref, fastest)), opmodel.subscript(_fastest(other, fastest))
    return None if fa is None or fb is None else sympy.expand(fa - fb)


def on_other_pages(other: Walk, other_ref: Ref, ref: Ref, loop: SourceLoop, page: int,
                   trips: dict[int, sympy.Expr], at: dict[str, float] | None = None) -> Walk:
    """The part of another walk whose lines lie on pages of their own, not the pages of ``ref``'s walk: all of
    it, unless it walks the same rows of the same array, where its access of a row is on the same page as
    ``ref``'s unless a page boundary lies between the two columns: min(1, gap / page) of its lines, the gap
    the bytes between the columns at the middle of the enclosing loops' ranges (each index at its first value
    plus half its trips per entry, innermost first: the trips are the SAD's, bound at the calls, where the
    loop's upper bound may be a formal argument of a kernel function, `for (j = i; j < m; j++)`, that only
    the call gives a value). Covariance's ``data[k][i] * data[k][j]`` (j from i to 699, rows of 5600 B): a
    gap of 175 elements, 1400 B, a third of the second walk's 800 rows on pages of their own; counted whole,
    1600 pages put the onset of misses measured on an Ice Lake VM (``tlb_onset``) on each access, 0.54 s
    predicted at -O2 for 0.25-0.40 s measured. colpairs' ``d[k][i] * d[k][j + 600]``: 4800 B apart, every
    row on two pages."""
    gap = _column_gap(ref, other_ref, loop.fastest)
    if gap is None:
        return other
    share = sympy.Min(1, abs(_gap_at(gap, loop, trips, at)) * ref.elem_bytes / page)
    return Walk(other.pitch, other.bytes * share)


def _gap_at(gap: sympy.Expr, loop: SourceLoop, trips: dict[int, sympy.Expr],
            at: dict[str, float] | None) -> sympy.Expr:
    """Elements between two columns (``_column_gap``) with each enclosing index at its point ``at`` of its
    range (the middle where not given; ``on_other_pages``)."""
    for enclosing in reversed(loop.nest[:-1]):
        if not isinstance(enclosing, ir.Do) or not gap.free_symbols:
            continue
        lo = opmodel.subscript(enclosing.lo)
        index = next((v for v in gap.free_symbols if v.name == enclosing.index), None)
        step = sympy.Integer(1) if enclosing.step is None else opmodel.subscript(enclosing.step)
        if index is not None and lo is not None and step is not None:
            where = sympy.Rational((at or {}).get(enclosing.index, 0.5))
            middle = lo + step * (trips.get(id(enclosing), sympy.Integer(1)) - 1) * where
            gap = sympy.expand(gap.subs(index, middle))
    return gap


def _one_line(a: Ref, b: Ref, fastest: str, line: int) -> bool:
    """True when two references of one array in one iteration fall on the same cache line (or the next):
    equal slow subscripts, fastest subscripts a constant apart, closer than a line."""
    if a.array != b.array or a.write != b.write or len(a.indices) != len(b.indices):
        return False
    if [repr(e) for e in _slow(a, fastest)] != [repr(e) for e in _slow(b, fastest)]:
        return False
    fa, fb = opmodel.subscript(_fastest(a, fastest)), opmodel.subscript(_fastest(b, fastest))
    if fa is None or fb is None:
        return False
    gap = sympy.expand(fa - fb)
    return bool(gap.is_number) and abs(int(gap)) * a.elem_bytes < line
