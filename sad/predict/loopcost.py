"""Block cost of innermost loops on a calibrated host: in-core time from the compiled code, memory from reuse.

Data flow: the analysis (IR + blocks with their counts) and a machine database with a ``hierarchy`` section
and the compile command it was calibrated with (models.compile) → for every innermost counted loop of the
source: its loops in the generated code (sad.predict.compiled: llvm-mca cycles per iteration, vector width,
chains through memory) and, per array reference, the cache level that serves it (``serving_level``: a layer
condition on the footprint between two reuses, a ``Piecewise`` in the program's size parameters) → seconds
per iteration = the largest of the bounds (ECM-style overlap of in-core work and data transfers):

    core      llvm-mca cycles per iteration of the loop in the generated code / vector width / clock
    chain     a loop-carried chain through memory (a variable kept on the stack at -O0): forwarding + ops
    data      Σ references: cache lines per iteration × seconds per line of the serving level

plus, once per run of the program, the first touch of every array the loop is the first to touch (in source
order; formal arguments are someone else's arrays): its footprint over the whole nest in pages × the calibrated
seconds per page (fault, zeroing, unmapping at exit), spread over the loop's iterations.
The mapper puts this price on the loop's iteration block and nothing on the statement blocks of its body
(their counts stay in the SAD; the loop's price covers them). Every other block keeps the per-operation price.
Where the source cannot be compiled here, or the machine has no hierarchy, nothing changes.
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import sympy

from sad import ir
from sad.analysis.bindings import bind, evaluate
from sad.analysis.cost import Layout, is_strided, unit_step
from sad.ir.walk import child_bodies, walk, walk_stmts
from sad.machine.hierarchy import FIT_FRACTION, Hierarchy, Level
from sad.machine.model import STRIDED_KEYS
from sad.predict import compiled as cc
from sad.predict import opmodel

ELEM_BYTES = {"double": 8, "complex": 8, "real": 4, "integer": 4, "logical": 4, "character": 1, "pointer": 8}


@dataclass
class Ref:
    """One array reference in a loop: array, subscripts, element size, read or write."""
    array: str
    indices: list[ir.Expr]
    elem_bytes: int
    write: bool
    # elements per dimension as declared (double c[256][256], A(NMAX, NMAX) with NMAX a PARAMETER), None
    # where a bound is not a constant (a formal argument, *) or the array has no declaration here
    extents: tuple[int | None, ...] | None = None


@dataclass
class SourceLoop:
    """A source loop with its nest and array references, as the loop-cost model needs it."""
    file: str
    line: int
    last_line: int
    index: str | None
    nest: list[ir.Stmt]            # enclosing loops, outermost first, this loop last
    refs: list[Ref] = field(default_factory=list)
    fastest: str = "last"
    first_touch: list[str] = field(default_factory=list)   # arrays no earlier loop of the program touches


@dataclass
class LoopPrice:
    """Why an innermost loop costs what it costs (for --explain), and the price per iteration."""
    loop: SourceLoop
    seconds: sympy.Expr            # per iteration of the source loop
    core_s: float
    chain_s: float
    data_s: sympy.Expr
    bound: str                     # which bound the evaluated figures say limits it (set by explain)
    vector: int = 1
    asm_instructions: int = 0
    levels: list[tuple[str, sympy.Expr, float, Walk | None]] = field(default_factory=list)
    """(reference, footprint between reuses, lines per iteration, its walk if strided)"""
    touch_s: sympy.Expr = sympy.Integer(0)   # first touch of fresh pages, seconds per run of the program
    touch_bytes: sympy.Expr = sympy.Integer(0)
    source: str = "compiled code"  # or "operation classes" (sad.predict.opmodel: no compiled loop to price)
    window: float | None = None    # iterations the core keeps in flight (reorder buffer / instructions per iteration)


# ------------------------------------------------------------------------------------------- source loops


def source_loops(program: ir.Program) -> list[SourceLoop]:
    """Innermost counted loops of every procedure, with their nest and array references."""
    found: list[SourceLoop] = []
    touched: set[str] = set()
    for proc in program.procedures:
        fastest = "first" if proc.language == "fortran" else "last"
        start = len(found)
        _collect(proc.body, [], fastest, found)
        declared = {**program.globals, **proc.variables}
        for loop in found[start:]:
            for ref in loop.refs:
                ref.extents = _extents(declared.get(ref.array), declared)
            fresh = sorted({r.array for r in loop.refs} - touched - set(proc.formals))
            loop.first_touch = fresh
            touched.update(fresh)
    return found


def _collect(stmts: list[ir.Stmt], nest: list[ir.Stmt], fastest: str, out: list[SourceLoop]) -> None:
    for stmt in stmts:
        if isinstance(stmt, (ir.Do, ir.While)):
            inner = [s for s in walk_stmts(stmt.body) if isinstance(s, (ir.Do, ir.While))]
            if not inner and isinstance(stmt, ir.Do) and not _has_calls(stmt.body) \
                    and not _has_jump_back(stmt.body):
                last = max([s.loc.line for s in walk_stmts(stmt.body)] + [stmt.loc.line])
                loop = SourceLoop(stmt.loc.file, stmt.loc.line, last, stmt.index, [*nest, stmt], fastest=fastest)
                loop.refs = _refs(stmt.body)
                out.append(loop)
            else:
                _collect(stmt.body, [*nest, stmt], fastest, out)
            continue
        for body in child_bodies(stmt):
            _collect(body, nest, fastest, out)


def _has_calls(body: list[ir.Stmt]) -> bool:
    for stmt in walk_stmts(body):
        if isinstance(stmt, (ir.CallStmt, ir.IO, ir.Message, ir.Unsupported)):
            return True
        if any(isinstance(n, ir.FuncCall) and not n.intrinsic for n in walk(stmt)):
            return True
    return False


def _has_jump_back(body: list[ir.Stmt]) -> bool:
    """A jump to a label at or before it in the body: a GOTO loop inside the DO loop (md1's cell-list walk
    `21 IF (J .NE. 0) THEN ... J = LIST(J); GOTO 21`). Such a body runs its inner loop many times per
    iteration, so it is not one compiled iteration: its blocks keep their own per-operation prices."""
    seen: set[str] = set()
    for stmt in walk_stmts(body):
        if stmt.label:
            seen.add(stmt.label)
        targets = ir.jump_targets(stmt)
        if any(t in seen for t in targets) or (isinstance(stmt, ir.AssignedGoto) and not targets):
            return True
    return False


def _refs(body: list[ir.Stmt]) -> list[Ref]:
    refs = []
    for stmt in walk_stmts(body):
        targets = [stmt.target] if isinstance(stmt, ir.Assign) else []
        for node in walk(stmt):
            if isinstance(node, ir.ArrayRef) and node.indices:
                write = any(node is t for t in targets)
                refs.append(Ref(node.name, list(node.indices), ELEM_BYTES.get(node.type, 8), write))
    return refs


def _extents(var: ir.Variable | None, declared: dict[str, ir.Variable]) -> tuple[int | None, ...] | None:
    """Elements per dimension of an array's declaration, each None unless both bounds are integer constants
    (or named constants: Fortran PARAMETERs, C consts)."""
    if var is None or not var.dims:
        return None
    out: list[int | None] = []
    for lo, hi in var.dims:
        low, high = _constant(lo, declared) if lo is not None else 1, _constant(hi, declared)
        out.append(high - low + 1 if low is not None and high is not None else None)
    return tuple(out)


def _constant(expr: ir.Expr | None, declared: dict[str, ir.Variable]) -> int | None:
    if isinstance(expr, ir.Const) and isinstance(expr.value, int) and not isinstance(expr.value, bool):
        return expr.value
    if isinstance(expr, ir.Var) and expr.name in declared:
        var = declared[expr.name]
        if var.storage in ("parameter", "const") and isinstance(var.value, ir.Const):
            return _constant(var.value, declared)
    return None


# ------------------------------------------------------------------------------------------- reuse


def _mentions(expr: ir.Expr, name: str | None) -> bool:
    return name is not None and any(isinstance(n, ir.Var) and n.name == name for n in walk(expr))


def _fastest(ref: Ref, fastest: str) -> ir.Expr:
    return ref.indices[0] if fastest == "first" else ref.indices[-1]


def _index(loop: ir.Stmt) -> str | None:
    return loop.index if isinstance(loop, ir.Do) else None


def footprint(refs: list[Ref], loops: list[ir.Stmt], trips: dict[int, sympy.Expr], fastest: str,
              line: int) -> sympy.Expr:
    """Bytes the references touch while ``loops`` (innermost first) run once: per array, the elements its
    subscripts reach (a product of the trip counts of the loops they mention), at element granularity when
    one of the loops walks its fastest subscript, at line granularity otherwise. One array counted once."""
    per_array: dict[str, sympy.Expr] = {}
    for ref in refs:
        used = [lp for lp in loops if any(_mentions(e, _index(lp)) for e in ref.indices)]
        # element granularity only where a loop walks the fastest subscript by one element: A[i*n+j] over i
        # alone touches a line per row
        unit = any(_mentions(_fastest(ref, fastest), _index(lp)) and
                   not is_strided(_as_ir(ref), Layout(_index(lp), fastest)) for lp in used)
        size = sympy.Integer(ref.elem_bytes if unit else line)
        for lp in used:
            size *= trips[id(lp)]
        if ref.array not in per_array or _bigger(size, per_array[ref.array]):
            per_array[ref.array] = size
    return sympy.Add(*per_array.values()) if per_array else sympy.Integer(0)


def first_touch_bytes(loop: SourceLoop, trips: dict[int, sympy.Expr], line: int) -> sympy.Expr:
    """Bytes of the arrays this loop touches first, over one run of its whole nest (element granularity where
    the nest walks an array's fastest subscript, a line per element otherwise)."""
    refs = [r for r in loop.refs if r.array in loop.first_touch]
    total = sympy.Integer(0)
    for name in loop.first_touch:
        total += footprint([r for r in refs if r.array == name], list(reversed(loop.nest)), trips, loop.fastest, line)
    return total


def _bigger(a: sympy.Expr, b: sympy.Expr) -> bool:
    return len(a.free_symbols) > len(b.free_symbols) or (a.free_symbols == b.free_symbols and
                                                         sympy.count_ops(a) >= sympy.count_ops(b))


def reuse_footprint(ref: Ref, loop: SourceLoop, trips: dict[int, sympy.Expr], line: int,
                    refs: list[Ref] | None = None) -> sympy.Expr:
    """The bytes touched between two uses of the data (or cache line) ``ref`` reads in one iteration: the
    nest inside the innermost enclosing loop whose next iteration reuses it (its index is not in the
    reference, or moves it along its fastest subscript by one element: the same line again for a column
    walk). With no such loop, the whole nest (reuse from one run of the nest to the next). ``refs``: count
    only these references (default all of the loop's)."""
    counted = loop.refs if refs is None else refs
    inner_first = list(reversed(loop.nest))
    strided = is_strided(_as_ir(ref), Layout(loop.index, loop.fastest))
    for d in range(1, len(inner_first)):
        idx = _index(inner_first[d])
        in_ref = any(_mentions(e, idx) for e in ref.indices)
        along_line = strided and _mentions(_fastest(ref, loop.fastest), idx) and \
            not any(_mentions(e, idx) for e in _slow(ref, loop.fastest))
        if not in_ref or along_line:
            return footprint(counted, inner_first[:d], trips, loop.fastest, line)
    return footprint(counted, inner_first, trips, loop.fastest, line)


def _slow(ref: Ref, fastest: str) -> list[ir.Expr]:
    return ref.indices[1:] if fastest == "first" else ref.indices[:-1]


def _as_ir(ref: Ref) -> ir.ArrayRef:
    return ir.ArrayRef(ref.array, ref.indices, type="double")


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
        if not one or one <= column or weight == 0:
            return sympy.Float(column, 6)
        return sympy.Float(column, 6) + weight * sympy.Float(one - column, 6)
    return _by_serving_level(bytes_between_reuses, hierarchy, walk, cost)


def _by_serving_level(bytes_between_reuses: sympy.Expr, hierarchy: Hierarchy, walk: Walk | None,
                      value: Callable[[Level], sympy.Expr]) -> sympy.Expr:
    """Piecewise: value(level) of the first level that holds the footprint (and the walk), memory's last."""
    pieces = []
    for level in hierarchy.levels:
        figure = value(level)
        if level.size_bytes is None:
            pieces.append((figure, True))
            break
        pieces.append((figure, _holds(level, bytes_between_reuses, walk, hierarchy.line_bytes, hierarchy.page_bytes)))
    if not pieces or pieces[-1][1] is not True:
        pieces.append((pieces[-1][0] if pieces else sympy.Integer(0), True))
    return sympy.Piecewise(*pieces)


def _holds(level: Level, footprint_bytes: sympy.Expr, walk: Walk | None, line: int, page: int = 0):
    """The layer condition of one level: the footprint fits its size, and a walk's lines the part of it the
    walk's pitch can use (``usable_bytes``; both with the safety factor FIT_FRACTION). For a symbolic pitch
    the second part is: for every divisor d of the level's span that would shrink the usable part, d does not
    divide the pitch or the lines fit what is left (no Piecewise inside a relational: sympy would solve it)."""
    assert level.size_bytes is not None
    fraction = sympy.Rational(str(FIT_FRACTION))
    fits = sympy.Le(footprint_bytes, int(level.size_bytes * FIT_FRACTION))
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
        if bytes_value > level.size_bytes * FIT_FRACTION:
            continue
        if walk is not None and float(walk[0]).is_integer() and \
                walk[1] > (level.effective_bytes(int(walk[0]), hierarchy.line_bytes, hierarchy.page_bytes) or 0) \
                * FIT_FRACTION:
            continue
        return level.name
    return hierarchy.levels[-1].name


def data_seconds(loop: SourceLoop, trips: dict[int, sympy.Expr], hierarchy: Hierarchy,
                 bindings: dict[str, sympy.Expr] | None = None, window: float | None = None
                 ) -> tuple[sympy.Expr, list[tuple[str, sympy.Expr, float, Walk | None]]]:
    """Σ over the references of one iteration: lines moved × seconds per line of the serving level.
    A loop-invariant reference costs nothing (a register or L1); a unit-stride one elem/line of a line;
    a strided one a line. Writes count on the write figure (write-allocate and write-back). A walk's pitch
    that ``bindings`` (the parameters the user bound) make a number is that number: its set conflicts are
    then one condition per level, not one per divisor of the level's span (a formula sympy takes seconds to
    compare and print); the pitch cannot change unless those parameters do. ``window``: iterations of the
    loop the core keeps in flight (``one_set_shares``; None: not known, the rule is off). Returns the total
    and the streams shown by --explain. Several references on one line share it (``_same_stream``)."""
    line = hierarchy.line_bytes
    total = sympy.Integer(0)
    tlb = sympy.Integer(0)                        # the walks' TLB misses
    # per stream: ref, lines per iteration, footprint, walk, 1/s of the L1 sets it crowds (0: none), when
    streams: list[tuple[Ref, float, sympy.Expr, Walk | None, sympy.Expr, sympy.Basic]] = []
    shown: list[tuple] = []                       # (label, footprint, lines, walk) per stream shown
    seen: set[tuple[str, str, bool]] = set()      # (array, subscripts, write): the same reference again
    written = {(r.array, repr(r.indices)) for r in loop.refs if r.write}
    for ref in loop.refs:
        key = (ref.array, repr(ref.indices), ref.write)
        if key in seen:   # a[i] read and the same a[i] read again in the iteration: one stream
            continue
        seen.add(key)
        if not ref.write and (ref.array, repr(ref.indices)) in written:
            continue      # c[i] += ...: the write's figure (read for ownership + write back) covers the read
        if not any(_mentions(e, loop.index) for e in ref.indices):
            continue
        strided = is_strided(_as_ir(ref), Layout(loop.index, loop.fastest))
        lines = 1.0 if strided else ref.elem_bytes / line
        if _same_stream(ref, loop, shown, line, [st[0] for st in streams]):
            continue
        fp = reuse_footprint(ref, loop, trips, line)
        walk, share, crowded_when = None, sympy.Integer(0), sympy.false
        if strided:
            pitch = _bound_number(row_pitch(ref, loop, trips, line), bindings)
            walk = Walk(pitch, reuse_footprint(ref, loop, trips, line, [ref]))
            shares = one_set_shares(pitch, hierarchy, window)
            share = sympy.sympify(shares[0][0]) if len(shares) == 1 else sympy.Piecewise(*shares)
            crowded_when = sympy.Or(*[condition for s, condition in shares if s != 0])
        streams.append((ref, lines, fp, walk, share, crowded_when))
        shown.append((f"{ref.array}{'(w)' if ref.write else ''}", fp, lines, walk))
    # crowded walks of one iteration wait together, each in its own L1 sets: one walk's crowding counts, a
    # written one's if there is one (its one-set figure is the larger: matmul jki at n = 512 on this host, the
    # update's excess 23.5 ns against the read's 7.5 ns; 22.8 ns per iteration measured, both would be 33)
    crowded = [s for s in streams if s[4] != 0]
    chosen = next((s for s in crowded if s[0].write), crowded[0]) if crowded else None
    for stream in streams:
        ref, lines, fp, walk, share, crowded_when = stream
        if walk is None:
            total += lines * serving_level(fp, hierarchy, ref.write)
            continue
        level_cost = serving_level(fp, hierarchy, ref.write, True, walk, share if stream is chosen else 0)
        # a pitch of one line (x[8*i] of doubles) is a stream of consecutive lines: prefetched
        total += lines * sympy.Piecewise((serving_level(fp, hierarchy, ref.write), sympy.Le(walk.pitch, line)),
                                         (level_cost, True))
        # a crowded walk's page walks proceed while its fills wait: no TLB term where it is crowded (jki at
        # n = 512: the TLB term alone would be 37 ns per iteration)
        if hierarchy.tlb_pages and hierarchy.tlb_miss_s > 0 and crowded_when is not sympy.true:
            others = [s[3] for s in streams if s[3] is not None and s[3] is not walk]
            term = tlb_seconds(ref, loop, trips, fp, hierarchy, walk, others)
            tlb += term if crowded_when is sympy.false else sympy.Piecewise((0, crowded_when), (term, True))
    return total + tlb, shown


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
    already contains the misses: no extra there."""
    page = hierarchy.page_bytes
    pitch = row_pitch(ref, loop, trips, hierarchy.line_bytes)
    share = sympy.Min(1, pitch / page)
    pages = pages_between_reuses(fp, share, walk, others or [], hierarchy)
    caches = hierarchy.caches()
    largest = int(caches[-1].size_bytes * FIT_FRACTION) if caches and caches[-1].size_bytes else None
    pieces = [(sympy.Integer(0), sympy.Le(pages, hierarchy.tlb_pages))]
    if largest is not None:
        pieces.append((sympy.Integer(0), sympy.Gt(fp, largest)))
        if walk is not None:     # set conflicts keep the walk out of the last cache: from memory as well
            pieces.append((sympy.Integer(0), sympy.Not(_holds(caches[-1], fp, walk, hierarchy.line_bytes,
                                                              hierarchy.page_bytes))))
    pieces.append((sympy.Float(hierarchy.tlb_miss_s, 6) * share, True))
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
    label = f"{ref.array}{'(w)' if ref.write else ''}"
    if not is_strided(_as_ir(ref), Layout(loop.index, loop.fastest)):
        return any(entry[0] == label for entry in shown)
    return any(_one_line(ref, other, loop.fastest, line) for other in counted or [])


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


# ------------------------------------------------------------------------------------------- matching


def loop_trips(blocks) -> dict[tuple[str, int], sympy.Expr]:
    """Trips per entry of every loop, by (resolved file, header line): iterations / entries from the SAD."""
    iters: dict[tuple[str, int], sympy.Expr] = defaultdict(lambda: sympy.Integer(0))
    entries: dict[tuple[str, int], sympy.Expr] = defaultdict(lambda: sympy.Integer(0))
    for b in blocks:
        key = (_resolved(b.file), b.first_line)
        if b.kind == "loop_iter":
            iters[key] += b.count
        elif b.kind == "loop_entry":
            entries[key] += b.count
    # Max(entries, 1): a loop whose entry count is 0 for the bound values (a branch never taken) has 0
    # iterations too; 0/0 would be NaN and poison the cache-level comparisons.
    return {k: iters[k] / sympy.Max(entries[k], 1) if entries[k] != 0 else iters[k] for k in iters}


def _resolved(path: str) -> str:
    return str(Path(path).resolve())


@dataclass
class LoopCoverage:
    """How the innermost loops of a program were priced: the report's "12 of 14 innermost loops priced from the
    compiled code" and one warning per file where the compile or the matching of its loops failed."""
    total: int = 0
    compiled: int = 0
    operation_classes: int = 0
    command: str = ""                       # the machine's compile spec (gcc -O2)
    warnings: list[ir.Diagnostic] = field(default_factory=list)

    def summary(self) -> str:
        """One line for the report."""
        text = f"{self.compiled} of {self.total} innermost loops priced from the compiled code" + \
            (f" ({self.command})" if self.command else "")
        if self.operation_classes:
            text += f", {self.operation_classes} from the calibrated operation classes"
        rest = self.total - self.compiled - self.operation_classes
        if rest:
            text += f", {rest} per operation"
        return text


def price_loops(analysis, blocks, machine, bindings: dict[str, sympy.Expr] | None = None,
                coverage: LoopCoverage | None = None) -> tuple[dict[int, sympy.Expr], list[LoopPrice]]:
    """Per-block prices (id(block) → seconds per execution) replacing the per-operation ones for the blocks of
    innermost loops the compiled-code model prices, and the explanation of each. ``bindings``: the bound
    parameters (a column walk's pitch they fix is priced as that number, see ``data_seconds``). Each source
    is compiled with the machine's compile command and the -I / -D the analysis read it with. ``coverage``,
    if given, is filled: loops per source of their price, one warning per file that did not compile or whose
    loops were not all found in its compiled code."""
    hierarchy: Hierarchy | None = getattr(machine, "hierarchy", None)
    spec = machine.models.get("compile") if machine.models else None
    coverage = coverage if coverage is not None else LoopCoverage()
    if hierarchy is None:
        return {}, []
    compiling = bool(spec) and cc.available() is None
    if not compiling and not hierarchy.ops:
        return {}, []
    coverage.command = str(spec) if compiling else ""
    trips_by_line = loop_trips(blocks)
    overrides: dict[int, sympy.Expr] = {}
    explained: list[LoopPrice] = []
    compiled_files: dict[str, cc.CompiledFile | str] = {}
    unmatched: dict[str, list[SourceLoop]] = defaultdict(list)
    failed: dict[str, tuple[str, list[SourceLoop]]] = {}       # file → why it did not compile, its loops
    include_dirs = tuple(getattr(analysis, "include_dirs", ()) or ())
    defines = dict(getattr(analysis, "defines", {}) or {})
    for loop in source_loops(analysis.program):
        coverage.total += 1
        file = _resolved(loop.file)
        if file not in compiled_files:
            compiled_files[file] = _compile(loop.file, str(spec), include_dirs, defines) if compiling else \
                "no compile command in the machine database or no llvm-mca here"
        cf = compiled_files[file]
        if isinstance(cf, str) and compiling:
            failed.setdefault(loop.file, (cf, []))[1].append(loop)
        priced = _price_one(loop, cf, file, trips_by_line, hierarchy, spec, bindings) \
            if isinstance(cf, cc.CompiledFile) else None
        if priced is None and isinstance(cf, cc.CompiledFile):
            unmatched[loop.file].append(loop)
        if priced is None and hierarchy.ops:
            priced = _price_from_ops(loop, trips_by_line, hierarchy, machine, spec, bindings)
        if priced is None:
            continue
        if priced.source == "compiled code":
            coverage.compiled += 1
        else:
            coverage.operation_classes += 1
        explained.append(priced)
        for b in blocks:
            if _resolved(b.file) != file or not loop.line <= b.first_line <= loop.last_line:
                continue
            if b.kind == "loop_iter" and b.first_line == loop.line:
                # the first touch is paid once per program run: spread over the iterations of the block
                overrides[id(b)] = priced.seconds + priced.touch_s / sympy.Max(b.count, 1) \
                    if priced.touch_s != 0 else priced.seconds
            elif b.kind in ("code", "branch") and not any(k.startswith("cost:") for k in b.cost):
                overrides[id(b)] = sympy.Integer(0)
    how = "the calibrated operation classes" if hierarchy.ops else "per-operation prices"
    for name, (why, loops) in failed.items():
        coverage.warnings.append(ir.Diagnostic(ir.Loc(name, 0), "warning", (
            f"{_loops_text(loops)} not priced from the compiled code, priced from {how}: {why}")))
    for name, loops in unmatched.items():
        coverage.warnings.append(ir.Diagnostic(ir.Loc(name, loops[0].line), "warning", (
            f"{_loops_text(loops)} not found in the code `{spec}` generates (no loop of the assembly has most of its "
            f"instructions on those lines, or llvm-mca cannot read it): priced from {how}")))
    return overrides, explained


def _loops_text(loops: list[SourceLoop]) -> str:
    many = len(loops) > 1
    return f"{len(loops)} innermost loop{'s' if many else ''} (line{'s' if many else ''} " + \
        ", ".join(str(lp.line) for lp in loops) + ")"


def _compile(file: str, spec: str, include_dirs: tuple[str, ...], defines: dict[str, str]) -> cc.CompiledFile | str:
    """The source compiled as the user's build compiles it: the machine's command, the analysis's -I, and
    its -D where they are macros (not values of the program's variables), as sad profile and validate do."""
    from sad.analysis.pipeline import preprocessor_defines
    macros = tuple(f"-D{k}={v}" for k, v in sorted(preprocessor_defines(file, defines).items()))
    return cc.compiled_file(Path(file), spec, include_dirs, macros)


def opt_level_keeps_memory(spec: str | None) -> bool:
    """True when the compile command keeps variables in memory (-O0, -Og or no -O flag)."""
    return not spec or not any(f.startswith("-O") and f not in ("-O0", "-Og") for f in str(spec).split())


def _price_one(loop: SourceLoop, cf: cc.CompiledFile, file: str, trips_by_line, hierarchy: Hierarchy,
               spec: str | None = None, bindings: dict[str, sympy.Expr] | None = None) -> LoopPrice | None:
    candidates = []
    for asm in cf.loops:
        if not asm.innermost:
            continue
        inside = sum(n for (f, ln), n in asm.lines.items()
                     if _resolved(f) == file and loop.line <= ln <= loop.last_line)
        if inside * 2 > sum(asm.lines.values()):
            candidates.append(asm)
    if not candidates:
        return None
    vector_bytes = cf.vectorized.get(loop.line, 0)
    packed = [a for a in candidates if a.packed] if vector_bytes else []
    chosen = max(packed or candidates, key=lambda a: len(a.instructions))
    result = cc.mca(tuple(chosen.instructions))
    if result is None:
        return None
    width = 1
    if packed:
        elem = max((r.elem_bytes for r in loop.refs), default=8)
        width = max(1, vector_bytes // elem)
    clock = hierarchy.clock_hz
    cycles = result.cycles
    latency_bound = max(cycles, cc.register_chain(chosen.instructions))
    core = latency_bound / width / clock
    chain = 0.0
    for ch in cc.memory_chains(chosen.instructions, result.latencies):
        fwd = hierarchy.forward_fp_s if ch.floating else hierarchy.forward_s
        chain = max(chain, fwd + ch.cycles / clock)
    if opt_level_keeps_memory(spec) or cc.invariant_stores(chosen.instructions):
        # x[j] += ... with j fixed in this loop: at -O0 (and at -O2 when gcc cannot keep it in a register for
        # fear of aliasing) every iteration loads what the previous one stored
        ops = opmodel.element_chain_seconds(loop.nest[-1].body if isinstance(loop.nest[-1], ir.Do) else [],
                                            loop.index, hierarchy, 1 / clock)
        if ops:
            chain = max(chain, hierarchy.forward_fp_s + ops)
    if opt_level_keeps_memory(spec) and hierarchy.ops and isinstance(loop.nest[-1], ir.Do):
        # -O0 keeps every scalar in memory, also one the code reaches through a pointer (a Fortran dummy
        # argument, S = S + X(I)), which the fixed-slot analysis of the assembly does not see; and an element
        # written in one iteration and read back in a later one (x[i] = ... x[i - 1]) is a chain through memory
        chain = max(chain, opmodel.chain_seconds(loop.nest[-1].body, hierarchy, in_memory=True),
                    opmodel.recurrence_seconds(loop.nest[-1], hierarchy, 1 / clock))
    trips = {}
    for lp in loop.nest:
        trips[id(lp)] = trips_by_line.get((_resolved(lp.loc.file), lp.loc.line), sympy.Integer(1))
    rob = cc.rob_entries()
    window = rob / len(chosen.instructions) if rob else None
    data, shown = data_seconds(loop, trips, hierarchy, bindings, window)
    seconds = loop_seconds(core, chain, data)
    price = LoopPrice(loop, seconds, core, chain, data, "", width, len(chosen.instructions), shown)
    price.window = window
    _add_first_touch(price, loop, trips, hierarchy)
    return price


def loop_seconds(core: sympy.Expr | float, chain: float, data: sympy.Expr) -> sympy.Expr:
    """Seconds per iteration, one rule at every optimization level: the largest of the in-core bound, the
    chain through memory and the data transfers, which overlap the core's work (the ECM model's fully
    overlapping composition). Held-out kernels of benchmarks/devkernels (-O2, pinned): adding the data
    transfers to the core instead brought syrk +71 %, mvt +57 %, colpairs +84 % and gemver at n = 1024
    +196 %; the overlap -1 %, -1 %, +69 %, +159 %. The rules that added part of the transfers to the core
    at -O0 (column walks in few L1 sets with a short window), waits for page walks, short fresh chains and
    three corrections to llvm-mca's latencies were fitted to this host's own suite; on the held-out kernels
    they changed nothing or made the figures worse (the corrections: median |error| -O0 13.3 -> 12.1 %,
    -O2 29.6 -> 28.4 % without them), and are gone."""
    core_term = sympy.Float(core, 6) if isinstance(core, float) else core
    if data == 0 and not core_term.free_symbols:
        return sympy.Float(max(float(core_term), chain), 6)
    return sympy.Max(core_term, sympy.Float(chain, 6), data)


def _price_from_ops(loop: SourceLoop, trips_by_line, hierarchy: Hierarchy, machine, spec: str | None,
                    bindings: dict[str, sympy.Expr] | None = None) -> LoopPrice:
    """A loop the compiled-code model cannot price: the calibrated operation classes (sad.predict.opmodel).
    Every reference costs its issue in the core (the machine's unit-stride ``load`` / ``store`` figure; a
    strided one too: ``load_strided`` is a pass over memory, the transfer the data term prices from the level
    that serves the line) and its line once, in the data term. Code that keeps variables in memory (-O0)
    adds the chains through memory: a scalar accumulator, an element updated in place while the loop's index
    does not move it (``x[i] -= L[i][j] * x[j]`` over j), an element read back in a later iteration."""
    in_memory = opt_level_keeps_memory(spec)
    innermost = loop.nest[-1]
    assert isinstance(innermost, ir.Do)
    tp, lat = opmodel.core_seconds(innermost.body, Layout(loop.index, loop.fastest), hierarchy,
                                   lambda key: machine.op_cost(_issue_key(key)), in_memory)
    if in_memory:
        clock_cycle = 1 / hierarchy.clock_hz
        element = opmodel.element_chain_seconds(innermost.body, loop.index, hierarchy, clock_cycle)
        lat = max(lat, opmodel.recurrence_seconds(innermost, hierarchy, clock_cycle),
                  hierarchy.forward_fp_s + element if element else 0.0)
    trips = {id(lp): trips_by_line.get((_resolved(lp.loc.file), lp.loc.line), sympy.Integer(1)) for lp in loop.nest}
    data, shown = data_seconds(loop, trips, hierarchy, bindings)
    seconds = sympy.Max(sympy.Float(tp, 6), sympy.Float(lat, 6), data) if data != 0 else sympy.Float(max(tp, lat), 6)
    price = LoopPrice(loop, seconds, tp, lat, data, "", 1, 0, shown, source="operation classes")
    _add_first_touch(price, loop, trips, hierarchy)
    return price


def _issue_key(key: str) -> str:
    """The operation whose price is a reference's issue in the core: 'load_strided.double' → 'load.double'
    (the strided figure holds the transfer from memory, which the data term prices once)."""
    head, _, kind = key.partition(".")
    return f"{STRIDED_KEYS[head]}.{kind}" if head in STRIDED_KEYS else key


def _add_first_touch(price: LoopPrice, loop: SourceLoop, trips: dict[int, sympy.Expr], hierarchy: Hierarchy) -> None:
    if loop.first_touch and hierarchy.first_touch_s > 0:
        price.touch_bytes = first_touch_bytes(loop, trips, hierarchy.line_bytes)
        price.touch_s = price.touch_bytes / hierarchy.page_bytes * sympy.Float(hierarchy.first_touch_s, 6)


# ------------------------------------------------------------------------------------------- explaining


def explain(explained: list[LoopPrice], prediction, bindings: dict[str, sympy.Expr], hierarchy: Hierarchy | None,
            top: int = 5) -> str:
    """Text: for the innermost loops that take the most time, which bound limits them and why."""
    if not explained or hierarchy is None:
        return "explain: no innermost loop priced from compiled code (the machine has no hierarchy section, " \
               "no compile command, or llvm-mca/the compiler is missing): per-operation prices only\n"
    times = {(_resolved(bt.block.file), bt.block.first_line): bt.time_value for bt in prediction.blocks
             if bt.block.kind == "loop_iter"}
    ranked = sorted(explained, key=lambda lp: -(times.get((_resolved(lp.loop.file), lp.loop.line)) or 0.0))
    out = [f"explain: innermost loops priced from the compiled code ({len(explained)}), clock "
           f"{hierarchy.clock_hz / 1e9:.3g} GHz measured"]
    for lp in ranked[:top]:
        total = times.get((_resolved(lp.loop.file), lp.loop.line))
        data = evaluate(bind(lp.data_s, bindings)) if lp.data_s != 0 else 0.0
        compiled = lp.source == "compiled code"
        bounds = {"core (llvm-mca)": lp.core_s, "latency chain through memory": lp.chain_s} if compiled else \
            {"throughput (operation classes)": lp.core_s, "latency chain": lp.chain_s}
        if data is not None:
            bounds["data"] = data
        limit = max(bounds, key=lambda k: bounds[k])
        share = f"{total:.4g} s" if total is not None else "time unbound"
        out.append(f"  {lp.loop.file}:{lp.loop.line}  {share}; per iteration "
                   + ", ".join(f"{k} {v * 1e9:.3g} ns" for k, v in bounds.items()) + f"  -> bound: {limit}")
        if compiled:
            out.append(f"      core: {lp.core_s * hierarchy.clock_hz:.3g} cycles/iteration from {lp.asm_instructions} "
                       f"instructions" + (f", vectorized x{lp.vector}" if lp.vector > 1 else ""))
        else:
            out.append("      core: not compiled here; calibrated latency and throughput of the operation classes")
        if lp.touch_s != 0:
            touched = evaluate(bind(lp.touch_bytes, bindings))
            pages = f"{touched / hierarchy.page_bytes:.4g} pages" if touched is not None else "pages unbound"
            out.append(f"      first touch of {', '.join(lp.loop.first_touch)}: {pages} x "
                       f"{hierarchy.first_touch_s * 1e6:.3g} us once per run")
        for name, fp, lines, stride_walk in lp.levels:
            value = evaluate(bind(fp, bindings))
            pair = None
            if stride_walk is not None:
                pitch = evaluate(bind(stride_walk.pitch, bindings))
                walk_bytes = evaluate(bind(stride_walk.bytes, bindings))
                pair = (pitch, walk_bytes) if pitch is not None and walk_bytes is not None else None
            where = level_name(value, hierarchy, pair) if value is not None else "depends on " + str(fp)
            crowded = one_set_shares(sympy.Integer(int(pair[0])), hierarchy, lp.window)[0][0] \
                if pair is not None and float(pair[0]).is_integer() else 0
            out.append(f"      {name}: {lines * hierarchy.line_bytes:.3g} bytes/iteration from {where}"
                       + (f" ({value / 1024:.4g} KiB between reuses)" if value is not None else "")
                       + (f"; rows in {1 / crowded} L1 sets, more in flight than their ways: column cost + "
                          f"one-set excess / {1 / crowded ** 2}" if crowded else ""))
    return "\n".join(out) + "\n"
