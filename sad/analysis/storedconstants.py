"""Stored constants: the constants a routine may leave in floating-point storage its callers see, and where
they flow through the program's calls and copies.

Data flow: the generic-data model (sad.analysis.genericdata) takes data for values that equal no constant.
That fails where the program itself stores a constant in the storage a test reads: DLARFG leaves TAU = ZERO
where its N <= 1, so the last TAU of a square DGEQRF is exactly zero, and DLARFT's `TAU(I).EQ.ZERO` in a
later DORMQR is true there, not false as for data in general. Before a routine's test on its variable or
array element is decided for generic data (sad.analysis.values), it asks here which constants that storage
may hold; the test is decided only where it goes the same way for each of them. Which elements of an array
hold the constant is sad.analysis.storedelements' work, from here on: where it knows (TAU(e) from M on, after
DGEQR2's DLARFG(M-I+1, ..., TAU(I))), an element's test is a test of its index, exact, per element and per
call; where it does not, the whole array's constants below keep the test open.

A callee's test on a scalar formal the call binds to such an element (DLARF's `TAU.NE.ZERO` for DORG2R's
TAU(I)) is decided as the element's: by its index where a rule tells the elements (DORG2R never passes the
last, its `I.LT.N`), else open (DORG2L after DSYTD2's upper reduction passes TAU(1), the zero: taken as data,
it was counted where gcov counted nothing).

The sources are the scalar floating formal arguments a routine assigns a constant (a literal or a PARAMETER)
and may return with (the routine's value at exit, followed by the caller of this module: a constant guarded
by a test that generic data decides false, such as DLARTG's `G.EQ.ZERO`, is no source). From there the
constants flow, flow-insensitively, along
- a call's argument, up: from a formal the callee may write to the caller's actual (a variable, an array,
  an element: the element's whole array);
- a call's argument, down: from the caller's actual to the callee's formal;
- a copy `X = S` of a scalar S (no arithmetic) from S's storage to X's (DSYTD2's `TAU(I) = TAUI` after
  DLARFG); copies of elements are not followed: they build other matrices from the values (DLAHR2's
  `T(I,I) = TAU(I)`, the triangular factor later calls multiply), whose zero the routine's own test on
  TAU(I) keeps from those calls, and following them would leave open every test on the many arrays a
  work array is passed as.
Constants a routine stores in its own locals or arrays (accumulators set to ZERO, DLASET's fill) are not
sources: a later update usually replaces them, and taking them would leave most tests of data open. One
stored in an element of an array formal in an arm of a test left open by a stored constant is (DLARFT's
`T(J,I) = ZERO` where `TAU(I).EQ.ZERO`: the triangular factor DLARFB passes to DTRMM has a zero column
where the last reflector is the identity); data never take that arm, the stored constant does. It goes
down only into formals the callee reads and never writes (the factor T, not the work arrays it shares
storage with): known limit, an array a callee both reads and updates does not see it.
"""
from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable, Iterator

import sympy

from sad import ir
from sad.analysis import genericdata
from sad.analysis.journal import Journal
from sad.ir.languages import resolve_name

StorageName = Callable[[ir.Procedure, str], str]
ExitConstants = Callable[[ir.Procedure, str], "frozenset[sympy.Number] | None"]


