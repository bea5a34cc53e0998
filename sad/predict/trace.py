"""Per-rank traces of an SPMD program: each rank's compute intervals and message events, in program order.

Data flow: the program's IR (sad.analysis.pipeline.load_program) and a machine (sad.machine.model) → for one
rank at the bound parameters, the program's control is followed: integer and real scalars, PARAMETER
constants, RANK from MPI_COMM_RANK and NPROCS from MPI_COMM_SIZE, values bound with -D for what a READ or
the data would give. Every statement is priced with its SAD cost vector S (sad.analysis.cost) on the machine,
and on a machine calibrated on a host (a `hierarchy`) every innermost loop by the loop model, as `sad analyze`
prices it (sad.predict.traceloops: the compiled code or the operation classes, and the memory hierarchy);
a loop or branch is counted by evaluating its bounds or condition at this rank, so subtree sizes computed
in a loop on RANK and NPROCS, and branches on them, are decided per rank (issue 28) instead of becoming
parameters. Message-passing calls become events (sends, receives; collectives expanded into the messages of
the algorithm the machine's programming model names, sad.predict.collectives) that sad.predict.timeline
simulates together.

What is approximated, and said in the notes: a message-free loop is timed from its first and last trips
when its branches do not depend on the index (exact when the body's time is constant or linear in the
index, as for a triangular inner loop; scalars it assigns are unknown afterwards), and followed trip by trip
otherwise (up to FOLLOW_LIMIT trips); a condition whose value is not known (it reads array data) is taken as
false in message-free code; a call to a routine that is not in the program costs its call only. GOTOs are
followed to a label of the same or an enclosing statement list (a loop whose body jumps, trip by trip). A loop
containing messages whose trips repeat the same events from the same state is replicated, not re-run.
Ranks that behave alike are traced once (`traces`, sad.predict.rankclass): a rank is followed with its number
as a symbol, and a later rank at which every decision taken on it comes out the same gets its events.
An INTEGER sent on its own (a size before the data it sizes) is passed to its receiver through
Shared.mailbox; a rank that needed one its sender (traced later) had not sent yet is traced again (`traces`).
"""
from __future__ import annotations

import contextlib
import functools
import gc
import math
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sad import ir
from sad.analysis import cost as costs
from sad.ir import msgcalls
from sad.predict import collectives, rankclass
from sad.predict.events import ANY, Op
from sad.predict.rankclass import SYMBOLIC, Sym, lifted, plain
from sad.predict.traceloops import LoopModel

FOLLOW_LIMIT = 4096
"""A message-free loop whose branches depend on its index is followed trip by trip up to this many trips."""
MAX_STEPS = 5_000_000
"""Statements followed for one rank before the trace is refused (a loop that does not end)."""


class TraceError(Exception):
    """A program whose events at some rank cannot be found: 'file:line: what is missing'."""


@dataclass(slots=True)
class Cell:
    """A scalar's storage (Fortran passes by reference: a formal shares its actual's cell)."""
    value: object = None


_UNSET = object()


class _Elements(dict):
    """An INTEGER array's known elements at one rank (linear offset -> value): block counts and offsets a
    program keeps in arrays (ICNT(I) = N / NP ...). Emptied where a message, a READ or an unknown routine
    may write the array (its elements are then unknown, never stale)."""


@dataclass(slots=True)
class _Start:
    """A scalar a procedure's frame starts with: a PARAMETER constant or a DATA-initialized variable; a
    fixed one (literals, intrinsics and the fixed constants before it) keeps its value once found."""
    key: str
    fixed: bool
    expr: ir.Expr
    value: object = _UNSET


class _Return(Exception):
    pass


class _Stop(Exception):
    pass


class _Jump(Exception):
    def __init__(self, label: str) -> None:
        super().__init__(label)
        self.label = label


@dataclass
class Shared:
    """What the ranks' tracers share: the prices of statements and the values of pure functions."""
    prices: dict[object, float] = field(default_factory=dict)
    pure: dict[tuple, tuple[object, tuple[tuple[float, str], ...], int]] = field(default_factory=dict)
    purity: dict[str, bool] = field(default_factory=dict)
    repeats: list[list[tuple[int, int, int]]] = field(default_factory=list)  # per rank: Tracer.repeats
    missing: set[str] = field(default_factory=set)
    notes: set[str] = field(default_factory=set)
    # the same for every rank, found once (by id of the IR node): where a statement is, whether it exchanges
    # messages, which variables a procedure's frame starts with
    places: dict[int, str] = field(default_factory=dict)
    talks: dict[int, bool] = field(default_factory=dict)
    starts: dict[int, list[_Start]] = field(default_factory=dict)
    messaging: set[str] | None = None
    scalars: dict[int, tuple[str, ...] | None] = field(default_factory=dict)
    effects: dict[tuple, tuple[tuple[tuple[float, str], ...], int, tuple]] = field(default_factory=dict)
    globals_of: dict[tuple, tuple[str, ...]] = field(default_factory=dict)
    statics_of: dict[tuple, tuple[tuple[str, ir.Variable], ...]] = field(default_factory=dict)
    constants: dict[int, tuple[dict[str, Cell], list[_Start]]] = field(default_factory=dict)
    broadcasts: dict[int, object] = field(default_factory=dict)  # collective call number -> the root's scalar
    mailbox: dict[tuple[int, int, int, int], object] = field(default_factory=dict)  # Tracer.post_value
    remember: bool = True  # False: every loop followed (the tests compare the two)
    loops: LoopModel | None = None  # innermost loops priced as sad analyze prices them (a calibrated host)
    reused: int = 0  # loops replayed from effects
    classed: int = 0  # ranks whose events are a traced rank's, re-evaluated (sad.predict.rankclass)


