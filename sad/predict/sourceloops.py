"""The innermost loops of a program as the loop-cost model sees them: nest, array references, declared extents.

Data flow: the IR (sad.ir) → ``source_loops``: every innermost counted loop without calls or GOTO loops inside,
with the loops around it, its array references (read or written, element size, declared extents) and the
arrays it is the first in the program to touch → sad.predict.reuse (which level serves each reference) and
sad.predict.incore (the compiled loop that runs it), composed by sad.predict.loopcost.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import sympy

from sad import ir
from sad.analysis.callgraph import mains
from sad.ir.languages import resolve_name
from sad.ir.walk import child_bodies, walk, walk_stmts
from sad.predict import pointerwalks

ELEM_BYTES = {"double": 8, "complex": 8, "real": 4, "integer": 4, "logical": 4, "character": 1, "pointer": 8}
EXACT_TYPES = ("double", "real")
"""IR types whose element size ELEM_BYTES gives exactly: "integer" is C's char to long and "complex" Fortran's
COMPLEX (8 bytes) and COMPLEX*16 (16): a reference takes its declaration's size where the frontend gives one
(ir.Variable.elem_bytes), ELEM_BYTES's guess otherwise (sad.predict.incore reads no iteration count from them).
A member of a C struct array takes the record's size (the step of its index) from the declaration too."""


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
    line: int = 0          # the line of the statement that holds it
    type: str = "unknown"  # the element's IR type (sad.ir: "double", "integer", ...)
    share: float = 1.0
    """The part of the loop's iterations that run that statement: 1 unless an ``if`` in the loop body guards it
    and the counts of the program tell how often (sad.predict.loopcost.statement_shares)."""


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
    # of them, those nothing wrote before this loop and this loop only reads (their pages: the zero page's)
    read_first: list[str] = field(default_factory=list)
    line_shares: dict[int, float] = field(default_factory=dict)
    """Source line → the share of the loop's iterations that run it, where less than all and known as a number
    (an arm of an IF: sad.predict.loopcost.statement_shares)."""
    share_exprs: dict[int, sympy.Expr] = field(default_factory=dict)
    """Source line → the share of the iterations that run it as a formula, where the bound values leave it one
    (a branch probability no run has told): the loop's price keeps it (sad.predict.loopcost)."""
    data_lines: set[int] = field(default_factory=set)
    """Lines of those whose count is a test of data (a branch probability), not of the loop indices: a branch
    predictor learns an index test's pattern, not a test of data's."""
    origin: ir.Stmt | None = field(default=None, compare=False, repr=False)
    """The IR statement the loop is: ``nest[-1]`` itself, or the while loop a pointer walk's DO stands for."""
    neighbours: list[SourceLoop] = field(default_factory=list, compare=False, repr=False)
    """The other innermost loops directly inside the same enclosing loop: each iteration of that loop runs them
    all (atax's ``tmp[i] += A[i][j] * x[j]`` and ``y[j] += A[i][j] * tmp[i]`` over j, inside i: the second
    reads the row the first just read; sad.predict.reuse.neighbour_footprint)."""


# ------------------------------------------------------------------------------------------- source loops


def source_loops(program: ir.Program, skipped: list[tuple[ir.Loc, str]] | None = None,
                 leaves: frozenset[str] | None = None) -> list[SourceLoop]:
    """Innermost counted loops of every procedure (a pointer walk as its DO), with their nest and array
    references; the innermost loops the compiled-code model does not take (another while loop, a counted loop
    that calls routines other than the program's leaves or holds a GOTO loop), each with why, into ``skipped``
    where given: their blocks keep the per-operation prices. ``leaves``: `leaf_routines` of the program where
    the caller has them."""
    found: list[SourceLoop] = []
    touched: set[str] = set()
    leaves = leaf_routines(program) if leaves is None else leaves
    for proc in program.procedures:
        fastest = "first" if proc.language == "fortran" else "last"
        start = len(found)
        declared = {**program.globals, **proc.variables}
        _collect(proc.body, [], fastest, found, proc.end_line, skipped, Scope(proc, declared, leaves))
        for loop in found[start:]:
            for ref in loop.refs:
                var = declared.get(ref.array)
                ref.extents = _extents(var, declared)
                if var is not None and var.elem_bytes and ref.type != "pointer":
                    # C's char to long, Fortran's COMPLEX*8 and *16: one IR type; a member of a C struct
                    # array (p[i].x) steps over the whole record
                    ref.elem_bytes = var.elem_bytes
            fresh = sorted({r.array for r in loop.refs} - touched - set(proc.formals))
            loop.first_touch = fresh
            touched.update(fresh)
    FirstTouch(program, found).run()
    _link_neighbours(found)
    return found