class StoredConstants:
    """Which constants each floating storage of a program may hold (storage by its program-wide name,
    sad.analysis.values.ProgramFacts.storage_name), computed on first use."""

    def __init__(self, program: ir.Program, procs: dict[str, ir.Procedure], storage_name: StorageName,
                 exit_constants: ExitConstants, journal: Journal) -> None:
        self._program = program
        self._journal = journal  # the answers a build takes, noted for summaries
        self._procs = procs
        self._storage = storage_name
        self._exit = exit_constants
        self._written: dict[str, set[str]] = {}
        self._held: dict[str, frozenset[sympy.Number]] | None = None
        self._settled = False  # _held is the propagation's result
        self._left: dict[str, frozenset[sympy.Number]] = {}  # by the routine and its callees alone (up)
        self._source_stores: dict[str, frozenset[int]] = {}

    def of(self, proc: ir.Procedure, name: str) -> frozenset[sympy.Number]:
        """The constants the storage of `proc`'s variable or array `name` may hold (empty: data only)."""
        if self._held is None:
            self._held = {}  # a test met while following a source's exit value sees no stored constant
            self._held = self._propagate()
            self._settled = True
        held = self._held.get(self._storage(proc, name), frozenset())
        if self._settled:  # not the stand-in answer above
            self._journal.note(("stored", resolve_name(proc.name), name), held)
        return held

    def left(self, proc: ir.Procedure, name: str) -> frozenset[sympy.Number]:
        """The constants `proc` itself (or a routine it calls) may leave in its formal `name`, without
        those its callers pass in (DGEMV's Y holds what some caller's work array held, not DGEMV's)."""
        self.of(proc, name)
        left = self._left.get(self._storage(proc, name), frozenset())
        if self._settled:
            self._journal.note(("left", resolve_name(proc.name), name), left)
        return left

    def _propagate(self) -> dict[str, frozenset[sympy.Number]]:
        """Up from the sources through copies and written formals to the callers (what a routine leaves is
        summed up once for every caller), then down through arguments to the callees (what a caller passes
        reaches that callee only: never up again, into the other callers of a routine that many call, such
        as DGEMV's Y). Copies are followed up only: what a callee copies into its own work is its own."""
        self._written = written_formals(self._program, self._procs)
        up: dict[str, set[str]] = defaultdict(set)
        down: dict[str, set[str]] = defaultdict(set)
        read_only: dict[str, set[str]] = defaultdict(set)  # down, into formals the callee does not write
        seeds: dict[str, set[sympy.Number]] = defaultdict(set)
        for proc in self._program.procedures:
            for kind, source, target in self._flows(proc):
                if kind in ("copy", "up"):
                    up[source].add(target)
                if kind in ("down", "down read-only"):
                    down[source].add(target)
                if kind == "down read-only":
                    read_only[source].add(target)
            for formal, constants in self._sources(proc):
                seeds[self._storage(proc, formal)] |= constants
        guarded: dict[str, set[sympy.Number]] = defaultdict(set)
        while True:
            held = _reach(_reach(seeds, up), down)
            for name, reached in _reach(_reach(guarded, up), read_only).items():
                held[name] = held.get(name, set()) | reached
            more = False
            for name, stored in self._guarded_stores(held):
                if not stored <= guarded[name]:
                    guarded[name] |= stored
                    more = True
            if not more:
                left = _reach(seeds, up)
                for name, reached in _reach(guarded, up).items():
                    left[name] = left.get(name, set()) | reached
                self._left = {name: frozenset(values) for name, values in left.items()}
                return {name: frozenset(values) for name, values in held.items()}

    def _guarded_stores(self, held: dict[str, set[sympy.Number]]) -> Iterator[tuple[str, set[sympy.Number]]]:
        """Constants a routine stores in an element of a floating array formal in the arms of an IF whose test
        reads storage that may hold a stored constant (DLARFT's `IF (TAU(I).EQ.ZERO)` then `T(J,I) = ZERO`):
        the test is open there, the arm runs where the constant is, and what it stores reaches the callers,
        and from them the callees that only read it (DLARFB's T, then DTRMM's `A(K,J).NE.ZERO`): a callee
        that writes the array uses it as work it fills (DGEQRF's WORK, T in one pass, DLARF's product of
        DGEMV with BETA = 0 in DGEQR2's next), so the zero does not go down into it."""
        for proc in self._program.procedures:
            def holds(name: str, proc: ir.Procedure = proc) -> bool:
                return bool(held.get(self._storage(proc, name)))
            for _, array, constant in _stores_under_tests(proc, holds):
                yield self._storage(proc, array), {constant}

    def source_stores(self, proc: ir.Procedure) -> frozenset[int]:
        """The statements (by id) of `proc`'s stores of a constant that are sources of stored constants
        (_guarded_stores' with what the storage finally holds); any other store of a constant is not one."""
        found = self._source_stores.get(proc.name)
        if found is None:
            found = self._source_stores[proc.name] = frozenset(
                id(store) for store, _, _ in _stores_under_tests(proc, lambda name: bool(self.of(proc, name))))
        return found

    def _sources(self, proc: ir.Procedure) -> Iterator[tuple[str, frozenset[sympy.Number]]]:
        """The scalar floating formals `proc` assigns a constant, with the constants it may return."""
        stored: dict[str, set[sympy.Number]] = defaultdict(set)
        for stmt in ir.walk_stmts(proc.body):
            if isinstance(stmt, ir.Assign) and _leaves(proc, stmt.target):
                constant = constant_of(stmt.value, proc)
                if constant is not None:
                    stored[base_name(stmt.target) or ""].add(constant)
        for formal in sorted(stored):
            at_exit = self._exit(proc, formal)
            # a value that cannot be followed keeps every constant written (the safe side)
            constants = frozenset(stored[formal]) if at_exit is None else at_exit
            if constants:
                yield formal, constants

    def _flows(self, proc: ir.Procedure) -> Iterator[tuple[str, str, str]]:
        """(kind, from, to) storage triples of `proc`'s copies and calls: copy, down (an actual to its
        formal; "down read-only" where the callee never writes the formal), up (a formal the callee may
        write to its actual)."""
        for stmt in ir.walk_stmts(proc.body):
            if isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.Var) and _floating(proc, stmt.target) \
                    and _floating_scalar(proc, stmt.value.name):
                target = base_name(stmt.target)
                if target is not None:
                    yield "copy", self._storage(proc, stmt.value.name), self._storage(proc, target)
            for name, args in _calls(stmt):
                callee = self._procs.get(resolve_name(name))
                if callee is None:
                    continue
                for arg, formal in zip(args, callee.formals):
                    actual = base_name(arg)
                    if actual is None or not _floating(callee, ir.Var(formal)):
                        continue
                    mine, theirs = self._storage(proc, actual), self._storage(callee, formal)
                    by_value = callee.language == "c" and _floating_scalar(callee, formal)
                    writes = formal in self._written.get(resolve_name(callee.name), ())
                    yield "down" if writes else "down read-only", mine, theirs
                    if not by_value and writes:
                        yield "up", theirs, mine