class Tracer:
    """Follows the program at one rank and records its events (`trace`)."""

    def __init__(self, program: ir.Program, machine, nprocs: int, rank: int, values: dict[str, float],
                 algorithms: dict[str, str], shared: Shared | None = None, symbolic: bool = False) -> None:
        self.program = program
        self.machine = machine
        self.nprocs, self.rank = nprocs, rank
        self.values = {k.upper(): v for k, v in values.items()}
        self.algorithms = algorithms
        self.shared = shared or Shared()
        self.procs = {p.name.upper(): p for p in program.procedures}
        if self.shared.messaging is None:
            self.shared.messaging = _messaging(program)
        self.messaging = self.shared.messaging
        self.commons: dict[tuple[str, int], Cell] = {}
        self.globals: dict[str, Cell] = {}  # C file-scope scalars: one cell per rank, shared by every function
        self.statics: dict[tuple[int, str], Cell] = {}  # C static locals: one cell per procedure and rank
        self.ops: list[Op] = []
        self.pending = 0.0
        self.largest = 0.0
        self.where = ""
        self.steps = 0
        self.collective_calls = 0
        self.posted: list[Op] = []
        self.probed: tuple[int, int] | None = None  # (source, tag) of an MPI_PROBE not yet followed by its receive
        self.sent: dict[tuple[int, int, int], int] = {}  # messages so far per (sender, receiver, tag)
        self.received: dict[tuple[int, int, int], int] = {}
        self.missed = False  # a scalar received before its sender was traced: unknown here (see traces)
        self.repeats: list[tuple[int, int, int]] = []  # (first op, ops per trip, trips) of replicated trips
        self.recording: list[tuple[float, str]] | None = None  # the charges of a loop being remembered
        self.current: list[ir.Procedure] = []  # the procedures being run (the innermost last)
        self.carts: dict[int, tuple[list[int], list[bool]]] = {}  # Cartesian communicators: handle -> dims, periods
        # symbolic: MPI_COMM_RANK gives the rank as a Sym, and the guards of what was decided from it collect
        # here (sad.predict.rankclass); private: the trace read what other ranks left (not a class's template)
        self.guards = rankclass.Guards()
        self.me: int = rankclass.rank_symbol(rank, self.guards) if symbolic else rank
        self.private = False
        self.open_trips: dict[int, int] = {}  # trips per entry of the counted loops being run (by id)

    # ------------------------------------------------------------------ entry
    def trace(self) -> list[Op]:
        """The rank's events from the main program's first statement to its end."""
        main = next((p for p in self.program.procedures if p.kind == "program"
                     or (p.language == "c" and p.name == "main")), None)
        if main is None:
            raise TraceError("no main program: the timeline follows a program from its start")
        with contextlib.suppress(_Stop):
            self.call(main, [])
        self.flush_posted()
        self.flush()
        return self.ops

    # ------------------------------------------------------------------ events
    def charge(self, seconds: float, where: str) -> None:
        """Add compute time (merged with the compute before it; the interval is named after the statement
        that adds the most to it)."""
        if seconds:
            if self.recording is not None:
                self.recording.append((seconds, where))
            if seconds > self.largest and where:
                self.where, self.largest = where, seconds
            self.pending += seconds

    def flush(self) -> None:
        """End the compute interval so far (before a message event)."""
        if self.pending:
            self.ops.append(Op("comp", self.pending, where=self.where))
            self.pending, self.largest, self.where = 0.0, 0.0, ""

    def emit(self, op: Op) -> None:
        """Record a message event."""
        self.flush()
        self.ops.append(op)

    def price(self, key: object, cost_of: Callable[[], costs.Cost]) -> float:
        """Seconds of one execution of a cost vector on the machine (cached by statement)."""
        seconds = self.shared.prices.get(key)
        if seconds is None:
            seconds = 0.0
            for op, n in cost_of().ops.items():
                if op.startswith("msg."):
                    continue
                each = self.machine.op_cost(op)
                if each is None:
                    self.shared.missing.add(op)
                    continue
                seconds += n * each
            self.shared.prices[key] = seconds
        return seconds

    # ------------------------------------------------------------------ procedures
    def call(self, proc: ir.Procedure, actuals: list[Cell]) -> object:
        """Run a procedure with its actual arguments' cells; its function value."""
        frame: dict[str, Cell] = {}
        for name, cell in zip(proc.formals, actuals):
            frame[name.upper()] = cell
        for block, names in proc.commons.items():
            for i, name in enumerate(names):
                frame[name.upper()] = self.commons.setdefault((block.upper(), i), Cell(self.values.get(name.upper())))
        for upper in self.global_names(proc):
            if upper not in frame:
                frame[upper] = self.global_cell(upper)
        for name, var in self.static_scalars(proc):
            if name.upper() not in frame:  # a C static local keeps its value from call to call
                key = (id(proc), name.upper())
                if key not in self.statics:
                    init = var.value if var.value is not None else (var.data[0] if var.data else None)
                    self.statics[key] = Cell(_typed(self.value(init, {}), var.type) if init is not None
                                             else self.values.get(name.upper()))
                frame[name.upper()] = self.statics[key]
        for name, var in self.initialized_arrays(proc):
            if name not in frame:  # DATA / an initializer of an INTEGER or LOGICAL array (int periods[1] = {1})
                elements = _Elements()
                for k, item in enumerate(var.data or []):
                    value = self.value(item, frame)
                    if isinstance(value, bool) or _num(value) is not None:
                        elements[k] = value if isinstance(value, bool) else int(value)  # type: ignore[call-overload]
                frame[name] = Cell(elements)
        constants = self.shared.constants.get(id(proc))
        if constants is not None:  # the fixed PARAMETERs (mpif.h's hundreds): one cell each, never assigned
            frame = {**constants[0], **frame}
        for start in (constants[1] if constants is not None else self.starts(proc)):
            if start.key not in frame:
                value = start.value
                if value is _UNSET:
                    value = self.value(start.expr, frame)
                    if start.fixed:  # a constant: its value is the same at every call and rank
                        start.value = value
                frame[start.key] = Cell(value)
        if constants is None:
            starts = self.starts(proc)
            if all(s.value is not _UNSET for s in starts if s.fixed):
                self.shared.constants[id(proc)] = ({s.key: Cell(s.value) for s in starts if s.fixed},
                                                   [s for s in starts if not s.fixed])
        self.current.append(proc)
        try:
            self.block(proc.body, frame)
        except _Jump as jump:
            raise TraceError(f"{proc.loc.file}:{proc.loc.line}: {proc.name}: a GOTO to label {jump.label}, "
                             "which the timeline does not find") from None
        except _Return as ret:
            if ret.args and ret.args[0] is not None:
                return ret.args[0]
        finally:
            self.current.pop()
        result = frame.get(proc.name.upper())
        return result.value if result is not None else None

    def initialized_arrays(self, proc: ir.Procedure) -> tuple[tuple[str, ir.Variable], ...]:
        """The procedure's INTEGER and LOGICAL arrays with initial data (upper-case names), found once."""
        key = ("arrays", id(proc))
        found = self.shared.statics_of.get(key)
        if found is None:
            found = self.shared.statics_of[key] = tuple(
                (n.upper(), v) for n, v in proc.variables.items() if v.dims and v.data and v.type in _KEPT
                and v.storage in ("local", "static"))
        return found

    def static_scalars(self, proc: ir.Procedure) -> tuple[tuple[str, ir.Variable], ...]:
        """The procedure's static scalars (C `static int n`), found once."""
        key = ("statics", id(proc))
        found = self.shared.statics_of.get(key)
        if found is None:
            found = self.shared.statics_of[key] = tuple(
                (n, v) for n, v in proc.variables.items() if v.storage == "static" and not v.dims)
        return found

    def global_names(self, proc: ir.Procedure) -> tuple[str, ...]:
        """The C file-scope variables a procedure sees (those its own declarations do not hide)."""
        key = ("globals", id(proc))
        found = self.shared.globals_of.get(key)
        if found is None:
            own = {n.upper() for n in proc.variables}
            found = self.shared.globals_of[key] = tuple(
                n.upper() for n in self.program.globals if n.upper() not in own)
        return found

    def global_cell(self, key: str) -> Cell:
        """A file-scope variable's cell at this rank: its initializer, a -D value, or unknown."""
        cell = self.globals.get(key)
        if cell is None:
            cell = self.globals[key] = Cell(self.values.get(key, MPI_C_CONSTANTS.get(key)))
            var = next((v for n, v in self.program.globals.items() if n.upper() == key), None)
            if var is not None and not var.dims and cell.value is None:
                init = var.value if var.value is not None else (var.data[0] if var.data else None)
                if init is not None:
                    cell.value = _typed(self.value(init, {}), var.type)
        return cell

    def starts(self, proc: ir.Procedure) -> list[_Start]:
        """The procedure's PARAMETER constants and DATA-initialized scalars, in declaration order."""
        found = self.shared.starts.get(id(proc))
        if found is None:
            found = []
            fixed_names: set[str] = set()
            for name, var in proc.variables.items():
                if var.storage == "parameter" and var.value is not None:
                    expr = var.value
                    fixed = all((not isinstance(n, ir.Var) or n.name.upper() in fixed_names)
                                and (not isinstance(n, ir.FuncCall) or n.intrinsic) for n in ir.walk(expr))
                    if fixed:
                        fixed_names.add(name.upper())
                    found.append(_Start(name.upper(), fixed, expr))
                elif var.data and not var.dims:
                    found.append(_Start(name.upper(), False, var.data[0]))
            self.shared.starts[id(proc)] = found
        return found

    def cell(self, name: str, frame: dict[str, Cell]) -> Cell:
        """A scalar's cell in the frame (a new one holds its -D value, if any)."""
        key = name.upper()
        if key not in frame:
            frame[key] = Cell(self.values.get(key, MPI_C_CONSTANTS.get(key)))
        return frame[key]

    # ------------------------------------------------------------------ statements
    def block(self, stmts: list[ir.Stmt], frame: dict[str, Cell]) -> None:
        """Run a statement list; a GOTO to a label of this list goes on from there, one to a label elsewhere
        leaves the list (an enclosing list that has the label goes on from it)."""
        i = 0
        while i < len(stmts):
            stmt = stmts[i]
            self.steps += 1
            if self.steps > MAX_STEPS:
                raise TraceError(f"{_at(stmt)}: more than {MAX_STEPS} statements followed at rank {self.rank}: "
                                 "a loop that does not end?")
            try:
                self.statement(stmt, frame)
            except _Jump as jump:
                target = next((k for k, s in enumerate(stmts) if s.label == jump.label), None)
                if target is None:
                    raise
                i = target
                continue
            i += 1

    def statement(self, stmt: ir.Stmt, frame: dict[str, Cell]) -> None:
        """Run one statement: price it, follow its control, record its messages."""
        where = self.at(stmt)
        if isinstance(stmt, ir.Message):
            self.message(stmt, frame)
        elif isinstance(stmt, ir.Do):
            self.do(stmt, frame)
        elif isinstance(stmt, ir.If):
            self.branch(stmt, frame)
        elif isinstance(stmt, ir.While):
            self.loop(stmt, frame)
        elif isinstance(stmt, ir.Assign):
            self.charge(self.price(id(stmt), lambda: costs.statement_cost(stmt)), where)
            value = self.value(stmt.value, frame)
            target = stmt.target
            if isinstance(target, ir.Var):
                self.cell(target.name, frame).value = _typed(value, target.type)
            elif isinstance(target, ir.ArrayRef):
                self.store(target, value, frame)
            else:
                self.value(target, frame)
        elif isinstance(stmt, ir.CallStmt):
            self.charge(self.price(id(stmt), lambda: costs.statement_cost(stmt)), where)
            self.invoke(stmt.name, stmt.args, frame, where)
        elif isinstance(stmt, ir.IO):
            self.charge(self.price(id(stmt), lambda: costs.statement_cost(stmt)), where)
            for item in stmt.items:
                self.value(item, frame)
            if stmt.kind.upper() == "READ":
                for target in stmt.targets:
                    if isinstance(target, ir.Var):
                        self.cell(target.name, frame).value = self.values.get(target.name.upper())
                    self.forget(target, frame)
        elif isinstance(stmt, ir.Return):
            value = self.value(stmt.value, frame) if stmt.value is not None else None
            raise _Return(value)
        elif isinstance(stmt, ir.Stop):
            raise _Stop()
        elif isinstance(stmt, (ir.Continue,)):
            return
        elif isinstance(stmt, (ir.Goto, ir.ComputedGoto, ir.ArithmeticIf)):
            self.charge(self.price(id(stmt), lambda: costs.statement_cost(stmt)), where)
            label = self.jump_target(stmt, frame, where)
            if label is not None:
                raise _Jump(label)
        elif isinstance(stmt, ir.AssignedGoto):
            raise TraceError(f"{where}: an assigned GOTO: not followed by the timeline")
        else:
            self.charge(self.price(id(stmt), lambda: costs.statement_cost(stmt)), where)

    def jump_target(self, stmt: ir.Goto | ir.ComputedGoto | ir.ArithmeticIf, frame: dict[str, Cell],
                    where: str) -> str | None:
        """The label a jump goes to at this rank (None: a computed GOTO out of range falls through)."""
        if isinstance(stmt, ir.Goto):
            return stmt.target
        value = _num(self.value(stmt.selector if isinstance(stmt, ir.ComputedGoto) else stmt.expr, frame))
        if value is None:
            raise TraceError(f"{where}: the target of this jump is not known at rank {self.rank}: bind its "
                             "values with -D")
        if isinstance(stmt, ir.ArithmeticIf):
            return stmt.neg if value < 0 else (stmt.zero if value == 0 else stmt.pos)
        if stmt.cases is not None:  # a C switch: the arm whose constants hold the value
            for target, constants in zip(stmt.targets, stmt.cases):
                if any(_num(self.value(c, frame)) == value for c in constants):
                    return target
            return stmt.default
        k = int(value)
        return stmt.targets[k - 1] if 1 <= k <= len(stmt.targets) else stmt.default

    def invoke(self, name: str, args: list[ir.Expr], frame: dict[str, Cell], where: str) -> object:
        """Call a user routine (a pure function's value and time are reused for the same arguments)."""
        proc = self.procs.get(name.upper())
        if proc is None:
            spec = msgcalls.mpi_spec(name)
            if spec is not None and spec.primitive in msgcalls.LOCAL:  # MPI_WTIME(), MPI_WTICK(): no message
                for arg in args:
                    self.value(arg, frame)
                return None
            self.shared.notes.add(f"{where or name}: {name} is not in the program: only its call is timed")
            for arg in args:
                self.value(arg, frame)
                self.forget(arg, frame)
            return None
        cells = [self.actual(arg, frame) for arg in args]
        args_known = tuple(c.value for c in cells)
        if None in args_known or any(v.__class__ in SYMBOLIC for v in args_known) or \
                not _is_pure(proc, self.messaging, self.shared.purity, self.program.globals):
            return self.call(proc, cells)
        key = (proc.name.upper(), args_known)  # a pure function emits no events: its value and time recur
        known = self.shared.pure.get(key)
        if known is None:  # its charges are kept and replayed one by one: the same sums as calling it again
            outer, self.recording, steps = self.recording, [], self.steps
            try:
                value = self.call(proc, cells)
            finally:
                charges, self.recording = tuple(self.recording or ()), outer
                if outer is not None:
                    outer.extend(charges)
            self.shared.pure[key] = (value, charges, self.steps - steps)
            return value
        value, charges, steps = known
        for seconds, at in charges:
            self.charge(seconds, at)
        self.steps += steps
        return value

    def actual(self, arg: ir.Expr, frame: dict[str, Cell]) -> Cell:
        """The cell an actual argument passes: the variable's own, or a temporary."""
        if isinstance(arg, ir.UnOp) and arg.op == "addr":
            arg = arg.operand
        if isinstance(arg, ir.Var):
            return self.cell(arg.name, frame)
        return Cell(self.value(arg, frame))

    def branch(self, stmt: ir.If, frame: dict[str, Cell]) -> None:
        """An IF: the first arm whose condition holds at this rank."""
        where = self.at(stmt)
        for arm in stmt.arms:
            self.charge(self.price(id(arm), functools.partial(costs.condition_cost, arm.cond)), where)
            value = self.value(arm.cond, frame)
            if value is None:
                if self.has_messages(stmt):
                    raise TraceError(f"{where}: the condition of a branch around messages is not known at rank "
                                     f"{self.rank} ({self.unknown(arm.cond, frame)}): bind it with -D")
                self.shared.notes.add(f"{where}: condition not known (it reads data): taken as false")
                continue
            if value:
                self.block(arm.body, frame)
                return
        if stmt.orelse:
            self.block(stmt.orelse, frame)

    def loop(self, stmt: ir.While, frame: dict[str, Cell]) -> None:
        """A while loop, trip by trip."""
        where = self.at(stmt)
        while True:
            self.charge(self.price(id(stmt), lambda: costs.condition_cost(stmt.cond)), where)
            value = self.value(stmt.cond, frame) if stmt.cond is not None else True
            if value is None:
                raise TraceError(f"{where}: the condition of a loop is not known at rank {self.rank} "
                                 f"({self.unknown(stmt.cond, frame)}): bind it with -D")
            if not value:
                return
            self.block(stmt.body, frame)

    def do(self, stmt: ir.Do, frame: dict[str, Cell]) -> None:
        """A counted loop: its trips at this rank; message-free bodies timed, not always followed."""
        where = self.at(stmt)
        self.charge(self.price(id(stmt), lambda: costs.loop_entry_cost(stmt)), where)
        lo, hi = _num(self.value(stmt.lo, frame)), _num(self.value(stmt.hi, frame))
        step = _num(self.value(stmt.step, frame)) if stmt.step is not None else 1
        if lo is None or hi is None or step is None or step == 0:
            missing = ", ".join(self.unknown(e, frame) for e in (stmt.lo, stmt.hi, stmt.step)
                                if e is not None and _num(self.value(e, frame)) is None)
            raise TraceError(f"{where}: the trip count of this loop is not known at rank {self.rank} "
                             f"({missing}): bind it with -D")
        trips = max(0, int((hi - lo + step) // step))
        index = self.cell(stmt.index, frame)
        per_trip = self.price((id(stmt), "trip"), costs.loop_iteration_cost)
        self.open_trips[id(stmt)] = trips
        try:
            each = self.shared.loops.price(stmt, self.open_trips, lambda: self.known(frame)) \
                if self.shared.loops and trips > 0 else None
            pending, recorded = self.pending, len(self.recording) if self.recording is not None else 0
            self.trips(stmt, frame, index, lo, step, trips, per_trip, where)
            if each is not None:
                # the loop model's price replaces the operation prices of the trips and the body, which were
                # still followed for the scalars they leave (sad.predict.traceloops)
                self.pending = pending
                if self.recording is not None:
                    del self.recording[recorded:]
                self.charge(each * trips, where)
        finally:
            del self.open_trips[id(stmt)]

    def known(self, frame: dict[str, Cell]) -> dict[str, float]:
        """The frame's scalars whose values are plain numbers at this rank (for the loop model's footprints)."""
        return {k: v for k, c in frame.items() if (v := c.value).__class__ in (int, float)}

    def trips(self, stmt: ir.Do, frame: dict[str, Cell], index: Cell, lo, step, trips: int, per_trip: float,
              where: str) -> None:
        """A counted loop's trips, charged with the operation prices."""
        if self.has_messages(stmt):
            self.stepped_with_messages(stmt, frame, index, lo, step, trips, per_trip, where)
        elif trips <= 2 or self.jumps(stmt) or (trips <= FOLLOW_LIMIT and (not self.index_free(stmt)
                                                                            or self.stores_integers(stmt))):
            self.followed(stmt, frame, index, lo, step, trips, per_trip, where)
        else:
            if not self.index_free(stmt):
                self.shared.notes.add(f"{where}: {trips} trips whose branches depend on the index: timed from "
                                      "the first and the last")
            self.charge(per_trip * trips, where)
            index.value = lo
            first = self.timed(stmt.body, frame)
            index.value = lo + (trips - 1) * step
            last = self.timed(stmt.body, frame)
            self.charge((first + last) / 2 * (trips - 2), where)
            for name in _assigned(stmt.body):
                self.cell(name, frame).value = None
        index.value = lo + trips * step

    def followed(self, stmt: ir.Do, frame: dict[str, Cell], index: Cell, lo, step, trips: int, per_trip: float,
                 where: str) -> None:
        """A message-free loop trip by trip. Its effect (the charges in order, the scalars it reads or writes
        afterwards) is a function of the values of the scalars it names when it starts, so it is remembered
        under them for every rank and trip that starts it alike (a tree's leaves, a loop's later trips) and
        replayed charge by charge: the same sums in the same order as following it."""
        names = self.names(stmt)
        key = None
        starting = tuple(self.cell(n, frame).value for n in names) \
            if names is not None and self.recording is None and self.shared.remember else None
        if names is not None and starting is not None and \
                not any(v.__class__ in SYMBOLIC for v in starting):  # a Sym's value differs at the other ranks
            key = (id(stmt), tuple(_exact(v) for v in starting))
            known = self.shared.effects.get(key)
            if known is not None and self.steps + known[1] <= MAX_STEPS:
                for seconds, at in known[0]:
                    self.charge(seconds, at)
                self.steps += known[1]
                for n, value in zip(names, known[2]):
                    frame[n].value = value
                self.shared.reused += 1
                return
            self.recording = []
        steps = self.steps
        charges: list[tuple[float, str]] = []
        try:
            for k in range(trips):
                index.value = lo + k * step
                self.charge(per_trip, where)
                self.block(stmt.body, frame)
        finally:
            if key is not None:
                charges, self.recording = self.recording or [], None
        if key is not None and names is not None:
            index.value = lo + trips * step
            self.shared.effects[key] = (tuple(charges), self.steps - steps,
                                        tuple(frame[n].value for n in names))

    def names(self, stmt: ir.Do) -> tuple[str, ...] | None:
        """The scalars a loop names (index included), when its effect depends on nothing else: no calls of
        user routines, no I/O, messages, jumps, RETURN or STOP; None otherwise."""
        if id(stmt) in self.shared.scalars:
            return self.shared.scalars[id(stmt)]
        found: tuple[str, ...] | None = None
        nodes = list(ir.walk(stmt))
        if not any(isinstance(n, (ir.CallStmt, ir.IO, ir.Message, ir.Goto, ir.ComputedGoto, ir.ArithmeticIf,
                                  ir.AssignedGoto, ir.Return, ir.Stop)) or
                   (isinstance(n, ir.FuncCall) and not n.intrinsic) or
                   (isinstance(n, ir.ArrayRef) and n.type in _KEPT) for n in nodes):
            found = tuple(sorted({n.name.upper() for n in nodes if isinstance(n, ir.Var)} | {stmt.index.upper()}))
        self.shared.scalars[id(stmt)] = found
        return found

    def jumps(self, stmt: ir.Do) -> bool:
        """Does the loop's body jump (GOTO)? Then it is followed trip by trip: a jump may leave it early."""
        key = ("jumps", id(stmt))
        if key not in self.shared.prices:
            self.shared.prices[key] = float(any(isinstance(s, (ir.Goto, ir.ComputedGoto, ir.ArithmeticIf))
                                                for s in ir.walk_stmts(stmt.body)))
        return bool(self.shared.prices[key])

    def stores_integers(self, stmt: ir.Do) -> bool:
        """Does the loop assign INTEGER array elements (counts, offsets)? Then it is followed trip by trip, so
        that every element is known, not only the first and the last trip's."""
        key = ("stores_integers", id(stmt))
        if key not in self.shared.prices:
            self.shared.prices[key] = float(any(isinstance(s, ir.Assign) and isinstance(s.target, ir.ArrayRef)
                                                and s.target.type in _KEPT for s in ir.walk_stmts(stmt.body)))
        return bool(self.shared.prices[key])

    def reads_index(self, stmt: ir.Do) -> bool:
        """Does the body read the loop's index other than as a subscript of data (an array whose elements
        the tracer does not keep)? Then equal states do not start equal trips: a later trip may take
        another branch or partner (`if (me == mids[k])` in a halving tree, silent in the first trips)."""
        key = ("reads_index", id(stmt))
        if key not in self.shared.prices:
            index = stmt.index.upper()
            self.shared.prices[key] = float(any(_reads(node, index) for node in stmt.body))
        return bool(self.shared.prices[key])

    def index_free(self, stmt: ir.Do) -> bool:
        """Do the body's branch conditions and loop bounds read neither the index nor a scalar the body
        assigns? Then every trip takes the same time, or (bounds linear in the index) the mean of the
        first and the last."""
        key = ("index_free", id(stmt))
        if key not in self.shared.prices:
            changing = {n.upper() for n in _assigned(stmt.body)} | {stmt.index.upper()}
            read: set[str] = set()
            for inner in ir.walk_stmts(stmt.body):
                exprs = [arm.cond for arm in inner.arms] if isinstance(inner, ir.If) else \
                    [inner.cond] if isinstance(inner, ir.While) and inner.cond is not None else []
                read |= {n.upper() for e in exprs for n in _names(e).split(", ") if n}
            self.shared.prices[key] = float(not (read & changing))
        return bool(self.shared.prices[key])

    def timed(self, body: list[ir.Stmt], frame: dict[str, Cell]) -> float:
        """Seconds one run of a message-free body adds."""
        before = self.pending
        self.block(body, frame)
        return self.pending - before

    def stepped_with_messages(self, stmt: ir.Do, frame, index: Cell, lo, step, trips: int, per_trip: float,
                              where: str) -> None:
        """Trip by trip; once two trips give the same events from the same state, the rest are copies."""
        self.flush()
        marks: list[int] = []
        states: list[dict] = []
        k = 0
        while k < trips:
            index.value = lo + k * step
            states.append(self.state(frame, stmt.index))
            marks.append(len(self.ops))
            self.charge(per_trip, where)
            self.block(stmt.body, frame)
            self.flush()
            k += 1
            if k >= 2 and k < trips and states[-1] == states[-2] == self.state(frame, stmt.index) \
                    and self.ops[marks[-2]:marks[-1]] == self.ops[marks[-1]:] and not self.reads_index(stmt):
                repeat = self.ops[marks[-1]:]
                for _ in range(trips - k):
                    self.ops.extend(repeat)
                self.repeats.append((marks[-2], len(repeat), trips - k + 2))
                k = trips
        index.value = lo + trips * step

    def state(self, frame: dict[str, Cell], index: str) -> dict:
        """The scalars' values (the loop index left out): two equal states start equal trips."""
        snapshot = {k: _frozen(c.value) for k, c in frame.items() if k != index.upper()}
        snapshot.update({f"/{b}/{i}": _frozen(c.value) for (b, i), c in self.commons.items()})
        return snapshot

    def has_messages(self, stmt: ir.Stmt) -> bool:
        """Does the statement exchange messages (through calls too)?"""
        found = self.shared.talks.get(id(stmt))
        if found is None:
            found = self.shared.talks[id(stmt)] = stmt_has_messages(stmt, self.messaging)
        return found

    def at(self, stmt) -> str:
        """'file:line' of a statement (found once for all ranks)."""
        found = self.shared.places.get(id(stmt))
        if found is None:
            found = self.shared.places[id(stmt)] = _at(stmt)
        return found

    # ------------------------------------------------------------------ messages
    def message(self, stmt: ir.Message, frame: dict[str, Cell]) -> None:
        """An MPI call: the rank's sends and receives (a collective's by its algorithm)."""
        where = self.at(stmt)
        if stmt.library != "MPI":
            raise TraceError(f"{where}: {stmt.name}: the timeline simulates MPI programs only")
        if stmt.problem is not None:
            raise TraceError(f"{where}: {stmt.problem}")
        kind, args = stmt.kind, stmt.args
        if stmt.name.upper() in _CARTESIAN:
            self.cartesian(stmt, frame, where)
            return
        if kind in ("comm_size", "comm_rank"):
            spec = msgcalls.mpi_spec(stmt.name)
            assert spec is not None and spec.out is not None
            self.communicator(stmt, frame, where)
            self.actual(args[spec.out], frame).value = self.nprocs if kind == "comm_size" else self.me
            return
        if stmt.name.upper() == "MPI_COMM_DUP":
            self.duplicate(stmt, frame, where)
            return
        if kind in msgcalls.LOCAL:
            if stmt.name.upper() == "MPI_PROBE":
                self.probe(stmt, frame)
            self.forget_written(stmt, frame)
            return
        self.communicator(stmt, frame, where)
        self.forget_written(stmt, frame)
        if kind == "recv" and self.probed is not None:
            self.probed_receive(stmt, frame, where)
            return
        nbytes = self.nbytes(stmt, frame, where) if kind not in ("barrier", "wait") else 0
        if kind in ("send", "isend"):
            dest = self.number(stmt.partner, frame, where, "destination")
            if dest != PROC_NULL:
                tag = self.tag(args, 4, frame)
                sync = stmt.name.upper() in ("MPI_SSEND", "MPI_ISSEND")
                self.emit(Op("send", peer=dest, tag=tag, nbytes=nbytes, where=where, sync=sync))
                if sync:  # it completes when the receive has started: MPI_SSEND here, MPI_ISSEND at its wait
                    ack = Op("ack", peer=dest, tag=tag, where=where)
                    if kind == "send":
                        self.emit(ack)
                    else:
                        self.posted.append(ack)
                self.post_value(stmt, frame, (self.rank, dest, tag))
        elif kind == "recv":
            source = self.number(stmt.partner, frame, where, "source")
            if source != PROC_NULL:
                tag = self.tag(args, 4, frame)
                self.emit(Op("recv", peer=source, tag=tag, nbytes=nbytes, where=where))
                self.take_value(stmt, frame, (source, self.rank, tag))
        elif kind == "irecv":
            source = self.number(stmt.partner, frame, where, "source")
            if source != PROC_NULL:
                self.posted.append(Op("recv", peer=source, tag=self.tag(args, 4, frame), nbytes=nbytes,
                                      where=where))
        elif kind == "wait":
            self.flush_posted()
        elif kind == "sendrecv":
            dest = self.number(stmt.partner, frame, where, "destination")
            source = self.number(stmt.source, frame, where, "source")
            replace = stmt.name.upper().endswith("REPLACE")
            send_tag, recv_tag = (self.tag(args, 4, frame), self.tag(args, 6 if replace else 9, frame))
            if dest != PROC_NULL:
                self.emit(Op("send", peer=dest, tag=send_tag, nbytes=nbytes, where=where))
            if source != PROC_NULL:
                self.emit(Op("recv", peer=source, tag=recv_tag, nbytes=nbytes, where=where))
        elif kind in collectives.PRIMITIVES:
            root = self.number(stmt.partner, frame, where, "root") if stmt.partner is not None else 0
            self.collective_calls += 1
            if kind == "bcast" and args:
                self.broadcast(args[0], root, frame)
            tag = -self.collective_calls  # every rank calls the collectives in the same order
            algorithm = self.algorithms.get(kind, collectives.DEFAULTS[kind])
            for op in collectives.expand(kind, algorithm, self.me, self.nprocs, root, nbytes, tag, where):
                self.emit(op)
        else:
            raise TraceError(f"{where}: {stmt.name}: not simulated by the timeline")

    def probe(self, stmt: ir.Message, frame: dict[str, Cell]) -> None:
        """MPI_PROBE(source, tag, ...): the receive that follows may name the message it found through the
        status (its source, MPI_GET_COUNT's count), values only a run knows (see probed_receive)."""
        source = _integer(self.value(stmt.args[0], frame)) if stmt.args else None
        self.probed = (ANY if source is None else source, self.tag(stmt.args, 1, frame))

    def probed_receive(self, stmt: ir.Message, frame: dict[str, Cell], where: str) -> None:
        """The receive after an MPI_PROBE: where its source or count is not known (the status's MPI_SOURCE,
        MPI_GET_COUNT's count) it takes the message the probe found, the first to arrive from the probe's
        source (any) with its tag, as MPI does for a probe and a receive with nothing between them. Its size
        is that message's: the simulation charges a receive by the bytes sent (Op.nbytes 0 here, said in
        a note)."""
        probed, self.probed = self.probed, None
        assert probed is not None
        known = _integer(self.value(stmt.partner, frame))
        source = probed[0] if known is None else known
        if source == PROC_NULL:
            return
        count = self.value(stmt.count, frame) if stmt.count is not None else None
        size = msgcalls.datatype_bytes(stmt.type_name, "MPI")
        if isinstance(count, (int, float)) and not isinstance(count, bool) and size is not None:
            nbytes = int(count) * size
        else:
            nbytes = 0
            self.shared.notes.add(f"{where}: the receive after MPI_PROBE takes the size of the message it "
                                  "matches (MPI_GET_COUNT is a run-time value)")
        tag = self.tag(stmt.args, 4, frame)
        self.emit(Op("recv", peer=source, tag=probed[1] if tag == ANY else tag, nbytes=nbytes, where=where))
        self.take_value(stmt, frame, (source, self.rank, tag))

    def post_value(self, stmt: ir.Message, frame: dict[str, Cell], pair: tuple[int, int, int]) -> None:
        """A scalar sent on its own (a size sent before the data it sizes): its value at this rank, for the
        receiver (Shared.mailbox, by sender, receiver, tag and the message's number among theirs)."""
        buffer = _scalar_buffer(stmt)
        pair = (pair[0], plain(pair[1]), plain(pair[2]))  # type: ignore[assignment]  # counted only for the mailbox
        number = self.sent[pair] = self.sent.get(pair, 0) + 1
        if buffer is not None:
            self.private = True
            value = plain(self.cell(buffer, frame).value)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                self.shared.mailbox[(*pair, number)] = value

    def take_value(self, stmt: ir.Message, frame: dict[str, Cell], pair: tuple[int, int, int]) -> None:
        """A scalar received on its own takes the value its sender sent (when the sender was traced first),
        else it is unknown (never the value it held before); Tracer.missed says a retry may find it."""
        buffer = _scalar_buffer(stmt)
        pair = (plain(pair[0]), pair[1], plain(pair[2]))  # type: ignore[assignment]
        number = self.received[pair] = self.received.get(pair, 0) + 1
        if buffer is None:
            return
        self.private = True
        value = self.shared.mailbox.get((*pair, number)) if ANY not in pair else None
        self.cell(buffer, frame).value = value
        if value is None and ANY not in pair:
            self.missed = True

    def broadcast(self, arg: ir.Expr, root: int, frame: dict[str, Cell]) -> None:
        """A broadcast scalar takes the root's value at every rank: the root's own (found when the root was
        traced, Shared.broadcasts, the ranks being traced in order), else what it read (bound with -D), else
        unknown; never the value the rank held before (a C `int n = 0` the root overwrote with scanf). An
        INTEGER array's elements are the root's: not known at the other ranks."""
        if isinstance(arg, ir.UnOp) and arg.op == "addr":
            arg = arg.operand
        key = self.collective_calls
        if isinstance(arg, ir.Var) and not self.data_array(arg) and key not in self.shared.broadcasts \
                and root != self.me:
            self.private = True  # a scalar or an INTEGER array of a root not traced yet: later ranks get its value
        if root != self.me:
            self.forget(arg, frame)
        if not isinstance(arg, ir.Var):
            return
        buffer = self.cell(arg.name, frame)
        if root == self.me:
            if buffer.value is None:
                buffer.value = self.values.get(arg.name.upper())
            self.shared.broadcasts[key] = plain(buffer.value)
        elif not isinstance(buffer.value, _Elements):
            buffer.value = self.shared.broadcasts.get(key, self.values.get(arg.name.upper()))

    def data_array(self, arg: ir.Expr) -> bool:
        """Does the argument name a whole array of real data (whose values the tracer does not keep)?"""
        if not isinstance(arg, ir.Var) or not self.current:
            return False
        var = self.current[-1].variables.get(arg.name) or self.program.globals.get(arg.name)
        return var is not None and bool(var.dims) and var.type not in _KEPT

    def communicator(self, stmt: ir.Message, frame: dict[str, Cell], where: str) -> None:
        """MPI_COMM_WORLD or a Cartesian communicator made from it (the same ranks: not reordered)."""
        if stmt.comm is None or stmt.comm in msgcalls.WORLD:
            return
        spec = msgcalls.mpi_spec(stmt.name)
        handle = self.value(stmt.args[spec.comm], frame) if spec is not None and spec.comm is not None \
            and spec.comm < len(stmt.args) else None
        if not isinstance(handle, int) or handle not in self.carts:
            raise TraceError(f"{where}: communicator {stmt.comm}: the timeline knows MPI_COMM_WORLD and Cartesian "
                             "communicators made from it only")

    def duplicate(self, stmt: ir.Message, frame: dict[str, Cell], where: str) -> None:
        """MPI_COMM_DUP of MPI_COMM_WORLD or of a communicator made from it: the same ranks in the same order
        (a copy of the world is kept as a one-dimensional grid of NPROCS, which is how `communicator` and
        MPI_COMM_SIZE / MPI_COMM_RANK see it)."""
        self.communicator(stmt, frame, where)
        given = self.value(stmt.args[0], frame)
        known = self.carts.get(given) if isinstance(given, int) else None
        handle = _CART_HANDLE + len(self.carts)
        self.carts[handle] = known if known is not None else ([self.nprocs], [False])
        self.actual(stmt.args[1], frame).value = handle

    def cartesian(self, stmt: ir.Message, frame: dict[str, Cell], where: str) -> None:
        """MPI_CART_CREATE (ranks kept in MPI_COMM_WORLD's order, as with reorder false), MPI_CART_SHIFT,
        MPI_CART_COORDS, MPI_CART_RANK and MPI_CART_GET's coordinates (row-major, the last dimension fastest)."""
        name, args = stmt.name.upper(), stmt.args
        self.private = True  # coordinates computed from the plain rank number
        if name == "MPI_CART_CREATE":
            if stmt.comm is not None and stmt.comm not in msgcalls.WORLD:
                raise TraceError(f"{where}: MPI_CART_CREATE from {stmt.comm}: the timeline knows MPI_COMM_WORLD only")
            ndims = self.number(args[1], frame, where, "number of dimensions")
            dims = self.integers(args[2], ndims, frame, where, "dimensions")
            periods = [bool(v) for v in self.integers(args[3], ndims, frame, where, "periods")]
            if math.prod(dims) != self.nprocs:
                raise TraceError(f"{where}: MPI_CART_CREATE of {'x'.join(map(str, dims))} processes at NPROCS = "
                                 f"{self.nprocs}: the timeline needs every rank in the grid")
            handle = _CART_HANDLE + len(self.carts)
            self.carts[handle] = (dims, periods)
            self.actual(args[5], frame).value = handle
            return
        given = self.value(args[0], frame)
        known = self.carts.get(given) if isinstance(given, int) else None
        if known is None:
            raise TraceError(f"{where}: {stmt.name} of a communicator the timeline does not know")
        dims, periods = known
        if name == "MPI_CART_SHIFT":
            direction = self.number(args[1], frame, where, "direction")
            disp = self.number(args[2], frame, where, "displacement")
            coords = _coords(self.rank, dims)
            self.actual(args[3], frame).value = _shifted(coords, dims, periods, direction, -disp)
            self.actual(args[4], frame).value = _shifted(coords, dims, periods, direction, disp)
        elif name in ("MPI_CART_COORDS", "MPI_CART_GET"):
            rank = self.number(args[1], frame, where, "rank") if name == "MPI_CART_COORDS" else self.rank
            out = args[3] if name == "MPI_CART_COORDS" else args[4]
            for k, c in enumerate(_coords(rank, dims)):
                self.put(out, k, c, frame)
        elif name == "MPI_CART_RANK":
            coords = self.integers(args[1], len(dims), frame, where, "coordinates")
            self.actual(args[2], frame).value = _shifted(coords, dims, [True] * len(dims), 0, 0)

    def integers(self, arg: ir.Expr, count: int, frame: dict[str, Cell], where: str, what: str) -> list[int]:
        """An argument's `count` integer (or logical) values: a scalar for one, else an array's first elements."""
        if isinstance(arg, ir.UnOp) and arg.op == "addr":
            arg = arg.operand
        value = self.value(arg, frame)
        if count == 1 and isinstance(value, (int, float, bool)):
            return [int(value)]
        if isinstance(arg, ir.Var):
            elements = self.cell(arg.name, frame).value
            if isinstance(elements, _Elements) and all(k in elements for k in range(count)):
                return [int(elements[k]) for k in range(count)]
        raise TraceError(f"{where}: the {what} are not known at rank {self.rank} ({_names(arg)})")

    def put(self, arg: ir.Expr, k: int, value: int, frame: dict[str, Cell]) -> None:
        """Set element k (from 0) of an INTEGER array argument."""
        if isinstance(arg, ir.UnOp) and arg.op == "addr":
            arg = arg.operand
        if isinstance(arg, ir.Var):
            cell = self.cell(arg.name, frame)
            if not isinstance(cell.value, _Elements):
                cell.value = _Elements()
            cell.value[k] = value

    def forget_written(self, stmt: ir.Message, frame: dict[str, Cell]) -> None:
        """The INTEGER arrays an MPI call may write (its buffers, statuses, requests): elements unknown."""
        spec = msgcalls.mpi_spec(stmt.name)
        if spec is None:
            return
        read = set(spec.no_def) | {k for k in (spec.count, spec.datatype, spec.partner, spec.source, spec.comm)
                                   if k is not None}
        for k, arg in enumerate(stmt.args):
            if k not in read:
                self.forget(arg, frame)

    def forget(self, arg: ir.Expr, frame: dict[str, Cell]) -> None:
        """An argument that may be written: an INTEGER array it names (whole or an element) loses its
        known elements."""
        if isinstance(arg, ir.UnOp) and arg.op == "addr":
            arg = arg.operand
        if isinstance(arg, (ir.Var, ir.ArrayRef)):
            cell = frame.get(arg.name.upper())
            if cell is not None and isinstance(cell.value, _Elements) and cell.value:
                cell.value = _Elements()

    def store(self, target: ir.ArrayRef, value: object, frame: dict[str, Cell]) -> None:
        """An assignment to an array element: remembered for an INTEGER array at a known offset."""
        if target.type not in _KEPT:
            for index in target.indices:
                self.value(index, frame)
            return
        indices = [self.value(index, frame) for index in target.indices]
        cell = self.cell(target.name, frame)
        offset = self.offset(target, indices, frame)
        if offset is None:  # an element we cannot place: none of the array's elements is known any more
            if isinstance(cell.value, _Elements) and cell.value:
                cell.value = _Elements()
            return
        if not isinstance(cell.value, _Elements):
            cell.value = _Elements()
        number = value if isinstance(value, bool) and target.type == "logical" else _num(value)
        if number is None:
            cell.value.pop(offset, None)
        else:
            cell.value[offset] = number if isinstance(number, bool) else int(number)

    def offset(self, ref: ir.ArrayRef, indices: list, frame: dict[str, Cell]) -> int | None:
        """The linear offset of an INTEGER array element in its declared shape (Fortran: the first index
        fastest; C: the last), or None (not an integer array, an index or a bound not known)."""
        if ref.type not in _KEPT or not indices or not self.current:
            return None
        proc = self.current[-1]
        var = proc.variables.get(ref.name) or self.program.globals.get(ref.name)
        if var is None or not var.dims or len(var.dims) != len(indices):
            return None
        order = list(range(len(indices)))
        if proc.language == "c":
            order.reverse()
        offset, stride = 0, 1
        for k in order:
            lo_expr, hi_expr = var.dims[k]
            lo = _num(self.value(lo_expr, frame)) if lo_expr is not None else 1
            index = _num(indices[k])
            if lo is None or index is None or index != int(index):
                return None
            offset += (int(index) - int(lo)) * stride
            if k != order[-1]:
                hi = _num(self.value(hi_expr, frame)) if hi_expr is not None else None
                if hi is None:
                    return None
                stride *= int(hi) - int(lo) + 1
        return offset

    def flush_posted(self) -> None:
        """The receives posted with MPI_IRECV (and MPI_ISSEND's acknowledgements), at the wait that completes
        them."""
        for op in self.posted:
            self.emit(op)
        self.posted = []

    def nbytes(self, stmt: ir.Message, frame: dict[str, Cell], where: str) -> int:
        """The message's bytes: count x datatype size at this rank."""
        count = self.number(stmt.count, frame, where, "count") if stmt.count is not None else None
        place = msgcalls.in_place(stmt)
        if count is None and place is not None and place[2]:  # MPI_IN_PLACE: this rank's receive count
            self.private = True
            count = self.integers(stmt.args[place[0]], self.rank + 1, frame, where, "receive counts")[self.rank]
        size = msgcalls.datatype_bytes(stmt.type_name, "MPI")
        if count is None or size is None:
            raise TraceError(f"{where}: {stmt.name}: message size not known (count or datatype)")
        return count * size

    def tag(self, args: list[ir.Expr], pos: int, frame: dict[str, Cell]) -> int:
        """The tag argument's value (ANY when not known)."""
        if pos >= len(args):
            return 0
        value = self.value(args[pos], frame)
        return int(value) if isinstance(value, (int, float)) else ANY

    def number(self, expr: ir.Expr | None, frame: dict[str, Cell], where: str, what: str) -> int:
        """An integer the events need (a partner, a count); TraceError when not known."""
        value = _integer(self.value(expr, frame)) if expr is not None else None
        if value is None:
            raise TraceError(f"{where}: the {what} is not known at rank {self.rank} "
                             f"({self.unknown(expr, frame)}): bind it with -D")
        return value

    def unknown(self, expr: ir.Expr | None, frame: dict[str, Cell]) -> str:
        """The variables of an expression without a value at this rank (what to bind), or what it calls."""
        if expr is None:
            return ""
        names = [n for n in _names(expr).split(", ") if n and self.cell(n, frame).value is None]
        return ", ".join(names) or "a value the program computes from data"

    # ------------------------------------------------------------------ expressions
    def value(self, expr: ir.Expr | None, frame: dict[str, Cell]) -> object:
        """An expression's value at this rank, or None (user functions in it are run and timed)."""
        if expr is None:
            return None
        if isinstance(expr, ir.Const):
            return expr.value if isinstance(expr.value, (int, float, bool)) else None
        if isinstance(expr, ir.Var):
            return self.cell(expr.name, frame).value
        if isinstance(expr, ir.BinOp):
            return _binary(expr, self.value(expr.left, frame), self.value(expr.right, frame))
        if isinstance(expr, ir.UnOp):
            operand = self.value(expr.operand, frame)
            if operand is None or expr.op == "addr":
                return None
            if expr.op == "not":
                return not operand
            number = _num(operand)
            return -number if expr.op == "neg" and number is not None else None
        if isinstance(expr, ir.Cast):
            return _typed(self.value(expr.operand, frame), expr.type)
        if isinstance(expr, ir.FuncCall):
            if expr.intrinsic:
                return _intrinsic(expr.name, [self.value(a, frame) for a in expr.args], expr.type)
            return self.invoke(expr.name, expr.args, frame, "")
        if isinstance(expr, ir.ArrayRef):
            if expr.type not in _KEPT:  # only INTEGER and LOGICAL arrays' elements are kept (counts, offsets)
                for index in expr.indices:
                    self.value(index, frame)
                return None
            offset = self.offset(expr, [self.value(index, frame) for index in expr.indices], frame)
            if offset is None:
                return None
            elements = self.cell(expr.name, frame).value
            return elements.get(offset) if isinstance(elements, _Elements) else None
        if isinstance(expr, ir.Ternary):
            cond = self.value(expr.cond, frame)
            then, orelse = self.value(expr.then, frame), self.value(expr.orelse, frame)
            return None if cond is None else (then if cond else orelse)
        return None


# ---------------------------------------------------------------------- helpers
def _at(stmt) -> str:
    loc = getattr(stmt, "loc", None)
    return f"{loc.file}:{loc.line}" if loc is not None else ""


def _integer(value: object) -> int | None:
    """A value the events use as an integer (a partner, a count), None when it is not a number. A Sym stays
    one: the rank classes follow how partners are computed from the rank (sad.predict.rankclass)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return None
    return value if isinstance(value, Sym) else int(value)


def _reads(node: ir.Node, name: str) -> bool:
    """Does the node read the variable `name` (upper case), not counting subscripts of arrays whose elements
    the tracer does not keep (_KEPT)?"""
    if isinstance(node, ir.Var):
        return node.name.upper() == name
    if isinstance(node, ir.ArrayRef) and node.type not in _KEPT:
        return False
    return any(_reads(child, name) for child in node.child_nodes() if isinstance(child, ir.Node))


_KEPT = ("integer", "logical")
"""The arrays whose elements the tracer keeps (counts, offsets, a grid's dimensions and periods)."""
PROC_NULL = -2
"""MPI_PROC_NULL (Open MPI's mpif.h and mpi.h): a send or receive with it does nothing."""
MPI_C_CONSTANTS = {"MPI_ANY_SOURCE": ANY, "MPI_ANY_TAG": ANY, "MPI_PROC_NULL": PROC_NULL}
"""The values of the constants sad's C mpi.h declares as extern int (Open MPI's, as mpif.h gives them)."""
_CART_HANDLE = 1 << 40  # handles of the Cartesian communicators a rank makes (no MPI handle is this large)
_CARTESIAN = frozenset({"MPI_CART_CREATE", "MPI_CART_SHIFT", "MPI_CART_COORDS", "MPI_CART_RANK", "MPI_CART_GET"})


def _coords(rank: int, dims: list[int]) -> list[int]:
    """A rank's coordinates in a row-major grid (MPI's order: the last dimension varies fastest)."""
    coords = []
    for d in reversed(dims):
        coords.append(rank % d)
        rank //= d
    return coords[::-1]


def _shifted(coords: list[int], dims: list[int], periods: list[bool], direction: int, disp: int) -> int:
    """The rank at coords moved by disp along direction (MPI_PROC_NULL off a non-periodic edge)."""
    moved = list(coords)
    moved[direction] += disp
    if not 0 <= moved[direction] < dims[direction]:
        if not periods[direction]:
            return PROC_NULL
        moved[direction] %= dims[direction]
    rank = 0
    for c, d in zip(moved, dims):
        rank = rank * d + c
    return rank


def _frozen(value: object) -> object:
    """A scalar as it is; an array's known elements as their sorted items (a copy: they change later)."""
    return tuple(sorted(value.items())) if isinstance(value, _Elements) else value


def _exact(value: object) -> object:
    """A value as a key that tells apart what == does not (1, 1.0 and True; 0.0 and -0.0)."""
    return value if value.__class__ is int else (value.__class__, repr(value))


def _names(expr: ir.Expr | None) -> str:
    if expr is None:
        return ""
    return ", ".join(sorted({n.name for n in ir.walk(expr) if isinstance(n, ir.Var)}))


def _num(value: object) -> int | float | None:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _typed(value: object, type_name: str) -> object:
    if value.__class__ in SYMBOLIC:
        return lifted(functools.partial(_plain_typed, type_name=type_name), value, key=(_typed, type_name))
    return _plain_typed(value, type_name)


def _plain_typed(value: object, type_name: str) -> object:
    """_typed of a value that is no Sym (what a class's guards compute at every other rank)."""
    if value is None or isinstance(value, bool):
        return value
    if type_name == "integer" and isinstance(value, (int, float)):
        return int(value)
    if type_name in ("real", "double") and isinstance(value, (int, float)):
        return float(value)
    return value


def _binary(expr: ir.BinOp, a, b):
    if a.__class__ in SYMBOLIC or b.__class__ in SYMBOLIC:  # computed from the rank: the same arithmetic at every rank
        return lifted(functools.partial(_plain_binary, expr.op, expr.type), a, b, key=(_binary, id(expr)))
    return _plain_binary(expr.op, expr.type, a, b)


_NUMBERS = (int, float, bool)
_PLAIN: dict[str, Callable[[Any, Any], Any]] = {
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
    "ge": operator.ge, "add": operator.add, "sub": operator.sub, "mul": operator.mul}
"""The operations that, on two numbers, are Python's own (_general_binary does the same, more slowly)."""


def _plain_binary(op: str, type_name: str | None, a, b):
    """A binary operation of values that are no Syms (the guards of a class of ranks evaluate this at every
    rank: the common cases, numbers compared, added, subtracted, multiplied, come first)."""
    if a.__class__ in _NUMBERS and b.__class__ in _NUMBERS:
        plain = _PLAIN.get(op)
        if plain is not None:
            try:
                return plain(a, b)
            except OverflowError:  # an integer too large for a float: as _general_binary
                return None
    return _general_binary(op, type_name, a, b)


def _general_binary(op: str, type_name: str | None, a, b):
    if op == "and":
        return False if a is False or b is False else (None if a is None or b is None else bool(a and b))
    if op == "or":
        return True if a is True or b is True else (None if a is None or b is None else bool(a or b))
    if a is None or b is None or isinstance(a, str) or isinstance(b, str):
        return None
    integer = type_name == "integer" or (type_name not in ("real", "double") and isinstance(a, int)
                                          and isinstance(b, int))
    try:
        if op == "add":
            return a + b
        if op == "sub":
            return a - b
        if op == "mul":
            return a * b
        if op == "div":
            if integer and isinstance(a, int) and isinstance(b, int):
                return int(a / b) if abs(a) < 2**52 else (abs(a) // abs(b)) * (1 if (a >= 0) == (b > 0) else -1)
            return a / b
        if op == "pow":
            return a ** b if not (integer and isinstance(b, int) and b < 0) else int(a ** b)
        if op == "mod":
            return int(math.fmod(a, b)) if integer else math.fmod(a, b)
        compare = {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b}
        if op in compare:
            return compare[op]
        if op == "band":
            return int(a) & int(b)
        if op == "bor":
            return int(a) | int(b)
        if op == "bxor":
            return int(a) ^ int(b)
        if op == "shl":
            return int(a) << int(b)
        if op == "shr":
            return int(a) >> int(b)
    except (ZeroDivisionError, OverflowError, ValueError, TypeError):
        return None
    return None


_INTRINSICS: dict[str, Callable[..., object]] = {
    "MIN": min, "MAX": max, "ABS": abs, "SQRT": math.sqrt, "EXP": math.exp, "LOG": math.log,
    "INT": lambda x: int(x), "NINT": lambda x: int(round(x)), "DBLE": float, "REAL": float, "FLOAT": float,
    "IFIX": lambda x: int(x), "MOD": lambda a, b: math.fmod(a, b), "SIN": math.sin, "COS": math.cos,
    "LOG10": math.log10, "SIGN": lambda a, b: abs(a) if b >= 0 else -abs(a), "DIM": lambda a, b: max(a - b, 0),
    # the bit intrinsics on integers (hypercube partners IEOR(ME, 2**K))
    "IEOR": lambda a, b: int(a) ^ int(b), "IAND": lambda a, b: int(a) & int(b), "IOR": lambda a, b: int(a) | int(b),
    "NOT": lambda a: ~int(a), "ISHFT": lambda a, s: int(a) << int(s) if s >= 0 else int(a) >> -int(s),
    "IBSET": lambda a, b: int(a) | (1 << int(b)), "IBCLR": lambda a, b: int(a) & ~(1 << int(b)),
    "BTEST": lambda a, b: bool((int(a) >> int(b)) & 1),
}


def _intrinsic(name: str, args: list, type_name: str) -> object:
    if any(a.__class__ in SYMBOLIC for a in args):
        return lifted(functools.partial(_plain_intrinsic, _INTRINSICS.get(name.upper()), type_name), *args,
                      key=(_intrinsic, name, type_name))
    return _plain_intrinsic(_INTRINSICS.get(name.upper()), type_name, *args)


def _plain_intrinsic(function: Callable[..., object] | None, type_name: str, *args) -> object:
    """An intrinsic of values that are no Syms (None: not one the tracer knows)."""
    if function is None or not args or any(a is None or isinstance(a, str) for a in args):
        return None
    try:
        return _plain_typed(function(*args), type_name)
    except (ValueError, OverflowError, ZeroDivisionError, TypeError):
        return None


def _scalar_buffer(stmt: ir.Message) -> str | None:
    """The variable a send or receive of one INTEGER or LOGICAL element passes as its buffer (a size, a
    flag: what the ranks' control may depend on; a real received is data, which the tracer does not follow),
    else None."""
    count = stmt.count
    if not stmt.args or not (isinstance(count, ir.Const) and count.value == 1) or stmt.datatype not in _KEPT:
        return None
    arg = stmt.args[0]
    if isinstance(arg, ir.UnOp) and arg.op == "addr":
        arg = arg.operand
    return arg.name if isinstance(arg, ir.Var) else None


def _messaging(program: ir.Program) -> set[str]:
    """The procedures (upper-case names) that exchange messages, themselves or through their callees."""
    direct: dict[str, set[str]] = {}
    sends: set[str] = set()
    for proc in program.procedures:
        name = proc.name.upper()
        direct[name] = set()
        for stmt in ir.walk_stmts(proc.body):
            if isinstance(stmt, ir.Message) and stmt.kind not in msgcalls.LOCAL:
                sends.add(name)
            if isinstance(stmt, ir.CallStmt):
                direct[name].add(stmt.name.upper())
    changed = True
    while changed:
        changed = False
        for name, callees in direct.items():
            if name not in sends and callees & sends:
                sends.add(name)
                changed = True
    return sends


def stmt_has_messages(stmt: ir.Stmt, messaging: set[str]) -> bool:
    """Does this statement (its nested bodies included) exchange messages?"""
    for inner in ir.walk_stmts([stmt]):
        if isinstance(inner, ir.Message) and inner.kind not in msgcalls.LOCAL:
            return True
        if isinstance(inner, ir.CallStmt) and inner.name.upper() in messaging:
            return True
    return False


def _assigned(body: list[ir.Stmt]) -> set[str]:
    return {s.target.name for s in ir.walk_stmts(body) if isinstance(s, ir.Assign) and isinstance(s.target, ir.Var)}


def _is_pure(proc: ir.Procedure, messaging: set[str], purity: dict[str, bool],
             program_globals: dict[str, ir.Variable] | None = None) -> bool:
    """A function of its scalar arguments alone: no COMMON, no I/O, no calls, no messages, formals not written,
    no C file-scope variable read (a rank's `me` there would make its value differ between ranks)."""
    known = purity.get(proc.name.upper())
    if known is not None:
        return known
    formals = {f.upper() for f in proc.formals}
    pure = proc.kind == "function" and proc.name.upper() not in messaging and not any(
        isinstance(s, (ir.IO, ir.CallStmt, ir.Message)) or
        (isinstance(s, ir.Assign) and isinstance(s.target, (ir.Var, ir.ArrayRef)) and
         getattr(s.target, "name", "").upper() in formals)
        for s in ir.walk_stmts(proc.body)) and not any(
        v.storage in ("common", "global", "static") for v in proc.variables.values()) and not any(
        v.dims for n, v in proc.variables.items() if n.upper() in formals)
    if pure and program_globals:
        own = set(proc.variables)
        pure = not any(isinstance(n, ir.Var) and n.name in program_globals and n.name not in own
                       for s in ir.walk_stmts(proc.body) for n in ir.walk(s))
    purity[proc.name.upper()] = pure
    return pure


def traces(program: ir.Program, machine, nprocs: int, values: dict[str, float],
           remember: bool = True, classes: bool = True,
           include_dirs: tuple[str, ...] = ()) -> tuple[list[list[Op]], Shared]:
    """Every rank's events at `nprocs` processes (values: the -D bindings), with what the tracers noted
    (remember: replay message-free loops that start alike, Tracer.followed; classes: trace one rank per class
    of ranks that behave alike, sad.predict.rankclass; the tests compare both with everything followed). On a
    machine calibrated on a host, innermost loops are priced by the loop model (sad.predict.traceloops; the
    sources compiled with include_dirs searched)."""
    frozen = gc.get_freeze_count()
    try:
        return _traces(program, machine, nprocs, values, remember, classes, include_dirs)
    finally:
        if not frozen:  # a caller's own freeze is the caller's to end
            gc.unfreeze()


def _traces(program: ir.Program, machine, nprocs: int, values: dict[str, float], remember: bool,
            classes: bool, include_dirs: tuple[str, ...] = ()) -> tuple[list[list[Op]], Shared]:
    classes = classes and remember
    shared = Shared(remember=remember)
    if getattr(machine, "hierarchy", None) is not None:
        shared.loops = LoopModel(program, machine, include_dirs)
    algorithms = dict(getattr(machine, "collectives", {}) or {})
    out: list[list[Op]] = [[] for _ in range(nprocs)]
    shared.repeats = [[] for _ in range(nprocs)]
    templates: list[rankclass.Template] = []
    pending = list(range(nprocs))
    while pending:  # a rank that stopped on a value a later rank sends it is traced again once that is known
        failed: list[tuple[int, TraceError]] = []
        known = len(shared.mailbox)
        done = bytearray(nprocs)  # ranks given their events in this pass
        for at, rank in enumerate(pending):  # in order: the ranks traced are those no lower rank's class holds
            if done[rank]:
                continue
            template = _matching(templates, rank)
            if template is None:
                tracer = Tracer(program, machine, nprocs, rank, values, algorithms, shared, symbolic=classes)
                try:
                    ops = tracer.trace()
                except TraceError as exc:
                    if not tracer.missed:
                        raise
                    failed.append((rank, exc))
                    continue
                template = rankclass.Template(ops, tracer.guards, tracer.repeats)
                out[rank], shared.repeats[rank] = template.instantiate(rank), tracer.repeats
                done[rank] = 1
                if not classes or tracer.private:
                    continue
                templates.append(template)
            _claim(template, pending, at, done, out, shared)
            # the events made so far (millions at P = 4 096: events and lists that hold no cycle) leave the
            # cycle collector's generations until `traces` returns: each full collection that the tracer's
            # allocations set off would walk them all (CG-Tree, 4 096 ranks x 100 iterations: tracing 1.25 s
            # CPU, 0.69 s with them out of its way). What the collector frees is unchanged, only when.
            gc.freeze()
        if failed and len(failed) == len(pending) and len(shared.mailbox) == known:
            raise failed[0][1]  # no rank got further: the value is not one another rank sends
        pending = [rank for rank, _ in failed]
    return out, shared


def _matching(templates: list[rankclass.Template], rank: int) -> rankclass.Template | None:
    """The class `rank` belongs to (the latest first: consecutive ranks are often alike), or None."""
    for template in reversed(templates):
        if template.holds(rank):
            if template is not templates[-1]:
                templates.remove(template)
                templates.append(template)
            return template
    return None


def _claim(template: rankclass.Template, pending: list[int], start: int, done: bytearray, out: list[list[Op]],
           shared: Shared) -> None:
    """Give pending[start] (in the template's class, or traced) and the ranks after it that are in the class their
    events, a window of ranks at a time (sad.predict.rankclass.Template.members): 2, 4, 8, ... ranks while
    all are in the class, so a run of alike ranks costs a few windows and a rank of another class is tried
    against no more than one window. The classes are disjoint (a rank's decisions come out as one traced
    rank's or another's), so a rank claimed here is the one `_matching` would have given it."""
    window = 2
    while start < len(pending):
        ranks = [r for r in pending[start:start + window] if not done[r]]
        members, columns = template.members(ranks)
        for member, ops in zip(members, template.instances(members, columns)):
            if not done[member]:  # the traced rank has its own events already
                out[member], shared.repeats[member] = ops, template.repeats
                shared.classed += 1
                done[member] = 1
        if len(members) < len(ranks):
            return
        start += window
        window *= 2
