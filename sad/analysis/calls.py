"""Expanding calls: a callee's SAD, with its formals bound to the caller's actual arguments, added at the
call site; calls into recursion and calls to routines we cannot see become named parameters.

Data flow: the call graph (sad.analysis.callgraph) orders the build callees first, so at a call the callee's
`ProcedureSAD` is in the build context; the builder (sad.analysis.builder) hands each call of a statement
or condition here with the enclosing loops' index symbols, so a call in a triangular nest is summed like
any other statement.
"""
from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

import sympy

from sad import ir
from sad.analysis import characters, evaluate, genericdata, heldtests, libcalls, recursion, spmd, standins
from sad.analysis.buildstate import BuildContext, RegionResult
from sad.analysis.conditional import is_condition
from sad.analysis.cost import Cost
from sad.analysis.counting import Unbindable, indicator, is_sum_index, resum, substitute
from sad.analysis.description import Event, ProcedureSAD
from sad.analysis.freesymbols import free_symbols
from sad.analysis.naming import ParameterNamer
from sad.analysis.products import larger_than, mul, tree_size
from sad.analysis.sharedreplace import SharedReplace
from sad.analysis.values import ValueResolver, resolve_name
from sad.common.formulatext import add_sizes

Index = dict[str, sympy.Symbol]

# Nodes of callee counts (sad.analysis.products.tree_size), bound to each call's arguments, that one procedure
# takes in by expansion; a callee whose own formula is larger is not bound at all. Expanding a
# callee at each call copies its counts, so a routine's counts grow with the product of the call sites down
# its call tree: cdflib's CDFBET → CUMBET → BRATIO → BUP → BRCMP1 → BETALN reaches 5.8 million nodes at
# CUMBET, and each of CDFBET's four calls of it took 7 s to bind. Past the budget a callee's cost is a
# named call cost, with a warning, unless a caller may still bind its arguments to numbers: the call is
# then deferred (a marker, sad.analysis.recursion) to where they are. The callee's own formula is still
# reported where it is defined. The
# corpus and the generated codebase stay far below it (their largest callee has 230 nodes); a QR
# factorization of MINPACK with its norms expanded has 66 000.
EXPANSION_BUDGET = 200_000
# The largest callee formula bound at a call at all: DTRTRI's, in its formals with ILAENV's block size
# symbolic, has 547 884 nodes and binds in about 3 CPU s to a few hundred numbers at N = 100.
BIND_LIMIT = 4 * EXPANSION_BUDGET
_CONDITIONAL_ARGUMENT_NODES = 80  # the largest value of a conditionally assigned actual bound at a call
_MARKER_ARGUMENT_NODES = 400  # ... carried in a deferred call's marker (_marker_bindings)


class _PastBudget(Exception):
    """A call's bound counts past what its caller may still take in (CallExpander._binding_limit)."""


def _unrolls(count: sympy.Expr) -> bool:
    """Whether _settled unrolls the calls into recursion a bound count of recursion events stands for."""
    return recursion.starts(resum(count) if count.has(sympy.Sum) else count) is not None


@dataclass
class PassedData:
    """Of the floating formals a call passes data to: those it knows in part, with the choice of values
    (`known`: data or known values), and those that read storage the program may store constants in, with
    that storage's name in the caller (`stored_in`; sad.analysis.heldtests)."""
    known: dict[sympy.Symbol, sympy.Expr] = field(default_factory=dict)
    stored_in: dict[sympy.Symbol, str] = field(default_factory=dict)


class _Taken:
    """What the counts of a call become after they are bound and before the budget's test: the function
    references deferred to the call run on its values (_resolve_deferred), then the tests on the data it
    passes decided for generic data (_generic_counts). Each count once, whether the budget's lower bound
    in _bound_counts or the counts taken in ask first; pure (the notes and the journal are the caller's)."""

    def __init__(self, runs: dict, data: dict | None, passed: PassedData | None) -> None:
        self.run = SharedReplace(runs) if runs else None
        self.data = data
        self.passed = passed
        self._found: dict[sympy.Expr, dict | None] = {}
        self._decided: dict[sympy.Expr, sympy.Expr] = {}

    def resolved(self, count: sympy.Expr) -> sympy.Expr:
        """The count with the deferred references' probabilities put in."""
        return self.run(count) if self.run is not None else count

    def found(self, count: sympy.Expr) -> dict | None:
        """The resolved count's relations on the data formals decided, with their values; None where it
        reads none of them (or no data are decided)."""
        if self.data is None or self.passed is None:
            return None
        if count not in self._found:
            self._found[count] = genericdata.decide_relations(count, self.data, self.passed.known) \
                if free_symbols(count) & self.data.keys() else None
        return self._found[count]

    def decided(self, resolved: sympy.Expr) -> sympy.Expr:
        """The resolved count with its relations on the data formals decided."""
        done = self._decided.get(resolved)
        if done is None:
            found = self.found(resolved)
            done = self._decided[resolved] = resolved.xreplace(found) if found else resolved
        return done

    def __call__(self, count: sympy.Expr) -> sympy.Expr:
        return self.decided(self.resolved(count))


