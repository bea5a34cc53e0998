"""Value backtracing: IR expressions to sympy expressions in the program's parameters.

Data flow: the SAD builder asks for the value of a loop bound or a branch condition at a statement; this
module follows the definitions of each variable (PARAMETER and const values, DATA and initialisers, single
assignments, reads from input, formal arguments, COMMON storage across procedures) and registers in the
parameter table each parameter it meets, with its class. The analysis is flow-insensitive and deliberately
conservative: a variable with more than one definition, or one a callee may modify, is not resolved (the
loop it bounds becomes an unresolved loop count instead of a wrong formula), except where its definitions
are straight-line code of one routine, through IFs (sad.analysis.conditional: Min, Max, Piecewise): then
the value at the statement that uses it (`expr_at`, the loop or IF being built) is exact.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache

import sympy

from sad import ir
from sad.analysis import (
    callsite,
    characters,
    conditional,
    evaluate,
    extremes,
    genericdata,
    heldtests,
    libcalls,
    passedelements,
)
from sad.analysis.counting import Unbindable, mod, substitute, takes_both_signs, takes_zero_and_other, trip_count
from sad.analysis.depthmemo import DepthMemo, Reach
from sad.analysis.freesymbols import free_symbols
from sad.analysis.journal import Journal
from sad.analysis.params import Parameter, ParameterTable, make_symbol
from sad.analysis.storedconstants import StoredConstants, constant_of
from sad.analysis.storedelements import StoredElements, by_element
from sad.ir import msgcalls
from sad.ir.languages import resolve_name, result_variable
from sad.ir.nesting import nesting

Unresolvable = None
SPMD_DEFINITIONS = ("nprocs", "rank", "ntasks")
_LEAVES = (ir.Return, ir.Stop, ir.Goto, ir.ComputedGoto, ir.AssignedGoto, ir.ArithmeticIf)  # statements that
# may leave a straight run of a function's statements
# How deep a value is followed through the values it depends on. DGERQF's index left by its backward blocked
# loop (I, from its start K - KK + KI + 1, KI from NX and NB, NB from ILAENV's run and the workspace test)
# is more than 32 levels: past the limit a value is unknown, and 32 left DGERQF's last block unbound. DGELQ's
# INFO after its argument checks (LWORK against LWREQ, LWREQ chosen on the block size NB, NB reset where it does
# not fit, from ILAENV's value) is deeper than 64 levels, which left its stored header and its work unbound.
_MAX_DEPTH = 72
# how `variable` describes a value only a run tells that a loop bound reads as one symbol wherever it is read: a
# variable assigned in several places, or once from a routine with no source (`_stale_copy` finds these by it)
_RUN_TIME = "run-time value"


@dataclass
class Definition:
    """One place where a variable gets a value (assignment, READ, DATA, PARAMETER, loop index, call, ...)."""
    kind: str  # assign | read | data | parameter | index | call | nprocs | rank | ntasks
    loc: ir.Loc | None
    value: ir.Expr | None = None
    procedure: str = ""
    stmt: ir.Stmt | None = None  # the statement that defines (calls: to tell where it can reach)
    # a call inside the statement's expressions: `if (posix_memalign(&p, ...) != 0 || p == NULL)` reads
    # the p the call wrote, so the write reaches the statement's own later reads
    in_expression: bool = False


@dataclass
class ProgramFacts:
    """Facts about the whole program the backtracer needs: storage names, definitions, what callees modify."""
    program: ir.Program
    procs: dict[str, ir.Procedure] = field(default_factory=dict)
    common_names: dict[tuple[str, str], str] = field(default_factory=dict)  # (proc, var) → canonical
    definitions: dict[str, list[Definition]] = field(default_factory=lambda: defaultdict(list))
    main: str | None = None
    recursive: set[str] = field(default_factory=set)  # linkage names of routines on a cycle of calls
    terminating: set[str] = field(default_factory=set)  # routines that never return (they STOP)
    # array elements: the assignments A(i, j) = v (with their subscripts), and the arrays whose elements
    # are also written where a subscript cannot be followed (READ into an element, an element passed to a
    # routine that may write it)
    element_writes: dict[str, list[tuple[Definition, list[ir.Expr]]]] = field(
        default_factory=lambda: defaultdict(list))
    opaque_arrays: set[str] = field(default_factory=set)
    _places: dict[str, dict[int, Place]] = field(default_factory=dict)
    _jumps: dict[str, bool] = field(default_factory=dict)
    _arm_jumps: dict[str, bool] = field(default_factory=dict)  # _jumps_back_in_arms by routine, as _places
    _looped_back: dict[str, frozenset[int] | None] = field(default_factory=dict)  # conditional.looped_back
    # the statement whose values are being evaluated, and the quotients resolved there by taking operands
    # of unknown sign as non-negative: (where, quotient), in order, each once (notes for the user)
    at_loc: ir.Loc | None = None
    sign_assumed: dict[tuple[ir.Loc | None, str], None] = field(default_factory=dict)
    index_lower: dict[sympy.Symbol, sympy.Expr] = field(default_factory=dict)  # a DO index's least value
    _once: dict[str, bool] = field(default_factory=dict)
    # linkage name → its call sites (caller, statement, inside a loop), gathered on first use
    _sites: dict[str, list[tuple[ir.Procedure, ir.Stmt, bool]]] | None = None
    # conditional values already followed (ValueResolver._conditional), by everything they depend on
    # (the symbolic runs are remembered for every depth they hold at: sad.analysis.depthmemo)
    reach: Reach = field(default_factory=Reach)
    _conditionals: DepthMemo = field(init=False)
    _evaluations: DepthMemo = field(init=False)  # see ValueResolver._at_statement
    _following: set[tuple] = field(default_factory=set)  # see ValueResolver._followed
    # the storage names of CHARACTER formal arguments met (their symbols stand for character codes: the
    # options of library mode, sad.codebase.options)
    character_formals: set[str] = field(default_factory=set)
    # tests of floating-point data decided by the generic-data model (sad.analysis.genericdata), unless the
    # user switched it off; the comparisons decided, by the statement evaluated: (where, comparison) → value
    generic_data: bool = True
    generic_decided: dict[tuple[ir.Loc | None, str], bool] = field(default_factory=dict)
    # functions run on known arguments (sad.analysis.evaluate): (name, arguments) → result, None where the
    # run stopped; and the runs that stopped, by where they were asked: (where, reference, why)
    evaluated: dict[tuple, sympy.Basic | None] = field(default_factory=dict)
    unevaluated: dict[tuple[ir.Loc | None, str, str], None] = field(default_factory=dict)
    modified: ModifiedFormals | None = None  # which formals each routine may write (set by gather)
    # the constants floating storage may hold (sad.analysis.storedconstants), built on first use
    stored: StoredConstants | None = None
    # which elements of an array hold its stored constant (sad.analysis.storedelements), built on first use
    elements: StoredElements | None = None
    # the answers of those two that the build under way took (sad.analysis.summaries reuses a build only
    # where the rest of the program answers the same)
    journal: Journal = field(default_factory=Journal)
    functions: dict[str, type] = field(default_factory=dict)  # sympy functions that run a user function
    # what routines leave in their integer formals (ValueResolver.left_in_formal): (routine, formal) → value,
    # the value a formal came with standing as entry_symbol; and the hypotheses of an induction under way
    left_values: dict[tuple[str, str], sympy.Expr | None] = field(default_factory=dict)
    # what routines leave in an element of a one-dimensional array formal (ValueResolver.left_in_element):
    # (routine, formal, subscript) → value
    left_elements: dict[tuple[str, str, int], sympy.Expr | None] = field(default_factory=dict)
    _read_elements: dict[str, list[tuple[int, int, str]]] = field(default_factory=dict)  # passed_element_symbols
    hypotheses: dict[tuple[str, str], sympy.Expr | None] = field(default_factory=dict)
    entry_symbol: sympy.Symbol = field(default_factory=lambda: sympy.Symbol("__entry__", integer=True))

    def __post_init__(self) -> None:
        self._conditionals = DepthMemo(self.reach)
        self._evaluations = DepthMemo(self.reach)

    def reaches(self, definition: Definition, use: ir.Stmt, proc: ir.Procedure) -> bool:
        """Whether a call's write can reach `use` (a loop entered after it): not when the call comes later
        in the routine, or is the use itself (the arguments are read before the call writes them), and no
        loop or backward jump carries control back, nor when it sits in an arm that ends in RETURN or STOP
        before the use, nor in another arm of an IF the use is in, with no loop around both. Anything else
        is assumed to reach."""
        if definition.stmt is None or definition.procedure != proc.name or \
                (definition.in_expression and definition.stmt is use):
            return True
        places = self.places_of(proc)
        d, u = places.get(id(definition.stmt)), places.get(id(use))
        if d is None or u is None or d.backward_jumps:
            return True
        if d.returning_arm is not None and d.returning_arm not in u.lists:
            return False
        if d.apart_from(u):
            return False  # DLARFT's PREVLASTV set for DIRECT = 'F' does not reach its uses for 'B'
        return not (d.order >= u.order and not (d.loops & u.loops))

    @classmethod
    def gather(cls, program: ir.Program, generic_data: bool = True) -> ProgramFacts:
        """Collect the program-wide facts (procedures, COMMON names, definitions, modified formals) once;
        `generic_data`: whether tests of data are decided by the generic-data model."""
        facts = cls(program, generic_data=generic_data)
        for proc in program.procedures:
            facts.procs.setdefault(resolve_name(proc.name), proc)
            if proc.kind == "program" and facts.main is None:
                facts.main = proc.name
        facts._name_commons()
        facts.terminating = _terminating_routines(program)
        modified = facts.modified = ModifiedFormals(facts)
        facts._collect_global_definitions()
        for proc in program.procedures:
            facts._collect_definitions(proc, modified)
        return facts

    def _collect_global_definitions(self) -> None:
        """C file-scope constants (`enum { M = 7 }`, `static const int steps = 5`) and initialised
        globals: their first definition, before any procedure assigns them."""
        for name, decl in sorted(self.program.globals.items()):
            if decl.storage in ("parameter", "const") and decl.value is not None:
                self.definitions[name].append(Definition("parameter", decl.loc, decl.value, ""))
            elif decl.data and decl.dims is None:
                self.definitions[name].append(Definition("data", decl.loc, decl.data[0], ""))

    def _name_commons(self) -> None:
        # The same COMMON slot may carry different names in different procedures: name it once, after the
        # main program's declaration where there is one, else the first procedure's.
        slot_name: dict[tuple[str, int], str] = {}
        ordered = sorted(self.program.procedures, key=lambda p: p.kind != "program")
        for proc in ordered:
            for block, names in proc.commons.items():
                for pos, var in enumerate(names):
                    canonical = slot_name.setdefault((block, pos), var)
                    self.common_names[(proc.name, var)] = canonical

    def places_of(self, proc: ir.Procedure) -> dict[int, Place]:
        """Where each statement of `proc` sits (by id), made once per routine."""
        places = self._places.get(proc.name)
        if places is None:
            places = self._places[proc.name] = _places_of(proc)
        return places

    def jumps_in(self, proc: ir.Procedure) -> bool:
        """Whether the routine jumps anywhere (a GO TO, or I/O's ERR= or END=, may pass any statement), found
        once per routine."""
        found = self._jumps.get(proc.name)
        if found is None:
            found = self._jumps[proc.name] = any(conditional.jumps(s) for s in ir.walk_stmts(proc.body))
        return found

    def runs_once(self, proc: ir.Procedure) -> bool:
        """Whether a routine runs at most once per run of the program: the main program, or a routine with
        one call site, outside any loop of a caller that runs once."""
        memo = self._once
        key = resolve_name(proc.name)
        if key not in memo:
            memo[key] = False  # a cycle of calls: not once
            memo[key] = self._runs_once(proc)
        return memo[key]

    def _runs_once(self, proc: ir.Procedure) -> bool:
        if proc.name == self.main:
            return True
        key = resolve_name(proc.name)
        sites = self._call_sites().get(key, [])
        if len(sites) != 1:
            return False
        caller, stmt, looped = sites[0]
        places = self.places_of(caller)
        if looped or any(p.backward_jumps for p in places.values()):
            return False
        return sum(1 for name in _called_names(stmt) if resolve_name(name) == key) == 1 \
            and self.runs_once(caller)

    def _call_sites(self) -> dict[str, list[tuple[ir.Procedure, ir.Stmt, bool]]]:
        """Every routine's call sites, in program order, from one pass over the program (asking each
        routine's question by scanning every statement of the program was quadratic in a codebase)."""
        if self._sites is None:
            self._sites = defaultdict(list)
            for caller in self.program.procedures:
                for stmt, looped in _statements_with_loops(caller.body):
                    for key in dict.fromkeys(resolve_name(name) for name in _called_names(stmt)):
                        self._sites[key].append((caller, stmt, looped))
        return self._sites

    def logical_formals(self, proc: ir.Procedure) -> frozenset[str]:
        """The storage names of `proc`'s scalar LOGICAL formal arguments: a test reads one as a condition
        each call binds to the truth value it passes, and library mode makes it an option."""
        return frozenset(self.storage_name(proc, f) for f in proc.formals
                         if (decl := proc.variables.get(f)) is not None and decl.type == "logical" and not decl.dims)

    def asked_again(self, question: tuple, table: ParameterTable, overrides: dict) -> object:
        """The answer this program gives to a question a build noted in the journal (sad.analysis.journal),
        None for a routine it does not hold. A rule asked for makes the element rules where no test has
        yet: the build would have made them (sad.analysis.values' test of an element) as it asked."""
        kind = question[0]
        proc = self.procs.get(question[1])
        if proc is None:
            return None
        if kind == "zero symbols":
            return tuple(self.first_element_symbols(proc))
        if kind == "zero names":
            return frozenset(self.first_element_names(proc))
        resolver = ValueResolver(self, proc, table, overrides)
        if kind in (heldtests.QUESTION, heldtests.FORMAL_QUESTION):
            stored = resolver._stored()

            def constants_of(name: str) -> frozenset:
                return stored.of(proc, name, note=False)
            if kind == heldtests.FORMAL_QUESTION:
                return heldtests.formal_outcome(question[2], question[3], question[4], constants_of)
            return heldtests.outcome(question[2], question[3], constants_of)
        if kind in ("stored", "left"):
            stored = resolver._stored()
            return stored.of(proc, question[2]) if kind == "stored" else stored.left(proc, question[2])
        if kind == "site rules":
            return resolver.element_rules().site_rules(proc, question[2])
        if kind == "read rule":
            rules = resolver.element_rules()
            at = rules.statement_at(proc, question[3])
            if question[3] is not None and at is None:
                return None
            return rules.read_rule(proc, question[2], at)
        return resolver.element_rules().own_rule(proc, question[2], question[3])

    def first_element_symbols(self, proc: ir.Procedure) -> list[sympy.Symbol]:
        """The `@zero` symbols of `proc`'s formals (sad.analysis.storedelements), once a test has asked for
        the element rules ([] before: no count holds one yet). Noted in the journal as answered: what a
        routine's markers of deferred calls carry depends on it."""
        symbols = self.elements.zero_symbols(proc) if self.elements is not None else []
        self.journal.note(("zero symbols", resolve_name(proc.name)), tuple(symbols))
        return symbols

    def first_element_names(self, proc: ir.Procedure) -> set[str]:
        """The names of those symbols, as formal arguments (the fallbacks of tests on formals)."""
        names = self.elements.pseudo_names(proc) if self.elements is not None else set()
        self.journal.note(("zero names", resolve_name(proc.name)), frozenset(names))
        return names

    def passed_element_symbols(self, proc: ir.Procedure, table: ParameterTable
                               ) -> list[tuple[int, int, sympy.Symbol]]:
        """(formal's position, subscript, symbol) of the elements at constant subscripts that `proc` reads
        of its one-dimensional array formals and never writes (`DGEMQR.T_2`, sad.analysis.values' element rule,
        registered once its build met them): the element read is the one each call passes, which the call
        binds (ValueResolver.passed_elements), as it binds a formal."""
        if proc.name not in self._read_elements:  # the routine's statements scanned once, not at every call
            self._read_elements[proc.name] = [
                (pos, offset, f"{key}_{offset}") for pos, formal in enumerate(proc.formals)
                if not (self.definitions.get(key := self.storage_name(proc, formal)) or self.element_writes.get(key)
                        or key in self.opaque_arrays)
                for offset in passedelements.read_offsets(proc, formal)]
        return [(pos, offset, symbol) for pos, offset, name in self._read_elements[proc.name]
                if (symbol := table.symbol(name)) is not None]

    def storage_name(self, proc: ir.Procedure, var: str) -> str:
        """The program-wide name of a variable: COMMON and globals by canonical name, main-program
        variables bare, locals and formals of other procedures qualified PROC.VAR."""
        if (proc.name, var) in self.common_names:
            return self.common_names[(proc.name, var)]
        decl = proc.variables.get(var)
        if decl is None and var in self.program.globals:
            return var
        if decl is not None and decl.storage in ("global",):
            return var
        if proc.kind == "program" or (proc.language == "c" and proc.name == "main"):
            return var
        return f"{proc.name}.{var}"

    def _collect_definitions(self, proc: ir.Procedure, modified: ModifiedFormals) -> None:
        for name, decl in proc.variables.items():
            key = self.storage_name(proc, name)
            if decl.storage in ("parameter", "const") and decl.value is not None:
                self.definitions[key].append(Definition("parameter", decl.loc, decl.value, proc.name))
            elif decl.data:
                if decl.dims is None:
                    self.definitions[key].append(Definition("data", decl.loc, decl.data[0], proc.name))
        for stmt in ir.walk_stmts(proc.body):
            for var, definition in _defs_of(stmt, proc, modified):
                definition.stmt = stmt
                self.definitions[self.storage_name(proc, var)].append(definition)
            self._collect_element_writes(stmt, proc, modified)

    def _collect_element_writes(self, stmt: ir.Stmt, proc: ir.Procedure, modified: ModifiedFormals) -> None:
        if isinstance(stmt, ir.Assign) and isinstance(stmt.target, ir.ArrayRef) and stmt.target.indices:
            key = self.storage_name(proc, stmt.target.name)
            self.element_writes[key].append((Definition("assign", stmt.loc, stmt.value, proc.name),
                                             list(stmt.target.indices)))
        elif isinstance(stmt, ir.IO):
            for target in stmt.targets:
                if isinstance(target, ir.ArrayRef):
                    self.opaque_arrays.add(self.storage_name(proc, target.name))
        elif isinstance(stmt, (ir.CallStmt, ir.Message)):
            for pos, arg in enumerate(stmt.args):
                if isinstance(arg, ir.ArrayRef) and arg.indices and modified.may_modify(stmt.name, pos):
                    self.opaque_arrays.add(self.storage_name(proc, arg.name))


@dataclass
class Place:
    """Where a statement sits in its routine: its order, the loops around it, the statement lists it is
    in, the innermost arm around it that ends the routine (RETURN/STOP), if any, and the arms of IFs
    around it (IF, arm's position)."""
    order: int
    loops: frozenset[int]
    lists: frozenset[int]
    returning_arm: int | None
    backward_jumps: bool
    arms: frozenset[tuple[int, int]] = frozenset()

    def apart_from(self, other: Place) -> bool:
        """Whether the two statements sit in different arms of one IF with no loop around both: one never
        runs after the other (where no jump goes back)."""
        if self.loops & other.loops:
            return False
        ifs = dict(self.arms)
        return any(ifs.get(stmt, arm) != arm for stmt, arm in other.arms)


def _places_of(proc: ir.Procedure) -> dict[int, Place]:
    labels: dict[str, int] = {}
    Arms = frozenset[tuple[int, int]]
    flat: list[tuple[ir.Stmt, frozenset[int], frozenset[int], int | None, Arms]] = []
    # statements, loops, lists, returning arm, IF arms
    Frame = tuple[list[ir.Stmt], frozenset[int], frozenset[int], int | None, Arms]
    stack: list[Frame] = [(proc.body, frozenset(), frozenset(), None, frozenset())]
    while stack:  # depth first, in source order
        stmts, loops, lists, arm, arms = stack.pop()
        ends = bool(stmts) and isinstance(stmts[-1], (ir.Return, ir.Stop))
        here_lists = lists | {id(stmts)}
        here_arm = id(stmts) if ends and stmts is not proc.body else arm
        pending: list[Frame] = []
        for stmt in stmts:
            flat.append((stmt, loops, here_lists, here_arm, arms))
            inner_loops = loops | {id(stmt)} if isinstance(stmt, (ir.Do, ir.While)) else loops
            pending.extend((body, inner_loops, here_lists, here_arm,
                            arms | {(id(stmt), k)} if isinstance(stmt, ir.If) else arms)
                           for k, body in enumerate(ir.child_bodies(stmt)))
        stack.extend(reversed(pending))
    # source order is the order of a depth-first walk, not of the lines: the statements a frontend invents
    # (C's continue and break targets, a for loop's increment) carry the loop's line but stand at its end
    order = {id(stmt): k for k, stmt in enumerate(ir.walk_stmts(proc.body))}
    for stmt, *_rest in flat:
        if stmt.label is not None:
            labels.setdefault(stmt.label, order[id(stmt)])
    backward = any(_jumps_back(stmt, labels, order[id(stmt)]) for stmt, *_rest in flat)
    return {id(stmt): Place(order[id(stmt)], loops, lists, arm, backward, arms)
            for stmt, loops, lists, arm, arms in flat}


_NOWHERE = 1 << 30   # the place of a label the routine does not have: after every statement


def _jumps_back(stmt: ir.Stmt, labels: dict[str, int], here: int) -> bool:
    """Whether a jump may go to this statement or an earlier one: a GOTO, computed GOTO (C's switch) or
    arithmetic IF with such a target, an assigned GOTO always (its targets are not all listed)."""
    if isinstance(stmt, ir.AssignedGoto):
        return True
    if isinstance(stmt, (ir.Goto, ir.ComputedGoto, ir.ArithmeticIf)):
        return any(labels.get(target, _NOWHERE) <= here for target in ir.jump_targets(stmt))
    return False


def _statements_with_loops(stmts: list[ir.Stmt], looped: bool = False):
    """Every statement with whether a loop encloses it."""
    for stmt in stmts:
        yield stmt, looped
        inner = looped or isinstance(stmt, (ir.Do, ir.While))
        for body in ir.child_bodies(stmt):
            yield from _statements_with_loops(body, inner)


def _called_names(stmt: ir.Stmt) -> list[str]:
    """The routines a statement calls (a CALL, function references in its expressions)."""
    names = [stmt.name] if isinstance(stmt, ir.CallStmt) else []
    exprs = list(stmt.args) if isinstance(stmt, ir.CallStmt) else _exprs_of(stmt)
    if isinstance(stmt, ir.IO):
        exprs += list(stmt.items)
    if isinstance(stmt, ir.Return) and stmt.value is not None:
        exprs.append(stmt.value)
    return names + [call.name for e in exprs for call in _user_calls(e)]


def _top_level(facts: ProgramFacts, d: Definition) -> bool:
    """Whether a definition's statement is in its routine's own statement list (not under an IF or loop)."""
    proc = next((p for p in facts.program.procedures if p.name == d.procedure), None)
    return proc is not None and any(stmt is d.stmt for stmt in proc.body)


def _terminating_routines(program: ir.Program) -> set[str]:
    """Routines whose every path ends the program: no RETURN anywhere and a STOP (or a call to such a
    routine) as the last statement, like C's `void die(...) { ...; exit(1); }`."""
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for proc in program.procedures:
            key = resolve_name(proc.name)
            if key in found or proc.kind == "program" or not proc.body:
                continue
            if any(isinstance(s, ir.Return) for s in ir.walk_stmts(proc.body)):
                continue
            last = proc.body[-1]
            if isinstance(last, ir.Stop) or (isinstance(last, ir.CallStmt) and resolve_name(last.name) in found):
                found.add(key)
                changed = True
    return found


def _defs_of(stmt: ir.Stmt, proc: ir.Procedure, modified: ModifiedFormals):
    """(variable, Definition) pairs for the scalar variables a statement may write."""
    if isinstance(stmt, ir.Assign) and isinstance(stmt.target, ir.Var):
        yield stmt.target.name, Definition("assign", stmt.loc, stmt.value, proc.name)
    elif isinstance(stmt, ir.Assign) and isinstance(stmt.target, ir.ArrayRef) and not stmt.target.indices:
        yield stmt.target.name, Definition("call", stmt.loc, None, proc.name)  # *p = ...: through a pointer
    elif isinstance(stmt, ir.Do):
        yield stmt.index, Definition("index", stmt.loc, None, proc.name)
    elif isinstance(stmt, ir.IO):
        for target in stmt.targets:
            if isinstance(target, ir.Var):
                yield target.name, Definition("read", stmt.loc, None, proc.name)
    elif isinstance(stmt, ir.AssignLabel):
        yield stmt.var, Definition("assign", stmt.loc, None, proc.name)
    elif isinstance(stmt, ir.Message):
        yield from _message_defs(stmt, proc)
    elif isinstance(stmt, ir.CallStmt):
        for pos, arg in enumerate(stmt.args):
            var = _passed_variable(arg)
            if var is not None and modified.may_modify(stmt.name, pos):
                yield var, Definition("call", stmt.loc, None, proc.name)
    for expr in _exprs_of(stmt):
        for call in _user_calls(expr):
            for pos, arg in enumerate(call.args):
                var = _passed_variable(arg)  # `ret = posix_memalign((void **)&p, ...)` writes p
                if var is not None and modified.may_modify(call.name, pos):
                    yield var, Definition("call", stmt.loc, None, proc.name, in_expression=True)


def _passed_variable(arg: ir.Expr) -> str | None:
    """The scalar variable an argument lets the callee write: `X` (Fortran, by reference), `&x`, `(void **)&p`."""
    if isinstance(arg, ir.Var):
        return arg.name
    while isinstance(arg, ir.Cast):  # a cast of the address only: `(int)x` passes a copy
        arg = arg.operand
    if isinstance(arg, ir.UnOp) and arg.op == "addr" and isinstance(arg.operand, ir.Var):
        return arg.operand.name
    return None


_SEND_BUFFER = {"send", "isend", "gather", "scatter", "allgather", "alltoall", "reduce", "allreduce", "scan",
                "reduce_scatter"}
"""Primitives whose first argument is only read (the data sent)."""
_RECEIVED = {"recv": 0, "irecv": 0, "unpack": 1}
"""Primitives whose buffer argument (position) receives data: a scalar there is a run-time value."""


def _message_defs(stmt: ir.Message, proc: ir.Procedure):
    """What a message-passing call writes: the process count and rank it reports (as `nprocs`, `rank`,
    `ntasks` definitions, backtraced to NPROCS and RANK), and its output arguments. Counts, datatypes,
    partners, communicators and the data sent are only read; a broadcast buffer keeps its (root's) value."""
    spec = msgcalls.mpi_spec(stmt.name) or msgcalls.pvm_spec(stmt.name)
    comm = ir.Var(stmt.comm) if stmt.comm else None
    if spec is not None and spec.out == -1 and isinstance(stmt.result, ir.Var) and not stmt.problem:
        yield stmt.result.name, Definition(spec.sets, stmt.loc, comm, proc.name)
    reads: set[int] = set()
    if spec is not None and not stmt.problem:
        reads = {p for p in (spec.count, spec.datatype, spec.partner, spec.source, spec.comm) if p is not None}
        reads |= set(spec.no_def) | ({0} if spec.primitive in _SEND_BUFFER else set())
    for pos, arg in enumerate(stmt.args):
        if isinstance(arg, ir.UnOp) and arg.op == "addr":
            arg = arg.operand
        if not isinstance(arg, ir.Var) or pos in reads:
            continue
        if spec is not None and pos == spec.out and spec.sets and not stmt.problem:
            yield arg.name, Definition(spec.sets, stmt.loc, comm, proc.name)
        elif spec is not None and pos == _RECEIVED.get(spec.primitive) and not stmt.problem:
            yield arg.name, Definition("read", stmt.loc, None, proc.name)  # a value that came in a message
        else:
            yield arg.name, Definition("call", stmt.loc, None, proc.name)
    if isinstance(stmt.result, ir.Var) and (spec is None or spec.out != -1 or stmt.problem):
        yield stmt.result.name, Definition("call", stmt.loc, None, proc.name)


def _exprs_of(stmt: ir.Stmt) -> list[ir.Expr]:
    if isinstance(stmt, ir.Assign):
        return [stmt.value]
    if isinstance(stmt, ir.If):
        return [arm.cond for arm in stmt.arms]
    if isinstance(stmt, ir.Do):
        return [e for e in (stmt.lo, stmt.hi, stmt.step) if e is not None]
    if isinstance(stmt, ir.While) and stmt.cond is not None:
        return [stmt.cond]
    return []


def _user_calls(expr: ir.Expr):
    return (node for node in ir.walk(expr) if isinstance(node, ir.FuncCall) and not node.intrinsic)


class ModifiedFormals:
    """Which formal arguments a routine may write, directly or through the routines it calls.
    Unknown routines may write any argument (they are not ours to see)."""

    def __init__(self, facts: ProgramFacts) -> None:
        self.facts = facts
        self._memo: dict[str, set[int]] = {}
        self._active: set[str] = set()
        self._guess: dict[str, set[int]] = {}
        self._used: set[str] = set()  # routines still being worked out whose guess the current one took

    def may_modify(self, callee: str, pos: int) -> bool:
        """True when calling `callee` may change its argument at position `pos` (unknown callees may)."""
        proc = self.facts.procs.get(resolve_name(callee))
        if proc is None:
            if callee in libcalls.ROUTINES:  # memcpy(w, v, n * 8) leaves n alone: C passes it by value
                return pos in libcalls.ROUTINES[callee].writes
            return not callee.upper().startswith("MPI_") or pos == 0
        return pos in self._modified(proc)

    def _modified(self, proc: ir.Procedure) -> set[int]:
        """The positions of the formals `proc` may write: a cycle of calls (DGETRF2 calling itself, DLAQZ0
        and DLAQZ3 calling each other) grown from nothing to its fixpoint, where a routine met again on the
        way takes its guess so far; what depended on the guess of a routine further out is worked out
        again with that routine, and remembered only once it no longer depends on one."""
        name = proc.name
        if name in self._memo:
            return self._memo[name]
        if name in self._active:
            self._used.add(name)
            return self._guess.get(name, set())
        self._active.add(name)
        outer = self._used
        while True:
            self._used = set()
            written: set[str] = set()
            for stmt in ir.walk_stmts(proc.body):
                written.update(var for var, _ in _defs_of(stmt, proc, self))
            result = {pos for pos, n in enumerate(proc.formals) if n in written}
            settled = name not in self._used or result == self._guess.get(name)
            self._guess[name] = result
            if settled:
                break
        self._active.discard(name)
        further = self._used - {name}
        if not further:
            self._memo[name] = result
        self._used = outer | further
        return result


@lru_cache(maxsize=4096)
def _as_datums(value: sympy.Expr, symbols: tuple[sympy.Symbol, ...]) -> sympy.Expr:
    """`value` with each of `symbols` replaced by the datum of its name (sad.analysis.genericdata), once per
    process for each value: a value that every test on it meets again (DLAED6's secular equation, 12 000
    characters) is not walked again."""
    return value.xreplace({s: genericdata.formal_datum(s.name) for s in symbols})


class ValueResolver(ir.NodeVisitor):
    """Turns IR expressions of one procedure into sympy, registering the parameters it meets: a
    value-returning visitor (`visit_<Kind>(node, index, depth)`); kinds it has no rule for are Unresolvable."""

    def __init__(self, facts: ProgramFacts, proc: ir.Procedure, table: ParameterTable,
                 overrides: dict[str, sympy.Expr] | None = None, activation: bool = False) -> None:
        self.facts = facts
        self.proc = proc
        self.table = table
        self.overrides = overrides or {}
        # one activation of a recursive routine (sad.analysis.recursion): its formals are its arguments'
        # values in that activation, as any routine's are in each call
        self.activation = activation
        self._loose = False  # inside bound(): a loop bound may stand for its value at loop entry
        self._at: ir.Stmt | None = None
        self._use: ir.Stmt | None = None  # the statement whose value is asked (conditional assignments)
        self._call: ir.Stmt | None = None  # the call whose argument is asked (its own write does not count)
        # (storage name, statement, value): the variable as read by that statement has that value (an update
        # of a variable from its own value in a symbolic run, `_updated`)
        self._pinned: tuple[str, ir.Stmt, sympy.Expr] | None = None

    # ------------------------------------------------------------------ expressions
    def expr(self, node: ir.Expr | None, index: dict[str, sympy.Symbol], depth: int = 0) -> sympy.Expr | None:
        """The value of `node` as a formula in the program's inputs, or None when it cannot be traced."""
        if self.facts.reach.past(depth, _MAX_DEPTH):
            return Unresolvable
        return self.visit(node, index, depth)

    def generic_visit(self, node: ir.Node, index, depth):
        """None: a node kind without a value rule cannot be traced."""
        return Unresolvable

    def bound(self, node: ir.Expr, index: dict[str, sympy.Symbol], at: ir.Stmt | None = None) -> sympy.Expr | None:
        """A loop bound: evaluated once when the loop is entered, so a variable assigned in several
        places may stand for its value at that moment, as a run-time value parameter. With `at` (the
        loop), calls that cannot reach the loop's entry do not count as definitions."""
        self._loose, self._at = True, at
        try:
            return self.expr(node, index)
        finally:
            self._loose, self._at = False, None

    def argument(self, node: ir.Expr, call: ir.Stmt, index: dict[str, sympy.Symbol]) -> sympy.Expr | None:
        """An actual argument's value as `call` passes it: before the call, so that what the callee may
        write through it (passing it on to a routine not in the analyzed files) counts only where a loop
        or a jump carries it back to the call. Only that: a variable assigned in several places is not
        followed to the call (the Piecewise of its values there made SLSQP's sums four times slower)."""
        outer, self._call = self._call, call
        try:
            return self.expr(node, index)
        finally:
            self._call = outer

    def within(self, value: sympy.Expr, at: ir.Stmt, index: dict[str, sympy.Symbol]) -> sympy.Expr:
        """A value's choices as the IFs on the way to the statement `at` leave them (sad.analysis.callsite); a
        value that is no choice as it stands."""
        if not isinstance(value, sympy.Piecewise):
            return value
        return callsite.within(value, self.proc.body, at, lambda cond, stmt: self.expr_at(cond, stmt, index))

    def expr_at(self, node: ir.Expr | None, stmt: ir.Stmt | None, index: dict[str, sympy.Symbol],
                depth: int = 0) -> sympy.Expr | None:
        """An expression's value just before `stmt` runs (what a variable assigned in several places,
        through IFs, holds there: sad.analysis.conditional)."""
        outer, self._use = self._use, stmt
        try:
            with self.noting_at(stmt.loc if stmt is not None else None):
                return self.expr(node, index, depth)
        finally:
            self._use = outer

    def _known_signs(self, symbols: set, depth: int) -> dict:
        """Stand-ins of known sign for symbols that cannot be negative although their symbols say nothing
        of it: the rank (≥ 0), process counts (≥ 1), DO indices whose least value is non-negative."""
        known: dict = {}
        for s in sorted(symbols, key=lambda s: s.name):
            if s.name == "RANK" or s.name.startswith("NPROCS"):
                known[s] = sympy.Dummy(integer=True, nonnegative=True) + int(s.name != "RANK")
            elif s in self.facts.index_lower and depth < 8:
                lower = self.facts.index_lower[s]
                if lower.xreplace(self._known_signs(lower.free_symbols, depth + 1)).is_nonnegative:
                    known[s] = sympy.Dummy(integer=True, nonnegative=True)
        return known

    @contextmanager
    def noting_at(self, loc: ir.Loc | None):
        """Values evaluated inside belong to the statement at `loc` (where an assumption is noted)."""
        outer = self.facts.at_loc
        self.facts.at_loc = loc or outer
        try:
            yield
        finally:
            self.facts.at_loc = outer

    def _note_sign(self, op: str, a, b) -> None:
        """Remember a quotient or remainder resolved by taking operands of unknown sign as non-negative."""
        known = self._known_signs(sympy.sympify(a).free_symbols | sympy.sympify(b).free_symbols, 0)
        if _sign_assumed(op, sympy.sympify(a).xreplace(known), sympy.sympify(b).xreplace(known)):
            shown = f"{_operand(a)}/{_operand(b)}" if op == "div" else \
                f"{_operand(a)} % {_operand(b)}" if self.proc.language == "c" else f"MOD({a}, {b})"
            self.facts.sign_assumed.setdefault((self.facts.at_loc, shown), None)

    def visit_Ternary(self, node: ir.Ternary, index, depth):
        """C's `c ? a : b`: a Piecewise (Min/Max when it compares a and b)."""
        cond = self.expr(node.cond, index, depth + 1)
        then = self.expr(node.then, index, depth + 1)
        orelse = self.expr(node.orelse, index, depth + 1)
        if cond is None or then is None or orelse is None or not conditional.is_condition(cond):
            return None
        try:
            return conditional.choose([(then, cond), (orelse, sympy.true)])
        except conditional.Unknown:
            return None

    def visit_Const(self, node: ir.Const, index, depth):
        """A logical, integer, character (sad.analysis.characters) or (exact rational) real constant; other
        constants are not traced."""
        value = node.value
        if isinstance(value, str) and node.type == "character":
            return characters.code(value)
        if isinstance(value, bool):
            return sympy.true if value else sympy.false
        if isinstance(value, int):
            return sympy.Integer(value)
        if isinstance(value, float):
            return sympy.Rational(repr(value)) if abs(value) < 1e15 else sympy.Float(value)
        return Unresolvable

    def visit_Var(self, node: ir.Var, index, depth):
        """A loop index's symbol, else the variable's traced value (frontend temporaries only for SPMD sizes)."""
        if node.name in index:
            return index[node.name]
        if node.name.startswith("."):  # a temporary the frontend invented (a status, not data) ...
            defs = self.facts.definitions.get(self.facts.storage_name(self.proc, node.name), [])
            if len(defs) == 1 and defs[0].kind in SPMD_DEFINITIONS:  # ... or a PVM group size / instance
                return self._spmd_value(node.name, defs[0], True)
            return None
        return self.variable(node.name, node.type, depth, index)

    def visit_ArrayRef(self, node: ir.ArrayRef, index, depth):
        """An array element's traced value, or a pointer formal's value (`*n` in C); None otherwise."""
        # `*n` on a pointer argument is how C reads a scalar passed by reference (Fortran's convention):
        # its value is the argument's value at the call.
        decl = self.proc.variables.get(node.name)
        if node.indices and decl is not None and decl.dims:
            return self.element(node, decl, index, depth)
        if node.indices or decl is None or decl.storage != "formal":
            return None
        return self.variable(node.name, node.type, depth)

    def element(self, node: ir.ArrayRef, decl: ir.Variable, index, depth: int):
        """An array element with constant subscripts (`DO I = 1, GP(1) - 2`): its one assignment or DATA
        value; where that cannot be told (several assignments, a READ, a call that may write it), a named
        run-time value `ARRAY_i_j` the user can bind, rather than an anonymous loop count."""
        subscripts = [self.expr(i, index, depth + 1) for i in node.indices]
        if not all(s is not None and s.is_Integer for s in subscripts):
            return None
        key = self.facts.storage_name(self.proc, node.name)
        name = key + "".join(f"_{int(s)}".replace("-", "m") for s in subscripts if s is not None)
        integer = node.type == "integer"
        runtime = self.facts.opaque_arrays.__contains__(key) or any(
            d.kind in ("read", "call") for d in self.facts.definitions.get(key, []))
        found: list[tuple[str, ir.Loc | None, ir.Expr | None, str]] = []
        for definition, indices in [] if runtime else self.facts.element_writes.get(key, []):
            owner = self.facts.procs.get(resolve_name(definition.procedure), self.proc)
            resolver = self if owner is self.proc else ValueResolver(self.facts, owner, self.table, self.overrides)
            where = [resolver.expr(i, {}, depth + 1) for i in indices]
            if not all(w is not None and w.is_Integer for w in where):
                runtime = True  # written through a subscript we cannot follow: it may be this element
                break
            if where == subscripts:
                found.append(("assign", definition.loc, definition.value, definition.procedure))
        initial = _data_element(decl, subscripts, self.proc.language)
        if initial is not None and not runtime:
            found.append(("data", decl.loc, initial, self.proc.name))
        left = self._left_by_call(node, decl, subscripts, index, depth)
        if left is not None:
            return left if left is not conditional.CLOBBERED else \
                self._register(name, "unresolved", integer, decl.loc, "array element set at run time", None)
        if runtime or len(found) != 1:
            if len(found) > 1 and not self._loose:
                return None
            what = "array element set at run time" if runtime or not found else \
                f"array element: run-time value ({len(found)} definitions)"
            return self._register(name, "unresolved", integer, decl.loc, what, None)
        kind, loc, value_node, procedure = found[0]
        owner = self.facts.procs.get(resolve_name(procedure), self.proc)
        resolver = self if owner is self.proc else ValueResolver(self.facts, owner, self.table, self.overrides)
        with self.noting_at(loc):
            value = resolver.expr(value_node, {}, depth + 1)
        if value is None:
            return self._register(name, "unresolved", integer, loc, "array element set at run time", None,
                                  procedure) if self._loose else None
        what = "DATA/initial value of an array element" if kind == "data" else "assignment to an array element"
        return self._register(name, "direct" if kind == "data" else "indirect", integer, loc, what, value,
                              procedure)

    def _left_by_call(self, node: ir.ArrayRef, decl: ir.Variable, subscripts: list, index, depth: int):
        """An element of a one-dimensional array read after a call that was passed the whole array (DGETSLS'
        `TSZO = INT(TQ(1))` after its workspace query `CALL DGEQR(..., TQ, -1, ...)`): what that call left
        there (`_passed_element`), or CLOBBERED where that cannot be told (the value before the call is no longer
        the one read: DSTEBZ's `IWORK(6) = IU` before DLAEBZ reorders it); None where no call passing the array
        comes straight before the statement evaluated."""
        use = self._use if self._use is not None else self._at
        if use is None or len(subscripts) != 1 or not passedelements.one_dimensional(self.proc, node.name, True):
            return None
        whole = ir.Var(node.name, type=decl.type)
        call = _call_before(self.proc, use, whole, None)
        if call is None:
            return None
        value = self._passed_element(use, whole, int(subscripts[0]), index, depth, call)
        return conditional.CLOBBERED if value is None else value

    def visit_Cast(self, node: ir.Cast, index, depth):
        """The operand's value, floored when converted from a real to an integer."""
        inner = self.expr(node.operand, index, depth + 1)
        if inner is None:
            return None
        if node.type == "integer" and node.operand.type != "integer":
            return sympy.floor(inner)
        return inner

    def visit_UnOp(self, node: ir.UnOp, index, depth):
        """The negation or logical not of the operand's value (`&n` passes n's value); None for other operators."""
        inner = self.expr(node.operand, index, depth + 1)
        if inner is None:
            return None
        if node.op == "addr" and isinstance(node.operand, ir.Var):
            return inner  # &n passed to a Fortran routine: by reference, the value is n's
        if node.op == "neg":
            return -inner
        if node.op == "not" and isinstance(inner, sympy.logic.boolalg.Boolean):
            return sympy.Not(inner)
        return None

    def visit_BinOp(self, node: ir.BinOp, index, depth):
        """The operation applied to both operands' values, or None if either is unknown or it cannot be formed."""
        left = self.expr(node.left, index, depth + 1)
        right = self.expr(node.right, index, depth + 1)
        if node.op in ("and", "or") and (left is None) != (right is None):
            known = left if left is not None else right  # .FALSE. .AND. anything is false, whatever it is
            if known is (sympy.false if node.op == "and" else sympy.true):
                return known
        if node.op in ("and", "or") and left is None and right is None and self.facts.generic_data:
            return self._jointly(node, index, depth)
        if node.op in genericdata.RELATIONS and self.facts.generic_data:
            as_data = [self._as_data(v, side) for v, side in ((left, node.left), (right, node.right))]
            if left is None or right is None or as_data[0] is not left or as_data[1] is not right:
                decided = self._generic(node, as_data[0], as_data[1], index)
                if decided is not None or left is None or right is None:
                    return decided
                # undecided on named run-time values (an element X_1 the user can bind): their relation
        if left is None or right is None:
            return None
        if node.op == "concat":
            return self._concatenated(node, left, right)
        if (node.op == "div" and node.type == "integer") or node.op == "mod":
            self._note_sign(node.op, left, right)
        if "character" in (node.left.type, node.right.type) and node.op not in ("eq", "ne"):
            return None  # a lexical order of strings (blank-padded) is not the order of their numbers
        try:
            value = _combine(node, left, right)
        except (TypeError, ValueError, ZeroDivisionError):
            return None
        if value is None and node.op in genericdata.RELATIONS and left.is_Number and right.is_Number \
                and self._copied(node.left, depth) and self._copied(node.right, depth):
            return sympy.true if genericdata.RELATIONS[node.op](left, right) is sympy.true else sympy.false
        return value

    def _concatenated(self, node: ir.BinOp, left, right) -> sympy.Expr | None:
        """`A // B` (DTRTRI's `UPLO // DIAG` for ILAENV's options): the left one padded to its length, which
        must be known (a code drops trailing blanks), then the right one; a reference until both are known."""
        width = self._length(node.left)
        return characters.concatenated(left, right, width) if width is not None else None

    def _length(self, node: ir.Expr) -> int | None:
        """A character expression's length where the source fixes it: a literal's, a variable's declared
        one, the sum of a concatenation's parts."""
        if isinstance(node, ir.Const) and isinstance(node.value, str):
            return len(node.value)
        if isinstance(node, ir.Var):
            decl = self.proc.variables.get(node.name)
            return decl.length if decl is not None and decl.type == "character" else None
        if isinstance(node, ir.BinOp) and node.op == "concat":
            parts = (self._length(node.left), self._length(node.right))
            return parts[0] + parts[1] if parts[0] is not None and parts[1] is not None else None
        return None

    def left_by_call(self, node: ir.Expr, at: ir.Stmt | None, index) -> sympy.Expr | None:
        """What the nearest earlier call left in a floating variable or element `node` that `at` uses, where
        that call comes straight before (same statement list, or one an IF arm is in; no label between, nothing
        else writing it): the callee's value of that argument where it returns (DLARFG's TAU: ZERO where its
        N <= 1, else data), bound to the call's arguments, a choice of known values and data (datums of
        sad.analysis.genericdata: for deciding tests, never a value of the SAD). None otherwise."""
        if at is None or not isinstance(node, (ir.Var, ir.ArrayRef)) or not genericdata.floating(node.type):
            return None
        call = _call_before(self.proc, at, node, self.facts.modified)
        if call is None:
            return None
        memo_key = (id(call), repr(node), tuple(sorted(index.items(), key=lambda kv: kv[0])))
        if memo_key not in self.facts.evaluated:
            pos = _written_at(call, node, self.facts.modified)
            self.facts.evaluated[memo_key] = self._left_in(call, pos, index) if pos is not None else None
        return self.facts.evaluated[memo_key]

    def _left_in(self, call: ir.CallStmt, pos: int, index) -> sympy.Expr | None:
        callee = self.facts.procs.get(resolve_name(call.name))
        if callee is None or callee.kind != "subroutine" or resolve_name(callee.name) in self.facts.recursive \
                or pos >= len(callee.formals):
            return None
        formal = callee.formals[pos]
        decl = callee.variables.get(formal)
        if decl is None or decl.dims or not genericdata.floating(decl.type):
            return None
        resolver = ValueResolver(self.facts, callee, self.table, self.overrides)
        value = resolver._followed(formal, None, f"{call.loc}", at_exit=True)
        if value is None:
            return None
        return self._with_actuals(callee, value, self._passed_or_data(call.args, call, index))

    def _passed_or_data(self, args: list[ir.Expr], at: ir.Stmt, index
                        ) -> Callable[[int, ir.Variable | None], sympy.Expr | None]:
        """The value a call passes at a position, or a datum where an untraced floating value is passed
        (`_with_actuals`'s `actual`, for what the callee leaves or returns in generic-data terms)."""
        def actual(p: int, decl: ir.Variable | None) -> sympy.Expr | None:
            passed = self.argument(args[p], at, index) if p < len(args) else None
            if passed is None and p < len(args) and decl is not None and genericdata.floating(decl.type):
                return genericdata.datum(args[p])
            return passed
        return actual

    def _data_step(self, d: Definition, where: str):
        """A definition's value for `left_by_call` and `_with_data`: traced, what a function of the program
        returns for the call's arguments, or a datum where it is data."""
        def step(stmt: ir.Stmt, before: sympy.Expr) -> sympy.Expr | None:
            value = self._at_statement(d.value, stmt, 1) if d.value is not None else None
            if value is None and isinstance(d.value, ir.FuncCall):
                value = self._returned(d.value, stmt)
            if value is None and d.value is not None:
                return genericdata.datum(d.value, where)
            return value
        return step

    def _returned(self, node: ir.FuncCall, at: ir.Stmt) -> sympy.Expr | None:
        """What a floating function of the program returns for a call's arguments where that is a choice of
        a known value and data: DNRM2 is ZERO where its N <= 0, so DLARFGP's `XNORM = DNRM2(N-1, X, INCX)`
        is ZERO at N = 1 (its last call in DGEQR2P), where `XNORM.EQ.ZERO` holds; as data alone it was
        decided false. None where the result is data alone, or cannot be followed."""
        callee = self.facts.procs.get(resolve_name(node.name))
        if node.intrinsic or callee is None or callee.kind != "function" or not genericdata.floating(node.type) \
                or resolve_name(callee.name) in self.facts.recursive:
            return None
        key = (id(node), id(at), "returned")
        if key not in self.facts.evaluated:
            resolver = ValueResolver(self.facts, callee, self.table, self.overrides)
            value = resolver._followed(result_variable(callee.name, callee.variables), None, f"{at.loc}",
                                       at_exit=True)
            known = isinstance(value, sympy.Piecewise) and any(v.is_Number for v, _ in value.args)
            self.facts.evaluated[key] = self._with_actuals(callee, value, self._passed_or_data(node.args, at, {})) \
                if known else None
        return self.facts.evaluated[key]

    def _with_data(self, side: ir.Expr) -> sympy.Expr | None:
        """An untraced floating variable of this routine at the test being evaluated, as a choice of known
        values and data (datums): DTRMM's `TEMP = ALPHA; IF (NOUNIT) TEMP = TEMP*A(K,K)` before `IF
        (TEMP.NE.ONE)` is ALPHA where DIAG is 'U', so that the test is ALPHA's, not data's (a DGEQRF driver
        calls it with 'Unit' and ONE: the scaling loop never runs). None where a definition is not an
        assignment of this routine, or the value cannot be followed."""
        use = self._use if self._use is not None else self._at
        if not isinstance(side, ir.Var) or use is None:
            return None
        return self._followed(side.name, use, "", at_exit=False)

    def _followed(self, name: str, use: ir.Stmt | None, where: str, at_exit: bool) -> sympy.Expr | None:
        """The value of this routine's variable `name` at `use` (at its exit with `at_exit`), followed through
        its assignments with untraced ones as data named at `where` (sad.analysis.conditional); None where a
        definition is not an assignment of this routine or the value depends on what it enters with."""
        defs = self.facts.definitions.get(self.facts.storage_name(self.proc, name), [])
        if not defs or any(d.kind != "assign" or d.procedure != self.proc.name or d.value is None for d in defs):
            return None
        # Asked again while it is being followed, the value has no answer here: a run starts its own depth
        # count, and DPBTF2's `IF (AJJ.LE.ZERO) GO TO 30` in the loop that sets AJJ asked for AJJ's value
        # at the test to find where the loop's index is left, and that again, without end.
        key = (id(self.proc), name, id(use), at_exit, where)
        if key in self.facts._following:
            return None
        self.facts._following.add(key)
        try:
            steps = {id(d.stmt): self._data_step(d, where) for d in defs}
            entry = sympy.Dummy("entry")
            value = conditional.value_at(self.proc, steps, use, entry, self._evaluator(0), name, at_exit=at_exit,
                                         terminating=self.facts.terminating)
        finally:
            self.facts._following.discard(key)
        return None if value is None or value.has(entry) else value

    def _as_data(self, value, node: ir.Expr):
        """A floating-point value with the run-time values in it (`runtime_element`) as data (datums of
        sad.analysis.genericdata): the same value where it has none."""
        if value is None or not genericdata.floating(node.type) or not isinstance(value, sympy.Basic):
            return value
        data = tuple(sorted((s for s in free_symbols(value) if self.runtime_element(s, node)), key=str))
        return _as_datums(value, data) if data else value

    def runtime_element(self, value, node: ir.Expr) -> bool:
        """Whether a floating-point value is computed from an array element the run sets (its named value
        `X_3`, or `ONE / A_1_1`) or from a variable it assigns in several places (named where a loop bound
        may stand for it): data, for the generic-data model."""
        if not isinstance(value, sympy.Expr) or not genericdata.floating(node.type):
            return False
        for symbol in value.free_symbols:
            param = self.table.get(symbol.name)
            if param is not None and param.cls == "unresolved" and (
                    param.description == "array element set at run time"
                    or param.description.startswith("run-time value")):
                return True
        return False

    def _generic(self, node: ir.BinOp, left, right, index) -> sympy.Basic | None:
        """A comparison with an untraced floating-point side (data), decided by the generic-data model
        (sad.analysis.genericdata) and remembered for the note at the statement evaluated; None where the
        model leaves it open or an untraced side is no floating-point value."""
        plain = self._data_sides(node, left, right, index)
        if plain is None:
            return None
        kind = node.left.type if genericdata.floating(node.left.type) else node.right.type
        if genericdata.decide(node.op, plain[0], plain[1], kind) is None:
            # open for data in general, so open whatever constants the program may store there besides
            # (a choice is decided only where every value decides it alike): not asked, which would tie the
            # routine's summary to what its callers store (an order of two data, DLASRT's D(I) > D(I-1))
            return None
        decided, held = self._held_outcome(None, [(node, node.op, plain, kind)], index)
        sides = held[0][1:3]
        if decided in (sympy.true, sympy.false) or (decided is not None and not any(map(by_element, sides))):
            self._decided_for_data(node, decided)  # a test by element is one of indices, not of data
        return decided

    def _data_sides(self, node: ir.BinOp, left, right, index) -> list[sympy.Expr] | None:
        """The two sides of a comparison with the untraced floating-point ones as data (datums; `_held_sides`
        makes them a choice of data and the constants the program may have stored there); None where an
        untraced side is no floating-point value."""
        sides = []
        for side, value in ((node.left, left), (node.right, right)):
            if value is None and not genericdata.floating(side.type):
                return None
            if value is None:
                value = self.left_by_call(side, self._use, index)
            if value is None:
                value = self._with_data(side)
            sides.append(value if value is not None else self._assigned_or_data(side))
        return sides

    def _assigned_or_data(self, side: ir.Expr) -> sympy.Expr:
        """An untraced side as data, or a choice of data and the constants this routine assigned it that
        may reach the test: DLATRS's TSCAL, ONE where TMAX <= BIGNUM and data elsewhere, is not followed
        there (a path of its own leaves it unset), and taken for data alone its `TSCAL.NE.ONE` was
        decided true, where the run, TMAX being ordinary, takes it false every time."""
        value = self._untraced(side)
        use = self._use if self._use is not None else self._at
        if not isinstance(side, ir.Var) or use is None:
            return value
        places = self.facts.places_of(self.proc)
        return genericdata.with_constants(value, self._assigned_constants(
            side.name, use, lambda d: d.stmt is not None and _ahead(self.proc, places, d.stmt, use)
            and not _refilled(self.proc, places, d.stmt, use, side.name)))

    def _held_outcome(self, join: str | None, plain: list[tuple[ir.BinOp, str, list[sympy.Expr], str]], index
                      ) -> tuple[sympy.Basic | None, list[tuple[str, sympy.Expr, sympy.Expr, str]]]:
        """A test of data decided with the constants stored where its sides read: one comparison (`join`
        None) or two joined by `join`, each (node, operator, its sides as data, kind); the outcome and the
        comparisons as decided. The journal notes the outcome (sad.analysis.heldtests), or, where a side is
        an element's choice by its array's rule, the constants themselves (the outcome is then one of
        indices, which `heldtests.outcome` does not rebuild)."""
        relations = [(op, *self._held_sides(node, sides, index, note=False), kind) for node, op, sides, kind in plain]
        decided = genericdata.decide(*relations[0]) if join is None else genericdata.decide_jointly(join, relations)
        spec = tuple((op, ((self._stored_name(node.left), sides[0]), (self._stored_name(node.right), sides[1])), kind)
                     for node, op, sides, kind in plain)
        stored = self._stored()
        if heldtests.held_relations(spec, lambda name: stored.of(self.proc, name, note=False)) == relations:
            self.facts.journal.note((heldtests.QUESTION, resolve_name(self.proc.name), join, spec), decided)
        else:  # by element: the constants themselves noted
            for name in sorted({name for _, pair, _ in spec for name, value in pair
                                if name is not None and genericdata.plain_datum(value)}):
                stored.of(self.proc, name)
        return decided, relations

    def _held_sides(self, node: ir.BinOp, sides: list[sympy.Expr], index, note: bool = True) -> list[sympy.Expr]:
        """The sides with each plain datum as the choice of it and the constants stored where it reads."""
        return [self.held_value(side, value, index, note) if genericdata.plain_datum(value)
                else value for side, value in zip((node.left, node.right), sides)]

    def held_value(self, side: ir.Expr, value: sympy.Expr, index, note: bool = True) -> sympy.Expr:
        """An untraced side as data, or a choice of data and the constants the program may have stored
        where it reads: by element where a rule tells which elements hold the constant (DLARFT's TAU(I):
        ZERO from the call's first element holding it on, sad.analysis.storedelements), else the whole
        array's choice (genericdata.Either)."""
        constants = self.stored_constants(side, note)
        if constants and isinstance(side, ir.ArrayRef) and genericdata.is_datum(value):
            per_element = self._per_element(side, value, constants, index)
            if per_element is not None:
                return per_element
        return genericdata.with_constants(value, constants)

    def _per_element(self, side: ir.ArrayRef, value: sympy.Expr, constants: frozenset, index
                     ) -> sympy.Expr | None:
        """The element's value where its array's rule covers every constant it may hold: the constant
        where the element's subscript is at least the rule's bound (at most it, for a rule "up to B"; a
        symbol each call binds), else data; None without such a rule."""
        rule = self.element_rules().read_rule(self.proc, side.name)
        if rule is None or not constants <= {rule.constant} or rule.axis >= len(side.indices):
            return None
        subscript = self.expr(side.indices[rule.axis], index)
        if subscript is None:
            return None
        decl = self.proc.variables.get(side.name)
        self._register(rule.bound.name, "unresolved", True, decl.loc if decl is not None else None,
                       "formal argument", None)
        return sympy.Piecewise((rule.constant, rule.holds(subscript)), (value, True))

    def element_rules(self) -> StoredElements:
        """The program's element rules (sad.analysis.storedelements), built on first use."""
        if self.facts.elements is None:
            self.facts.elements = StoredElements(
                self.facts.program, self.facts.procs,
                lambda proc: ValueResolver(self.facts, proc, self.table, self.overrides), self._stored(),
                self.facts._call_sites, self.facts.journal)
        return self.facts.elements

    def element_bindings(self, callee: ir.Procedure, args: list[ir.Expr], at: ir.Stmt, index
                         ) -> dict[sympy.Symbol, sympy.Expr]:
        """The callee's first-element symbols of its element rules, as this call passes them."""
        return self.element_rules().bindings(self.proc, callee, args, at, index)

    def passed_elements(self, callee: ir.Procedure, args: list[ir.Expr], at: ir.Stmt, index
                        ) -> dict[sympy.Symbol, sympy.Expr]:
        """The callee's run-time elements of its one-dimensional array formals (`DGEMQR.T_2`, for `MB =
        INT(T(2))`, `ProgramFacts.passed_element_symbols`) that this call tells: what the nearest earlier call
        passing the very same actual left in that element (sad.analysis.passedelements: DGEQR's `T(2) = MB`)."""
        found: dict[sympy.Symbol, sympy.Expr] = {}
        for pos, offset, symbol in self.facts.passed_element_symbols(callee, self.table):
            if pos < len(args):
                value = self._passed_element(at, args[pos], offset, index, 0)
                if value is not None:
                    found[symbol] = value
        return found

    def _passed_element(self, at: ir.Stmt, actual: ir.Expr, offset: int, index, depth: int,
                        call: ir.CallStmt | None = None) -> sympy.Expr | None:
        """Element `offset` of what the call `at` passes as `actual`, as the nearest earlier call passing the very
        same actual (`call`, where the asker found it already) left it, bound to that call's arguments (where that
        call leaves it as it came, what the call before it left); None where no such call comes straight before,
        or what it leaves is not known."""
        if depth >= _MAX_DEPTH // 4:
            return None
        if call is None:
            call = _call_before(self.proc, at, actual, None)
        pos = _written_at(call, actual, None) if isinstance(call, ir.CallStmt) else None
        callee = self.facts.procs.get(resolve_name(call.name)) if call is not None else None
        if call is None or pos is None or callee is None or callee.kind != "subroutine" \
                or pos >= len(callee.formals) or resolve_name(callee.name) in self.facts.recursive:
            return None
        value = self.left_in_element(callee, callee.formals[pos], offset)
        subs = self._actuals_of(callee, value, lambda p, _: self._passed_at(call, p, index)) \
            if value is not None else None
        inner = {symbol for _, _, symbol in self.facts.passed_element_symbols(callee, self.table)}
        if subs is not None and value is not None and inner & free_symbols(value):
            # what the callee stores from its own header (DGEMQR's workspace size from its T(3)), as this call
            # passes the header; none of the callee's symbols may stay in the caller's value
            passed = self.passed_elements(callee, call.args, call, index) if depth < _MAX_DEPTH // 4 else {}
            if not inner & free_symbols(value) <= passed.keys():
                return None
            subs.update(passed)
        try:  # bound first: DGEQR leaves T(2) as it came where its argument checks fail
            value = substitute(value, subs) if value is not None and subs is not None else None
        except Unbindable:  # its MOD(M - N, MB - N) at MB = N, in a test its guard keeps from running
            return None
        if value is None or not value.has(self.facts.entry_symbol):
            return value
        earlier = self._passed_element(call, actual, offset, index, depth + 1)
        if earlier is None and self._first_write(call, actual):
            # nothing was stored there before: a program reads only the paths that store it (DGETSLS reads
            # TQ(1) after the query of DGEQR, which stores it where its argument checks pass)
            earlier = conditional.UNDEFINED
        if earlier is None:
            return None
        value = conditional.defined(value.xreplace({self.facts.entry_symbol: earlier}))
        return None if value.has(conditional.UNDEFINED) else value

    def _passed_at(self, call: ir.CallStmt, pos: int, index) -> sympy.Expr | None:
        """Actual `pos` of `call` as the call passes it, its choices as the IFs on the way leave them: DGETSLS
        passes DGEQR its LW1, a choice of a run-time workspace size and of the query's, past `IF (INFO.NE.0)
        RETURN` the query's."""
        if pos >= len(call.args):
            return None
        value = self.argument(call.args[pos], call, index)
        if value is None and isinstance(call.args[pos], ir.Var):  # assigned in several places: its choice here
            value = self.expr_at(call.args[pos], call, index)
        return self.within(value, call, index) if value is not None else None

    def _first_write(self, call: ir.CallStmt, actual: ir.Expr) -> bool:
        """Whether `call` is the first statement to store anything in `actual`, a whole local array with no DATA
        that no statement assigns an element of and no call before `call` is passed."""
        if not isinstance(actual, ir.Var):
            return False
        name = actual.name
        decl = self.proc.variables.get(name)
        key = self.facts.storage_name(self.proc, name)
        if decl is None or decl.storage != "local" or decl.data or self.facts.element_writes.get(key) \
                or key in self.facts.opaque_arrays:
            return False
        places = self.facts.places_of(self.proc)
        here = places[id(call)].order if id(call) in places else -1
        return here >= 0 and not any(places[id(stmt)].order < here and passedelements.passes(stmt, name)
                                     for stmt in ir.walk_stmts(self.proc.body) if id(stmt) in places)

    def left_in_element(self, callee: ir.Procedure, formal: str, offset: int) -> sympy.Expr | None:
        """Element `offset` of `callee`'s one-dimensional array formal where it returns, as a formula in its
        formals and the value it came with (`facts.entry_symbol`), through the assignments to that element and
        the IFs around them (failure returns not taken); None where a statement may write it in a way no
        constant subscript tells."""
        memo_key = (callee.name, formal, offset)
        if memo_key not in self.facts.left_elements:
            self.facts.left_elements[memo_key] = self._left_element_once(callee, formal, offset)
        return self.facts.left_elements[memo_key]

    def _left_element_once(self, callee: ir.Procedure, formal: str, offset: int) -> sympy.Expr | None:
        writes = passedelements.writes_of(callee, formal) if passedelements.one_dimensional(callee, formal) else None
        if writes is None:
            return None
        resolver = ValueResolver(self.facts, callee, self.table, self.overrides, activation=True)
        steps: dict[int, Callable[[ir.Stmt, sympy.Expr], sympy.Expr | None]] = {}
        for write in writes:
            where = resolver._at_statement(write.where, write.stmt, 1)
            if where is None or not where.is_Integer:
                return None  # it may write this element: which one, no constant subscript tells
            if write.from_on and int(where) <= offset:  # a call given it (DGEQR's WORK, to DLATSQR): what it
                steps[id(write.stmt)] = _clobbers             # stores there is unknown, unless assigned after
            elif int(where) == offset and isinstance(write.stmt, ir.Assign):
                steps[id(write.stmt)] = resolver._element_step(write.stmt.value)
        if not steps:
            return self.facts.entry_symbol  # left as it came
        return conditional.value_at(callee, steps, None, self.facts.entry_symbol, resolver._evaluator(1), formal,
                                    at_exit=True, terminating=self.facts.terminating)

    def _element_step(self, node: ir.Expr) -> Callable[[ir.Stmt, sympy.Expr], sympy.Expr | None]:
        def step(stmt: ir.Stmt, before: sympy.Expr) -> sympy.Expr | None:
            return self._at_statement(node, stmt, 1)
        return step

    def _decided_for_data(self, node: ir.BinOp, decided: sympy.Basic) -> None:
        """Remembered for the note at the statement evaluated (--explain lists them)."""
        self.facts.generic_decided.setdefault((self.facts.at_loc, genericdata.shown(node, self.proc.language)),
                                              decided is sympy.true)

    def _jointly(self, node: ir.BinOp, index, depth: int) -> sympy.Basic | None:
        """`X.GT.ZERO .AND. X.LT.SMLNUM` (DGELS's test for a norm to scale up): neither comparison is decided
        alone (X's sign is unknown), together they ask for data below the ordinary magnitudes: decided for
        generic data where both sides are comparisons of one datum with numbers
        (genericdata.decide_jointly). None otherwise."""
        plain = []
        for side in (node.left, node.right):
            if not (isinstance(side, ir.BinOp) and side.op in genericdata.RELATIONS):
                return None
            values = [self._as_data(self.expr(part, index, depth + 1), part) for part in (side.left, side.right)]
            sides = self._data_sides(side, values[0], values[1], index)
            if sides is None:
                return None
            kind = side.left.type if genericdata.floating(side.left.type) else side.right.type
            plain.append((side, side.op, sides, kind))
        if genericdata.decide_jointly(node.op, [(op, *sides, kind) for _, op, sides, kind in plain]) is None:
            return None  # open for data, so open whatever constants may be stored there: not asked (_generic)
        decided, _ = self._held_outcome(node.op, plain, index)
        if decided is not None:
            self._decided_for_data(node, decided)
        return decided

    def stored_constants(self, side: ir.Expr, note: bool = True) -> frozenset:
        """The constants the program may have stored where `side` reads (a variable, an element, ABS of
        one; sad.analysis.storedconstants): DGEQRF's TAU holds ZERO where DLARFG's N <= 1."""
        name = self._stored_name(side)
        return frozenset() if name is None else self._stored().of(self.proc, name, note)

    @staticmethod
    def _stored_name(side: ir.Expr) -> str | None:
        """The variable or array whose storage `side` reads (through a conversion or ABS); None for none."""
        while isinstance(side, ir.Cast) or (isinstance(side, ir.FuncCall) and genericdata.nonnegative(side)):
            side = side.operand if isinstance(side, ir.Cast) else side.args[0]
        return side.name if isinstance(side, (ir.Var, ir.ArrayRef)) else None

    def _stored(self) -> StoredConstants:
        if self.facts.stored is None:
            self.facts.stored = StoredConstants(self.facts.program, self.facts.procs, self.facts.storage_name,
                                                self._exit_constants, self.facts.journal)
        return self.facts.stored

    def constants_reaching(self, node: ir.Expr, at: ir.Stmt) -> frozenset:
        """The constants this routine assigned a variable passed at `at` that may still be there (DLANGE's
        `SCALE = ZERO` before the loop whose calls of DLASSQ then pass what the last one left): where the
        value at the call is not traced, the callee's tests on it are decided only where those constants
        go the same way as data (sad.analysis.genericdata.Either)."""
        if not isinstance(node, ir.Var):
            return frozenset()
        return self._assigned_constants(node.name, at, lambda d: True)

    def _assigned_constants(self, name: str, at: ir.Stmt, counts: Callable[[Definition], bool]) -> frozenset:
        """The constants this routine assigns the variable `name` in assignments that may reach `at` and
        that `counts` keeps."""
        defs = self.facts.definitions.get(self.facts.storage_name(self.proc, name), [])
        found = (constant_of(d.value, self.proc) for d in defs if d.kind == "assign"
                 and d.procedure == self.proc.name and d.value is not None and self.facts.reaches(d, at, self.proc)
                 and counts(d))
        return frozenset(c for c in found if c is not None)

    def _exit_constants(self, proc: ir.Procedure, formal: str) -> frozenset | None:
        """The constants a routine may return in its scalar formal (its value at exit, with the tests that
        generic data decide false left out); None where the value cannot be followed."""
        resolver = ValueResolver(self.facts, proc, self.table, self.overrides)
        value = resolver._followed(formal, None, "exit of ", at_exit=True)
        if value is None:
            return None
        pieces = value.args if isinstance(value, sympy.Piecewise) else ((value, sympy.true),)
        return frozenset(v for v, cond in pieces if v.is_Number and cond is not sympy.false)

    def _untraced(self, side: ir.Expr) -> sympy.Expr:
        """The datum an untraced side stands for: non-negative for a variable of this routine whose every
        definition that may reach the test is non-negative data (DNRM2's `AX = ABS(X(IX))`,
        sad.analysis.genericdata)."""
        if isinstance(side, ir.Var):
            use = self._use if self._use is not None else self._at
            defs = [d for d in self.facts.definitions.get(self.facts.storage_name(self.proc, side.name), [])
                    if use is None or self.facts.reaches(d, use, self.proc)]  # DLASSQ's later AX = SCL*...
            if defs and all(d.kind == "assign" and d.procedure == self.proc.name
                            and genericdata.nonnegative(d.value) for d in defs):
                return sympy.Abs(genericdata.datum(side))
        return genericdata.datum(side)

    def _copied(self, node: ir.Expr, depth: int) -> bool:
        """Whether a value is a constant written in the source, or a variable whose every definition copies
        one (`RND = ONE`, DLAMCH's): no arithmetic, so no rounding that could make an equality fail in the
        program where exact arithmetic holds it."""
        if isinstance(node, ir.Const):
            return True
        if not isinstance(node, ir.Var) or self.facts.reach.past(depth, _MAX_DEPTH):
            return False
        defs = self.facts.definitions.get(self.facts.storage_name(self.proc, node.name), [])
        use = self._use if self._use is not None else self._at
        # only the assignments that may run before the use (not DNRM2's sums of huge values, never taken)
        defs = [d for d in defs if (use is None or self.facts.reaches(d, use, self.proc))
                and not self._never_runs(d, depth)]
        return bool(defs) and all(d.kind in ("parameter", "data", "assign") and d.value is not None
                                  and d.procedure == self.proc.name and self._copied(d.value, depth + 1)
                                  for d in defs)

    def _never_runs(self, d: Definition, depth: int) -> bool:
        """Whether an assignment of this routine sits in the arm of an IF whose condition is false wherever
        the IF stands (decided on constants, or on generic data: `IF (AX > TBIG)` with TBIG = 2**486), or in
        a later arm (or the ELSE) of one whose earlier arm is always taken (DLATRS's `IF (TMAX.LE.BIGNUM)
        THEN; TSCAL = ONE; ELSE ... TSCAL = ONE / (SMLNUM*TMAX)`: ONE, copied, on data)."""
        if d.kind != "assign" or d.stmt is None or d.procedure != self.proc.name:
            return False
        path = ir.path_to(self.proc.body, d.stmt) or []
        if any(self._jumped_over(stmts, k, depth) for stmts, k in path):
            return True
        for (stmts, k), (inner, _) in zip(path, path[1:]):
            stmt = stmts[k]
            if not isinstance(stmt, ir.If):
                continue
            taken = next((i for i, a in enumerate(stmt.arms) if a.body is inner),
                         len(stmt.arms) if stmt.orelse is inner else None)
            if taken is None:
                continue
            if taken < len(stmt.arms) and self._at_statement(stmt.arms[taken].cond, stmt, depth + 1) is sympy.false:
                return True
            if any(self._at_statement(a.cond, stmt, depth + 1) is sympy.true for a in stmt.arms[:taken]):
                return True
        return False

    def _jumped_over(self, stmts: list[ir.Stmt], k: int, depth: int) -> bool:
        """Whether stmts[k] is passed by a jump always taken: an earlier `IF (c) GO TO L` of its list, c true
        where it stands, L after it, and no label jumped to between them (Fortran 66's ELSE: `T = ONE; IF
        (TM.LE.BIGNUM) GO TO 40; T = ONE / TM; 40 ...`)."""
        jumps_to = nesting(self.proc).jumps_to
        for h in range(k, -1, -1):
            stmt = stmts[h]
            if h < k and isinstance(stmt, ir.If) and len(stmt.arms) == 1 and stmt.orelse is None \
                    and len(stmt.arms[0].body) == 1 and isinstance(stmt.arms[0].body[0], ir.Goto):
                target = stmt.arms[0].body[0].target
                if any(s.label == target for s in stmts[k + 1:]) \
                        and self._at_statement(stmt.arms[0].cond, stmt, depth + 1) is sympy.true:
                    return True
            if any(s.label is not None and s.label in jumps_to for s in (stmt, *nesting(self.proc).inside(stmt))):
                return False  # a way in past the earlier statements
        return False

    def visit_FuncCall(self, node: ir.FuncCall, index, depth):
        """An intrinsic applied to its arguments' values; LSAME of known characters, and a user function
        whose result is one formula of its arguments (`function_result`); None for other user functions."""
        if not node.intrinsic:
            if resolve_name(node.name) == "lsame" and len(node.args) == 2:
                a, b = (self.first_character(arg, index, depth) for arg in node.args)
                return characters.lsame(a, b) if a is not None and b is not None else None
            return self.function_result(node, index, depth)
        if node.name == "ICHAR" and len(node.args) == 1:
            return self.first_character(node.args[0], index, depth)
        if node.name in _MODEL_NUMBERS and len(node.args) == 1:
            return _model_number(node.name, node.args[0].type)  # of the argument's kind, not its value
        args = [self.expr(a, index, depth + 1) for a in node.args]
        if node.name in ("MIN", "MIN0", "MAX", "MAX0") and len(args) == 2 and args.count(None) == 1:
            return self._extreme_of_known(node, args, depth)
        if any(a is None for a in args) or not args:
            return None
        if node.name == "MOD" and len(args) == 2:
            self._note_sign("mod", args[0], args[1])
        return _intrinsic(node.name, args, node.args[0].type)

    def _extreme_of_known(self, node: ir.FuncCall, args: list, depth: int) -> sympy.Expr | None:
        """MIN(X, V) with X's value known and fixed in the routine (a formula in formals it never assigns)
        where V's every value is at least X's (`_beyond`): X. DLARFT's forward `J = MIN(LASTV, PREVLASTV)`,
        LASTV = N after its search loop, PREVLASTV a running maximum that starts at N. MAX(X, V) where V's
        every value is at most X's the same way: X (DLARFT's backward `J = MAX(LASTV, PREVLASTV)`, LASTV = 1,
        PREVLASTV a running minimum from 1). None otherwise."""
        k = args.index(None)
        other, known = node.args[k], args[1 - k]
        use = self._use if self._use is not None else (self._at if self._at is not None else self._call)
        if not isinstance(other, ir.Var) or use is None or not self._fixed(known):
            return None
        upward = node.name in ("MIN", "MIN0")
        return known if self._beyond(other.name, known, use, depth, frozenset(), upward) else None

    def _fixed(self, value: sympy.Expr) -> bool:
        """Whether a value is a formula in formals this routine never assigns (the same wherever it runs)."""
        fixed = {self.facts.storage_name(self.proc, f) for f in self.proc.formals
                 if not self.facts.definitions.get(self.facts.storage_name(self.proc, f))}
        return isinstance(value, sympy.Expr) and all(s.name in fixed for s in value.free_symbols)

    def _beyond(self, name: str, bound: sympy.Expr, use: ir.Stmt, depth: int, seen: frozenset,
                upward: bool = True) -> bool:
        """Whether an integer local may hold only values at least `bound` (fixed) at `use` (at most it, not
        `upward`): every definition that may reach it stores MAX of the variable itself and more (a running
        maximum: at least what it was, by induction from its first assignment; MIN, a running minimum, not
        `upward`), another local that holds such values there, a DO index that leaves such a value, or a
        value that is one."""
        decl = self.proc.variables.get(name)
        key = self.facts.storage_name(self.proc, name)
        defs = [d for d in self.facts.definitions.get(key, []) if self.facts.reaches(d, use, self.proc)]
        if decl is None or decl.storage != "local" or decl.type != "integer" or decl.dims or not defs \
                or name in seen or self.facts.reach.past(depth, _MAX_DEPTH):
            return False
        for d in defs:
            if d.procedure != self.proc.name or d.stmt is None:
                return False
            if d.kind == "index" and isinstance(d.stmt, ir.Do):
                held = self._index_after(d.stmt, depth + 1)
            elif d.kind == "assign" and isinstance(d.value, ir.FuncCall) \
                    and d.value.name in (("MAX", "MAX0") if upward else ("MIN", "MIN0")) \
                    and any(isinstance(a, ir.Var) and a.name == name for a in d.value.args):
                continue  # a running maximum (minimum)
            elif d.kind == "assign" and isinstance(d.value, ir.Var) and d.value.name in self.proc.variables \
                    and self.proc.variables[d.value.name].storage == "local":
                if self._beyond(d.value.name, bound, d.stmt, depth + 1, seen | {name}, upward):
                    continue
                return False
            elif d.kind == "assign" and d.value is not None:
                held = self._at_statement(d.value, d.stmt, depth + 1)
            else:
                return False
            if held is None or not isinstance(held, sympy.Expr) \
                    or not ((held - bound) if upward else (bound - held)).is_nonnegative:
                return False
        return True

    def first_character(self, node: ir.Expr, index, depth: int) -> characters.CharValue | None:
        """The code of a character argument's first character (LSAME, ICHAR): known, or the symbol of a
        variable declared one character long."""
        decl = self.proc.variables.get(node.name) if isinstance(node, ir.Var) else None
        one = decl is not None and decl.type == "character" and decl.length == 1
        return characters.first(self.expr(node, index, depth + 1), one)

    def function_result(self, node: ir.FuncCall, index, depth: int) -> sympy.Expr | None:
        """A user function's result where it is one assignment of the function's statement list (no jump
        around it), a formula in its formal arguments, with each bound to this reference's actual value: the
        result `NB = MIN(64, N)` of a small block-size function. None where the function is not in the
        program, recursive, or its result depends on anything the reference does not pass."""
        key = resolve_name(node.name)
        callee = self.facts.procs.get(key)
        if callee is None or callee.kind != "function" or key in self.facts.recursive \
                or self.facts.reach.past(depth, _MAX_DEPTH // 2):
            return None
        result = self.facts.storage_name(callee, result_variable(callee.name, callee.variables))
        defs = self.facts.definitions.get(result, [])
        if len(defs) != 1 or defs[0].kind != "assign" or not any(stmt is defs[0].stmt for stmt in callee.body) \
                or any(isinstance(stmt, _LEAVES) for stmt in ir.walk_stmts(callee.body)
                       if stmt is not defs[0].stmt):
            known = self.evaluated(node, callee, index, depth)
            if known is None:
                known = self.exit_value(node, callee, defs, index, depth)
            return known if known is not None else self.function_value(node, callee, index, depth)
        resolver = ValueResolver(self.facts, callee, self.table, self.overrides)
        value = resolver.expr_at(defs[0].value, defs[0].stmt, {}, depth + 1)
        return self._bound_result(node, callee, value, index, depth)

    def exit_value(self, node: ir.FuncCall, callee: ir.Procedure, defs: list[Definition], index,
                   depth: int) -> sympy.Expr | None:
        """A function's result as the value its result variable has where it returns, through its IFs
        (sad.analysis.conditional; the arms the generic-data model rules out do not count: ILADLC's scan for
        the last non-zero column is N), bound to this reference's arguments."""
        if not defs or any(d.kind not in ("assign", "index") or d.procedure != callee.name for d in defs):
            return None
        places = self.facts.places_of(callee)
        if any(p.backward_jumps for p in places.values()):
            return None
        resolver = ValueResolver(self.facts, callee, self.table, self.overrides)
        key = self.facts.storage_name(callee, result_variable(callee.name, callee.variables))
        integer = callee.result_type in ("integer", "character")
        steps = {id(d.stmt): resolver._step(key, d, integer, depth) for d in defs}
        value = conditional.value_at(callee, steps, None, conditional.UNDEFINED, resolver._evaluator(depth),
                                     result_variable(callee.name, callee.variables), at_exit=True,
                                     terminating=self.facts.terminating)
        return self._bound_result(node, callee, value, index, depth)

    def _bound_result(self, node: ir.FuncCall, callee: ir.Procedure, value: sympy.Expr | None, index,
                      depth: int) -> sympy.Expr | None:
        """A function's result (a formula in its formals) with each formal bound to the reference's actual."""
        if value is None:
            return None
        def actual(pos: int, decl: ir.Variable | None) -> sympy.Expr | None:
            value = self.expr(node.args[pos], index, depth + 1) if pos < len(node.args) else None
            if value is not None and decl is not None and decl.type == "character":
                return characters.truncated(value, decl.length)
            return value
        return self._with_actuals(callee, value, actual)

    def _with_actuals(self, callee: ir.Procedure, value: sympy.Expr,
                      actual: Callable[[int, ir.Variable | None], sympy.Expr | None],
                      also: dict | None = None) -> sympy.Expr | None:
        """`value`, a formula in `callee`'s formals, with each formal it holds bound to `actual(position,
        declaration)`, the value a call passes there, and the replacements `also` made at the same time;
        None where one of them has none."""
        subs = self._actuals_of(callee, value, actual)
        if subs is None:
            return None
        subs.update(also or {})
        return value.xreplace(subs) if subs else value

    def _actuals_of(self, callee: ir.Procedure, value: sympy.Expr,
                    actual: Callable[[int, ir.Variable | None], sympy.Expr | None]) -> dict | None:
        """The formals of `callee` that `value` holds, each with `actual(position, declaration)`; None where
        one has none."""
        subs = {}
        for pos, formal in enumerate(callee.formals):
            symbol = self.table.symbol(self.facts.storage_name(callee, formal))
            if symbol is None or symbol not in free_symbols(value):
                continue
            bound = actual(pos, callee.variables.get(formal))
            if bound is None:
                return None
            subs[symbol] = bound
        return subs

    def function_value(self, node: ir.FuncCall, callee: ir.Procedure, index, depth: int) -> sympy.Basic | None:
        """An INTEGER function's result on arguments known only as formulas (ILAENV(1, 'DGETRF', ' ', M, N,
        -1, -1) in DGETRF, with M and N its formals): the reference itself, a sympy function of those values
        that runs the function (sad.analysis.evaluate) once a call binds them to numbers."""
        if callee.result_type != "integer" or callee.language != "fortran" or self.proc.kind == "program" \
                or any(d.dims for f in callee.formals if (d := callee.variables.get(f)) is not None):
            return None
        values = self.argument_values(node.args, callee, index, depth)
        if values is None or any(conditional.is_condition(v) for v in values):
            return None
        formals = {self.table.symbol(self.facts.storage_name(self.proc, f)) for f in self.proc.formals}
        if not set().union(*(free_symbols(v) for v in values)) <= formals:
            return None  # a loop index, a run-time value: only the caller's formals are bound by its calls
        key = resolve_name(callee.name)
        function = self.facts.functions.get(key)
        if function is None:
            function = self.facts.functions[key] = evaluate.function_class(self.facts.procs, callee)
        return function(*values)

    def known_arguments(self, actuals: list[ir.Expr], callee: ir.Procedure, index, depth: int = 0
                        ) -> list[evaluate.Value] | None:
        """The actual arguments as sad.analysis.evaluate takes them, where every one is a known scalar (a
        character one cut to its formal's length); None otherwise."""
        values = self.argument_values(actuals, callee, index, depth)
        return evaluate.known(values, callee) if values is not None else None

    def argument_values(self, actuals: list[ir.Expr], callee: ir.Procedure, index, depth: int = 0
                        ) -> list[sympy.Basic] | None:
        """Every actual argument's value (a character one cut to its formal's length), or None where one
        cannot be traced."""
        if len(actuals) != len(callee.formals):
            return None
        values = []
        for arg, formal in zip(actuals, callee.formals):
            decl = callee.variables.get(formal)
            value = self.expr(arg, index, depth + 1)
            if value is None:
                return None
            if decl is not None and decl.type == "character":
                value = characters.truncated(value, decl.length)
            values.append(value)
        return values

    def evaluated(self, node: ir.FuncCall, callee: ir.Procedure, index, depth: int) -> sympy.Basic | None:
        """A function's result where every actual argument is a known scalar (ILAENV's block size for a
        routine's name and known sizes, DLAMCH('S')): the function run on those values (sad.analysis.evaluate),
        exact; None, with a note of why, where the run stops."""
        args = self.known_arguments(node.args, callee, index, depth)
        if args is None:
            return None
        memo_key = (resolve_name(callee.name), tuple((type(a).__name__, a) for a in args))
        if memo_key not in self.facts.evaluated:
            try:
                result: sympy.Basic | None = evaluate.to_sympy(evaluate.Evaluator(self.facts.procs).call(callee.name,
                                                                                                           args))
            except evaluate.Unevaluated as exc:
                result = None
                shown = f"{callee.name}({', '.join(repr(a) if isinstance(a, str) else str(a) for a in args)})"
                self.facts.unevaluated.setdefault((self.facts.at_loc, shown, str(exc)), None)
            self.facts.evaluated[memo_key] = result
        return self.facts.evaluated[memo_key]

    # ------------------------------------------------------------------ variables
    def variable(self, name: str, ir_type: str, depth: int = 0, index: dict | None = None) -> sympy.Expr | None:
        """A scalar variable's value from its reaching definitions (or the parameter standing for it), or None."""
        key = self.facts.storage_name(self.proc, name)
        if self._pinned is not None and self._pinned[0] == key and self._use is self._pinned[1]:
            return self._pinned[2]
        decl = self.proc.variables.get(name) or self.facts.program.globals.get(name)
        if decl is not None and decl.dims:
            return None
        defs = self.facts.definitions.get(key, [])
        # the calls that may write it before the point asked: a loop's entry (bound), or a statement a
        # symbolic run evaluates at inside a bound's run (so that what is asked there is the same whichever
        # loop's bound asked it: _anchor)
        at = (self._use if self._use is not None else self._at) if self._at is not None else self._call
        if at is not None:
            defs = [d for d in defs if d.kind != "call" or self.facts.reaches(d, at, self.proc)]
        if ir_type == "character" and any(d.kind not in ("parameter", "data", "assign") for d in defs):
            return None  # a string read or returned at run time: no number a user would bind
        use = self._use if self._use is not None else self._at
        if use is not None and any(d.in_expression and d.stmt is use for d in defs):
            return None  # `posix_memalign(&p, ...) != 0 || p == NULL`: p as the call left it, not known here
        integer = ir_type in ("integer", "character")
        if key in self.overrides and len(defs) == 1 and defs[0].kind in ("parameter", "data"):
            # -D on a constant of the source: the user's value replaces the one written there.
            return self._register(key, "direct", integer, defs[0].loc, "set by -D", self.overrides[key],
                                  defs[0].procedure)
        if decl is not None and decl.storage == "formal" and resolve_name(self.proc.name) in self.facts.recursive \
                and not self.activation:
            return None  # a recursive routine's arguments change from one activation to the next
        if decl is not None and decl.storage == "formal" and defs and use is not None \
                and not any(self.facts.reaches(d, use, self.proc) for d in defs):
            defs = []  # assigned only after the use (DLABAD's `LARGE = SQRT(LARGE)` past its test of LARGE)
        if decl is not None and decl.storage == "formal" and not defs:
            return self.formal_argument(name, ir_type)
        where = use if use is not None else self._call
        if decl is not None and decl.storage == "formal" and len(defs) == 1 and where is not None \
                and not self._dominates(defs[0], where):
            # `IF (IFACT.EQ.2) M = 3` before `DO I = 1, M`: M is the argument where the test fails, so the
            # entry value is a definition too (sad.analysis.conditional); not 3 on every call
            return self._conditional(key, defs, integer, depth)
        if len(defs) != 1:
            latest = self._latest_in_iteration(defs) if index and ir_type == "integer" else None
            if latest is not None and latest.kind == "index" and isinstance(latest.stmt, ir.Do):
                # a DO index after its loop, earlier in this pass (DLARFT's LASTV after its search for the
                # last nonzero of a reflector): the value it leaves, the same on every pass
                return self._index_after(latest.stmt, depth)
            in_loop = self._in_iteration(latest, index, depth, True) if latest is not None and index else None
            if in_loop is not None:
                return in_loop
            value = self._conditional(key, defs, integer, depth)
            if value is None and index and integer:
                value = self._conditional_in_pass(key, defs, depth, index)
            if value is None and latest is not None and index:
                # the assignment this pass runs last before the use, whatever its value: DLARFT's
                # `J = MIN(LASTV, PREVLASTV)` before `CALL DGEMV(..., J-I, ...)`, N on every pass
                value = self._in_iteration(latest, index, depth, True, with_index=False)
            if value is not None:
                return value
            if self._loose and defs and all(d.kind in ("assign", "read", "call")
                                                                for d in defs):
                first = min(defs, key=lambda d: (d.loc.file, d.loc.line) if d.loc else ("", 0))
                return self._register(key, "unresolved", integer, first.loc,
                                      f"{_RUN_TIME} ({len(defs)} assignments)", None, first.procedure)
            return None
        if index and defs[0].kind == "assign" and defs[0].value is not None:
            in_loop = self._in_iteration(defs[0], index, depth, ir_type == "integer")
            if in_loop is not None:
                return in_loop
        if defs[0].kind == "index" and ir_type == "integer":
            # a DO index used after its loop, its only definition (DGEBRD's `CALL DGEBD2(M-I+1, ...)` after
            # `DO 30 I = 1, MINMN - NX, NB`): the first value past the last trip, as where it is also assigned
            return self._conditional(key, defs, integer, depth)
        return self._from_definition(key, defs[0], integer, depth)

    def _dominates(self, definition: Definition, use: ir.Stmt) -> bool:
        """Whether every path from the routine's entry to `use` runs `definition` first: it comes earlier,
        outside any IF arm or loop the use is not in, and no jump can pass it."""
        places = self.facts.places_of(self.proc)
        d = places.get(id(definition.stmt)) if definition.stmt is not None else None
        u = places.get(id(use))
        if d is None or u is None or d.backward_jumps or definition.procedure != self.proc.name:
            return False
        return d.order < u.order and d.arms <= u.arms and d.loops <= u.loops and not self.facts.jumps_in(self.proc)

    def _latest_in_iteration(self, defs: list[Definition]) -> Definition | None:
        """Of several assignments (DPOTRF's `JB = MIN(NB, N-J+1)` in its upper and its lower loop), the one
        that runs before the use on every pass of the loops around both, with no other between them: the
        value the use sees. None where there is no such one."""
        at = self._at or self._use or self._call
        places = self.facts.places_of(self.proc)
        up = places.get(id(at)) if at is not None else None
        if up is None or up.backward_jumps or any(d.procedure != self.proc.name or d.stmt is None for d in defs):
            return None
        where = [(d, places.get(id(d.stmt))) for d in defs]
        before = [(d, p) for d, p in where if p is not None and p.loops and p.loops <= up.loops
                  and p.lists <= up.lists and p.order < up.order
                  and (d.kind == "assign" or d.kind == "index" and id(d.stmt) not in up.loops)]
        if not before:
            return None
        d, dp = max(before, key=lambda dpl: dpl[1].order)
        carried = up.loops - dp.loops  # loops around the use but not the definition: their back edges skip it
        if any(p is None or dp.order < p.order < up.order or p.loops & carried for other, p in where if other is not d):
            return None  # another assignment between them, or one that reaches the use from an earlier pass
        return d

    def _in_iteration(self, d: Definition, index: dict, depth: int, integer: bool, with_index: bool = True
                      ) -> sympy.Expr | None:
        """A value set earlier in the same iteration from the outer loops' indices (the strip-mined
        `IL = MIN(64, N-IV+1)` before `DO I = 1, IL`; DGETRF's `JB = MIN(MIN(M, N)-J+1, NB)` before
        `CALL DGETRF2(M-J+1, JB, ...)` and `IF (J+JB.LE.N)`): its value in terms of those indices, when the
        assignment runs before the use on every pass (same or enclosing statement list, no jump back). The
        use is the loop whose bound is asked, else, for an `integer` (a size, a panel's width), the statement
        whose condition or argument is: a floating value set per iteration is data (DGSVJ0's rotation T, CS,
        SN), whose formulas only grow the tests that read it."""
        at = self._at or ((self._use or self._call) if integer else None)
        if at is None or d.stmt is None or d.procedure != self.proc.name:
            return None
        places = self.facts.places_of(self.proc)
        dp, up = places.get(id(d.stmt)), places.get(id(at))
        if dp is None or up is None or dp.backward_jumps or not dp.lists <= up.lists or dp.order >= up.order:
            return None
        # the right-hand side as the assignment sees it (`IGL = IGL + IR1*KBL` reads the IGL before it)
        # and exactly: a run-time value standing for the whole variable at a loop's entry cannot be a part of it
        outer = (self._at, self._use, self._call, self._loose)
        self._at, self._use, self._call, self._loose = None, d.stmt, None, False
        try:
            value = self.expr(d.value, index, depth + 1)
        finally:
            self._at, self._use, self._call, self._loose = outer
        if value is None or (with_index and not free_symbols(value) & set(index.values())):
            return None  # no index in it: the usual, registered definition serves
        return value

    def _from_definition(self, key: str, d: Definition, integer: bool, depth: int):
        if d.kind in SPMD_DEFINITIONS:
            return self._spmd_value(key, d, integer)
        if d.kind == "read":
            return self._register(key, "unresolved", integer, d.loc, "read at run time", None, d.procedure)
        if d.kind == "call" and integer and isinstance(d.stmt, ir.CallStmt) and d.procedure == self.proc.name:
            # the one call that sets it (DGETRF's IINFO): what it leaves, where that is the same on every call
            left = self._status_left(key, d.stmt, conditional.UNDEFINED, depth)
            return left if left is not None and left.is_Number else None
        if d.kind not in ("parameter", "data", "assign") or d.value is None:
            return None
        owner = self.facts.procs.get(resolve_name(d.procedure), self.proc)
        resolver = self if owner is self.proc else ValueResolver(self.facts, owner, self.table,
                                                                 self.overrides)
        with self.noting_at(d.loc):
            value = resolver.expr_at(d.value, d.stmt, {}, depth + 1)
        if value is None and (self._loose or self._call is not None) and integer and d.kind == "assign" \
                and owner is self.proc:
            # a loop bound, or an argument of a call (n = atoi(argv[1]) passed to a kernel: each call's loops
            # then count in the caller's n, which -D n binds, not in a formal of their own); not a test's
            # operand (a timer's clock() before and after is no input to bind)
            source = self._source_call(d)
            if source is not None:
                return self._register(key, "unresolved", integer, d.loc, f"{_RUN_TIME} (set by {source})", None,
                                      d.procedure)
        if value is None or self._loose and owner is self.proc and self._stale_copy(d, value):
            return None
        cls = "direct" if d.kind in ("parameter", "data") else "indirect"
        what = {"parameter": "PARAMETER/const", "data": "DATA/initial value", "assign": "assignment"}[d.kind]
        self._register(key, cls, integer, d.loc, what, value, d.procedure)
        return value

    def _source_call(self, d: Definition) -> str | None:
        """The routine with no source here whose result the one assignment `d`, run once per call of its routine
        (in no loop), stores (C's ``n = atoi(argv[1])``, ``n = (int)strtol(s, NULL, 10)``, a size from
        ``omp_get_max_threads()``): its name, or None. Such a value is the program's input, as a READ's is: a
        loop bound reading it is that run-time value, which the user binds (-D n=...), not a loop count."""
        places = self.facts.places_of(self.proc)
        where = places.get(id(d.stmt)) if d.stmt is not None else None
        if where is None or where.loops or where.backward_jumps or d.value is None:
            return None
        calls = [n for n in _user_calls(d.value) if not n.indirect]
        outside = [c.name for c in calls if resolve_name(c.name) not in self.facts.procs]
        return f"a call to {outside[0]}" if outside else None

    def _stale_copy(self, d: Definition, value: sympy.Expr) -> bool:
        """Whether the assignment `d` copies a run-time value that is assigned again before the use, which also
        reads that value: the one symbol would then stand for two different values. A run-time value (a
        variable assigned in several places, in a loop bound) is one symbol wherever it is read; DSTEBZ's
        `IOFF = IEND`, `IBEGIN = IOFF + 1`, `IEND = ISPLIT(JB)` before `DO 40 J = IBEGIN, IEND - 1` (DLARRD's,
        Livermore loop 2's `ipnt = ipntp; ipntp += ii` before `for (k = ipnt + 1; k < ipntp; ...)`) made both
        bounds that symbol, and the loop ran 0 times. Such a use is not resolved (its loop count becomes a
        parameter). A use that reads only the copy (DLARRJ's `SAVI1 = I1` ... `DO 110 I = SAVI1, ILAST`) keeps
        the symbol: it stands for the value at the copy there."""
        use = self._use if self._use is not None else self._at
        if use is None or d.stmt is None:
            return False
        places = self.facts.places_of(self.proc)
        copy, read = places.get(id(d.stmt)), places.get(id(use))
        if copy is None or read is None:
            return False  # a statement made by the builder: as before, the copy stands
        target = self.facts.storage_name(self.proc, d.stmt.target.name) \
            if isinstance(d.stmt, ir.Assign) and isinstance(d.stmt.target, ir.Var) else None
        for s in free_symbols(value):
            param = self.table.get(s.name)
            if param is None or param.cls != "unresolved" or not param.description.startswith(f"{_RUN_TIME} (") \
                    or not self._read_beside(use, s.name, target):
                continue
            for other in self.facts.definitions.get(s.name, []):
                where = places.get(id(other.stmt)) if other.stmt is not None else None
                if other.procedure != self.proc.name or where is None:
                    continue
                if copy.order < where.order < read.order or read.order <= copy.order and copy.loops & where.loops:
                    return True  # assigned between the copy and the use, or the use reads an earlier pass's copy
        return False

    def _read_beside(self, use: ir.Stmt, key: str, copy: str | None) -> bool:
        """Whether the statement `use` reads the variable `key` other than through the variable `copy`: itself,
        or through assignments made once in the routine (`IBEGIN = IOFF + 1` reads IOFF, not IEND)."""
        seen: set[str] = set() if copy is None else {copy}
        pending = [n for e in ir.own_exprs(use) for n in ir.walk(e) if isinstance(n, ir.Var)]
        while pending and len(seen) < 64:
            name = self.facts.storage_name(self.proc, pending.pop().name)
            if name == key:
                return True
            if name in seen:
                continue
            seen.add(name)
            defs = self.facts.definitions.get(name, [])
            if len(defs) == 1 and defs[0].kind == "assign" and defs[0].value is not None \
                    and defs[0].procedure == self.proc.name:
                pending.extend(n for n in ir.walk(defs[0].value) if isinstance(n, ir.Var))
        return False

    def _conditional(self, key: str, defs: list[Definition], integer: bool, depth: int) -> sympy.Expr | None:
        """A variable defined in several places of one routine (a guarded reassignment, IF/ELSE arms, an
        entry value from another routine's READ or a DATA): its value where it is used, a Piecewise, Min
        or Max of the definitions (sad.analysis.conditional). None where that reasoning does not hold.

        Followed once per use: md1 asks for SETBOX's RCUT over a hundred times (every bound and condition
        that mentions the cell size), each a symbolic run of SETBOX. The result depends on the routine
        asking, the use, the loop entry and looseness of a bound, and the depth (the recursion limit); the
        parameters a run registers are registered by its first run (the first registration of a name
        wins, so a repeated run would register nothing new), and the notes it makes are at the
        statements it evaluates."""
        use = self._use if self._use is not None else self._at
        memo_key = (id(self.proc), key, id(use), self._anchor(), self._loose, integer, id(self.table),
                    id(self.overrides) if self.overrides else 0, tuple(id(d) for d in defs),
                    self.facts.generic_data, self.activation, self._pin_key(use))
        return self.facts._conditionals.get(memo_key, depth,
                                            lambda: self._follow_conditional(key, defs, integer, depth))

    def _conditional_in_pass(self, key: str, defs: list[Definition], depth: int, index: dict
                             ) -> sympy.Expr | None:
        """An integer of this routine assigned in several places, some inside the loops around its use, as
        the use sees it in one pass: the definitions and tests inside those loops evaluated with their
        indices (DORMQR's `NI = N - I + 1` where not LEFT in its loop, `NI = N` before it where LEFT,
        sad.analysis.conditional). None where that run does not hold."""
        use = self._use if self._use is not None else self._at
        # asked for the sizes a call passes only (DLARFB's): a run per use of every such variable in a loop
        # made the LAPACK sample a third slower
        if not isinstance(use, ir.CallStmt) or any(d.procedure != self.proc.name or d.stmt is None for d in defs):
            return None
        places = self.facts.places_of(self.proc)
        up = places.get(id(use))
        if up is None or up.backward_jumps or not up.loops:
            return None
        names = {id(s): s.index for s in ir.walk_stmts(self.proc.body)
                 if isinstance(s, ir.Do) and id(s) in up.loops and s.index in index}
        if not names:
            return None
        memo_key = ("in pass", id(self.proc), key, id(use), self._anchor(), self._loose, id(self.table),
                    id(self.overrides) if self.overrides else 0, self.facts.generic_data, self.activation,
                    tuple(sorted(((n, index[n]) for n in names.values()), key=str)), self._pin_key(use))
        return self.facts._conditionals.get(
            memo_key, depth, lambda: self._follow_in_pass(key, defs, use, depth, index, names, places))

    def _follow_in_pass(self, key: str, defs: list[Definition], use: ir.Stmt, depth: int, index: dict,
                        names: dict[int, str], places: dict[int, Place]) -> sympy.Expr | None:
        def in_pass(stmt: ir.Stmt) -> dict:
            """The indices of the use's loops that are around `stmt` too: the same pass's values there."""
            place = places.get(id(stmt))
            return {} if place is None else {names[k]: index[names[k]] for k in place.loops if k in names}

        def evaluate(node: ir.Expr, stmt: ir.Stmt) -> sympy.Expr | None:
            return self.expr_at(node, stmt, in_pass(stmt), depth + 1)

        local = next((n for n in sorted(self.proc.variables) if self.facts.storage_name(self.proc, n) == key), "")

        def step_of(d: Definition):
            # an update that reads the variable (`IGL = IGL + IR1*K`) reads the pass before's value, which
            # evaluating its right-hand side in this pass would not see: unknown from there on
            value = d.value if d.kind == "assign" else None
            own = value is None or any(isinstance(n, (ir.Var, ir.ArrayRef)) and n.name == local
                                       for n in ir.walk(value))

            def step(stmt: ir.Stmt, before: sympy.Expr) -> sympy.Expr | None:
                return evaluate(value, stmt) if value is not None and not own else None
            return step

        entry = sympy.Dummy("entry")
        value = conditional.value_at(self.proc, {id(d.stmt): step_of(d) for d in defs}, use, entry, evaluate,
                                     local, terminating=self.facts.terminating)
        return None if value is None or value.has(entry) else value

    def _follow_conditional(self, key: str, defs: list[Definition], integer: bool, depth: int
                            ) -> sympy.Expr | None:
        split = self._owner_of(defs)
        if split is None:
            return None
        owner, inside, entry_def = split
        use = self._use if self._use is not None else self._at
        if owner is self.proc and use is None:
            return None  # a use in the defining routine at an unknown place
        resolver = self if owner is self.proc else ValueResolver(self.facts, owner, self.table, self.overrides)
        steps = {id(d.stmt): resolver._step(key, d, integer, depth) for d in inside}
        before = sympy.Dummy("entry")
        local = next((n for n in sorted(owner.variables) if self.facts.storage_name(owner, n) == key),
                     key if key in self.facts.program.globals else "")
        value = conditional.value_at(owner, steps, use if owner is self.proc else None, before,
                                     resolver._evaluator(depth), local, terminating=self.facts.terminating)
        if value is None:
            return None
        if value.has(before):
            # The value the routine starts with matters: it is known only where the routine runs once
            # (a COMMON variable a routine updates on every call carries the previous call's value), or
            # is a formal argument (a formula in the argument); a use in another routine may come before.
            entry = resolver._entry_value(key, owner, inside, entry_def, integer, depth)
            if entry is None or owner is not self.proc:
                return None
            formal = entry_def is None
            if not formal and not self.facts.runs_once(owner):
                return None
            value = conditional.value_at(owner, steps, use, entry, resolver._evaluator(depth), local,
                                         terminating=self.facts.terminating)
            if value is None:
                return None
        if owner is not self.proc:
            first = min(inside, key=lambda d: (d.loc.line, d.loc.col) if d.loc else (0, 0))
            self._register(key, "indirect", integer, first.loc,
                           f"conditional assignment ({len(defs)} definitions)", value, owner.name)
        return value

    def _owner_of(self, defs: list[Definition]):
        """(routine, its definitions, the one definition elsewhere that gives the entry value or None):
        every definition with a statement in one routine, but for at most one plain definition (a READ, an
        assignment, a DATA) that comes before it."""
        if any(d.kind in SPMD_DEFINITIONS for d in defs):
            return None
        by_proc: dict[str, list[Definition]] = defaultdict(list)
        others = [d for d in defs if d.stmt is None]
        for d in defs:
            if d.stmt is not None:
                by_proc[d.procedure].append(d)
        nested = [name for name, ds in by_proc.items() if any(not _top_level(self.facts, d) for d in ds)]
        if len(by_proc) == 1:
            nested = list(by_proc)
        if len(nested) != 1 or len(by_proc) > 2 or len(others) + len(by_proc) > 2:
            return None
        owner = next((p for p in self.facts.program.procedures if p.name == nested[0]), None)
        if owner is None or (resolve_name(owner.name) in self.facts.recursive
                             and not (self.activation and owner.name == self.proc.name)):
            return None  # a recursive routine's values change from one activation to the next
        places = self.facts.places_of(owner)
        if any(p.backward_jumps for p in places.values()):
            in_arms = self.facts._arm_jumps.get(owner.name)
            if in_arms is None:  # a function of the routine alone, asked for at every conditional use in it
                in_arms = self.facts._arm_jumps[owner.name] = _jumps_back_in_arms(owner)
            if not in_arms and not self._assigned_outside_loops_back(owner, by_proc[owner.name]):
                return None
        rest = others + [d for name, ds in by_proc.items() if name != owner.name for d in ds]
        if len(rest) > 1 or (rest and rest[0].kind not in ("read", "assign", "data", "parameter")):
            return None
        return owner, by_proc[owner.name], (rest[0] if rest else None)

    def _assigned_outside_loops_back(self, owner: ir.Procedure, defs: list[Definition]) -> bool:
        """Whether none of a variable's definitions in `owner` is in a statement a backward jump may run
        again (DLASCL's ITYPE, set before its `10 CONTINUE ... GO TO 10` scaling loop, is the same on every
        pass; sad.analysis.conditional checks each label it meets)."""
        if owner.name not in self.facts._looped_back:
            self.facts._looped_back[owner.name] = conditional.looped_back(owner)
        again = self.facts._looped_back[owner.name]
        return again is not None and not any(d.stmt is None or id(d.stmt) in again for d in defs)

    def _entry_value(self, key: str, owner: ir.Procedure, inside: list[Definition], entry_def: Definition | None,
                     integer: bool, depth: int) -> sympy.Expr | None:
        """The variable's value when `owner` starts: from the one definition elsewhere, a formal argument's
        symbol, or UNDEFINED."""
        if entry_def is None:
            names = {d.stmt.target.name for d in inside if isinstance(d.stmt, ir.Assign)
                     and isinstance(d.stmt.target, ir.Var)}
            decl = owner.variables.get(next(iter(names))) if len(names) == 1 else None
            if decl is not None and decl.storage == "formal":
                return self._register(key, "unresolved", integer, decl.loc, "formal argument", None)
            return conditional.UNDEFINED
        if entry_def.kind == "read":
            return self._register(key, "unresolved", integer, entry_def.loc, "read at run time", None,
                                  entry_def.procedure)
        source = self.facts.procs.get(resolve_name(entry_def.procedure), self.proc) if entry_def.procedure \
            else self.proc
        resolver = self if source is self.proc else ValueResolver(self.facts, source, self.table, self.overrides)
        return resolver.expr_at(entry_def.value, entry_def.stmt, {}, depth + 1)

    def _evaluator(self, depth: int):
        def evaluate(node: ir.Expr, stmt: ir.Stmt) -> sympy.Expr | None:
            return self._at_statement(node, stmt, depth + 1)
        return evaluate

    def _at_statement(self, node: ir.Expr, stmt: ir.Stmt, depth: int) -> sympy.Expr | None:
        """expr_at(node, stmt) for the symbolic runs of sad.analysis.conditional, remembered: every use of a
        conditionally assigned variable runs its routine again up to the use, and evaluates the same
        conditions and assigned values at the same statements (md1's cell counts: half of the runs' work).
        Remembered as _conditional remembers its runs, under everything the value depends on; the
        parameters and notes an evaluation makes are made by its first."""
        # expr_at asks at `stmt` (its `_use`): of the loop that asked, only whether there is one (_anchor)
        key = (id(self.proc), id(node), id(stmt), self._at is not None, id(self._call), self._loose,
               id(self.table), id(self.overrides) if self.overrides else 0, self.facts.generic_data,
               self.activation, self._pin_key(stmt))
        return self.facts._evaluations.get(key, depth, lambda: self.expr_at(node, stmt, {}, depth))

    def _anchor(self) -> object:
        """What a value asked at the statement `_use` depends on of the loop whose bound is asked (`_at`):
        whether there is one (a bound may stand for its value at the loop's entry, and calls that cannot
        reach the point asked do not count), not which, for the calls are then those that reach `_use`
        (`variable`). Keyed by the loop, DORCSD2BY1's test `INFO.NE.0` before its RETURN, narrowing the
        value of each variable a loop bound reads, was evaluated again for every loop (1-7 s each)."""
        return self._at is not None if self._use is not None else id(self._at)

    def _pin_key(self, at: ir.Stmt | None) -> tuple[str, int, sympy.Expr] | None:
        """What a value asked for at statement `at` depends on of the pinned variable (`_updated`): the pin
        is read only at its own statement (an assignment of the pinned variable), so a value asked for at
        any other statement is the same under every pin (the variables it follows are defined, and the
        tests it evaluates stand, at other statements), and is remembered once for all of them. Keyed by
        the pin, DORCSD2BY1's workspace updates (`LWORKOPT = MAX(...)` in many arms) followed the same
        values again under each value the run carried."""
        if self._pinned is None or at is not self._pinned[1]:
            return None
        return self._pinned[0], id(self._pinned[1]), self._pinned[2]

    def _reads_itself(self, key: str, value: ir.Expr) -> bool:
        """Whether an assigned value reads the variable it is assigned to (`WRKBL = MAX(WRKBL, N + LWORK_DGEQRF)`)."""
        return any(isinstance(n, ir.Var) and self.facts.storage_name(self.proc, n.name) == key for n in ir.walk(value))

    def _updated(self, key: str, node: ir.Expr, stmt: ir.Stmt, before: sympy.Expr, depth: int) -> sympy.Expr | None:
        """An update of the variable from its own value (`WRKBL = MAX(WRKBL, N + LWORK_DGEQRF)`) in a symbolic
        run: its value with the variable read as `before`, the value the run carries to the statement.
        Following the variable to the statement afresh instead (as any other variable the value reads) runs the
        routine again up to there, whose updates follow it again up to theirs: DGESVD's 90 updates of WRKBL
        were followed 10 291 times, past the depth limit, 60 % of its build. `before` is taken without its
        pieces where the variable was never assigned, as a fresh follow gives it
        (sad.analysis.conditional.defined); the update is unknown (None) where the variable is still undefined
        or was changed in a loop on the way."""
        prior = conditional.defined(before)
        if prior.has(conditional.UNDEFINED, conditional.CLOBBERED):
            return None
        outer, self._pinned = self._pinned, (key, stmt, prior)
        try:
            return self._at_statement(node, stmt, depth)
        finally:
            self._pinned = outer

    def _step(self, key: str, d: Definition, integer: bool, depth: int):
        """What a definition of the routine stores: an assignment's value, a READ's run-time value."""
        def step(stmt: ir.Stmt, before: sympy.Expr) -> sympy.Expr | None:
            if d.kind == "assign" and d.value is not None:
                if self._reads_itself(key, d.value):
                    return self._updated(key, d.value, stmt, before, depth + 1)
                return self._at_statement(d.value, stmt, depth + 1)
            if d.kind == "read":
                return self._register(key, "unresolved", integer, d.loc, "read at run time", None, d.procedure)
            if d.kind == "call" and isinstance(stmt, ir.CallStmt):
                return self._status_left(key, stmt, before, depth)
            if d.kind == "index" and integer and isinstance(stmt, ir.Do):
                return self._index_after(stmt, depth)
            return None
        return step

    def _index_after(self, loop: ir.Do, depth: int) -> sympy.Expr | None:
        """A DO index after its loop runs to the end: the first value past the last trip, lo + trips * step
        (Fortran 77, 11.10.7; C's `for (i = lo; i <= hi; i += s)` the same). DGEQRF's `IF (I.LE.K)` after
        `DO 10 I = 1, K - NX, NB` factors the last block. A loop left by `IF (test) EXIT` keeps its first value
        where the test holds on every pass, runs to the end where it never does (`_leaves_on_test`). None where
        the loop may leave early otherwise (a jump out, RETURN, STOP) or its bounds cannot be followed."""
        leaves = self._leaves_on_test(loop, depth) if any(True for _ in ir.jumps_out(loop)) else False
        if leaves is None:
            return None
        lo, hi = self._at_statement(loop.lo, loop, depth), self._at_statement(loop.hi, loop, depth)
        if leaves and lo is not None:
            return lo  # left on the first trip, or never entered: the index keeps its first value
        step = self._at_statement(loop.step, loop, depth) if loop.step is not None else sympy.Integer(1)
        if lo is None or hi is None or step is None or step == 0 or conditional.is_condition(step):
            return None
        try:
            return lo + step * trip_count(lo, hi, step)
        except (TypeError, ValueError):
            return None

    def _leaves_on_test(self, loop: ir.Do, depth: int) -> bool | None:
        """For a loop whose one way out early is an `IF (test) EXIT` (a GOTO out) of its body's own statements:
        True where the test holds on every pass (DLARFT's `IF (V(LASTV,I).NE.ZERO) EXIT` for generic data),
        False where it never does; None where it depends on the pass or the loop leaves in another way."""
        jumps = list(ir.jumps_out(loop))
        guard = next((s for s in loop.body if isinstance(s, ir.If) and len(s.arms) == 1 and not s.orelse
                      and s.arms[0].body == jumps), None)
        if len(jumps) != 1 or guard is None or not isinstance(jumps[0], ir.Goto):
            return None
        pass_index = sympy.Symbol(f"_{loop.index}_pass", integer=True)
        test = self.expr(guard.arms[0].cond, {loop.index: pass_index}, depth + 1)
        return {sympy.true: True, sympy.false: False}.get(test)

    def _status_left(self, key: str, call: ir.CallStmt, before: sympy.Expr, depth: int) -> sympy.Expr | None:
        """What a call leaves in an integer or floating scalar it passes to a routine of the program (a status,
        LAPACK's INFO after DPOTRF; DLABAD's SMLNUM): the callee's value of that formal where it returns
        (`left_in_formal`), bound to the call's arguments and, where the callee may leave it as it came, to the
        value before the call."""
        callee = self.facts.procs.get(resolve_name(call.name))
        positions = [pos for pos, a in enumerate(call.args)
                     if isinstance(a, ir.Var) and self.facts.storage_name(self.proc, a.name) == key]
        if callee is None or callee.kind != "subroutine" or len(positions) != 1 \
                or len(call.args) != len(callee.formals) or self.facts.reach.past(depth, _MAX_DEPTH // 2):
            return None
        formal = callee.formals[positions[0]]
        value = self.left_in_formal(callee, formal, depth)
        if value is None:
            return None
        return self._with_actuals(callee, value, lambda pos, _: self._at_statement(call.args[pos], call, depth + 1),
                                  {self.facts.entry_symbol: before})

    def left_in_formal(self, callee: ir.Procedure, formal: str, depth: int) -> sympy.Expr | None:
        """An integer or floating scalar formal's value where `callee` returns, as a formula in its formals (the
        value it came with is `facts.entry_symbol`), through its IFs and the calls it passes the formal to, failure
        returns not taken (sad.analysis.failures); None where that cannot be followed.

        A routine that calls itself (DGETRF2's `CALL DGETRF2(..., IINFO)` then `IF (INFO.EQ.0 .AND.
        IINFO.GT.0) INFO = IINFO`) is followed by induction on its activations: each inner call is taken to
        leave H of its arguments; if the routine then leaves H of its own, whatever they are, every
        activation does (the innermost ones call nothing). H is first 0, then what the routine leaves under
        that guess (its argument checks' negative statuses). What was derived under a hypothesis that fails
        is forgotten."""
        memo = self.facts.left_values
        memo_key = (callee.name, formal)
        if memo_key in memo:
            return memo[memo_key]
        if memo_key in self.facts.hypotheses:
            return self.facts.hypotheses[memo_key]
        if resolve_name(callee.name) not in self.facts.recursive:
            memo[memo_key] = self._left_once(callee, formal, depth)
            return memo[memo_key]
        guess: sympy.Expr = sympy.Integer(0)  # the success status: a seed; the check below decides
        for _ in range(3):
            saved = (self.facts._conditionals.snapshot(), self.facts._evaluations.snapshot(),
                     dict(self.facts.evaluated))
            self.facts.hypotheses[memo_key] = guess
            try:
                value = self._left_once(callee, formal, depth)
            finally:
                del self.facts.hypotheses[memo_key]
            if value is not None and value == guess:
                memo[memo_key] = value
                return value
            self.facts._conditionals.restore(saved[0])
            self.facts._evaluations.restore(saved[1])
            self.facts.evaluated = saved[2]
            if value is None:
                break
            guess = value  # the argument checks' statuses (-1 where N < 0, ...): try them as the hypothesis
        memo[memo_key] = None
        return None

    def _left_once(self, callee: ir.Procedure, formal: str, depth: int) -> sympy.Expr | None:
        key = self.facts.storage_name(callee, formal)
        decl = callee.variables.get(formal)
        defs = self.facts.definitions.get(key, [])
        if decl is None or not (decl.type == "integer" or genericdata.floating(decl.type)) or decl.dims or not defs \
                or any(d.procedure != callee.name or d.stmt is None for d in defs):
            return None
        resolver = ValueResolver(self.facts, callee, self.table, self.overrides, activation=True)
        steps = {id(d.stmt): resolver._step(key, d, True, depth + 1) for d in defs}
        return conditional.value_at(callee, steps, None, self.facts.entry_symbol, resolver._evaluator(depth + 1),
                                    formal, at_exit=True,
                                    terminating=self.facts.terminating)

    def process_count(self, comm: str | None, loc: ir.Loc | None, procedure: str) -> sympy.Expr:
        """NPROCS (the world's process count), or NPROCS_<comm> for another communicator: registered as
        an unresolved value where it is first met."""
        suffix = "" if comm is None or comm in msgcalls.WORLD else f"_{comm}"
        return self._register(f"NPROCS{suffix}", "unresolved", True, loc,
                              f"number of processes{f' of communicator {comm}' if suffix else ''}",
                              None, procedure)

    @staticmethod
    def rank_symbol() -> sympy.Symbol:
        """The symbol for the process's rank in SPMD programs."""
        return make_symbol("RANK", "value", integer=True)

    def _spmd_value(self, key: str, d: Definition, integer: bool) -> sympy.Expr:
        """A variable set by MPI_COMM_SIZE / MPI_COMM_RANK (PVM: the group size and instance, the tasks a
        spawn started) is indirect: NPROCS, RANK, NPROCS - 1. Another communicator than the world's has
        its own size and rank parameters, NPROCS_<comm> and RANK_<comm>."""
        comm = d.value.name if isinstance(d.value, ir.Var) else None
        suffix = "" if comm is None or comm in msgcalls.WORLD else f"_{comm}"
        nprocs = self.process_count(comm, d.loc, d.procedure)
        if d.kind == "rank":
            value = self._register(f"RANK{suffix}", "unresolved", True, d.loc,
                                   f"this process's rank, 0 <= RANK{suffix} < NPROCS{suffix}", None, d.procedure)
            what = "the process's rank"
        else:
            value = nprocs if d.kind == "nprocs" else nprocs - 1
            what = "the number of processes" if d.kind == "nprocs" else "the tasks spawned: all but this one"
        if key not in (f"NPROCS{suffix}", f"RANK{suffix}") and not key.startswith("."):
            self._register(key, "indirect", integer, d.loc, what, value, d.procedure)
        return value

    def formal_argument(self, name: str, ir_type: str) -> sympy.Expr:
        """The parameter standing for formal `name`'s value on entry (a character formal's a character
        code), registered where the formal is declared."""
        key = self.facts.storage_name(self.proc, name)
        decl = self.proc.variables.get(name)
        if ir_type == "character":
            self.facts.character_formals.add(key)
        return self._register(key, "unresolved", ir_type in ("integer", "character"),
                              decl.loc if decl is not None else None, "formal argument", None)

    def _register(self, key: str, cls: str, integer: bool, loc: ir.Loc | None, what: str,
                  value: sympy.Expr | None, procedure: str | None = None) -> sympy.Expr:
        """Record a value parameter where it is defined (read, assigned), not where it was first met."""
        loc = loc or self.proc.loc
        symbol = make_symbol(key, "value", integer)
        # a Symbol's text is its name: str() would run sympy's printer for each
        depends = sorted(s.name if type(s) is sympy.Symbol else str(s) for s in free_symbols(value)) \
            if value is not None else []
        self.table.add(Parameter(key, cls, "value", loc.file, loc.line, procedure or self.proc.name, value=value,
                                 description=what, depends_on=depends), symbol)
        return value if value is not None else self.table.symbol(key)


def _combine(node: ir.BinOp, left, right):
    op = node.op
    if op == "add":
        return left + right
    if op == "sub":
        return left - right
    if op == "mul":
        return left * right
    if op == "div":
        if node.type == "integer":
            return _truncated_quotient(left, right)
        return left / right
    if op == "pow":
        return left ** right
    if op == "mod":
        return _truncated_mod(left, right)
    if op in ("shl", "shr"):
        return _shifted(op, left, right)
    if op == "band":
        return _masked(left, right)
    relations = {"eq": sympy.Eq, "ne": sympy.Ne, "lt": sympy.Lt, "le": sympy.Le, "gt": sympy.Gt,
                 "ge": sympy.Ge}
    if op in relations:
        truth = _truth_test(op, left, right)
        if truth is not None:
            return truth
        chosen = _choice_test(relations[op], left, right)
        if chosen is not None:
            return chosen
        relation = _relation(relations[op], left, right)
        if _floating(node.left) or _floating(node.right):
            return _float_relation(relation, left, right)
        return relation
    if op == "and":
        return sympy.And(left, right)
    if op == "or":
        return sympy.Or(left, right)
    return None


def _shifted(op: str, left, right) -> sympy.Expr | None:
    """C's `a << b` as a * 2**b and `a >> b` as floor(a / 2**b) (gcc shifts a negative value arithmetically),
    for a shift count that is not negative (`1 << P` of an FFT's size); None for a negative or non-integer
    count, which C leaves undefined."""
    if getattr(right, "is_integer", None) is False or getattr(right, "is_negative", None) or \
            getattr(left, "is_integer", None) is False:
        return None
    scale = sympy.Integer(2) ** right
    return left * scale if op == "shl" else sympy.floor(left / scale)


def _masked(left, right) -> sympy.Expr | None:
    """C's `a & m` for a mask m = 2**k - 1 (`i & 3`, a switch on an index's low bits) as a mod 2**k, which two's
    complement makes exact for a negative a too; None for other masks or a value that is not an integer."""
    for value, mask in ((left, right), (right, left)):
        if getattr(mask, "is_Integer", False) and mask >= 0 and int(mask) & (int(mask) + 1) == 0 \
                and getattr(value, "is_integer", None):
            return sympy.Integer(0) if mask == 0 else mod(value, mask + 1)
    return None


def _choice_test(kind: type, left, right) -> sympy.Basic | None:
    """A comparison of a value chosen by conditions (`INFO` set to 1 .. 11 by a chain of ELSE IFs, else 0) with
    a number, as the conditions under which the chosen value passes: `INFO .NE. 0` is `c1 | c2 | ...`, not a
    Piecewise inside a relation, which sympy's Piecewise takes seconds to canonicalize. The first matching
    condition chooses; a piece that passes needs only the failing pieces before it to have failed. None
    where neither side is such a choice of numbers."""
    for choice, other, flip in ((left, right, False), (right, left, True)):
        if isinstance(choice, sympy.Piecewise) and getattr(other, "is_Number", False) \
                and all(v.is_Number for v, _ in choice.args):
            passing: list[sympy.Basic] = []
            failed: list[sympy.Basic] = []
            for value, cond in choice.args:
                holds = kind(other, value) if flip else kind(value, other)
                if holds is sympy.true:
                    passing.append(sympy.And(cond, *(sympy.Not(c) for c in failed)))
                else:
                    failed.append(cond)
            return sympy.Or(*passing)
    return None


def _relation(kind: type, left, right) -> sympy.Basic:
    """kind(left, right), as sympy builds it. A relation that is seen to hold at some values of its symbols
    and to fail at others is built unevaluated at once (an order between sides whose difference takes both
    signs, `i < j`; an equation whose sides differ by 0 and by something else, `i == n/2`): sympy arrives
    there too, after asking its assumptions about the difference for milliseconds."""
    left, right = sympy.sympify(left), sympy.sympify(right)
    if isinstance(left, sympy.Expr) and isinstance(right, sympy.Expr) and (free_symbols(left) or free_symbols(right)):
        open_ = takes_zero_and_other if kind in (sympy.Eq, sympy.Ne) else takes_both_signs
        if open_(left - right):
            return kind(left, right, evaluate=False)
    return kind(left, right)


def _truth_test(op: str, left, right):
    """C's `if (flag)` is `flag != 0`: for a flag holding a condition (`usecel = m >= 3`) that is the
    condition itself (sympy would call a relational unequal to 0 always). None where neither side is one."""
    for flag, other in ((left, right), (right, left)):
        if isinstance(flag, sympy.logic.boolalg.Boolean) and not isinstance(flag, sympy.Symbol) \
                and other in (0, 1) and op in ("eq", "ne"):
            return flag if (op == "ne") == (other == 0) else sympy.Not(flag)
    return None


def _data_element(decl: ir.Variable, subscripts: list, language: str) -> ir.Expr | None:
    """The DATA (or initialiser) value of one element, when DATA gives the whole array in storage order."""
    if not decl.data or not decl.dims or len(subscripts) != len(decl.dims):
        return None
    bounds = []
    for dim in decl.dims:
        first, last = (dim[0], dim[1]) if isinstance(dim, (list, tuple)) and len(dim) == 2 else (None, None)
        if not (isinstance(first, ir.Const) and isinstance(first.value, (int, float))
                and isinstance(last, ir.Const) and isinstance(last.value, (int, float))):
            return None
        bounds.append((int(first.value), int(last.value)))
    order = list(range(len(bounds))) if language == "fortran" else list(reversed(range(len(bounds))))
    offset, stride = 0, 1
    for d in order:
        lo, hi = bounds[d]
        if not lo <= int(subscripts[d]) <= hi:
            return None
        offset += (int(subscripts[d]) - lo) * stride
        stride *= hi - lo + 1
    return decl.data[offset] if len(decl.data) == stride else None


def _truncated_quotient(a, b):
    """Fortran's and C's integer division truncates toward zero (-5/2 is -2, not floor's -3). Numbers are
    divided exactly; a quotient of known sign is floor or ceiling; one of unknown sign (a run-time value)
    is taken as non-negative, the case of sizes and counts, and documented as such."""
    q = sympy.sympify(a) / sympy.sympify(b)
    if q.is_Number:
        return sympy.Integer(int(q))  # int() of a sympy Rational truncates toward zero
    if q.is_nonpositive:
        return sympy.ceiling(q)
    return sympy.floor(q)


def _sign_assumed(op: str, a, b) -> bool:
    """True when `_truncated_quotient` (op "div") or `_truncated_mod` ("mod") can resolve a, b only by
    taking operands of unknown sign as non-negative (floor, sympy's Mod)."""
    try:
        a, b = sympy.sympify(a), sympy.sympify(b)
        if op == "div":
            q = a / b
            return not q.is_Number and q.is_nonpositive is not True and q.is_nonnegative is not True
        if (a.is_Number and b.is_Number) or (a.is_nonpositive and b.is_nonzero) or b.is_negative:
            return False
        return not (a.is_nonnegative and b.is_positive)
    except (TypeError, ValueError, AttributeError):
        return False


def _operand(x) -> str:
    return str(x) if x.is_Atom or x.is_Function else f"({x})"


def _truncated_mod(a, b):
    """Fortran MOD and C %: a - trunc(a/b)*b, the sign of the dividend (MOD(-5, 4) is -1; sympy's Mod,
    like floor division, gives 3)."""
    a, b = sympy.sympify(a), sympy.sympify(b)
    if a.is_Number and b.is_Number:
        return a - sympy.Integer(int(a / b)) * b
    if (a.is_nonpositive and b.is_nonzero) or b.is_negative:
        return a - _truncated_quotient(a, b) * b
    return mod(a, b)


_FLOATING = ("real", "double", "complex")
_ROUNDING = sympy.Rational(1, 10**6)  # relative margin below which a computed value may be rounding noise


def _floating(node: ir.Expr) -> bool:
    return getattr(node, "type", None) in _FLOATING


def _float_relation(relation, left, right):
    """A comparison of floating-point values. The values here are exact rationals; the program computes
    in rounded arithmetic (4/3 - 1 times 3 is not 1 there: the EPSLON idiom). A comparison is decided only
    when the two sides differ by more than rounding could explain; otherwise it is a run-time condition."""
    if relation not in (sympy.true, sympy.false):
        return relation
    diff = sympy.sympify(left - right)
    if not diff.is_Number:
        return None
    scale = max(abs(sympy.sympify(left)), abs(sympy.sympify(right))) if sympy.sympify(left).is_Number \
        and sympy.sympify(right).is_Number else None
    if scale is None or diff == 0 or abs(diff) <= _ROUNDING * scale:
        return None
    return relation


# IEEE 754 binary32 and binary64, the model numbers gfortran gives REAL and DOUBLE PRECISION:
# (RADIX, DIGITS, MINEXPONENT, MAXEXPONENT)
_MODEL = {"real": (2, 24, -125, 128), "double": (2, 53, -1021, 1024)}


_MODEL_NUMBERS = ("EPSILON", "TINY", "HUGE", "RADIX", "DIGITS", "MINEXPONENT", "MAXEXPONENT")


def _model_number(name: str, arg_type: str):
    """EPSILON, TINY, HUGE, RADIX, DIGITS, MINEXPONENT, MAXEXPONENT of a real kind, exactly; None for other
    kinds (an integer's HUGE is not needed here)."""
    if arg_type not in _MODEL:
        return None
    radix, digits, emin, emax = _MODEL[arg_type]
    two = sympy.Integer(radix)
    return {"EPSILON": two ** (1 - digits), "TINY": two ** (emin - 1),
            "HUGE": (1 - two ** -digits) * two ** emax, "RADIX": two, "DIGITS": sympy.Integer(digits),
            "MINEXPONENT": sympy.Integer(emin), "MAXEXPONENT": sympy.Integer(emax)}.get(name)


def _intrinsic(name: str, args: list, arg_type: str):
    if name in ("MAX", "MIN"):
        try:
            return extremes.maximum(*args) if name == "MAX" else extremes.minimum(*args)
        except ValueError:
            # sympy orders only what it knows to be real: DMIN1(IPMPAR(3), 1/SPMPAR(1)) in cdflib's PSI,
            # a function's result kept as its call, was an internal error; its value is not traced
            return None
    if name == "ABS":
        return sympy.Abs(args[0])
    if name == "MOD" and len(args) == 2:
        return _truncated_mod(args[0], args[1])
    if name in ("REAL", "DBLE", "FLOAT", "SNGL", "CMPLX") and len(args) == 1:
        return args[0]
    if name in ("INT", "IFIX", "IDINT"):
        return args[0] if arg_type == "integer" else sympy.floor(args[0])
    if name in ("NINT", "IDNINT"):
        return sympy.floor(args[0] + sympy.Rational(1, 2))
    if name == "SQRT":
        return sympy.sqrt(args[0])
    if name in ("LOG10", "ALOG10", "DLOG10", "LOG", "ALOG", "DLOG") and len(args) == 1:
        # DLABAD's `LOG10(LARGE).GT.2000` on DLAMCH's overflow threshold: of a known number, a number (a
        # symbolic log(100000) is compared with nothing)
        value = sympy.log(args[0], 10) if "10" in name else sympy.log(args[0])
        return value.evalf() if args[0].is_Number and args[0] > 0 else value
    return None


def _clobbers(stmt: ir.Stmt, before: sympy.Expr) -> sympy.Expr:
    """A definition whose value cannot be told (sad.analysis.conditional's CLOBBERED)."""
    return conditional.CLOBBERED


def _call_before(proc: ir.Procedure, at: ir.Stmt, node: ir.Expr, modified: ModifiedFormals | None
                 ) -> ir.CallStmt | None:
    """The CALL passing `node` (as written) that comes straight before statement `at` in `proc`: in the same
    statement list, or before the IF whose arm `at` is in, with no label on the way and no other statement
    writing the variable; None otherwise."""
    path = ir.path_to(proc.body, at)
    if path is None:
        return None
    name = node.name if isinstance(node, (ir.Var, ir.ArrayRef)) else ""
    for depth in range(len(path) - 1, -1, -1):
        stmts, k = path[depth]
        for j in range(k, -1, -1):
            if stmts[j].label is not None and (j < k or depth == len(path) - 1):
                return None
            if j == k:
                continue
            stmt = stmts[j]
            if isinstance(stmt, ir.CallStmt) and _written_at(stmt, node, modified) is not None:
                return stmt
            if _writes(stmt, name, modified):
                return None
        if depth == 0 or not isinstance(path[depth - 1][0][path[depth - 1][1]], ir.If):
            return None  # the top of a loop body: an earlier trip comes before it too
    return None


def _written_at(call: ir.CallStmt, node: ir.Expr, modified: ModifiedFormals | None) -> int | None:
    """The position where a CALL passes `node` (as written) to an argument the callee may write, or None."""
    return next((pos for pos, a in enumerate(call.args)
                 if a == node and (modified is None or modified.may_modify(call.name, pos))), None)


def _ahead(proc: ir.Procedure, places: dict[int, Place], start: ir.Stmt, use: ir.Stmt) -> bool:
    """Whether `start` comes before `use` in the source, or both are in one DO loop (its next trip): the
    reach of an assignment after the use through a backward GO TO (DLASQ2's `E = ZERO` of its later
    phase, taken to reach the test of the first) is not counted as a constant the use may see."""
    first, then = places.get(id(start)), places.get(id(use))
    if first is not None and then is not None and first.order < then.order:
        return True
    around = {id(stmts[k]) for stmts, k in ir.path_to(proc.body, use) or [] if isinstance(stmts[k], ir.Do)}
    return any(id(stmts[k]) in around for stmts, k in ir.path_to(proc.body, start) or [])


def _refilled(proc: ir.Procedure, places: dict[int, Place], start: ir.Stmt, use: ir.Stmt, name: str) -> bool:
    """Whether a DO loop on the way from `start` to `use` (in a statement list around `use`, after `start`)
    assigns `name` on every trip: an accumulator set before its loop (SPBRFS's `LSTRES = ZERO`, then
    `LSTRES = MAX(LSTRES, ABS(X(I,J)))`) holds what the loop left, its first value only where the loop
    runs no trip, which sizes, taken as positive, do not make."""
    loops = [loop for stmts, k in ir.path_to(proc.body, use) or [] for loop in stmts[:k]
             if isinstance(loop, ir.Do) and any(isinstance(s, ir.Assign) and isinstance(s.target, ir.Var)
                                                and s.target.name == name for s in loop.body)]
    first = places.get(id(start))
    return first is not None and any(places[id(loop)].order > first.order for loop in loops)


def _writes(stmt: ir.Stmt, name: str, modified: ModifiedFormals | None) -> bool:
    """Whether a statement (or one inside it) may write the variable `name`: an assignment, a READ passing
    it, a CALL passing it to an argument the callee may write."""
    for inner in ir.walk_stmts([stmt]):
        if isinstance(inner, ir.Assign) and isinstance(inner.target, (ir.Var, ir.ArrayRef)) \
                and inner.target.name == name:
            return True
        if isinstance(inner, ir.IO) and any(isinstance(a, (ir.Var, ir.ArrayRef)) and a.name == name
                                            for a in inner.targets):
            return True
        if isinstance(inner, ir.CallStmt) and any(
                isinstance(a, (ir.Var, ir.ArrayRef)) and a.name == name
                and (modified is None or modified.may_modify(inner.name, pos)) for pos, a in enumerate(inner.args)):
            return True
    return False


def _jumps_back_in_arms(proc: ir.Procedure) -> bool:
    """Whether every backward jump of a routine stays in one IF arm with the label it goes to (DLARFG's
    rescaling loop `10 CONTINUE ... IF (...) GO TO 10` inside `IF (ABS(BETA).LT.SAFMIN)`): the symbolic runs
    of sad.analysis.conditional skip an arm that is never taken and give up in one that is."""
    order = {id(stmt): k for k, stmt in enumerate(ir.walk_stmts(proc.body))}
    labels = {stmt.label: stmt for stmt in ir.walk_stmts(proc.body) if stmt.label is not None}
    arms = [arm.body for stmt in ir.walk_stmts(proc.body) if isinstance(stmt, ir.If)
            for arm in [*stmt.arms, ir.IfArm(ir.Const(True), stmt.orelse or [])]]
    for stmt in ir.walk_stmts(proc.body):
        targets = [labels.get(t) for t in ir.jump_targets(stmt)] if isinstance(stmt, (ir.Goto, ir.ComputedGoto,
                                                                                        ir.ArithmeticIf)) else []
        if isinstance(stmt, ir.AssignedGoto):
            return False
        for target in targets:
            if target is None or order[id(target)] > order[id(stmt)]:
                continue
            if not any(any(s is stmt for s in ir.walk_stmts(body)) and any(s is target for s in ir.walk_stmts(body))
                       for body in arms):
                return False
    return True