def _stores_under_tests(proc: ir.Procedure, holds: Callable[[str], bool]
                        ) -> Iterator[tuple[ir.Assign, str, sympy.Number]]:
    """The stores of a constant into an element of a floating array formal in any arm (ELSE too) of an IF
    whose test reads storage that may hold a stored constant (`holds`, by a name of `proc`), with the
    array's name and the constant; a store under several such IFs comes once for each."""
    for stmt in ir.walk_stmts(proc.body):
        if not isinstance(stmt, ir.If) or not any(holds(node.name) for arm in stmt.arms if arm.cond is not None
                                                  for node in ir.walk(arm.cond)
                                                  if isinstance(node, (ir.Var, ir.ArrayRef))):
            continue
        for body in [*(arm.body for arm in stmt.arms), stmt.orelse or []]:
            for inner in ir.walk_stmts(body):
                if isinstance(inner, ir.Assign) and isinstance(inner.target, ir.ArrayRef) \
                        and inner.target.name in proc.formals and _floating(proc, inner.target):
                    constant = constant_of(inner.value, proc)
                    if constant is not None:
                        yield inner, inner.target.name, constant


def _reach(held: dict[str, set[sympy.Number]], edges: dict[str, set[str]]) -> dict[str, set[sympy.Number]]:
    """Each node's constants and those of every node it is reached from, along `edges`."""
    out: dict[str, set[sympy.Number]] = defaultdict(set)
    for start in sorted(held):
        queue, seen = deque([start]), {start}
        while queue:
            node = queue.popleft()
            out[node] |= held[start]
            for nxt in sorted(edges.get(node, ())):
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
    return out


def written_formals(program: ir.Program, procs: dict[str, ir.Procedure]) -> dict[str, set[str]]:
    """The formals, scalars and arrays, each routine may write: assigned (an element of it), read into, or
    passed to a formal its callee may write (to a fixpoint over the calls; routines not in the program
    write nothing here: their arguments have no storage of ours to flow to)."""
    written: dict[str, set[str]] = {resolve_name(p.name): set() for p in program.procedures}
    changed = True
    while changed:
        changed = False
        for proc in program.procedures:
            mine = written[resolve_name(proc.name)]
            for name in _writes(proc, written, procs):
                if name in proc.formals and name not in mine:
                    mine.add(name)
                    changed = True
    return written