class CallExpander:
    """Adds the events of the routines one procedure calls."""

    def __init__(self, ctx: BuildContext, proc: ir.Procedure, values: ValueResolver,
                 namer: ParameterNamer, activation: bool = False, deferring: bool = False) -> None:
        self.ctx = ctx
        self.proc = proc
        self.values = values
        self.namer = namer
        self.activation = activation  # an activation build: calls into the cycle are recorded, not counted
        # a deferring build (sad.analysis.pipeline): calls of subroutines with arguments that are not numbers
        # kept as markers, expanded where a caller binds them
        self.deferring = deferring
        self.taken = 0  # nodes of callee counts expanded into this procedure so far
        self.not_expanded: set[str] = set()  # call costs named for callees not expanded (warned once)

    def calls_in(self, cost: Cost, loc: ir.Loc, index: Index, local: RegionResult, event: Event,
                 times: sympy.Expr, at: ir.Stmt | None = None) -> None:
        """The function references of an expression evaluated `times` times per execution, their arguments
        taken as they are just before the statement `at` where given (an IF's test: `LSAME(EQUED, 'Y')`
        after `IF (LSAME(FACT, 'N')) EQUED = 'N'` passes EQUED's value there, not its last assignment)."""
        for call in cost.calls:
            scratch = RegionResult()
            self.expand(call.name, call.args, loc, index, scratch, event, call.indirect, at)
            for ev, count in scratch.counts.items():
                local.add(ev, mul(times, count))

    def expand(self, name: str, args: list[ir.Expr], loc: ir.Loc, index: Index, local: RegionResult,
               site: Event, indirect: bool, at: ir.Stmt | None = None) -> None:
        """Add the callee's events, with formals bound to actuals (their values as the statement `at`
        passes them, when given), or an unresolved call cost."""
        key = resolve_name(name)
        if key in spmd.LOCAL_FUNCTIONS:
            site.cost[f"msg.{spmd.LOCAL_FUNCTIONS[key]}"] += 1  # MPI_Wtime: bookkeeping, no message
            return
        if (resolve_name(self.proc.name), key) in self.ctx.recursive_calls:
            if self.activation:  # the next activation, unrolled where a call from outside knows its arguments
                self._recursive_call(key, args, index, local, site, at)
            return  # inside a cycle of calls: counted by the cycle's X_<routine>_CALLS at its entry
        callee = self.ctx.built.get(key)
        if callee is None and not indirect and libcalls.expand(self, name, args, index, local, site, at):
            return  # a C library routine (malloc, memcpy, qsort, ...): priced by the machine
        if indirect or callee is None:
            reason = "call through a pointer" if indirect else "routine not in the analyzed files"
            cname = f"C_{name}" if not indirect else f"C_{self.proc.name}_INDIRECT"
            self.namer.call_cost(cname, loc, reason)
            site.cost[f"cost:{cname}"] += 1
            return
        if key in self.ctx.cycles:
            if key in self.ctx.activations:
                self._recursive_call(key, args, index, local, site, at)
            else:
                self._expand_cycle(key, local)
            return
        size = self._size(key)
        subs, data, passed = self._bind_formals(callee.procedure, args, index, at)
        marked = (lambda: self._marker_bindings(callee.procedure, subs, args, index, at)) if at is not None \
            else (lambda: subs)
        if self.deferring and at is not None and callee.procedure.kind == "subroutine" \
                and self._defer(key, marked(), local, site):
            return
        if size > BIND_LIMIT or self.taken >= EXPANSION_BUDGET:
            if not self._defer(key, marked(), local, site):
                self._over_budget(name, size, loc, site)
            return
        traced = self._traced(key, callee.procedure, args, index)
        runs = self._deferred_runs(key, subs) if key in self.ctx.deferred else None
        taken = _Taken(runs[0] if runs else {}, *((data, passed) if data and self.ctx.facts.generic_data
                                                  else (None, None)))
        try:
            counts = self._bound_counts(key, subs, {**self._data_branches(key, callee.procedure, subs, data, loc,
                                                                           passed), **traced},
                                        limit=self._binding_limit(key, subs), sized=taken)
        except _PastBudget:
            # deferred: a formal is bound to what is not a number. Where the counts are taken through
            # `taken`, the marker binds what the budget's test after them binds (`subs`), and the references
            # this call does not determine are passed on as they were there
            plain = runs is None and taken.data is None
            if runs is not None:
                self._resolve_deferred(key, subs, [], runs)
            self._defer(key, marked() if plain else subs, local, site)
            return
        except Unbindable:
            if self._defer(key, marked(), local, site):  # to where the values are numbers
                return
            try:  # the callee's tests on its formals become their probabilities, as for data passed in
                counts = self._bound_counts(key, subs, self._data_branches(key, callee.procedure, {}, data, loc,
                                                                           passed))
            except Unbindable as exc:
                self._unbindable(name, str(exc), loc, site)
                return
        if key in self.ctx.deferred:
            counts = self._resolve_deferred(key, subs, counts, runs, taken)
        if taken.data is not None:
            counts = self._generic_counts(counts, taken, loc)
        counts = self._settled(counts, loc)
        # charged as bound: a call whose arguments are numbers takes in numbers (DPOTRF's 126 574 nodes
        # in its formals are a few hundred counts at N = 120), whatever the callee's formula
        bound = tree_size(count for _, count in counts)
        if self.taken + bound > EXPANSION_BUDGET:
            if not self._defer(key, subs, local, site):
                self._over_budget(name, bound, loc, site)
            return
        self.taken += bound
        for event, count in counts:
            local.add(event, count)

    def _traced(self, key: str, callee: ir.Procedure, args: list[ir.Expr], index: Index) -> dict:
        """For a function whose every argument this call knows (ILAENV(1, 'DGETRF', ' ', M, N, -1, -1) with
        M, N known): its run on them (sad.analysis.evaluate), and each probability of its decisions, and of
        the functions it may run, as that run took them (never run: 0), exact for this call. {} where the run
        stops."""
        if callee.kind != "function":
            return {}
        values = self.values.argument_values(args, callee, index)
        if values is None:
            return {}
        symbols = self.ctx.count_symbols.get(key)
        if symbols is None:
            symbols = self.ctx.count_symbols[key] = frozenset(
                s for count in self.ctx.built[key].counts.values() for s in count.free_symbols)
        reach = evaluate.reachable(self.ctx.facts.procs, callee)
        params = {s: p for s in symbols if (p := self.ctx.candidates.get(s)) is not None
                  and p.kind == "branch_probability" and resolve_name(p.procedure) in reach}
        if not params:
            return {}
        known = evaluate.known(values, callee)
        if known is not None:
            return self._run_traced(callee, known, params)
        # decisions that do not look at the arguments not known (ILAENV's tests of a routine's name, whose
        # sizes are the caller's formals) are taken the same way for all their values: one run tells them
        partly = evaluate.partly_known(values, callee)
        taken = self._run_traced(callee, partly, params) if partly is not None else {}
        if taken and taken.keys() == params.keys():
            return taken
        # arguments in the caller's formals (ILAENV(1, 'DGETRF', ' ', M, N, -1, -1) in DGETRF): this
        # reference's probabilities get names of their own, run when a call binds those formals
        site = {}
        caller = resolve_name(self.proc.name)
        for symbol, param in sorted(params.items(), key=lambda kv: kv[0].name):
            number = self.ctx.site_names[caller] = self.ctx.site_names.get(caller, 0) + 1
            site[symbol] = self.namer.site_probability(param, f"{symbol.name}_IN_{self.proc.name}_{number}")
        deferred = self.ctx.deferred.setdefault(caller, [])
        deferred.append((key, tuple(values), {site[s]: params[s] for s in site}))
        return site

    def _run_traced(self, callee: ir.Procedure, known: list, params: dict) -> dict:
        """The probabilities `params` (symbol → Parameter) as a run of `callee` on `known` takes them; {}
        where the run stops."""
        trace = evaluate.Trace()
        try:
            evaluate.Evaluator(self.ctx.facts.procs, trace).call(callee.name, known)
        except evaluate.Unevaluated:
            return {}
        values = {}
        for symbol, param in params.items():
            value = evaluate.frequency(param, self.ctx.facts.procs[resolve_name(param.procedure)], trace)
            if value is not None:
                values[symbol] = value
        return values

    def _resolve_deferred(self, key: str, subs: dict, counts: list[tuple[Event, sympy.Expr]],
                          runs: tuple[dict, list] | None = None, taken: _Taken | None = None
                          ) -> list[tuple[Event, sympy.Expr]]:
        """The callee's references of functions whose arguments were its formals: run where this call binds
        them to known values (their probabilities replaced in the counts), else passed on to this routine.
        `runs`: _deferred_runs's answer for this call, where asked already; `taken`: the counts resolved so
        far (_Taken)."""
        values, passed_on = runs if runs is not None else self._deferred_runs(key, subs)
        for record in passed_on:
            mine = self.ctx.deferred.setdefault(resolve_name(self.proc.name), [])
            if record not in mine:
                mine.append(record)
        if not values:
            return counts
        if taken is not None:
            return [(event, taken.resolved(count)) for event, count in counts]
        run = SharedReplace(values)
        return [(event, run(count)) for event, count in counts]

    def _deferred_runs(self, key: str, subs: dict) -> tuple[dict, list]:
        """The callee's deferred function references with its formals bound to `subs`: the probabilities of
        those whose arguments become known, as their runs take them, and the others as this routine passes
        them on (callee, arguments, site probabilities). Asks nothing of the shared state and changes none."""
        values: dict = {}
        passed_on: list = []
        for callee_key, args, site in self.ctx.deferred.get(key, []):
            bound = [a.xreplace(subs) if isinstance(a, sympy.Basic) else a for a in args]
            function = self.ctx.facts.procs.get(callee_key)
            known = evaluate.known(bound, function) if function is not None else None
            if known is not None and function is not None:
                values.update(self._run_traced(function, known, site))
            else:
                passed_on.append((callee_key, tuple(bound), site))
        return values, passed_on

    def _generic_counts(self, counts: list[tuple[Event, sympy.Expr]], taken: _Taken,
                        loc: ir.Loc) -> list[tuple[Event, sympy.Expr]]:
        """The callee's counts with its conditions on the floating formals this call passes data to decided
        for generic data, where they are left in values it computed (DLARF's LASTV = M where TAU.NE.ZERO)."""
        assert taken.data is not None and taken.passed is not None
        decided: dict = {}
        out = []
        for event, count in counts:
            found = taken.found(count)
            if found is not None:
                self._note_held_tests(count, taken.data, taken.passed)
                for rel, value in found.items():
                    if rel not in decided:
                        decided[rel] = value
                count = taken.decided(count)
            out.append((event, count))
        for rel, value in sorted(decided.items(), key=lambda kv: str(kv[0])):
            self.ctx.generic_decision(loc, f"{rel}, on the data this call passes",
                                      None if value not in (sympy.true, sympy.false) else value is sympy.true)
        return out

    def _binding_limit(self, key: str, subs: dict) -> int | None:
        """The nodes of this call's bound counts past which the call is deferred (a marker, _defer) whatever
        the rest of its counts bind to, or None. That holds where a formal is bound to what is not a number:
        then both a binding past the budget and an undefined one end in _defer. What happens to the counts
        between the binding and the budget's test (function references deferred to this call run on its
        values, tests of the data it passes decided) is done to each count as it is measured (_Taken), and
        calls into recursion are checked as they are bound (_bound_counts). SORMHR bound 1.5 million nodes of
        SORMQR's counts, a third of its unit, to throw them away; DORCSD2BY1 bound DORGQR's and DORGLQ's
        counts 24 times (28 CPU s, 1-2.7 s each) before each call was deferred, when the references to
        ILAENV that DORGQR defers to its callers left the budget's test to after the binding."""
        if self._bound_known(key, subs):
            return None  # every formal bound is a number: _defer may say no, and the call is then priced
        return EXPANSION_BUDGET - self.taken

    def _bound_known(self, key: str, subs: dict) -> bool:
        """Whether every formal of `key` that `subs` binds is bound to a known value (sad.analysis.recursion)."""
        return all(s not in subs or recursion.known(subs[s]) for s in self.ctx.formal_symbols(key))

    def _bound_counts(self, key: str, subs: dict, data: dict, activation: bool = False, deferring: bool = False,
                      limit: int | None = None, sized: Callable[[sympy.Expr], sympy.Expr] | None = None
                      ) -> list[tuple[Event, sympy.Expr]]:
        """The callee's counts (of its activation build, sad.analysis.recursion, with `activation`; of its
        deferring build, with `deferring`) with its formals bound to `subs` and its tests in `data` replaced
        by their probabilities. With `limit` (_binding_limit), _PastBudget as soon as the counts bound so far,
        each measured as `sized` leaves it (what the caller does to them before the budget's test), are more
        nodes than that, unless a call into recursion among them could be unrolled (_settled)."""
        if subs and key in self.ctx.standins:
            subs = {**subs, **self.bound_standins(key, subs)}
        # Subexpressions bound once for all the callee's counts, and each distinct count once (a loop
        # body's share one), for every call with the same actual values (CG calls DOT(N, ...) three times)
        binding = frozenset(subs.items())
        shared, bound = self.ctx.bindings.setdefault((key, binding, activation or deferring), ({}, {}))
        built = self.ctx.activations[key] if activation else self.ctx.deferring[key] if deferring \
            else self.ctx.built[key]
        decided = SharedReplace(data)  # the tests replaced in all the counts, their shared parts once

        def bind(event: Event, count: sympy.Expr) -> tuple[Event, sympy.Expr]:
            if data:
                count = decided(count)
            if subs and event.message is not None:
                event = spmd.rebound(event, subs)
            if subs:
                if count not in bound:
                    bound[count] = _bound(count, subs, binding, shared)
                count = bound[count]
            return event, count

        if limit is not None and any(_unrolls(bind(event, count)[1]) for event, count in built.counts.items()
                                     if event.role == "recurse"):
            limit = None  # _settled would unroll it, with diagnostics of its own: every count is bound
        counts = []
        sizes: dict[sympy.Basic, int] = {}
        nodes = 0
        for event, count in built.counts.items():
            event, count = bind(event, count)
            counts.append((event, count))
            if limit is not None and event.role != "recurse":  # as _settled leaves it: the budget's lower bound
                measured = sized(count) if sized is not None else count
                nodes += add_sizes([measured], sizes)[measured]
                if nodes > limit:
                    raise _PastBudget
        return counts

    def bound_standins(self, key: str, subs: dict) -> dict:
        """The callee's stand-ins (sad.analysis.standins) bound to this call: each the number its value
        takes with the formals bound to `subs`; else, where that value is a function of this routine's
        formals, a stand-in of this routine's own for it (one per distinct value, so that two calls with
        other arguments keep their own), bound by this routine's callers in turn."""
        caller = resolve_name(self.proc.name)
        formals = set(self.ctx.formal_symbols(caller)) if self.proc.kind != "program" else set()
        out = {}
        for symbol, value in self.ctx.standins[key].items():
            bound = substitute(value, subs)
            if bound.is_number:
                out[symbol] = bound
            elif free_symbols(bound) <= formals:
                out[symbol] = self._passed_on(symbol, bound, caller)
            else:  # the loop index of a loop around the call: bound where the caller's arguments are numbers
                raise Unbindable(f"{symbol.name} stands for a value this call does not determine")
        return out

    def _passed_on(self, symbol: sympy.Symbol, value: sympy.Expr, caller: str) -> sympy.Symbol:
        """This routine's stand-in for a callee's stand-in `symbol` bound to `value` (a function of its
        formals): the one it has for that value already, else a new one."""
        mine = self.ctx.standins.setdefault(caller, {})
        stem = f"{symbol.name}_IN_{caller}"
        taken = [known for known in mine if known.name.startswith(stem)]
        same = next((known for known in taken if mine[known] == value), None)
        if same is not None:
            return same
        new = sympy.Symbol(f"{stem}_{len(taken) + 1}", integer=True)
        mine[new] = value
        return new

    def _unbindable(self, name: str, why: str, loc: ir.Loc, site: Event) -> None:
        """A call whose actual values leave the callee's counts undefined."""
        self._not_expanded(name, loc, site, f"the values this call passes leave its counts undefined ({why[:80]})",
                           f"{name}'s counts undefined for this call's values")

    def _size(self, key: str) -> int:
        """The tree size of a built callee's counts, measured once per analysis."""
        size = self.ctx.count_sizes.get(key)
        if size is None:
            size = self.ctx.count_sizes[key] = tree_size(self.ctx.built[key].counts.values())
        return size

    def _over_budget(self, name: str, size: int, loc: ir.Loc, site: Event) -> None:
        """A call not expanded because this procedure has taken in EXPANSION_BUDGET nodes of callee counts."""
        self._not_expanded(name, loc, site, f"its counts ({size} nodes) would take {self.proc.name} past "
                                            f"{EXPANSION_BUDGET} nodes of expanded callees",
                           f"{name} not expanded here: too large", f", and {name}'s own formula is reported with it")

    def _not_expanded(self, name: str, loc: ir.Loc, site: Event, why: str, description: str, after: str = "") -> None:
        """A callee's cost per call as the named parameter C_<name> instead of its counts; the first such call
        of each callee in this procedure is a warning."""
        cname = f"C_{name}"
        if cname not in self.not_expanded:
            self.not_expanded.add(cname)
            self.ctx.warn(loc, f"{name} not expanded: {why}; its cost per call is {cname}{after}")
        self.namer.call_cost(cname, loc, description)
        site.cost[f"cost:{cname}"] += 1

    def _recursive_call(self, key: str, args: list[ir.Expr], index: Index, local: RegionResult, site: Event,
                        at: ir.Stmt | None) -> None:
        """A call into a cycle of calls: an event of no cost whose count is the marker of the activation it
        starts (sad.analysis.recursion), unrolled at once where its arguments are numbers and this is no
        activation build; else left for a caller that binds them."""
        self.ctx.tag(key)  # first: it registers the formals the binding binds
        subs, _, _ = self._bind_formals(self.ctx.facts.procs[key], args, index, at)
        self._start(key, subs, local, site, settle=not self.activation)

    def _start(self, key: str, subs: dict, local: RegionResult, site: Event, settle: bool) -> None:
        """The event of no cost whose count is the marker of a call of `key` with its formals bound to `subs`;
        unrolled at once with `settle` where they are numbers."""
        tag = self.ctx.tag(key)
        count = recursion.marker(tag, [subs.get(s, recursion.UNTRACED) for s in self.ctx.recursion_tags[tag][1]])
        event = Event(site.procedure, site.loc, "recurse", Counter(), site.region, self.ctx.next_seq())
        for ev, n in self._settled([(event, count)], site.loc) if settle else [(event, count)]:
            local.add(ev, n)

    def _defer(self, key: str, subs: dict, local: RegionResult, site: Event) -> bool:
        """A callee too large to take in, or whose counts the symbolic values of this call leave undefined
        (DTRTRI and DLAUUM in DPOTRI's build): a marker of the call, as for a call into
        recursion, expanded from the callee's own counts where a caller binds its arguments to numbers
        (sad.analysis.recursion.unroll), inside the sums over this routine's loops as any count is. False
        where every argument is a number already: nothing later would bind more; unless the callee has a
        deferring build (its own calls kept as markers, sad.analysis.pipeline: DSYTRD's counts summed over
        its blocked loop are past what a call binds) and is past the bind limit: then its activation for
        these numbers, expanded here."""
        numbers = self._bound_known(key, subs)
        if numbers and (self._size(key) <= BIND_LIMIT or self._deferring_build(key) is None):
            return False
        # a recursive routine's first build keeps the marker: its callers count its activations, and price
        # the call then (_member_deferrals), where an unrolled recursion never uses this build
        in_cycle = resolve_name(self.proc.name) in self.ctx.cycles and not self.activation
        self._start(key, subs, local, site, settle=numbers and not in_cycle)
        return True

    def _deferring_build(self, key: str) -> ProcedureSAD | None:
        """The callee's deferring build (sad.analysis.pipeline), made on first need; None where it has none."""
        return self.ctx.build_deferring(key) if self.ctx.build_deferring is not None else None

    def _settled(self, counts: list[tuple[Event, sympy.Expr]], loc: ir.Loc) -> list[tuple[Event, sympy.Expr]]:
        """Counts with every recursion event whose markers' arguments are numbers replaced by the events of
        the activations it starts; one that cannot be unrolled by the activation counts of the first build."""
        if not any(event.role == "recurse" for event, _ in counts):
            return counts
        out: list[tuple[Event, sympy.Expr]] = []
        for event, count in counts:
            if event.role == "recurse" and count.has(sympy.Sum):  # a loop's calls: one marker per trip
                count = resum(count)
            first = recursion.starts(count) if event.role == "recurse" else None
            if first is None:
                out.append((event, count))
                continue
            try:
                out.extend(self._unrolled(first))
            except (recursion.NotUnrolled, Unbindable) as exc:
                out.extend(self._not_unrolled(count, event, str(exc)))
        return out

    def _unrolled(self, first: list[recursion.Start]) -> list[tuple[Event, sympy.Expr]]:
        """The events of the trees of activations the calls `first` start, each counted exactly."""
        totals = recursion.unroll(first, self._activation_counts,
                                  stuck=lambda event, count, why: self._not_unrolled(count, event, why, True))
        formals = {s for _, symbols in self.ctx.recursion_tags for s in symbols}
        for count in totals.values():
            left = {s for s in count.free_symbols if s in formals or is_sum_index(s)}
            if left:  # a sum's index left free by the binding is a defect: the named count is honest instead
                raise recursion.NotUnrolled(f"its counts depend on {', '.join(sorted(s.name for s in left))}")
        return list(totals.items())

    def _activation_counts(self, tag: int, args: tuple) -> list[tuple[Event, sympy.Expr]]:
        """One activation's counts with its formals bound to `args` (its tests on formals it is not passed as
        their probabilities, its functions of formals run on the values passed)."""
        key, symbols = self.ctx.recursion_tags[tag]
        subs = {s: a for s, a in zip(symbols, args) if a != recursion.UNTRACED}
        activation = key in self.ctx.activations  # else a call deferred to where its arguments are known
        # its own calls kept as markers, where its counts are past the limit (built here where first needed)
        deferring = not activation and self._size(key) > BIND_LIMIT and self._deferring_build(key) is not None
        proc = self.ctx.built[key].procedure
        counts = self._bound_counts(key, subs, self._data_branches(key, proc, subs, {}, proc.loc), activation,
                                    deferring)
        return self._resolve_deferred(key, subs, counts) if key in self.ctx.deferred else counts

    def _not_unrolled(self, count: sympy.Expr, at: Event, why: str, inner: bool = False
                      ) -> list[tuple[Event, sympy.Expr]]:
        """Calls into recursion that are not unrolled: the activation counts of each routine's first build,
        with a note. `inner`: a call met while unrolling another (the rest of which is unrolled)."""
        out: list[tuple[Event, sympy.Expr]] = []
        loc = at.loc
        for tag, calls in recursion.calls_per_tag(count).items():
            key = self.ctx.recursion_tags[tag][0]
            name = self.ctx.built[key].procedure.name
            if key not in self.ctx.cycles:  # a deferred call: its cost per call named, as for any callee
                event = Event(at.procedure, loc, "library", Counter(), at.region, self.ctx.next_seq())
                reason = why if inner else f"its counts are too large or undefined for the values " \
                                           f"{self.proc.name} passes, and {why}"
                self._not_expanded(name, loc, event, reason, f"{name} not expanded")
                out.append((event, calls))
                continue
            self.ctx.note(loc, f"the recursion of {name} is not unrolled: {why}; its activations per call are a "
                               f"parameter")
            scratch = RegionResult()
            self._expand_cycle(key, scratch)
            out.extend((event, mul(calls, n)) for event, n in scratch.counts.items())
        return out

    def pending_recursion(self, counts: dict[Event, sympy.Expr]) -> dict[Event, sympy.Expr]:
        """A root's counts with the calls into recursion no caller bound (their arguments are this routine's
        formals, or values only a run can tell) as activation counts."""
        if not any(event.role == "recurse" for event in counts):
            return counts
        out: dict[Event, sympy.Expr] = {}
        for event, count in self._settled(list(counts.items()), self.proc.loc):
            pairs = self._not_unrolled(count, event, _untraced(count)) if event.role == "recurse" \
                else [(event, count)]
            for ev, n in pairs:
                out[ev] = n if ev not in out else out[ev] + n
        return out

    def _expand_cycle(self, entry: str, local: RegionResult) -> None:
        """A call into recursion: each routine of the cycle runs X_<routine>_CALLS times per such call,
        which only execution can tell."""
        for member in sorted(self.ctx.cycles[entry]):
            built = self.ctx.built.get(member)
            if built is None:
                continue
            proc = built.procedure
            x = self.namer.loop_count(f"X_{proc.name}_CALLS", proc.loc,
                                      "activations of a recursive routine per call from outside its cycle", proc)
            for event, count in built.counts.items():
                if event.role == "recurse":  # a call the member deferred: no caller binds an activation's values
                    for ev, n in self._member_deferrals(entry, proc.name, event, count):
                        local.add(ev, mul(x, n))
                    continue
                local.add(event, mul(x, count))

    def _member_deferrals(self, entry: str, member: str, event: Event, count: sympy.Expr
                          ) -> list[tuple[Event, sympy.Expr]]:
        """A cycle member's deferred calls (DLAQZ3's of routines too large to take in with its symbolic
        sizes, in DGGES3's cycle DLAQZ0 <-> DLAQZ3): its activations are counted, not unrolled, so their
        arguments are never numbers; each call is its callee's named cost per call (or, into another
        cycle, that cycle's activation counts). Calls within this cycle are counted by its X_<routine>_CALLS."""
        cycle = self.ctx.cycles[entry]
        within = {m: sympy.Integer(0) for m in recursion.markers(count)
                  if self.ctx.recursion_tags[int(m.args[0])][0] in cycle}
        kept = count.xreplace(within) if within else count
        if kept == 0:
            return []
        why = f"it is called from the recursive {member}, whose activations' arguments only a run can tell"
        return self._not_unrolled(kept, event, why, inner=True)

    def _data_branches(self, key: str, callee: ir.Procedure, subs: dict, data: dict, loc: ir.Loc,
                       passed: PassedData | None = None) -> dict:
        """The callee's indicators on formal arguments this call cannot bind (it passes data): each becomes
        the arm's named probability, or, where the data are floating-point values (`data`: formal symbol →
        kind), the indicator the generic-data model decides (sad.analysis.genericdata: `DA.EQ.ONE` is false
        for DA = ONE/A(J,J)), unless the user binds that probability."""
        formals = {self.ctx.table.symbol(self.ctx.facts.storage_name(callee, f)) for f in callee.formals}
        formals |= {self.ctx.table.symbol(name) for name in self._element_symbols(callee)}
        unbound = {s for s in formals if s is not None and s not in subs}
        replaced = {}
        for prob, p in self.ctx.formal_branches.get(key, []):
            if not free_symbols(prob) & unbound:
                continue
            replaced[prob] = p
            if not self.ctx.facts.generic_data or getattr(p, "name", None) in self.ctx.overrides \
                    or not isinstance(prob, sympy.Piecewise):
                continue
            on = {s: k for s, k in data.items() if s in unbound}
            found = genericdata.decide_formals(prob.args[0][1], on, passed.known if passed is not None else None)
            if passed is not None:
                self._note_held_tests(prob.args[0][1], on, passed)
            if found is None or found[0].free_symbols & (unbound - data.keys()):
                continue
            decided, relations = found
            replaced[prob] = indicator(decided) if decided not in (sympy.true, sympy.false) \
                else sympy.Integer(decided is sympy.true)
            param = (self.ctx.table.get(p.name) or self.ctx.candidates.get(p)) if isinstance(p, sympy.Symbol) else None
            where = f" at {param.file}:{param.line}" if param is not None else ""
            for rel, value in sorted(relations, key=str):
                self.ctx.generic_decision(loc, f"{callee.name}'s test {rel}{where}, on the data this call passes",
                                          value)
        return {**{_expanded(prob): v for prob, v in replaced.items()}, **replaced}

    def _element_symbols(self, callee: ir.Procedure) -> set[str]:
        """The names of the callee's first-element symbols (sad.analysis.storedelements), formals here."""
        return self.ctx.facts.first_element_names(callee)

    def _bind_formals(self, callee: ir.Procedure, args: list[ir.Expr], index: Index, at: ir.Stmt | None
                      ) -> tuple[dict, dict, PassedData]:
        """The callee's formals bound to this call's actual values; the floating formals it passes untraced
        values (data) to, with their kind; of those, the ones whose data an earlier call left known in part
        (TAU(I) after DLARFG: ZERO where its N <= 1), with that choice of values (PassedData)."""
        subs, data, known = {}, {}, {}
        stored_in: dict[sympy.Symbol, str] = {}
        for pos, formal in enumerate(callee.formals):
            symbol = self.ctx.table.symbol(self.ctx.facts.storage_name(callee, formal))
            if symbol is None or pos >= len(args):
                continue
            value = self.values.expr(args[pos], index) if at is None else self.values.argument(args[pos], at, index)
            decl = callee.variables.get(formal)
            if value is None and at is not None and decl is not None and decl.type in ("integer", "character") \
                    and not decl.dims:
                # DLARFB's TRANST, 'T' or 'N' as its TRANS is 'N' or not, passed to DTRMM
                value = self._conditional_argument(args[pos], at, index)
                if value is None and decl.type == "integer":
                    value = self._standin_argument(args[pos], at, index, f"{callee.name}_{formal}")
            if value is not None and decl is not None and decl.type == "character":
                value = self._character(value, args[pos], decl.length)
            if decl is not None and not decl.dims and genericdata.floating(decl.type) and \
                    (value is None or self.values.runtime_element(value, args[pos])):
                data[symbol] = decl.type  # data: an untraced value, an element the run sets
                left = self.values.left_by_call(args[pos], at, index) if at is not None else None
                constants = self.values.constants_reaching(args[pos], at) if at is not None else frozenset()
                if left is not None:
                    known[symbol] = left
                elif constants:  # DLANGE's SCALE = ZERO before its loop of DLASSQ calls
                    known[symbol] = genericdata.Either(genericdata.formal_datum(symbol.name), *sorted(constants))
                elif isinstance(arg := args[pos], (ir.ArrayRef, ir.Var)):
                    self._held_formal(symbol, arg, index, known, stored_in)
            if value is not None and not is_condition(value) and symbol not in data:
                subs[symbol] = value
            elif value is not None and is_condition(value) and symbol.name in self.ctx.facts.logical_formals(callee):
                subs[symbol] = value  # `CALL FACT(.TRUE., ...)`, or a condition: FACT's tests on it follow
        if at is not None and self.ctx.facts.generic_data:
            # where the callee's tests of an array's elements are tests of the element (storedelements)
            subs.update(self.values.element_bindings(callee, args, at, index))
        if at is not None:  # DGEMQR's T(2) as DGEQR left it: bound where it is a small formula
            subs.update({symbol: value for symbol, value in self.values.passed_elements(callee, args, at, index).items()
                         if tree_size([value]) <= _CONDITIONAL_ARGUMENT_NODES})
        return subs, data, PassedData(known, stored_in)

    def _held_formal(self, symbol: sympy.Symbol, arg: ir.Var | ir.ArrayRef, index: Index, known: dict,
                     stored_in: dict) -> None:
        """A floating formal passed data from a variable or element the program may have stored constants
        in: the choice of data and those constants (`known`), open. An element of such an array: DORG2L's
        DLARF(..., TAU(I), ...) after DSYTD2's upper reduction left TAU(1) = ZERO, by element where a rule
        tells which elements hold it (sad.analysis.storedelements); a scalar copied from such storage:
        DGEQRT2's ALPHA = -T(I, 1), passed to DGEMV, which returns at once where ALPHA is zero. The
        journal notes the outcomes of the callee's tests on it, not the constants (`stored_in`: the storage
        it reads, sad.analysis.heldtests), except by element."""
        datum = genericdata.formal_datum(symbol.name)
        stored = self.values.stored_constants(arg, note=False)
        stored_in[symbol] = arg.name
        if not stored:
            return
        either = genericdata.with_constants(datum, stored)
        held = self.values.held_value(arg, datum, index, note=False) if isinstance(arg, ir.ArrayRef) else either
        known[symbol] = held
        if held != either:
            del stored_in[symbol]
            self.values.stored_constants(arg)  # by element: the constants themselves noted

    def _note_held_tests(self, expr: sympy.Basic, data: dict, passed: PassedData) -> None:
        """In the journal, the outcome of each of the callee's relations in `expr` on a formal passed data
        from storage that may hold stored constants (sad.analysis.heldtests.formal_outcome)."""
        if not passed.stored_in:
            return
        marks = genericdata.data_marks(data, passed.known)
        caller = resolve_name(self.values.proc.name)
        for rel in expr.atoms(sympy.core.relational.Relational):
            on = sorted(rel.free_symbols & data.keys(), key=lambda s: s.name)
            if not any(s in passed.stored_in for s in on):
                continue
            spec = tuple((s, ("stored", passed.stored_in[s]) if s in passed.stored_in else ("value", marks[s]))
                         for s in on)
            self.ctx.facts.journal.note((heldtests.FORMAL_QUESTION, caller, rel, tuple((s, data[s]) for s in on),
                                         spec), genericdata.decide_relation(rel, data, marks))

    def _conditional_argument(self, arg: ir.Expr, at: ir.Stmt, index: Index) -> sympy.Expr | None:
        """An integer actual assigned in several places, as the call statement sees it (DLARF's LASTV and
        LASTC, set through IFs before DGEMV(..., LASTV, LASTC, ...)), where that value is a small formula
        (large Piecewise values made the sums of some callers slow: those stay unbound). A formula of such
        variables (DGESVD's LWORK-IWORK+1 at its calls of DORGBR, IWORK set in each of its paths) is bound
        where its value there is no choice (LWORK - 3*N): bound to choices as well, they took the LAPACK
        sample's SLAQR0 family into expansions 15 % of the sample's time longer."""
        if not isinstance(arg, (ir.Var, ir.BinOp, ir.UnOp)):
            return None
        value = self.values.expr_at(arg, at, index)
        if value is None or (not isinstance(arg, ir.Var) and value.has(sympy.Piecewise)):
            return None
        return self._chosen_at(value, at, index, _CONDITIONAL_ARGUMENT_NODES)

    def _chosen_at(self, value: sympy.Expr, at: ir.Stmt, index: Index, limit: int) -> sympy.Expr | None:
        """A value at a call statement of at most `limit` nodes, its choices as the IF arms around the call
        leave them (sad.analysis.callsite); None past the limit."""
        value = self.values.within(value, at, index)
        return value if tree_size([value]) <= limit else None

    def _marker_bindings(self, callee: ir.Procedure, subs: dict, args: list[ir.Expr], index: Index,
                         at: ir.Stmt) -> dict:
        """`subs` with the integer variables assigned in several places that are too large to bind into counts
        (_conditional_argument) but not to carry in a deferred call's marker, bound only where a caller's
        numbers unroll it: DORMRQ's NI, N where SIDE is 'L' and a formula of its blocked loop where 'R' (102
        nodes), passed to DLARFB."""
        wide = dict(subs)
        for pos, formal in enumerate(callee.formals[:len(args)]):
            symbol = self.ctx.table.symbol(self.ctx.facts.storage_name(callee, formal))
            decl = callee.variables.get(formal)
            if symbol is None or symbol in wide or not isinstance(args[pos], ir.Var) or decl is None \
                    or decl.type != "integer" or decl.dims:
                continue
            value = self.values.expr_at(args[pos], at, index)
            chosen = self._chosen_at(value, at, index, _MARKER_ARGUMENT_NODES) \
                if value is not None and not is_condition(value) else None
            if chosen is not None:
                wide[symbol] = chosen
        return wide

    def _standin_argument(self, arg: ir.Expr, at: ir.Stmt, index: Index, name: str) -> sympy.Expr | None:
        """An integer actual whose value at the call is a choice too large to bind here (DGEQRF's last
        `CALL DGEQR2(M-I+1, N-I+1, ...)`, I left by a blocked loop whose step NB is chosen in several places)
        but a function of this routine's formals alone: a stand-in (sad.analysis.standins) that this
        routine's callers bind to the number their arguments give."""
        if self.proc.kind == "program":
            return None
        value = self.values.expr_at(arg, at, index)
        caller = resolve_name(self.proc.name)
        if value is None or not value.has(sympy.Piecewise) or is_condition(value):
            return None
        value = self.values.within(value, at, index)  # DGETSLS' LW1 past its checks: no run-time value left in it
        formals = self.ctx.formal_symbols(caller)
        if standins.bindable([value], formals):
            return self._standin(value, name, caller, f"L{at.loc.line}")
        # a loop index and a choice of the formals (DSYTRD's `CALL DSYR2K(UPLO, 'No transpose', N-I-NB+1, ...)`
        # in its blocked loop over I, NB chosen in several places): each choice stood in for, the index kept
        chosen = [p for p in _outermost(value, sympy.Piecewise) if standins.bindable([p], formals)]
        stood = {p: self._standin(p, f"{name}_{k + 1}", caller, f"L{at.loc.line}") for k, p in enumerate(chosen)}
        replaced = value.xreplace(stood)
        return replaced if stood and not replaced.has(sympy.Piecewise) else None

    def _standin(self, value: sympy.Expr, name: str, caller: str, place: str) -> sympy.Symbol:
        """The caller's stand-in for `value`: the one it has for that value already, else a new one."""
        mine = self.ctx.standins.setdefault(caller, {})
        same = next((s for s, v in mine.items() if v == value), None)
        if same is not None:
            return same
        symbol = standins.symbol(name, self.proc.name, place)
        mine[symbol] = value
        return symbol

    def _character(self, value: sympy.Expr, arg: ir.Expr, length: int | None) -> sympy.Expr | None:
        """A character actual as the formal of `length` characters receives it: a known string cut to that
        length; the caller's own formal (its symbol) where it is declared as long, else not bound."""
        if isinstance(value, sympy.Integer):
            return characters.truncated(value, length)
        decl = self.proc.variables.get(arg.name) if isinstance(arg, ir.Var) else None
        return value if decl is not None and decl.type == "character" and decl.length == length else None


