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
An array passed to array formals at several starts is several parts, as LAPACK partitions its work arrays
(DGELS passes WORK(1) to DGEQRF as TAU and WORK(MN+1) to DORMQR as workspace; sad.analysis.storedelements
treats them so too): a part is named by its start, where the start is fixed (the first element and a start
that changes in a loop, DGEQRF's TAU(I), stand for the whole array). What a callee leaves in a part goes up
to the array's callers and is seen by the array's own tests, not down into its other parts; what the array
holds from its callers and its own copies reaches every part. An element passed to a scalar formal is the
whole array's (which part holds it is not known). What a routine left in its formal does not come back down
into that formal from a caller that calls it once, outside loops: DGELS's zero TAU, left in the driver's
array, is not in DGELS's workspace part at the driver's one call.
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

PARTS = "^"  # suffix of the node an array's parts passed to callees leave their constants in (_Flows)

StorageName = Callable[[ir.Procedure, str], str]
ExitConstants = Callable[[ir.Procedure, str], "frozenset[sympy.Number] | None"]


class StoredConstants:
    """Which constants each floating storage of a program may hold (storage by its program-wide name,
    sad.analysis.values.ProgramFacts.storage_name), computed on demand.

    Following a source's value to the routine's exit is the costly part (a routine's whole value analysis),
    so it is done only for the sources an asked storage depends on: those that reach it through the flows,
    and those that reach the tests of the guarded stores that reach it (_Flows.depends_on). The least
    fixpoint over the sources followed so far is then exact for every storage whose sources were all
    followed: the sources left out reach neither it nor a test that could open a store that does."""

    def __init__(self, program: ir.Program, procs: dict[str, ir.Procedure], storage_name: StorageName,
                 exit_constants: ExitConstants, journal: Journal) -> None:
        self._program = program
        self._journal = journal  # the answers a build takes, noted for summaries
        self._procs = procs
        self._storage = storage_name
        self._exit = exit_constants
        self._flows: _Flows | None = None
        self._seeds: dict[str, set[sympy.Number]] = defaultdict(set)  # the sources followed so far
        self._followed: set[str] = set()
        self._following = False  # a source's exit value is being followed
        self._held: dict[str, frozenset[sympy.Number]] = {}
        self._left: dict[str, frozenset[sympy.Number]] = {}  # by the routine and its callees alone (up)
        self._source_stores: dict[str, frozenset[int]] = {}

    def of(self, proc: ir.Procedure, name: str, note: bool = True) -> frozenset[sympy.Number]:
        """The constants the storage of `proc`'s variable or array `name` may hold (empty: data only): the
        array's own and those its parts passed to callees hold (_Flows: `S` and `S^`). `note=False` where the
        asker notes in the journal what it made of them instead (a test's outcome: sad.analysis.heldtests)."""
        if self._following:  # a test met while following a source's exit value sees no stored constant
            return frozenset()
        storage = self._storage(proc, name)
        held: frozenset[sympy.Number] = frozenset()
        for node in (storage, storage + PARTS):
            self._settle(node)
            held |= self._held.get(node, frozenset())
        if held and self._graph().signless(storage):
            held |= frozenset(-c for c in held)
        if note:
            self._journal.note(("stored", resolve_name(proc.name), name), held)
        return held

    def left(self, proc: ir.Procedure, name: str) -> frozenset[sympy.Number]:
        """The constants `proc` itself (or a routine it calls) may leave in its formal `name`, without
        those its callers pass in (DGEMV's Y holds what some caller's work array held, not DGEMV's)."""
        if self._following:
            return frozenset()
        with self._journal.deriving():
            self.of(proc, name)  # settles the storage's flows; the build takes only what is left
        storage = self._storage(proc, name)
        left = self._left.get(storage, frozenset()) | self._left.get(storage + PARTS, frozenset())
        self._journal.note(("left", resolve_name(proc.name), name), left)
        return left

    def _settle(self, storage: str) -> None:
        """Follow the sources `storage` depends on that are not followed yet, and propagate again."""
        flows = self._graph()
        missing = sorted(flows.depends_on(storage) - self._followed)
        if not missing:
            return
        self._following = True
        try:
            for source in missing:
                self._followed.add(source)
                for proc, formal, written in flows.sources[source]:
                    at_exit = self._exit(proc, formal)
                    # a value that cannot be followed keeps every constant written (the safe side)
                    self._seeds[source] |= written if at_exit is None else at_exit
        finally:
            self._following = False
        self._held, self._left = self._propagate(flows)

    def _graph(self) -> _Flows:
        if self._flows is None:
            self._flows = _Flows(self._program, self._procs, self._storage)
        return self._flows

    def _propagate(self, flows: _Flows) -> tuple[dict[str, frozenset[sympy.Number]],
                                                 dict[str, frozenset[sympy.Number]]]:
        """Up from the sources through copies and written formals to the callers (what a routine leaves is
        summed up once for every caller), then down through arguments to the callees (what a caller passes
        reaches that callee only: never up again, into the other callers of a routine that many call, such
        as DGEMV's Y). Copies are followed up only: what a callee copies into its own work is its own.
        The storages' constants, and what each routine leaves (up only)."""
        seeds = {name: constants for name, constants in self._seeds.items() if constants}
        guarded: dict[str, set[sympy.Number]] = defaultdict(set)
        while True:
            held = _up_then_down(seeds, flows.up, flows.down, flows.once)
            for name, reached in _up_then_down(guarded, flows.up, flows.read_only, flows.once).items():
                held[name] = held.get(name, set()) | reached
            more = False
            for tests, array, constant in flows.guarded:
                if constant not in guarded[array] and any(held.get(test) for test in tests):
                    guarded[array].add(constant)
                    more = True
            if not more:
                left = _reach(seeds, flows.up)
                for name, reached in _reach(guarded, flows.up).items():
                    left[name] = left.get(name, set()) | reached
                return ({name: frozenset(values) for name, values in held.items()},
                        {name: frozenset(values) for name, values in left.items()})

    def source_stores(self, proc: ir.Procedure) -> frozenset[int]:
        """The statements (by id) of `proc`'s stores of a constant that are sources of stored constants
        (the guarded stores, with what the storage finally holds); any other store of a constant is not one."""
        found = self._source_stores.get(proc.name)
        if found is None:
            found = self._source_stores[proc.name] = frozenset(
                id(store) for store, _, _ in _stores_under_tests(proc, lambda name: bool(self.of(proc, name))))
        return found


class _Flows:
    """The program's flows of stored constants, by storage name, and the candidate sources, read once: the
    part of the propagation that needs no routine's values."""

    def __init__(self, program: ir.Program, procs: dict[str, ir.Procedure], storage: StorageName) -> None:
        self._procs = procs
        self._storage = storage
        self._written = written_formals(program, procs)
        self.up: dict[str, set[str]] = defaultdict(set)
        self.down: dict[str, set[str]] = defaultdict(set)
        self.read_only: dict[str, set[str]] = defaultdict(set)  # down, into formals the callee does not write
        self.once: set[tuple[str, str]] = set()  # (actual, formal) down edges of calls outside loops only
        looped: set[tuple[str, str]] = set()
        # by storage: the routine, its scalar floating formal assigned a constant, the constants written
        self.sources: dict[str, list[tuple[ir.Procedure, str, frozenset[sympy.Number]]]] = defaultdict(list)
        # DLARFT's `IF (TAU(I).EQ.ZERO)` then `T(J,I) = ZERO`: the tests' storages, the array's, the constant
        self.guarded: list[tuple[frozenset[str], str, sympy.Number]] = []
        self._parts: dict[str, set[str]] = defaultdict(set)  # an array's storage -> its parts' nodes
        self.negated: set[str] = set()  # the targets of copies of a negation (`ALPHA = -T(I,1)`)
        self._signless: set[str] | None = None
        for proc in program.procedures:
            for kind, source, target, in_loop in self._flows(proc):
                if kind.startswith("down"):
                    (looped if in_loop else self.once).add((source, target))
                if kind in ("copy", "negated copy", "up"):
                    self.up[source].add(target)
                if kind == "negated copy":
                    self.negated.add(target)
                if kind in ("down", "down read-only"):
                    self.down[source].add(target)
                if kind == "down read-only":
                    self.read_only[source].add(target)
            for formal, written in _written_constants(proc):
                self.sources[storage(proc, formal)].append((proc, formal, written))
            self.guarded.extend(self._guarded(proc))
        self.once -= looped
        self._join_parts()
        self._back = _reverse(self.up), _reverse(self.down), _reverse(self.read_only)
        self._depends: dict[str, frozenset[str]] = {}

    def signless(self, storage: str) -> bool:
        """Whether what `storage` holds may have passed a negated copy (up, then down), so that its constants
        hold with either sign: -0 is 0, but a copy of -ONE's source would hold -1, not 1."""
        if self._signless is None:
            self._signless = _closure(_closure(self.negated, self.up), self.down)
        return storage in self._signless

    def depends_on(self, storage: str) -> frozenset[str]:
        """The source storages whose constants may reach `storage`: through up then down, or through a
        guarded store whose array reaches it (up then read-only) and whose test reads storage that some
        source reaches (and so on, to a fixpoint)."""
        found = self._depends.get(storage)
        if found is not None:
            return found
        back_up, back_down, back_read_only = self._back
        sources: set[str] = set()
        asked, queue = {storage}, deque([storage])
        while queue:
            node = queue.popleft()
            sources |= {name for name in _reach_set({node}, back_down, back_up) if name in self.sources}
            arrays = _reach_set({node}, back_read_only, back_up)
            for tests, array, _ in self.guarded:
                if array in arrays:
                    for test in sorted(tests - asked):
                        asked.add(test)
                        queue.append(test)
        found = self._depends[storage] = frozenset(sources)
        return found

    def _join_parts(self) -> None:
        """Each part of an array passed to callees: what the array holds reaches it (down, read-only too: the
        caller's callers' constants and its own copies); what a callee leaves in it reaches the array's
        `S^`, which goes up to the array's callers as the array does, but not down into the other parts."""
        for whole in sorted(self._parts):
            above = whole + PARTS
            for part in sorted(self._parts[whole]):
                self.down[whole].add(part)
                self.read_only[whole].add(part)
                self.up[part].add(above)
            self.up[above] |= self.up.get(whole, set())

    def _part(self, proc: ir.Procedure, arg: ir.Expr, name: str, varying: frozenset[str]) -> str:
        """The node of the storage a call's actual `arg` passes to an array formal: a scalar's own storage; for
        an array (whole or from an element) the part it starts: the whole array (`S@`) where it starts at the
        first element or at a start that changes in a loop (DGEQRF's TAU(I): its parts cover the array), else
        its own part (`S@(MN+1)`: DGELS's WORK(MN+1), the workspace after the TAU it passed as WORK(1))."""
        storage = self._storage(proc, name)
        decl = proc.variables.get(name)
        is_array = decl is not None and (bool(decl.dims) or decl.type == "pointer")
        if not is_array:
            return storage
        key = _start_key(arg, proc.language, varying)
        self._parts[storage].add(f"{storage}@{key}")
        return f"{storage}@{key}"

    def _guarded(self, proc: ir.Procedure) -> Iterator[tuple[frozenset[str], str, sympy.Number]]:
        """_stores_under_tests' stores of `proc` for every test that reads storage, by storage names."""
        for tests, _, array, constant in _stores_under_tests_of(proc):
            yield frozenset(self._storage(proc, name) for name in tests), self._storage(proc, array), constant

    def _flows(self, proc: ir.Procedure) -> Iterator[tuple[str, str, str, bool]]:
        """(kind, from, to, in a loop) of `proc`'s copies and calls, by storage: copy, down (an actual to its
        formal; "down read-only" where the callee never writes the formal), up (a formal the callee may
        write to its actual); whether the statement is inside a loop."""
        in_loops, varying = _in_loops(proc)
        for stmt in ir.walk_stmts(proc.body):
            copied = _copied(proc, stmt)
            if copied is not None:
                source, target, negated = copied
                yield "negated copy" if negated else "copy", self._storage(proc, source), \
                    self._storage(proc, target), False
            for name, args in _calls(stmt):
                callee = self._procs.get(resolve_name(name))
                if callee is None:
                    continue
                for arg, formal in zip(args, callee.formals):
                    actual = base_name(arg)
                    if actual is None or not _floating(callee, ir.Var(formal)):
                        continue
                    theirs = self._storage(callee, formal)
                    # an element passed as a scalar lies in whichever part holds it: the whole array's storage
                    mine = self._storage(proc, actual) if _floating_scalar(callee, formal) \
                        else self._part(proc, arg, actual, varying)
                    by_value = callee.language == "c" and _floating_scalar(callee, formal)
                    writes = formal in self._written.get(resolve_name(callee.name), ())
                    in_loop = id(stmt) in in_loops
                    yield "down" if writes else "down read-only", mine, theirs, in_loop
                    if not by_value and writes:
                        yield "up", theirs, mine, in_loop


def _stores_under_tests(proc: ir.Procedure, holds: Callable[[str], bool]
                        ) -> Iterator[tuple[ir.Assign, str, sympy.Number]]:
    """The stores of a constant into an element of a floating array formal in any arm (ELSE too) of an IF
    whose test reads storage that may hold a stored constant (`holds`, by a name of `proc`), with the
    array's name and the constant; a store under several such IFs comes once for each."""
    for tests, store, array, constant in _stores_under_tests_of(proc):
        if any(holds(name) for name in sorted(tests)):
            yield store, array, constant


def _stores_under_tests_of(proc: ir.Procedure) -> Iterator[tuple[frozenset[str], ir.Assign, str, sympy.Number]]:
    """The stores of a constant into an element of a floating array formal in any arm of an IF, with the
    names the IF's tests read, for each IF that reads some."""
    for stmt in ir.walk_stmts(proc.body):
        if not isinstance(stmt, ir.If):
            continue
        tests = frozenset(node.name for arm in stmt.arms if arm.cond is not None for node in ir.walk(arm.cond)
                          if isinstance(node, (ir.Var, ir.ArrayRef)))
        if not tests:
            continue
        for body in [*(arm.body for arm in stmt.arms), stmt.orelse or []]:
            for inner in ir.walk_stmts(body):
                if isinstance(inner, ir.Assign) and isinstance(inner.target, ir.ArrayRef) \
                        and inner.target.name in proc.formals and _floating(proc, inner.target):
                    constant = constant_of(inner.value, proc)
                    if constant is not None:
                        yield tests, inner, inner.target.name, constant


def _written_constants(proc: ir.Procedure) -> Iterator[tuple[str, frozenset[sympy.Number]]]:
    """The scalar floating formals `proc` assigns a constant, with the constants written (the candidate
    sources: which of them the routine may return is its value at exit, followed on demand)."""
    stored: dict[str, set[sympy.Number]] = defaultdict(set)
    for stmt in ir.walk_stmts(proc.body):
        if isinstance(stmt, ir.Assign) and _leaves(proc, stmt.target):
            constant = constant_of(stmt.value, proc)
            if constant is not None:
                stored[base_name(stmt.target) or ""].add(constant)
    for formal in sorted(stored):
        yield formal, frozenset(stored[formal])


def _in_loops(proc: ir.Procedure) -> tuple[frozenset[int], frozenset[str]]:
    """The statements (by id) inside a loop of `proc`, and the variables that change in one: loop indices and
    what a loop's body assigns."""
    inside: set[int] = set()
    varying: set[str] = set()
    for stmt in ir.walk_stmts(proc.body):
        if isinstance(stmt, ir.Do):
            varying.add(stmt.index)
        if isinstance(stmt, (ir.Do, ir.While)):
            for inner in ir.walk_stmts(stmt.body):
                inside.add(id(inner))
                name = base_name(inner.target) if isinstance(inner, ir.Assign) else None
                if name is not None:
                    varying.add(name)
    return frozenset(inside), frozenset(varying)


def _start_key(arg: ir.Expr, language: str, varying: frozenset[str]) -> str:
    """The part of an array an actual starts: "" for the whole array (passed by name, from its first element,
    or from a start that changes in a loop), else the start's subscripts as text."""
    if isinstance(arg, ir.UnOp) and arg.op == "addr":
        arg = arg.operand
    if not isinstance(arg, ir.ArrayRef) or not arg.indices:
        return ""
    first = 0 if language == "c" else 1
    if all(isinstance(index, ir.Const) and index.value == first for index in arg.indices):
        return ""
    names = {node.name for index in arg.indices for node in ir.walk(index) if isinstance(node, (ir.Var, ir.ArrayRef))}
    if names & varying:
        return ""
    # as the source writes them: the same subscript written twice names one part (one printed "..." merges
    # parts, the safe side)
    return ",".join(genericdata.shown(index, language) for index in arg.indices)


def _reverse(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    back: dict[str, set[str]] = defaultdict(set)
    for source, targets in edges.items():
        for target in targets:
            back[target].add(source)
    return back


def _reach_set(start: set[str], first: dict[str, set[str]], then: dict[str, set[str]]) -> set[str]:
    """The nodes reached from `start` along `first` edges (none too), then along `then` edges."""
    return _closure(_closure(start, first), then)


def _closure(start: set[str], edges: dict[str, set[str]]) -> set[str]:
    seen, queue = set(start), deque(start)
    while queue:
        for nxt in edges.get(queue.popleft(), ()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def _up_then_down(held: dict[str, set[sympy.Number]], up: dict[str, set[str]], down: dict[str, set[str]],
                  once: set[tuple[str, str]]) -> dict[str, set[sympy.Number]]:
    """Each node's constants reached from `held` along `up` edges, then along `down` edges; except that
    what reached a caller's actual only from the formal of a callee it calls once (no loop around the call,
    `once`) does not go down into that formal again (DGELS's WORK holds the TAU of DGEQRF in WORK(1): the
    driver's array it left them in is not DGELS's WORK again, the workspace at WORK(MN+1) of DORMQR)."""
    out: dict[str, set[sympy.Number]] = defaultdict(set)
    for start in sorted(held):
        reached = _closure({start}, up)
        came_from: dict[str, set[str]] = defaultdict(set)
        for node in reached:
            for nxt in up.get(node, ()):
                came_from[nxt].add(node.removesuffix(PARTS))
        for node in _closure_but(reached, down, came_from, once):
            out[node] |= held[start]
    return out


def _closure_but(start: set[str], edges: dict[str, set[str]], came_from: dict[str, set[str]],
                 once: set[tuple[str, str]]) -> set[str]:
    """The nodes reached from `start` along `edges`, where a start node does not follow an edge to the one
    formal it was reached from (`came_from`) if that edge is a call's outside loops (`once`); a node
    reached along `edges` follows all of its own."""
    seen, free = set(start), set()
    queue = deque((node, True) for node in sorted(start))
    while queue:
        node, bound = queue.popleft()
        for nxt in sorted(edges.get(node, ())):
            if bound and came_from.get(node) == {nxt} and (node, nxt) in once:
                continue
            if nxt not in free:
                seen.add(nxt)
                free.add(nxt)
                queue.append((nxt, False))
    return seen


def _reach(held: dict[str, set[sympy.Number]], edges: dict[str, set[str]]) -> dict[str, set[sympy.Number]]:
    """Each node's constants and those of every node it is reached from, along `edges`."""
    out: dict[str, set[sympy.Number]] = defaultdict(set)
    for start in sorted(held):
        for node in sorted(_closure({start}, edges)):
            out[node] |= held[start]
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


def _copied(proc: ir.Procedure, stmt: ir.Stmt) -> tuple[str, str, bool] | None:
    """(source, target, negated) of an assignment that copies floating storage into floating storage: a
    scalar or an element, or its negation (DGEQRT2's `ALPHA = -T(I, 1)`, T's column 1 holding the TAU
    DLARFG may leave zero, then passed to DGEMV, which returns at once where ALPHA is zero)."""
    if not isinstance(stmt, ir.Assign) or not _floating(proc, stmt.target):
        return None
    value, negated = stmt.value, False
    if isinstance(value, ir.UnOp) and value.op == "neg":
        value, negated = value.operand, True
    target = base_name(stmt.target)
    if target is None:
        return None
    if isinstance(value, ir.Var) and _floating_scalar(proc, value.name):
        return value.name, target, negated
    if isinstance(value, ir.ArrayRef) and value.indices and _floating(proc, value) \
            and _floating_scalar(proc, target):
        # into a scalar only: an element copied into another array's element (DLAHR2's T(I, I) = TAU(I))
        # is that array's data, told apart by element (sad.analysis.storedelements)
        return value.name, target, negated
    return None


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