def _writes(proc: ir.Procedure, written: dict[str, set[str]], procs: dict[str, ir.Procedure]) -> Iterator[str]:
    for stmt in ir.walk_stmts(proc.body):
        if isinstance(stmt, ir.Assign):
            target = base_name(stmt.target)
            if target is not None:
                yield target
        elif isinstance(stmt, ir.IO):
            yield from (name for name in map(base_name, stmt.targets) if name is not None)
        for callee_name, args in _calls(stmt):
            callee = procs.get(resolve_name(callee_name))
            if callee is None:
                continue
            theirs = written.get(resolve_name(callee.name), set())
            for arg, formal in zip(args, callee.formals):
                actual = base_name(arg)
                if actual is not None and formal in theirs:
                    yield actual


def constant_of(expr: ir.Expr, proc: ir.Procedure) -> sympy.Number | None:
    """A numeric constant written in the source: a literal, a PARAMETER's value, their negation."""
    if isinstance(expr, ir.Cast):
        return constant_of(expr.operand, proc)
    if isinstance(expr, ir.UnOp) and expr.op == "neg":
        inner = constant_of(expr.operand, proc)
        return -inner if inner is not None else None
    if isinstance(expr, ir.Const) and isinstance(expr.value, (int, float)) and not isinstance(expr.value, bool):
        return sympy.nsimplify(expr.value) if isinstance(expr.value, float) else sympy.Integer(expr.value)
    if isinstance(expr, ir.Var):
        decl = proc.variables.get(expr.name)
        if decl is not None and decl.storage in ("parameter", "const") and decl.value is not None:
            return constant_of(decl.value, proc)
    return None


def base_name(expr: ir.Expr) -> str | None:
    """The variable or array a plain reference names (`X`, `A(I,J)`, `&x`); None for anything computed."""
    if isinstance(expr, ir.UnOp) and expr.op == "addr":
        expr = expr.operand
    if isinstance(expr, (ir.Var, ir.ArrayRef)):
        return expr.name
    return None


def _leaves(proc: ir.Procedure, target: ir.Expr) -> bool:
    """Whether an assignment's target is what a routine leaves its caller in one value: a scalar floating
    formal of Fortran (by reference), `*p` of a C pointer parameter (C passes scalars by value: what a
    function assigns its parameter stays there)."""
    if proc.language == "c":
        return isinstance(target, ir.ArrayRef) and not target.indices and target.name in proc.formals \
            and genericdata.floating(target.type)
    return isinstance(target, ir.Var) and target.name in proc.formals and _floating_scalar(proc, target.name)


def _floating(proc: ir.Procedure, expr: ir.Expr) -> bool:
    """Whether a reference names floating storage (a C pointer parameter may point to such)."""
    name = base_name(expr)
    decl = proc.variables.get(name) if name is not None else None
    return decl is not None and (genericdata.floating(decl.type) or decl.type == "pointer")


def _floating_scalar(proc: ir.Procedure, name: str) -> bool:
    decl = proc.variables.get(name)
    return decl is not None and not decl.dims and genericdata.floating(decl.type)


def _calls(stmt: ir.Stmt) -> Iterator[tuple[str, list[ir.Expr]]]:
    """The user routines a statement calls, with their arguments (a CALL, function references)."""
    if isinstance(stmt, ir.CallStmt):
        yield stmt.name, list(stmt.args)
        exprs: list[ir.Expr] = list(stmt.args)
    elif isinstance(stmt, ir.Assign):
        exprs = [stmt.value]
    elif isinstance(stmt, ir.If):
        exprs = [arm.cond for arm in stmt.arms if arm.cond is not None]
    else:
        exprs = []
    for expr in exprs:
        for node in ir.walk(expr):
            if isinstance(node, ir.FuncCall) and not node.intrinsic:
                yield node.name, list(node.args)