# Bound counts remembered across programs (see _bound): each a count and a binding, the latest used kept
_BOUND: OrderedDict[tuple[frozenset, sympy.Expr], sympy.Expr] = OrderedDict()
_BOUND_KEPT = 32_768


def _bound(count: sympy.Expr, subs: dict, binding: frozenset, shared: dict) -> sympy.Expr:
    """resum(substitute(count, subs, shared)), `binding` being frozenset(subs.items()): once per process for
    each count and binding, the last _BOUND_KEPT remembered. BuildContext.bindings shares the work within
    one program; `sad check` builds a program per file, and a routine built again in another program (its
    callers there store other constants in its arrays: sad.analysis.summaries) binds its callees' counts to
    the same actual values as before: on the 194-file LAPACK sample 30 500 of the 88 700 counts bound at
    calls had been bound before. The bound count is a function of the count and the binding alone
    (expressions are immutable), so remembering it gives the same expression; one that cannot be bound
    (Unbindable) is not remembered and raises again."""
    key = (binding, count)
    found = _BOUND.get(key)
    if found is not None:
        _BOUND.move_to_end(key)
        return found
    found = _BOUND[key] = resum(substitute(count, subs, shared))
    if len(_BOUND) > _BOUND_KEPT:
        _BOUND.popitem(last=False)
    return found