def _link_neighbours(loops: list[SourceLoop]) -> None:
    """Each loop's ``neighbours``: the loops whose enclosing loop is the same statement as its own."""
    by_parent: dict[int, list[SourceLoop]] = {}
    for loop in loops:
        if len(loop.nest) > 1:
            by_parent.setdefault(id(loop.nest[-2]), []).append(loop)
    for group in by_parent.values():
        for loop in group:
            loop.neighbours = [other for other in group if other is not loop]


class FirstTouch:
    """The arrays each loop is the first to touch, in the order a run of the program reaches the loops: from its
    entry (the Fortran PROGRAM, C's main), each call followed into the called procedure with its formal arrays
    standing for the caller's storage. A benchmark harness allocates its arrays in main and fills them in an
    init routine through formal arguments: that routine's loops pay the pages' first touch (7 812 pages of a
    32 MB heap array filled in a function: about 14 ms on this host, as long as one pass of a mat-vec kernel),
    which the textual order alone, where a formal array is always someone else's, gives to nobody. A formal
    whose actual argument is not an array of the caller's (an expression, a procedure the entry never reaches)
    stays someone else's. A loop has one first-touch figure per run of the program: a procedure run again (a
    second call, a call in a loop) adds none, also where that call passes other fresh arrays (their pages are
    then left out: a known limit). Only innermost loops touch here (as in the textual order): an array a statement
    outside them writes first (x1[i] = 0 around a loop over j) pays at its first innermost loop, so that its
    pages are priced once somewhere. Without an entry (a library) the textual order stays."""

    def __init__(self, program: ir.Program, loops: list[SourceLoop]) -> None:
        self.procedures = {resolve_name(p.name): p for p in program.procedures}
        self.globals = set(program.globals)
        self.loops = {id(lp.origin if lp.origin is not None else lp.nest[-1]): lp for lp in loops}
        self.touched: set[str] = set()
        self.written: set[str] = set()   # storage some statement reached so far writes (inner loops or not)
        self.visited: set[str] = set()
        self.walked: set[tuple[str, tuple[tuple[str, str], ...]]] = set()
        self.entry = next(iter(mains(program)), None)

    def run(self) -> None:
        """Set ``first_touch`` of every loop the entry reaches (the others keep the textual order's)."""
        if self.entry is not None:
            self._visit(self.entry, {}, [])

    def _visit(self, proc: ir.Procedure, binding: dict[str, str | None], stack: list[str]) -> None:
        # a routine run again with the same storage touches nothing new: walked once per binding, so that a
        # deep call graph costs its distinct calls, not its paths
        key = (proc.name, tuple(sorted((k, v or "") for k, v in binding.items())))
        if key in self.walked:
            return
        self.walked.add(key)
        first = proc.name not in self.visited
        self.visited.add(proc.name)
        seen: set[int] = set()
        for stmt in walk_stmts(proc.body):
            loop = self.loops.get(id(stmt))
            if loop is not None:
                self._touch(loop, proc, binding, first)
            self._note_writes(stmt, proc, binding)
            for call in self._calls(stmt, seen):
                callee = self.procedures.get(resolve_name(call.name))
                if callee is None or callee.name in (*stack, proc.name):   # recursion: its first run took it
                    continue
                actuals = {f: self._storage(a, proc, binding) for f, a in zip(callee.formals, call.args)}
                self._visit(callee, actuals, [*stack, proc.name])

    def _touch(self, loop: SourceLoop, proc: ir.Procedure, binding: dict[str, str | None], first: bool) -> None:
        storage = {name: self._storage(ir.Var(name), proc, binding) for name in {r.array for r in loop.refs}}
        fresh = sorted(name for name, where in storage.items() if where is not None and where not in self.touched)
        if first:
            loop.first_touch = fresh
            stored = {r.array for r in loop.refs if r.write}
            loop.read_first = [name for name in fresh if name not in stored and storage[name] not in self.written]
        self.touched.update(where for where in storage.values() if where is not None)

    def _note_writes(self, stmt: ir.Stmt, proc: ir.Procedure, binding: dict[str, str | None]) -> None:
        """Storage a statement writes or may write: an element assigned, a READ's targets, an array passed to a
        routine not followed here (memset, fread, an external routine; a compound statement's own calls
        included, which errs towards a write)."""
        targets: list[ir.Expr] = []
        if isinstance(stmt, ir.Assign) and isinstance(stmt.target, ir.ArrayRef):
            targets.append(stmt.target)
        elif isinstance(stmt, ir.IO):
            targets.extend(stmt.targets)
        for call in ir.calls_in(stmt):
            if not (isinstance(call, ir.FuncCall) and call.intrinsic) and \
                    (call.indirect or resolve_name(call.name) not in self.procedures):
                targets.extend(call.args)
        for target in targets:
            where = self._storage(target, proc, binding)
            if where is not None:
                self.written.add(where)

    def _storage(self, expr: ir.Expr, proc: ir.Procedure, binding: dict[str, str | None]) -> str | None:
        """The storage an actual argument or a reference names: the caller's for a formal (None where the caller
        passed no array of its own), the array itself for a global, the procedure's own for a local."""
        while isinstance(expr, (ir.UnOp, ir.Cast)):
            expr = expr.operand
        if not isinstance(expr, (ir.Var, ir.ArrayRef)):
            return None
        name = expr.name
        if name in proc.formals:
            return binding.get(name)
        return name if name in self.globals else f"{proc.name}:{name}"

    @staticmethod
    def _calls(stmt: ir.Stmt, seen: set[int]) -> list[ir.CallStmt | ir.FuncCall]:
        """The calls of a statement not met before (a compound statement's walk holds its arms' too)."""
        found = [n for n in ir.calls_in(stmt) if id(n) not in seen
                 and not (isinstance(n, ir.FuncCall) and n.intrinsic) and not n.indirect]
        seen.update(id(n) for n in found)
        return found


