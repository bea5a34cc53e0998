"""Stored elements: which elements of an array hold the constant the program stored there, as a condition on
the element's subscript, so that a test of an element is decided per element instead of staying open.

Data flow: sad.analysis.storedconstants says which constants a storage may hold, by whole array; a test of
data on an array that may hold one stays open (sad.analysis.values). Before that, values asks here for the
array's element rule: "the elements whose subscript on one axis is at least B (or at most B) hold the
constant, the others data". The test `TAU(I).EQ.ZERO` is then the index test `I >= B` (`I <= B`), which the
builder counts exactly like any test of an index (1 where it holds, 0 elsewhere). B is a formula in the
routine's own symbols: for an array a routine reads and never writes, a symbol of its own
(`DLARFT.TAU@zero`, "the first element that holds the constant", or the last for a rule "up to B") that each
call binds like a formal argument (sad.analysis.calls asks `bindings`); a call that cannot tell its value
leaves it unbound, and the test is then the arm's named probability at that call, as before.

Where the rules come from (a routine's "own" rule for an array formal it writes):
- a call that passes the element A(I), I a DO index, to a scalar floating formal the callee returns a
  constant in under a condition on its formals, data otherwise (DLARFG's TAU: ZERO where N <= 1): with the
  call's actuals (N = M - I + 1) the condition on I, solved for I, is I >= B (B = M: DGEQR2's TAU), or
  I <= B (N - K + I <= 1, B = K - N + 1: DGERQ2's, whose loop runs down);
- a copy A(I) = S of a scalar the call just before it in the same statement list set that way, as if the
  call had been passed A(I) (DSYTD2's `TAU(I) = TAUI` after DLARFG(I, ..., TAUI));
- a call that passes A or A(J) (one-dimensional) to an array formal the callee has a rule for: the callee's
  B bound to the call's actuals, shifted by J - 1 (DGEQRF's TAU from DGEQR2's at TAU(I): (M - I + 1) + I - 1
  = M), where that does not depend on the caller's loop indices once the Min and Max that only seem to are
  settled (sad.analysis.settle: DGERQF's blocks of DGERQ2, each K - N + 1 since I >= 1 for TAU(I)), the
  callee's formals taken as the call sees them where they are set in several places (DGERQF's MU and NU);
  all such calls must agree;
- a constant stored in the arm of `IF (X(I).EQ.C)` where X has a rule and C is its constant, into elements
  whose subscript on one axis is I (DLARFT's `T(J,I) = ZERO`: T's columns from B on hold zero).
Every other write of the array must be data: a computed value, or a call whose callee leaves no stored
constant in that formal (sad.analysis.storedconstants); one constant stored anywhere else, a copy of a
scalar that may hold one with no such call before it, or rules that differ, and the array has no rule.
Rules that differ only between the arms of one IF outside the loops, each arm's writes agreeing, are one
rule whose bound is chosen by the arm: DGEBD2's TAUP, zero from N - 1 on where M >= N, from N on where
M < N, is "from Piecewise((N - 1, M >= N), (N, True)) on"; a caller binds the choice like any bound.

What a caller binds a callee's `@zero` symbol to, for the actual X or X(J): the caller's own `@zero` of X
shifted by J - 1 where X is an array it only reads; else the rule an earlier call in the same loops left in
the very same actual, an array and its first element being the same (DGELS's WORK(1), filled by DGEQRF
as TAU, passed to DORMQR as TAU; DORMQR's WORK(IWT), DLARFT's T, then DLARFB's; DGGLSE's WORK, DGGRQF's
TAUA, then DORMRQ's WORK(1)); else the caller's own rule of X shifted by J - 1 where every write
of X that gives a rule comes before the call. Axes other than the first are bound only between arrays of
the same leading dimension, at the same column offset.

A routine whose writes give different rules on the arms of its options (DSYTD2's TAU: up to 1 where UPLO =
'U', from N - 1 on where 'L') has a rule for each option: a call that passes the option as a constant (or
passes on its caller's, so known) gets the rule of the arms that option takes (DSYTRD('U') calling
DLATRD and DSYTD2 with its UPLO).

A routine that reads an array is called with the rules its callers' actuals carry, one symbol for all of
them: each call binds it by the rule its own actual carries. A statement of the routine (a test, a call
passing the array on) has the rule of the calls that run it, those whose CHARACTER options take the arms it
is in: DORGTR called after DSYTD2('U') and again after DSYTD2('L') calls DORGQL only where UPLO = 'U', so
DORGQL's TAU has the rule of the 'U' call, "up to B", and DORGQR's that of the 'L' call, "from B on".

Known limits: a rule has one of two forms, "from B on" or "up to B" along one axis; other conditions (one
element, every other one) give no rule. A statement run by calls whose rules differ has none (a routine
that passes the array on from one place under both options), nor does a routine whose calls carry rules of
two forms where another passes data only. It says nothing of the other
subscripts: DLARFT's zero column is rows 1 to I of column I, the triangle DTRMM reads of it; the rows below
are taken as zero too.
Elements of a rule's axis past those the routine writes are taken as the rule says (TAU past
K = MIN(M, N) in a wide QR: no routine reads them). MIN(X, V) for a running maximum V never below X
(sad.analysis.values) takes V's first value to come from an assignment in the same call. An actual that an
earlier call filled is taken to be that call's storage alone: a work array passed on at two starts
(DGELS's WORK(1) and WORK(MN+1)) is two arrays, as LAPACK's partitions of its work arrays are; what the
call at the other start leaves does not reach a reader of the first.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import sympy

from sad import ir
from sad.analysis import characters, genericdata
from sad.analysis.counting import solved_relation
from sad.analysis.freesymbols import free_symbols
from sad.analysis.journal import Journal
from sad.analysis.params import make_symbol
from sad.analysis.products import tree_size
from sad.analysis.settle import settled
from sad.analysis.storedconstants import StoredConstants, base_name, constant_of, written_formals
from sad.ir.languages import resolve_name

if TYPE_CHECKING:
    from sad.analysis.values import ValueResolver

_ELEMENT = sympy.Symbol("element@", integer=True)  # the subscript a rule is solved for
_ZERO = "@zero"  # the suffix of a first-zero-element symbol's name
_PENDING = object()  # a rule being worked out: a cycle of calls asks for it again (no rule there)
# the largest choice of values a start passed in several places is bound as (DORGLQ's KK + 1, 0 or where its
# blocked loop ends with the block size chosen by ILAENV and the workspace: 176 nodes); the largest bound a
# rule keeps
_START_NODES = 400
# the largest such value a callee's bound is bound to before it is simplified (DGERQF's MU: 560 nodes, M or
# M plus where its blocked loop stopped, the bound K - N + 1 in the end)
_PASSED_NODES = 2000


@dataclass(frozen=True)
class Rule:
    """The elements of an array whose subscript on `axis` (0: the first) is at least `bound` (`upward`), or
    at most `bound` (not `upward`), hold `constant`; the others hold data."""
    constant: sympy.Number
    axis: int
    bound: sympy.Expr
    upward: bool = True

    def holds(self, subscript: sympy.Expr) -> sympy.Basic:
        """Where the element at `subscript` (on the rule's axis) holds the constant."""
        return sympy.Ge(subscript, self.bound) if self.upward else sympy.Le(subscript, self.bound)

    def shape(self) -> tuple[sympy.Number, int, bool]:
        """What two rules must share to be the same but for their bounds."""
        return self.constant, self.axis, self.upward


class Filled(NamedTuple):
    """An earlier call that filled an actual: the callee's formal and the rule it leaves there."""
    call: ir.CallStmt
    callee: ir.Procedure
    formal: str
    rule: Rule


Resolver = Callable[[ir.Procedure], "ValueResolver"]  # a routine's value backtracer (sad.analysis.values)
# the CHARACTER options a call passes as constants: (the callee's formal's storage name, its code), sorted
Options = tuple[tuple[str, int], ...]


class StoredElements:
    """The element rules of a program's floating arrays, worked out on first use and kept."""

    def __init__(self, program: ir.Program, procs: dict[str, ir.Procedure], resolver: Resolver,
                 stored: StoredConstants, sites: Callable[[], dict], journal: Journal) -> None:
        self._program = program
        self._journal = journal  # the answers a build takes, noted for summaries
        self._procs = procs
        self._resolver = resolver
        self._stored = stored  # which constants each storage may hold, by whole array
        self._sites = sites
        self._written = written_formals(program, procs)
        self._own: dict[tuple, object] = {}  # (routine, array, options) → its rule, None or _PENDING
        self._read: dict[tuple, object] = {}
        self._sites_of: dict[tuple[str, str], object] = {}  # (routine, array) → its calls' rules (site_rules)
        self._running_at: dict[tuple[str, int], tuple[int, ...] | None] = {}  # (routine, id(statement)) → _running
        self._runs: dict[tuple, frozenset[int]] = {}  # (routine, options) → the statements they run

    # ------------------------------------------------------------------ what values and calls ask
    def read_rule(self, proc: ir.Procedure, name: str, at: ir.Stmt | None = None) -> Rule | None:
        """The rule of an array formal `proc` reads and never writes, its bound the symbol each call binds;
        None where no call can tell one. With `at`, a statement of `proc`: the rule of the calls that run it
        (those whose CHARACTER options take the arms it is in), so that DORGTR's call of DORGQL, run where
        UPLO = 'U', has the rule of the calls that pass 'U' even where another call passes 'L'."""
        running = self._running(proc, at) if at is not None else None
        with self._journal.deriving():
            rule = _worked_out(self._read, proc, name, lambda p, n: self._read_rule(p, n, running), running or ())
        self._journal.note(("read rule", resolve_name(proc.name), name, _place(at)), rule)
        return rule

    def statement_at(self, proc: ir.Procedure, place: tuple | None) -> ir.Stmt | None:
        """The statement of `proc` at a place `_place` gave (the journal's questions name statements so)."""
        if place is None:
            return None
        return next((stmt for stmt, _, _ in _statements(proc.body) if _place(stmt) == place), None)

    def zero_symbols(self, proc: ir.Procedure) -> list[sympy.Symbol]:
        """The `@zero` symbols of `proc`'s formals, in the order of its formals."""
        return [zero_symbol(proc, f) for f in proc.formals if self.site_rules(proc, f) is not None]

    def pseudo_names(self, proc: ir.Procedure) -> set[str]:
        """The names of the `@zero` symbols of `proc`'s formals (formal arguments for the fallbacks)."""
        return {zero_name(proc, f) for f in proc.formals if self.site_rules(proc, f) is not None}

    def bindings(self, caller: ir.Procedure, callee: ir.Procedure, args: list[ir.Expr], at: ir.Stmt,
                 index: dict) -> dict[sympy.Symbol, sympy.Expr]:
        """The callee's `@zero` symbols bound to what this call passes (`index`: the caller's loop indices
        as the builder names them); the symbols a call cannot tell are left out."""
        out = {}
        for pos, formal in enumerate(callee.formals):
            if pos >= len(args) or self.site_rules(callee, formal) is None:
                continue
            value = self.bound_at(caller, at, args[pos], callee, formal, index)
            if value is not None:
                out[zero_symbol(callee, formal)] = value
        return out

    # ------------------------------------------------------------------ rules of arrays a routine reads
    def _read_rule(self, proc: ir.Procedure, name: str, running: tuple[int, ...] | None) -> Rule | None:
        """The rule of the calls `running` names (by their place among the routine's calls; None: all)."""
        rules = self.site_rules(proc, name)
        if rules is None:
            return None
        found = {rule.shape() for i, rule in enumerate(rules)
                 if rule is not None and (running is None or i in running)}
        if not found:  # the calls that run it pass data only: bound beyond every element, as all the calls
            found = {rule.shape() for rule in rules if rule is not None}
        if len(found) != 1:
            return None  # calls that differ
        constant, axis, upward = found.pop()
        return Rule(constant, axis, zero_symbol(proc, name), upward)

    def site_rules(self, proc: ir.Procedure, name: str) -> tuple[Rule | None, ...] | None:
        """For each call of `proc`, in the order of `_calls_of`, the rule its actual carries into the formal
        `name` (None: it passes storage that holds no stored constant), bound in the routine's `@zero`
        symbol; None where the formal has none: no array formal it only reads, a call that carries no rule,
        or one that cannot bind the symbol. Noted in the journal (ProgramFacts.asked_again asks again)."""
        key = (resolve_name(proc.name), name)
        if key not in self._sites_of:
            self._sites_of[key] = _PENDING
            with self._journal.deriving():
                self._sites_of[key] = self._worked_out_sites(proc, name)
        found = self._sites_of[key]
        rules = found if isinstance(found, tuple) else None
        self._journal.note(("site rules", *key), rules)
        return rules

    def _worked_out_sites(self, proc: ir.Procedure, name: str) -> tuple[Rule | None, ...] | None:
        decl = proc.variables.get(name)
        if decl is None or not decl.dims or name not in proc.formals or not genericdata.floating(decl.type) \
                or name in self._written.get(resolve_name(proc.name), ()) or proc.language != "fortran" \
                or not self._stored.of(proc, name):
            return None  # no array formal it only reads, or one that holds no stored constant at all
        pos = proc.formals.index(name)
        sites = self._calls_of(proc)
        if not sites or not all(pos < len(stmt.args) for _, stmt in sites):
            return None  # a routine no one calls, or one passed as a function: no call binds the symbol
        symbol = zero_symbol(proc, name)
        shapes = [None if self._no_constant(caller, stmt.args[pos])
                  else self._passed_shape(caller, stmt, stmt.args[pos], proc, name) for caller, stmt in sites]
        carried = {shape for shape in shapes if shape is not None}
        if not carried or any(shape is None and not self._no_constant(caller, stmt.args[pos])
                              for shape, (caller, stmt) in zip(shapes, sites)):
            return None  # a call that tells none (the test stays open at every call)
        if len(carried) > 1 and None in shapes:
            return None  # data only at one call: bound beyond every element, which way depends on the rule
        rules = tuple(Rule(shape[0], shape[1], symbol, shape[2]) if shape is not None else None for shape in shapes)
        constant, axis, upward = next(iter(carried))
        anyone = Rule(constant, axis, symbol, upward)  # a call passing data binds beyond every element
        # every call must be able to bind the symbol: one left free would leave the counts unbound where
        # the test's probability was (a summed index test keeps no arm for that probability to replace)
        for rule, (caller, stmt) in zip(rules, sites):
            index = _opaque(_loops_of(caller, stmt), stmt.args[pos])
            if self._bound_with(rule or anyone, caller, stmt, stmt.args[pos], proc, name, index) is None:
                return None
        return rules

    def _calls_of(self, proc: ir.Procedure) -> list[tuple[ir.Procedure, ir.CallStmt]]:
        """The routine's call sites (CALL statements), in program order; [] where one is not a CALL (a
        routine passed as a function: no call binds its symbols)."""
        sites = [(caller, stmt) for caller, stmt, _ in self._sites().get(resolve_name(proc.name), [])]
        if not all(isinstance(stmt, ir.CallStmt) and resolve_name(stmt.name) == resolve_name(proc.name)
                   for _, stmt in sites):
            return []
        return sites

    def _running(self, proc: ir.Procedure, at: ir.Stmt) -> tuple[int, ...] | None:
        """The calls of `proc` (by place in `_calls_of`) whose CHARACTER options let `at` run; None where
        every call may."""
        key = (resolve_name(proc.name), id(at))
        if key not in self._running_at:
            self._running_at[key] = self._worked_out_running(proc, at)
        return self._running_at[key]

    def _worked_out_running(self, proc: ir.Procedure, at: ir.Stmt) -> tuple[int, ...] | None:
        sites = self._calls_of(proc)
        running = []
        for i, (caller, stmt) in enumerate(sites):
            options = self.options_at(caller, stmt, proc)
            if not options or id(at) in self._run_under(proc, options):
                running.append(i)
        return None if len(running) == len(sites) else tuple(running)

    def _run_under(self, proc: ir.Procedure, options: Options) -> frozenset[int]:
        """The statements (by id) of `proc` that may run with the options' values."""
        key = (resolve_name(proc.name), options)
        if key not in self._runs:
            arms = self._arms_taken(proc, dict(options))
            self._runs[key] = frozenset(id(stmt) for stmt, _, _ in _statements(proc.body, arms=arms))
        return self._runs[key]

    def _call_rule(self, callee: ir.Procedure, formal: str, caller: ir.Procedure, at: ir.Stmt) -> Rule | None:
        """The rule this call of `callee` binds its `@zero` of `formal` for: its own actual's."""
        rules = self.site_rules(callee, formal)
        if rules is None:
            return None
        place = next((i for i, (_, stmt) in enumerate(self._calls_of(callee)) if stmt is at), None)
        if place is None or rules[place] is None:
            return self.read_rule(callee, formal)
        return rules[place]

    def _passed_shape(self, caller: ir.Procedure, stmt: ir.CallStmt, arg: ir.Expr, callee: ir.Procedure,
                      formal: str) -> tuple[sympy.Number, int, bool] | None:
        """(constant, axis, upward) of the rule the caller's actual carries into the callee's formal, or
        None."""
        carried = self._carried(caller, stmt, arg)
        if carried is None:
            return None
        rule, mine = carried
        theirs = callee.variables[formal].dims or []
        if rule.axis >= len(theirs) or (mine != len(theirs) and rule.axis != 0):
            return None
        if rule.axis == 0 and len(theirs) != 1:
            return None  # a column of a one-dimensional rule: a vector in a matrix's storage
        return rule.shape()

    def _carried(self, caller: ir.Procedure, stmt: ir.Stmt, arg: ir.Expr) -> tuple[Rule, int] | None:
        """The rule the caller knows for the storage an actual names, with the rank of the array its axis
        counts in: the caller's array, or for an actual an earlier call filled, that callee's formal."""
        name = base_name(arg)
        if name is None:
            return None
        read = self.read_rule(caller, name, stmt)
        if read is not None:
            return read, _rank(caller, arg, self._procs)
        filled = self._filler(caller, stmt, arg)
        if filled is not None:
            return filled.rule, len(filled.callee.variables[filled.formal].dims or [])
        own = self.own_rule(caller, name) if self._before_all_writes(caller, stmt, name) else None
        return (own, _rank(caller, arg, self._procs)) if own is not None else None

    def _no_constant(self, caller: ir.Procedure, arg: ir.Expr) -> bool:
        """Whether the storage an actual names holds no stored constant at all (storedconstants)."""
        name = base_name(arg)
        return name is not None and not self._stored.of(caller, name)

    # ------------------------------------------------------------------ what a caller binds
    def bound_at(self, caller: ir.Procedure, at: ir.Stmt, arg: ir.Expr, callee: ir.Procedure, formal: str,
                 index: dict) -> sympy.Expr | None:
        """The value of the callee's `@zero` of `formal` at this call, in the caller's symbols; None where the
        call cannot tell it."""
        rule = self._call_rule(callee, formal, caller, at)
        return self._bound_with(rule, caller, at, arg, callee, formal, index) if rule is not None else None

    def _bound_with(self, rule: Rule, caller: ir.Procedure, at: ir.Stmt, arg: ir.Expr, callee: ir.Procedure,
                    formal: str, index: dict) -> sympy.Expr | None:
        name = base_name(arg)
        if name is None:
            return None
        if self._no_constant(caller, arg):
            # data only (DLARFB's V passed to DTRMM's A where others pass T): no element
            return sympy.oo if rule.upward else -sympy.oo
        resolver = self._resolver(caller)
        read = self.read_rule(caller, name, at)
        if read is not None:
            return self._shifted(read, rule, resolver, caller, at, arg, callee, formal, index)
        filled = self._filler(caller, at, arg)
        if filled is not None:
            if filled.rule.shape() != rule.shape():
                return None
            if rule.axis > 0 and not self._same_leading(resolver, filled.call, filled.callee, filled.formal,
                                                        at, callee, formal, index):
                return None
            return self._at_call(filled.rule.bound, caller, filled.call, filled.callee, index)
        own = self.own_rule(caller, name)
        if own is None or not self._before_all_writes(caller, at, name):
            return None
        return self._shifted(own, rule, resolver, caller, at, arg, callee, formal, index)

    def _shifted(self, mine: Rule, theirs: Rule, resolver, caller: ir.Procedure, at: ir.Stmt, arg: ir.Expr,
                 callee: ir.Procedure, formal: str, index: dict) -> sympy.Expr | None:
        """The caller's bound as the callee's elements count: less the start's offset on the rule's axis."""
        if mine.shape() != theirs.shape():
            return None
        dims = caller.variables[base_name(arg) or ""].dims or []
        if len(dims) != len(callee.variables[formal].dims or []):
            return None
        if mine.axis > 0 and not self._leading_matches(resolver, caller, at, arg, callee, formal, index):
            return None
        start = _subscript(arg, mine.axis)
        offset = _passed(resolver, start, at, index) if start is not None else sympy.Integer(1)
        if offset is None:
            return None
        return mine.bound - offset + 1

    def _at_call(self, bound: sympy.Expr, caller: ir.Procedure, call: ir.CallStmt, callee: ir.Procedure,
                 index: dict, chosen: int = 0) -> sympy.Expr | None:
        """A callee's bound with its formals (and its own `@zero` symbols) as the call passes them; a formal
        passed a variable assigned in several places, as its value at the call where that has at most
        `chosen` nodes (else not known)."""
        resolver = self._resolver(caller)
        subs = {}
        named = {s.name: s for s in bound.free_symbols}
        for pos, formal in enumerate(callee.formals):
            if pos >= len(call.args):
                break
            mine = named.get(_storage(callee, formal))
            zero = zero_symbol(callee, formal)
            if mine is not None:
                value = _passed(resolver, call.args[pos], call, index, chosen)
                if value is None:
                    return None
                subs[mine] = value
            if bound.has(zero):
                value = self.bound_at(caller, call, call.args[pos], callee, formal, index)
                if value is None:
                    return None
                subs[zero] = value
        if any(s.name.startswith(f"{callee.name}.") for s in bound.free_symbols - set(subs)):
            return None  # another symbol of the callee (one of its locals): nothing the call binds
        return bound.xreplace(subs)

    def _leading_matches(self, resolver, caller: ir.Procedure, at: ir.Stmt, arg: ir.Expr,
                         callee: ir.Procedure, formal: str, index: dict) -> bool:
        """Whether the caller's array and the callee's formal have the same leading dimension at this call."""
        mine = (caller.variables[base_name(arg) or ""].dims or [(None, None)])[0][1]
        theirs = (callee.variables[formal].dims or [(None, None)])[0][1]
        if mine is None or theirs is None:
            return False
        value = resolver.expr(mine, index)
        passed = self._dimension_at(resolver, at, callee, theirs, index)
        return value is not None and passed is not None and sympy.expand(value - passed) == 0

    def _same_leading(self, resolver, writer: ir.CallStmt, wcallee: ir.Procedure, wformal: str,
                      reader: ir.Stmt, callee: ir.Procedure, formal: str, index: dict) -> bool:
        """Whether a writing callee's formal and a reading callee's have the same leading dimension, as
        the two calls pass them."""
        mine = (wcallee.variables[wformal].dims or [(None, None)])[0][1]
        theirs = (callee.variables[formal].dims or [(None, None)])[0][1]
        if mine is None or theirs is None:
            return False
        first = self._dimension_at(resolver, writer, wcallee, mine, index)
        second = self._dimension_at(resolver, reader, callee, theirs, index)
        return first is not None and second is not None and sympy.expand(first - second) == 0

    @staticmethod
    def _dimension_at(resolver, call: ir.Stmt, callee: ir.Procedure, dim: ir.Expr, index: dict
                      ) -> sympy.Expr | None:
        """A callee's declared dimension (a formal, or a constant) as a call passes it."""
        if isinstance(dim, ir.Const):
            return sympy.Integer(dim.value) if isinstance(dim.value, int) else None
        if isinstance(dim, ir.Var) and dim.name in callee.formals and isinstance(call, ir.CallStmt):
            pos = callee.formals.index(dim.name)
            return resolver.argument(call.args[pos], call, index) if pos < len(call.args) else None
        return None

    # ------------------------------------------------------------------ rules of arrays a routine writes
    def own_rule(self, proc: ir.Procedure, name: str, options: Options = ()) -> Rule | None:
        """The rule every write of `proc` to its array `name` leaves (bound in `proc`'s symbols), or None.
        With `options` (CHARACTER formals a call passes as constants), only the writes on the arms those
        options take count: DSYTD2's TAU is zero up to element 1 where UPLO = 'U', from N - 1 on where 'L',
        and has no one rule for both."""
        with self._journal.deriving():
            rule = _worked_out(self._own, proc, name, lambda p, n: self._own_rule(p, n, options), options)
        self._journal.note(("own rule", resolve_name(proc.name), name, options), rule)
        return rule

    def _own_rule(self, proc: ir.Procedure, name: str, options: Options) -> Rule | None:
        decl = proc.variables.get(name)
        if decl is None or not decl.dims or not genericdata.floating(decl.type) or proc.language != "fortran":
            return None
        arms = self._arms_taken(proc, dict(options)) if options else _every_arm
        rules = self._rules_in(proc, name, proc.body, arms, options)
        if rules is None or not rules:
            return None
        first = _agreed(rules)
        return first if first is not None else self._by_arm(proc, name, arms, options)

    def _rules_in(self, proc: ir.Procedure, name: str, body: list[ir.Stmt], arms: ArmsOf, options: Options,
                  guard: ir.IfArm | None = None) -> list[Rule] | None:
        """The rules the writes of `name` in `body` give; None where one stores a constant no rule tells."""
        rules: list[Rule] = []
        for stmt, loops, inner in _statements(body, guard=guard, arms=arms):
            found = self._writes(proc, name, stmt, loops, inner, options)
            if found is None:
                return None  # a constant stored where no rule tells which elements
            rules.extend(found)
        return rules

    def _by_arm(self, proc: ir.Procedure, name: str, arms: ArmsOf, options: Options) -> Rule | None:
        """One rule whose bound is chosen by the arm of an IF outside the loops that the writes take, where
        each arm's writes agree but the arms differ (DGEBD2's TAUP: from N - 1 on where M >= N, from N on
        where M < N): the bound a Piecewise of the arms' conditions. Every rule-giving write must be in that
        IF, and every path through it must write one (an ELSE)."""
        outside: list[ir.Stmt] = []
        split: ir.If | None = None
        for stmt in proc.body:
            if isinstance(stmt, ir.If) and self._rules_in(proc, name, [stmt], arms, options):
                if split is not None:
                    return None  # two IFs that write it: no one choice
                split = stmt
            else:
                outside.append(stmt)
        if split is None or self._rules_in(proc, name, outside, arms, options):
            return None
        pieces: list[tuple[sympy.Expr, sympy.Basic]] = []
        shapes = set()
        for body, arm in arms(split):
            rule = _agreed(self._rules_in(proc, name, body, arms, options, arm) or [])
            cond = sympy.true if arm is None else self._arm_condition(proc, arm, split)
            if rule is None or cond is None:
                return None
            shapes.add(rule.shape())
            pieces.append((rule.bound, cond))
        if len(shapes) != 1 or pieces[-1][1] is not sympy.true:
            return None  # arms of other forms, or a path with no write (no ELSE)
        constant, axis, upward = shapes.pop()
        return Rule(constant, axis, sympy.Piecewise(*pieces), upward)

    def _arm_condition(self, proc: ir.Procedure, arm: ir.IfArm, at: ir.If) -> sympy.Basic | None:
        """An arm's test as a condition on the routine's integer values (M >= N), or None."""
        value = self._resolver(proc).expr_at(arm.cond, at, {})
        if not isinstance(value, (sympy.Rel, sympy.And, sympy.Or, sympy.Not)) \
                or not all(s.is_integer for s in value.free_symbols):
            return None
        return value

    def _arms_taken(self, proc: ir.Procedure, options: dict[str, int]) -> ArmsOf:
        """The arms an IF runs with the options' values: the one they decide true (none after it), not those
        they decide false, every other."""
        def arms(stmt: ir.If) -> Iterator[tuple[list[ir.Stmt], ir.IfArm | None]]:
            for arm in stmt.arms:
                decided = self._decided(proc, arm.cond, stmt, options)
                if decided is sympy.false:
                    continue
                yield arm.body, arm
                if decided is sympy.true:
                    return
            if stmt.orelse:
                yield stmt.orelse, None
        return arms

    def _decided(self, proc: ir.Procedure, cond: ir.Expr, at: ir.Stmt, options: dict[str, int]
                 ) -> sympy.Basic | None:
        """A test's truth with the options' values (true or false), else the test's value or None."""
        value = self._resolver(proc).expr_at(cond, at, {})
        if not isinstance(value, sympy.Basic):
            return None
        bound = value.xreplace({s: sympy.Integer(options[s.name]) for s in free_symbols(value) if s.name in options})
        return bound if bound in (sympy.true, sympy.false) else value

    def options_at(self, caller: ir.Procedure, call: ir.CallStmt, callee: ir.Procedure,
                   known: Options = ()) -> Options:
        """The CHARACTER formals of `callee` this call passes as constants (a literal, or the caller's own
        option in `known`), as each is declared (the first character of 'Upper' for CHARACTER UPLO)."""
        resolver = self._resolver(caller)
        mine = dict(known)
        out = []
        for pos, formal in enumerate(callee.formals[:len(call.args)]):
            decl = callee.variables.get(formal)
            if decl is None or decl.type != "character" or decl.dims:
                continue
            value = resolver.argument(call.args[pos], call, {})
            if isinstance(value, sympy.Basic):
                value = value.xreplace({s: sympy.Integer(mine[s.name]) for s in value.free_symbols if s.name in mine})
            if isinstance(value, sympy.Integer):
                out.append((_storage(callee, formal), int(characters.truncated(value, decl.length))))
        return tuple(sorted(out))

    def _writes(self, proc: ir.Procedure, name: str, stmt: ir.Stmt, loops: list[ir.Do],
                guard: ir.IfArm | None, options: Options = ()) -> list[Rule] | None:
        """The rules one statement's writes of `name` give ([] for data, or no write); None where it stores
        a constant no rule tells the elements of."""
        if isinstance(stmt, ir.Assign) and isinstance(stmt.target, ir.ArrayRef) and stmt.target.name == name:
            constant = constant_of(stmt.value, proc)
            if constant is None and isinstance(stmt.value, ir.Var) and self._stored.of(proc, stmt.value.name):
                copied = self._copied(proc, stmt, loops)
                return [copied] if copied is not None else None
            if constant is None or id(stmt) not in self._stored.source_stores(proc):
                # data, or a fill outside any test of a stored constant (DGEHRD's TAU(1:ILO-1) = ZERO):
                # no source of stored constants (sad.analysis.storedconstants), so no rule's either
                return []
            guarded = self._guarded(proc, stmt.target, constant, guard, loops)
            return [guarded] if guarded is not None else None
        if not isinstance(stmt, ir.CallStmt):
            return []
        callee = self._procs.get(resolve_name(stmt.name))
        out = []
        for pos, arg in enumerate(stmt.args):
            if base_name(arg) != name:
                continue
            if callee is None or pos >= len(callee.formals):
                continue  # a routine not analyzed writes nothing of ours (storedconstants' rule)
            formal = callee.formals[pos]
            if formal not in self._written.get(resolve_name(callee.name), ()):
                continue
            rule = self._from_call(proc, stmt, arg, callee, formal, loops, options)
            if rule is not None:
                out.append(rule)
            elif self._stored.left(callee, formal):
                return None  # the callee may leave a constant there, in elements no rule tells
        return out

    def _from_call(self, proc: ir.Procedure, call: ir.CallStmt, arg: ir.Expr, callee: ir.Procedure,
                   formal: str, loops: list[ir.Do], options: Options = ()) -> Rule | None:
        decl = callee.variables.get(formal)
        if decl is None or not genericdata.floating(decl.type):
            return None
        if not decl.dims:
            return self._from_scalar(proc, call, arg, callee, formal, loops)
        theirs = self._left_by(proc, call, callee, formal, options)
        if theirs is None or theirs.axis != 0 or len(decl.dims) != 1 or _rank(proc, arg, self._procs) != 1:
            return None
        index = _opaque(loops, arg)
        bound = self._at_call(theirs.bound, proc, call, callee, index, _PASSED_NODES)
        start = _subscript(arg, 0)
        offset = self._resolver(proc).argument(start, call, index) if start is not None else sympy.Integer(1)
        if bound is None or offset is None:
            return None
        bound = sympy.expand(bound + offset - 1)
        if bound.free_symbols & set(index.values()) or bound.has(sympy.Piecewise):
            # a bound that seems to vary with the loop, or with the arm the actuals were set in, may be one
            # value: DGERQF's calls of DGERQ2 bind K - N + 1 in its blocked loop and after it
            floor = self._subscript_floor(proc, arg, offset, index)
            bound = sympy.expand(settled(_on_zero(sympy.piecewise_fold(bound)), floor))
        if tree_size([bound]) > _START_NODES:
            return None
        if bound.free_symbols & set(index.values()):
            return None  # which elements depends on the caller's loop: no one rule
        return Rule(theirs.constant, 0, bound, theirs.upward)

    def _subscript_floor(self, proc: ir.Procedure, arg: ir.Expr, offset: sympy.Expr, index: dict
                         ) -> dict[sympy.Symbol, sympy.Expr]:
        """What the start passed tells of the loop index in it: the subscript I + c of a valid element is at
        least its array's lower bound L, so I >= L - c (DGERQF's TAU(I): I >= 1)."""
        decl = proc.variables.get(base_name(arg) or "")
        low = decl.dims[0][0] if decl is not None and decl.dims else None
        floor = self._resolver(proc).expr(low, index) if low is not None else sympy.Integer(1)
        loops = [s for s in offset.free_symbols if s in set(index.values()) and offset.coeff(s) == 1]
        if len(loops) != 1 or not isinstance(floor, sympy.Expr):
            return {}
        rest = sympy.expand(offset - loops[0])
        return {} if rest.has(loops[0]) else {loops[0]: floor - rest}

    def _from_scalar(self, proc: ir.Procedure, call: ir.CallStmt, arg: ir.Expr, callee: ir.Procedure,
                     formal: str, loops: list[ir.Do]) -> Rule | None:
        """A scalar formal the callee returns a constant in where a condition on its formals holds, data
        otherwise, passed the element A(I + c) with I a DO index (DLATRD's TAU(I - 1)): the condition on
        the element, solved as element >= B or element <= B."""
        index = self._element_index(proc, arg, loops)
        if index is None:
            return None
        value = self._resolver(callee)._followed(formal, None, "exit of ", at_exit=True)
        if value is None:
            return None
        pieces = [(v, c) for v, c in (value.args if isinstance(value, sympy.Piecewise) else ()) if c is not sympy.false]
        if len(pieces) < 2 or not pieces[0][0].is_Number:
            return None  # the constant must be the first choice: its condition alone tells where
        constant, cond = pieces[0]
        # every other choice is data that never equals the constant (DLARFG's BETA-based TAU; REFL's 2*ALPHA,
        # or 1 where ALPHA = 0), the callee's floating formals standing for the data the call passes
        data = {s: genericdata.formal_datum(s.name) for s in value.free_symbols
                if any(s.name == _storage(callee, f) and genericdata.floating(getattr(callee.variables.get(f), "type",
                                                                                     None))
                       for f in callee.formals)}
        kind = callee.variables[formal].type
        if any(genericdata.decide("eq", v.xreplace(data), constant, kind) is not sympy.false for v, _ in pieces[1:]):
            return None
        bound = self._at_call(cond, proc, call, callee, index)
        if bound is None:
            return None
        solved = _solved(bound)
        if solved is None or solved[0].free_symbols & set(index.values()):
            return None
        return Rule(constant, 0, *solved)

    def _element_index(self, proc: ir.Procedure, arg: ir.Expr, loops: list[ir.Do]) -> dict | None:
        """The symbols a call's values are taken in (_opaque) with the DO index I of an element A(I + c)
        standing for the element's subscript less c; None for any other actual."""
        if not (isinstance(arg, ir.ArrayRef) and len(arg.indices) == 1):
            return None
        names = {n.name for n in ir.walk(arg.indices[0]) if isinstance(n, ir.Var)}
        indices = [loop.index for loop in loops if loop.index in names]
        if len(indices) != 1:
            return None
        index = _opaque(loops, arg)
        at = index[indices[0]]
        subscript = self._resolver(proc).expr(arg.indices[0], index)
        offset = sympy.expand(subscript - at) if isinstance(subscript, sympy.Expr) else None
        if offset is None or offset.free_symbols & set(index.values()):
            return None  # not I + c
        index[indices[0]] = _ELEMENT - offset
        return index

    def _copied(self, proc: ir.Procedure, stmt: ir.Assign, loops: list[ir.Do]) -> Rule | None:
        """An element set to a scalar that may hold a stored constant (storedconstants follows such copies):
        the rule of the call that set the scalar earlier in the same statement list, as if that call had been
        passed the element (DSYTD2's `TAU(I) = TAUI` after DLARFG(I, ..., TAUI): zero up to element 1 where
        UPLO = 'U', from N - 1 on where 'L'); None where no such call is found."""
        assert isinstance(stmt.value, ir.Var) and isinstance(stmt.target, ir.ArrayRef)
        found = _setting_call(proc, stmt, stmt.value.name, self._procs, self._written)
        if found is None:
            return None
        call, pos = found
        callee = self._procs[resolve_name(call.name)]
        decl = callee.variables.get(callee.formals[pos])
        if decl is None or decl.dims or not genericdata.floating(decl.type):
            return None
        return self._from_scalar(proc, call, stmt.target, callee, callee.formals[pos], loops)

    def _guarded(self, proc: ir.Procedure, target: ir.ArrayRef, constant: sympy.Number,
                 guard: ir.IfArm | None, loops: list[ir.Do]) -> Rule | None:
        """A constant stored in the arm of `IF (X(I).EQ.C)`, X read with a rule of constant C, into elements
        whose subscript on one axis is I: those elements from X's bound on (DLARFT's zero column of T)."""
        if guard is None or not isinstance(guard.cond, ir.BinOp) or guard.cond.op != "eq":
            return None
        sides = (guard.cond.left, guard.cond.right)
        tested = next((s for s in sides if isinstance(s, ir.ArrayRef)), None)
        other = sides[1] if tested is sides[0] else sides[0]
        if tested is None or len(tested.indices) != 1 or not isinstance(tested.indices[0], ir.Var):
            return None
        rule = self.read_rule(proc, tested.name)
        if rule is None or constant_of(other, proc) != rule.constant or rule.axis != 0:
            return None
        var = tested.indices[0].name
        if not any(loop.index == var for loop in loops):
            return None
        axes = [k for k, sub in enumerate(target.indices) if isinstance(sub, ir.Var) and sub.name == var]
        if len(axes) != 1 or _assigned_in(guard.body, var):
            return None
        return Rule(constant, axes[0], rule.bound, rule.upward)

    # ------------------------------------------------------------------ order of calls
    def _left_by(self, caller: ir.Procedure, call: ir.CallStmt, callee: ir.Procedure, formal: str,
                  known: Options = ()) -> Rule | None:
        """The rule a call leaves in what it passes to `formal`: the callee's own, for the options it passes."""
        return self.own_rule(callee, formal, self.options_at(caller, call, callee, known))

    def _filler(self, proc: ir.Procedure, at: ir.Stmt, arg: ir.Expr) -> Filled | None:
        """The last earlier call, in the same loops as `at`, that passes the very same actual to a formal
        its callee writes with a rule: what `at` reads there is what that call left."""
        found: tuple[Filled, list[int]] | None = None
        for stmt, loops, _ in _statements(proc.body):
            if stmt is at:
                same_loops = found is not None and found[1] == [id(loop) for loop in loops]
                return found[0] if found is not None and same_loops else None
            if not isinstance(stmt, ir.CallStmt):
                continue
            callee = self._procs.get(resolve_name(stmt.name))
            if callee is None:
                continue
            for pos, a in enumerate(stmt.args):
                if not _same_start(proc, a, arg) or pos >= len(callee.formals) \
                        or callee.formals[pos] not in self._written.get(resolve_name(callee.name), ()):
                    continue
                # a later call that writes the same actual without a rule leaves what no rule tells
                rule = self._left_by(proc, stmt, callee, callee.formals[pos])
                found = (Filled(stmt, callee, callee.formals[pos], rule), [id(loop) for loop in loops]) \
                    if rule is not None else None
        return None

    def _before_all_writes(self, proc: ir.Procedure, at: ir.Stmt, name: str) -> bool:
        """Whether every statement of `proc` that writes `name` comes before `at` (and none is in a loop
        around `at`, which would write again after it)."""
        around = set(_loop_ids(proc, at))
        seen_at = False
        for stmt, loops, _ in _statements(proc.body):
            if stmt is at:
                seen_at = True
                continue
            if _writes_name(stmt, name, proc, self._procs, self._written):
                if seen_at or around & {id(loop) for loop in loops}:
                    return False
        return seen_at


def _on_zero(expr: sympy.Expr) -> sympy.Expr:
    """`expr` with each relation written as one side against 0, so that terms both sides share cancel (a
    callee's `M >= N` bound at `CALL DGEBD2(M-I+1, N-I+1, ...)` is M - N >= 0 on every trip)."""
    relations = {r: r.func(sympy.expand(r.lhs - r.rhs), 0) for r in expr.atoms(sympy.Rel)}
    return expr.xreplace(relations) if relations else expr


def _same_start(proc: ir.Procedure, first: ir.Expr, second: ir.Expr) -> bool:
    """Whether two actuals pass the same storage from the same element: the same expression, or an array
    and its first element (DGGLSE fills WORK through DGGRQF's TAUA and reads it as DORMRQ's WORK(1))."""
    return first == second or _first_element(proc, first) == _first_element(proc, second) is not None


def _first_element(proc: ir.Procedure, arg: ir.Expr) -> str | None:
    """The array's name where an actual is the array or its first element, else None."""
    decl = proc.variables.get(base_name(arg) or "")
    if decl is None or not decl.dims:
        return None
    if isinstance(arg, ir.Var):
        return arg.name
    if not isinstance(arg, ir.ArrayRef) or len(arg.indices) != len(decl.dims):
        return None
    lows = [1 if low is None else low.value if isinstance(low, ir.Const) else None for low, _ in decl.dims]
    firsts = all(isinstance(i, ir.Const) and i.value == low for i, low in zip(arg.indices, lows))
    return arg.name if firsts else None


def _agreed(rules: list[Rule]) -> Rule | None:
    """The one rule all of `rules` are, or None (none, or rules that differ)."""
    if not rules:
        return None
    first = rules[0]
    if any(r.shape() != first.shape() or sympy.expand(r.bound - first.bound) != 0 for r in rules[1:]):
        return None
    return first


def _passed(resolver, actual: ir.Expr, call: ir.Stmt, index: dict, limit: int = _START_NODES
            ) -> sympy.Expr | None:
    """An actual's value as the call passes it; for a variable assigned in several places, its value at the
    call, a choice (DORGLQ's start TAU(KK + 1); DGERQF's MU and NU, set by its blocked loop or not) but one
    value at the call, as the rule's check of every call (_opaque) takes it."""
    value = resolver.argument(actual, call, index)
    if value is None and limit:
        value = resolver.expr_at(actual, call, index)
        if value is not None and tree_size([value]) > limit:
            return None
    return value


def zero_name(proc: ir.Procedure, formal: str) -> str:
    """The name of the symbol for the first element of `formal` holding the stored constant."""
    return f"{_storage(proc, formal)}{_ZERO}"


def by_element(value: sympy.Basic) -> bool:
    """Whether a value is an element's choice by its array's rule: a Piecewise in a `@zero` symbol."""
    return isinstance(value, sympy.Piecewise) and any(s.name.endswith(_ZERO) for s in value.free_symbols)


def _worked_out(table: dict[tuple, object], proc: ir.Procedure, name: str,
                work: Callable[[ir.Procedure, str], Rule | None], options: tuple = ()) -> Rule | None:
    """A rule from `table`, worked out by `work` the first time it is asked for; a cycle of calls that asks
    for it again while it is worked out meets _PENDING there and gets no rule."""
    key = (resolve_name(proc.name), name, options)
    if key not in table:
        table[key] = _PENDING
        table[key] = work(proc, name)
    found = table[key]
    return found if isinstance(found, Rule) else None


def _place(stmt: ir.Stmt | None) -> tuple | None:
    """A statement's place in its routine's source, the same in every program that holds the routine."""
    return None if stmt is None else (stmt.loc.line, stmt.loc.col, type(stmt).__name__)


def zero_symbol(proc: ir.Procedure, formal: str) -> sympy.Symbol:
    """The symbol itself (an integer value parameter, as formals are)."""
    return make_symbol(zero_name(proc, formal), "value", True)


def _storage(proc: ir.Procedure, name: str) -> str:
    """A formal's storage name (sad.analysis.values.ProgramFacts.storage_name, for a formal of a routine)."""
    return f"{proc.name}.{name}"


def _solved(cond: sympy.Basic) -> tuple[sympy.Expr, bool] | None:
    """(B, True) where a condition on the element is `element >= B` (after moving terms: `M - element + 1
    <= 1`, DGEQR2's), (B, False) where it is `element <= B` (`N - K + element <= 1`, DGERQ2's)."""
    if not isinstance(cond, (sympy.LessThan, sympy.GreaterThan, sympy.StrictLessThan, sympy.StrictGreaterThan)):
        return None
    solved = solved_relation(cond, _ELEMENT)
    if solved is None:
        return None
    op, bound = solved
    upward = op in (sympy.Ge, sympy.Gt)
    if op in (sympy.Lt, sympy.Gt):  # integers: element > B is element >= B + 1
        bound = bound + 1 if upward else bound - 1
    return bound, upward


def _opaque(loops: list[ir.Do], arg: ir.Expr) -> dict[str, sympy.Symbol]:
    """Symbols for the indices of the loops around a call and the variables of the start it passes: at the
    call they have one value each, whatever it is (DGEQRF's last `CALL DGEQR2(M-I+1, ..., TAU(I), ...)`,
    I left by its blocked loop: the callee's M - I + 1 and the start I cancel); a bound that still has one
    depends on where the call is."""
    index = {loop.index: sympy.Symbol(f"{loop.index}@loop", integer=True) for loop in loops}
    for sub in (arg.indices if isinstance(arg, ir.ArrayRef) else []):
        for node in ir.walk(sub):
            if isinstance(node, ir.Var) and node.type == "integer":
                index.setdefault(node.name, sympy.Symbol(f"{node.name}@loop", integer=True))
    return index


def _subscript(arg: ir.Expr, axis: int) -> ir.Expr | None:
    """The start's subscript on `axis` of an element passed as an array (None: the whole array, from 1)."""
    if isinstance(arg, ir.ArrayRef) and axis < len(arg.indices):
        return arg.indices[axis]
    return None


def _rank(proc: ir.Procedure, arg: ir.Expr, procs: dict) -> int:
    decl = proc.variables.get(base_name(arg) or "")
    return len(decl.dims) if decl is not None and decl.dims else 0


ArmsOf = Callable[[ir.If], Iterator[tuple[list[ir.Stmt], "ir.IfArm | None"]]]  # the bodies of an IF walked


def _every_arm(stmt: ir.If) -> Iterator[tuple[list[ir.Stmt], ir.IfArm | None]]:
    """Each arm's body with its arm, then the ELSE's with None."""
    for arm in stmt.arms:
        yield arm.body, arm
    if stmt.orelse:
        yield stmt.orelse, None


def _statements(stmts: list[ir.Stmt], loops: list[ir.Do] | None = None, guard: ir.IfArm | None = None,
                arms: ArmsOf = _every_arm) -> Iterator[tuple[ir.Stmt, list[ir.Do], ir.IfArm | None]]:
    """Every statement in order, with the DO loops around it and the innermost IF arm it is in (of an IF,
    the bodies `arms` gives)."""
    loops = loops or []
    for stmt in stmts:
        yield stmt, loops, guard
        if isinstance(stmt, ir.Do):
            yield from _statements(stmt.body, [*loops, stmt], guard, arms)
        elif isinstance(stmt, ir.If):
            for body, arm in arms(stmt):
                yield from _statements(body, loops, arm, arms)
        else:
            for body in ir.child_bodies(stmt):
                yield from _statements(body, loops, None, arms)


def _loops_of(proc: ir.Procedure, at: ir.Stmt) -> list[ir.Do]:
    """The DO loops around a statement of `proc`."""
    for stmt, loops, _ in _statements(proc.body):
        if stmt is at:
            return loops
    return []


def _loop_ids(proc: ir.Procedure, at: ir.Stmt) -> list[int]:
    return [id(loop) for loop in _loops_of(proc, at)]


def _setting_call(proc: ir.Procedure, stmt: ir.Stmt, scalar: str, procs: dict, written: dict
                  ) -> tuple[ir.CallStmt, int] | None:
    """(call, position) of the call that last sets `scalar` before `stmt` in the statement list holding
    `stmt`, passing it to a formal its callee writes, with nothing between that writes it; None otherwise."""
    for body in _bodies(proc.body):
        if not any(s is stmt for s in body):
            continue
        k = next(i for i, s in enumerate(body) if s is stmt)
        for earlier in reversed(body[:k]):
            if isinstance(earlier, ir.CallStmt) and _writes_name(earlier, scalar, proc, procs, written):
                positions = [p for p, a in enumerate(earlier.args) if isinstance(a, ir.Var) and a.name == scalar]
                return (earlier, positions[0]) if len(positions) == 1 else None
            if any(_writes_name(inner, scalar, proc, procs, written) for inner in ir.walk_stmts([earlier])):
                return None
        return None
    return None


def _bodies(stmts: list[ir.Stmt]) -> Iterator[list[ir.Stmt]]:
    """Every statement list of a routine, its own body first."""
    yield stmts
    for stmt in stmts:
        for body in ir.child_bodies(stmt):
            yield from _bodies(body)


def _assigned_in(body: list[ir.Stmt], var: str) -> bool:
    return any(isinstance(s, ir.Assign) and isinstance(s.target, ir.Var) and s.target.name == var
               or isinstance(s, ir.Do) and s.index == var for s in ir.walk_stmts(body))


def _writes_name(stmt: ir.Stmt, name: str, proc: ir.Procedure, procs: dict, written: dict) -> bool:
    if isinstance(stmt, ir.Assign):
        return base_name(stmt.target) == name
    if isinstance(stmt, ir.IO):
        return any(base_name(t) == name for t in stmt.targets)
    if isinstance(stmt, ir.CallStmt):
        callee = procs.get(resolve_name(stmt.name))
        return callee is not None and any(
            base_name(a) == name and pos < len(callee.formals)
            and callee.formals[pos] in written.get(resolve_name(callee.name), ())
            for pos, a in enumerate(stmt.args))
    return False