def _outermost(expr: sympy.Basic, kind: type) -> list[sympy.Basic]:
    """The subexpressions of type `kind` not inside another of that type, each once, in order of appearance."""
    if isinstance(expr, kind):
        return [expr]
    out: list[sympy.Basic] = []
    for arg in expr.args:
        out.extend(e for e in _outermost(arg, kind) if e not in out)
    return out


def _expanded(indicator_: sympy.Expr) -> sympy.Expr:
    """An indicator with its relations' sides multiplied out: the form it takes in counts summed or multiplied
    after it was made (DLASQ5's `TAU < EPS*(SIGMA + TAU)/2` is also `TAU < EPS*SIGMA/2 + EPS*TAU/2` there), so
    that a call replacing the test replaces both. A relation of more than ``_EXPAND_NODES`` nodes stays as it
    is: the sums and products that multiply a count out do not reach into such a test, and expanding it cost
    DLASD4's calls of DLAED6 (the secular equation's tests, rational functions under MAX and ABS, 12 000
    characters) 50 of the 60 CPU s its file was given, in one call."""
    if not isinstance(indicator_, sympy.Piecewise):
        return indicator_
    return indicator_.replace(
        lambda e: isinstance(e, sympy.core.relational.Relational) and not larger_than(e, _EXPAND_NODES),
        lambda r: r.func(sympy.expand(r.lhs), sympy.expand(r.rhs), evaluate=False))


_EXPAND_NODES = 200  # nodes of a relation whose sides ``_expanded`` multiplies out (DLASQ5's: 15)


def _untraced(count: sympy.Expr) -> str:
    """Why calls into recursion were left to the root: the values they pass that no caller bound."""
    names = [standins.shown(name) for name in recursion.passed(count)]
    return f"it depends on {', '.join(names)}" if names else "its arguments are not known"