@dataclass
class Scope:
    """The procedure whose loops are collected, what its names are declared as (its own, the program's) and the
    program's leaf routines (`leaf_routines`)."""
    proc: ir.Procedure
    declared: dict[str, ir.Variable]
    leaves: frozenset[str] = frozenset()


def leaf_routines(program: ir.Program) -> frozenset[str]:
    """Linkage names of the program's routines with no loop, no call and no I/O (``static inline double
    sq(double x)``, a weight function in another file): a loop calling only such routines is one compiled
    iteration plus, per call the compiler kept, a call and the routine's own blocks."""
    return frozenset(resolve_name(p.name) for p in program.procedures
                     if p.kind in ("function", "subroutine") and not any(
                         isinstance(s, (ir.Do, ir.While)) for s in walk_stmts(p.body))
                     and not _has_calls(p.body) and not _has_jump_back(p.body))


def _collect(stmts: list[ir.Stmt], nest: list[ir.Stmt], fastest: str, out: list[SourceLoop],
             until: int | None = None, skipped: list[tuple[ir.Loc, str]] | None = None,
             scope: Scope | None = None) -> None:
    """Innermost loops of ``stmts`` into ``out`` (and those the model does not take, with why, into
    ``skipped``); ``until``: the first line after these statements that holds another statement (the next one
    of the enclosing body, the procedure's end), None if not known. An innermost while loop that walks a
    pointer is taken as the counted loop it is (sad.predict.pointerwalks)."""
    for pos, stmt in enumerate(stmts):
        after = stmts[pos + 1].loc.line if pos + 1 < len(stmts) else until
        if isinstance(stmt, (ir.Do, ir.While)):
            inner = [s for s in walk_stmts(stmt.body) if isinstance(s, (ir.Do, ir.While))]
            why = _not_modeled(stmt, scope.leaves if scope is not None else frozenset()) if not inner else None
            walk_do = _pointer_walk(stmt, stmts[:pos], scope) if not inner and why == _WHILE else None
            if not inner and (why is None and isinstance(stmt, ir.Do) or walk_do is not None):
                do = stmt if isinstance(stmt, ir.Do) else walk_do
                assert do is not None
                loop = SourceLoop(stmt.loc.file, stmt.loc.line, _last_line(do, after), do.index, [*nest, do],
                                  fastest=fastest, origin=stmt)
                loop.refs = _refs(do.body)
                out.append(loop)
            else:
                if why is not None and skipped is not None:
                    skipped.append((stmt.loc, why))
                _collect(stmt.body, [*nest, stmt], fastest, out, after, skipped, scope)
            continue
        bodies = child_bodies(stmt)
        for k, body in enumerate(bodies):
            later = next((b[0].loc.line for b in bodies[k + 1:] if b), after)
            _collect(body, nest, fastest, out, later, skipped, scope)


def _pointer_walk(stmt: ir.Stmt, before: list[ir.Stmt], scope: Scope | None) -> ir.Do | None:
    """An innermost while loop that walks a pointer as a counted loop (sad.predict.pointerwalks), else None."""
    if not isinstance(stmt, ir.While) or scope is None or _has_calls(stmt.body) or _has_jump_back(stmt.body):
        return None
    return pointerwalks.as_do(stmt, before, scope.proc, scope.declared.get)


_WHILE = "a while loop that walks no pointer from a known start to a known bound"


def _not_modeled(loop: ir.Do | ir.While, leaves: frozenset[str] = frozenset()) -> str | None:
    """Why the compiled-code model does not price an innermost loop, None where it does: calls of the program's
    leaf routines (`leaf_routines`) it takes."""
    if isinstance(loop, ir.While):
        return _WHILE
    if _has_calls(loop.body, leaves):
        return "a loop that calls routines with loops, calls or I/O of their own, or not in the program"
    if _has_jump_back(loop.body):
        return "a loop with a GOTO loop inside"
    return None


def _last_line(loop: ir.Do, after: int | None) -> int:
    """The loop's last source line: its last statement's, extended over the lines up to the next statement
    outside it (a statement written over several lines, ``B[i][j][k] = ... + ...`` on three, has code on all
    of them, and the debug line table attributes instructions to each)."""
    last = max([s.loc.line for s in walk_stmts(loop.body)] + [loop.loc.line])
    return max(last, after - 1) if after is not None and after > last else last


def _has_calls(body: list[ir.Stmt], leaves: frozenset[str] = frozenset()) -> bool:
    """Whether the body calls a routine other than the `leaves` (named by their linkage names), or does I/O or
    message passing."""
    for stmt in walk_stmts(body):
        if isinstance(stmt, (ir.IO, ir.Message, ir.Unsupported)):
            return True
        if isinstance(stmt, ir.CallStmt) and (stmt.indirect or resolve_name(stmt.name) not in leaves):
            return True
        if any(isinstance(n, ir.FuncCall) and not n.intrinsic and (n.indirect or resolve_name(n.name) not in leaves)
               for n in walk(stmt)):
            return True
    return False


def leaf_calls(loop: SourceLoop) -> list[str]:
    """Linkage names of the routines the loop's body calls (each call once), in source order."""
    do = loop.nest[-1]
    body = do.body if isinstance(do, (ir.Do, ir.While)) else []
    seen: set[int] = set()
    names = []
    for stmt in walk_stmts(body):   # a compound statement's walk holds its arms' calls too: each once
        for call in ir.calls_in(stmt):
            if id(call) not in seen and not (isinstance(call, ir.FuncCall) and call.intrinsic):
                seen.add(id(call))
                names.append(resolve_name(call.name))
    return names


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
        # an if's arms are statements of their own (walk_stmts gives them): their references count on their lines
        inner = {id(n) for b in child_bodies(stmt) for s in b for n in walk(s)}
        for node in walk(stmt):
            if isinstance(node, ir.ArrayRef) and node.indices and id(node) not in inner:
                write = any(node is t for t in targets)
                refs.append(Ref(node.name, list(node.indices), ELEM_BYTES.get(node.type, 8), write,
                                line=stmt.loc.line, type=node.type))
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


# ------------------------------------------------------------------------------------------- helpers


def _mentions(expr: ir.Expr, name: str | None) -> bool:
    return name is not None and any(isinstance(n, ir.Var) and n.name == name for n in walk(expr))


def _fastest(ref: Ref, fastest: str) -> ir.Expr:
    return ref.indices[0] if fastest == "first" else ref.indices[-1]


def _index(loop: ir.Stmt) -> str | None:
    return loop.index if isinstance(loop, ir.Do) else None


def _slow(ref: Ref, fastest: str) -> list[ir.Expr]:
    return ref.indices[1:] if fastest == "first" else ref.indices[:-1]


def _as_ir(ref: Ref) -> ir.ArrayRef:
    return ir.ArrayRef(ref.array, ref.indices, type="double")


def resolved_path(path: str) -> str:
    """A source file's absolute path: the key loops, compiled files and gcov lines are matched by."""
    return str(Path(path).resolve())
