"""The SAD builder: one procedure's IR to its symbolic application description.

Data flow: IR procedure (frontends) → for each statement list a region graph (sad.analysis.cfg) whose nodes are
statements and whose nested lists are analysed first → per-entry execution counts of *events*
(sad.analysis.description: a simple statement run, a condition evaluated, a loop entered or iterated), each
with its cost vector (sad.analysis.cost). Counted loops multiply or, when an inner bound depends on the index,
sum exactly (sad.analysis.counting); loops with unknown counts and data-dependent branches become named
parameters X and P (sad.analysis.naming). The builder's one job is this walk over regions and the counting
of events; the out-edges of jumps (sad.analysis.jumps), the probabilities of IF arms
(sad.analysis.branches) and the expansion of calls (sad.analysis.calls) are delegated.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import sympy

from sad import ir
from sad.analysis import spmd, standins, whileloops
from sad.analysis.branches import BranchProbabilities, merge_same_jumps, record_decision
from sad.analysis.buildstate import BuildContext, RegionResult, Target, expanded
from sad.analysis.calls import BIND_LIMIT, CallExpander
from sad.analysis.cfg import LoopInfo, RegionGraph, solve, tidy_small
from sad.analysis.cost import (
    Cost,
    Layout,
    condition_cost,
    is_select,
    loop_entry_cost,
    loop_iteration_cost,
    select_cost,
    statement_cost,
)
from sad.analysis.counting import substitute, sum_over_index
from sad.analysis.description import Event, ProcedureSAD
from sad.analysis.freesymbols import free_symbols
from sad.analysis.jumps import ErrorExits, JumpEdges, target
from sad.analysis.naming import ParameterNamer
from sad.analysis.params import make_symbol
from sad.analysis.products import mul
from sad.analysis.values import ValueResolver, resolve_name

__all__ = ["BuildContext", "ProcedureBuilder", "RegionResult"]

_SIMPLE = (ir.Assign, ir.CallStmt, ir.IO, ir.Continue, ir.Message, ir.Pause, ir.AssignLabel,
           ir.Unsupported)
_TERMINAL = (ir.Goto, ir.Return, ir.Stop, ir.AssignedGoto)

Index = dict[str, sympy.Symbol]  # loop variable → the symbol of its index in the enclosing counted loops


def _jumps_to(stmt: ir.Stmt, label: str) -> bool:
    """Whether `stmt` is an unconditional ``GOTO label``."""
    return isinstance(stmt, ir.Goto) and stmt.target == label


def _jumps_in(stmts: list[ir.Stmt], label: str) -> int:
    """How many statements of `stmts` (nested ones included) may jump to `label`."""
    return sum(label in ir.jump_targets(s) for s in ir.walk_stmts(stmts))


def _tests_index(idx: sympy.Symbol, exits: list[sympy.Expr], counts: list[sympy.Expr]) -> bool:
    """Whether an exit flow of a loop depends on its index at all, or a count of its body through a test
    (a Piecewise) of it."""
    return any(idx in free_symbols(flow) for flow in exits) or \
        any(idx in free_symbols(c) and any(idx in free_symbols(p) for p in c.atoms(sympy.Piecewise))
            for c in counts)


class ProcedureBuilder:
    """Walks one procedure's statement lists and counts their events per entry into the procedure."""

    def __init__(self, ctx: BuildContext, proc: ir.Procedure, activation: bool = False,
                 deferring: bool = False) -> None:
        """`activation`: the build of one activation of a recursive routine (sad.analysis.recursion);
        `deferring`: a build with calls of subroutines kept as markers (sad.analysis.pipeline)."""
        self.ctx = ctx
        self.proc = proc
        self.values = ValueResolver(ctx.facts, proc, ctx.table, ctx.overrides, activation)
        self.names = ParameterNamer(ctx, proc)
        self.exits = ErrorExits(ctx, proc)
        self.jumps = JumpEdges(ctx, proc, self.names, self.exits)
        self.branches = BranchProbabilities(ctx, proc, self.values, self.names, self.exits)
        self.calls = CallExpander(ctx, proc, self.values, self.names, activation, deferring)
        self.region_ids = 0
        # the events this build makes, by (statement, role) in the order made: an activation build takes the
        # first build's events where they are the same (sad.analysis.recursion)
        self.made: dict[tuple[int, str], list[Event]] = {}
        self.fastest = "first" if proc.language == "fortran" else "last"
        self.layout = Layout(None, self.fastest)  # the innermost loop around what is being costed

    # ------------------------------------------------------------------ entry point
    def build(self) -> ProcedureSAD:
        """The procedure's SAD: event counts of its body (jumps out of it to unknown labels warned about)."""
        result = self.region(self.proc.body, {})
        for loc, shown in self.ctx.facts.sign_assumed:
            note = ir.Diagnostic(loc or self.proc.loc, "note", f"{shown}: operands of unknown sign taken as "
                                                              f"non-negative (floor), as for sizes and counts")
            if note not in self.ctx.diagnostics:  # a definition may be evaluated for several procedures
                self.ctx.diagnostics.append(note)
        self.ctx.facts.sign_assumed.clear()
        for (loc, shown), value in self.ctx.facts.generic_decided.items():
            self.ctx.generic_decision(loc or self.proc.loc, shown, value)
        self.ctx.facts.generic_decided.clear()
        for loc, shown, why in self.ctx.facts.unevaluated:
            note = ir.Diagnostic(loc or self.proc.loc, "note", f"{shown} not evaluated on its known arguments: {why}")
            if note not in self.ctx.diagnostics:
                self.ctx.diagnostics.append(note)
        self.ctx.facts.unevaluated.clear()
        for label in result.escapes:
            if not label.startswith("@"):
                self.ctx.warn(self.proc.loc, f"jump to label {label} that is not in {self.proc.name}")
        return ProcedureSAD(self.proc, result.counts)

    def twins(self, first: dict[tuple[int, str], list[Event]]) -> dict[Event, Event]:
        """Each event this build made that the build `first` made alike (same statement, role, place in
        order, cost and no message): one event of the routine's own, whichever build counts it."""
        same: dict[Event, Event] = {}
        for key, events in self.made.items():
            for mine, theirs in zip(events, first.get(key, [])):
                if mine.cost == theirs.cost and mine.message is None and theirs.message is None \
                        and mine.region == theirs.region:
                    same[mine] = theirs
        return same

    # ------------------------------------------------------------------ regions
    def region(self, stmts: list[ir.Stmt], index: Index) -> RegionResult:
        """Events of a statement list per entry into it: each statement's events times how often the
        region graph's solution runs it."""
        self.region_ids += 1
        region_id = self.region_ids
        graph = RegionGraph(len(stmts), stmts=stmts)
        for i, stmt in enumerate(stmts):
            if stmt.label is not None:
                graph.labels.setdefault(stmt.label, i)
        graph.error_labels = self.exits.labels(stmts)
        node_events: dict[int, RegionResult] = {}
        for i, stmt in enumerate(stmts):
            node_events[i] = self.node(stmt, i, graph, index, region_id)
        solution = solve(graph, self._goto_loops(stmts, index), self.names.irreducible_visits(stmts))
        result = RegionResult(fallthrough=solution.fallthrough, escapes=solution.escapes)
        shared: dict = {}  # the loop solution's substitution, each subexpression once for the region
        for i, inner in node_events.items():
            freq = solution.freq.get(i, sympy.Integer(0))
            if freq == 0:
                continue
            for event, count in inner.counts.items():
                if solution.subs:
                    count = tidy_small(substitute(count, solution.subs, shared))
                result.add(event, mul(freq, count))
        return result

    def node(self, stmt: ir.Stmt, i: int, graph: RegionGraph, index: Index, region_id: int) -> RegionResult:
        """Events of one statement per execution of it, and its out-edges in `graph`."""
        with self.values.noting_at(stmt.loc):
            return self._node(stmt, i, graph, index, region_id)

    def _node(self, stmt: ir.Stmt, i: int, graph: RegionGraph, index: Index, region_id: int) -> RegionResult:
        local = RegionResult()
        if isinstance(stmt, ir.If):
            self._if(stmt, i, graph, index, local, region_id)
        elif isinstance(stmt, ir.Do):
            self._do(stmt, i, graph, index, local, region_id)
        elif isinstance(stmt, ir.While):
            self._while(stmt, i, graph, index, local, region_id)
        else:
            self._simple(stmt, local, index, region_id)
            picks = self.branches.selections(stmt, index) if isinstance(stmt, ir.ComputedGoto) else None
            for tgt, weight in self.jumps.edges(stmt, i, graph, picks, self.branches.fall_back):
                graph.add_edge(i, tgt, weight)
            if isinstance(stmt, ir.Unsupported):
                self.ctx.warn(stmt.loc, f"unsupported construct, costed as an unresolved parameter: "
                                        f"{stmt.text.strip()[:60]}")
        return local

    # ------------------------------------------------------------------ simple statements
    def _simple(self, stmt: ir.Stmt, local: RegionResult, index: Index, region_id: int) -> None:
        cost = statement_cost(stmt, self.layout)
        role = ("cond" if isinstance(stmt, (ir.ComputedGoto, ir.ArithmeticIf)) else
                "goto" if isinstance(stmt, (ir.Goto, ir.AssignedGoto)) else "stmt")
        event = self._event(stmt.loc, role, cost, region_id, isinstance(stmt, _SIMPLE + _TERMINAL), stmt)
        if isinstance(stmt, ir.Unsupported):
            event.cost[f"cost:{self.names.unsupported(stmt)}"] += 1
        if isinstance(stmt, ir.Message):
            event.message, event.groupable = spmd.describe(self, stmt, index), False
        local.add(event, sympy.Integer(1))
        if isinstance(stmt, ir.CallStmt):
            self.calls.expand(stmt.name, stmt.args, stmt.loc, index, local, event, stmt.indirect, stmt)
        for call in cost.calls:
            self.calls.expand(call.name, call.args, stmt.loc, index, local, event, call.indirect, stmt)

    # ------------------------------------------------------------------ compound statements
    def _if(self, stmt: ir.If, i: int, graph: RegionGraph, index: Index, local: RegionResult,
            region_id: int) -> None:
        stmt = merge_same_jumps(stmt)
        place = self.names.place(stmt, "IF")
        probs = self.branches.arms(stmt, place, index, graph)
        remaining: sympy.Expr = sympy.Integer(1)
        fallthrough: sympy.Expr = sympy.Integer(0)
        escapes: dict[Target, sympy.Expr] = {}
        decide = select_cost if is_select(stmt) else condition_cost  # a conditional move, not a branch
        for arm, p in zip(stmt.arms, probs):
            loc = arm.loc or stmt.loc
            cond = self._event(loc, "cond", decide(arm.cond, self.layout), region_id, False, stmt)
            local.add(cond, remaining)
            self.calls.calls_in(condition_cost(arm.cond), loc, index, local, cond, remaining, stmt)
            fallthrough += self._arm(arm.body, p, index, local, escapes, graph)
            remaining = remaining - p
        p_else = remaining
        if stmt.orelse is not None:
            fallthrough += self._arm(stmt.orelse, p_else, index, local, escapes, graph)
        else:
            fallthrough += p_else
        graph.add_edge(i, graph.successor(i), expanded(fallthrough))
        for tgt, weight in escapes.items():
            graph.add_edge(i, tgt, expanded(weight))
        if len(probs) == 1 and probs[0].is_Symbol:
            record_decision(graph, i, probs[0], escapes, graph.successor(i), fallthrough)

    def _arm(self, body: list[ir.Stmt], p: sympy.Expr, index: Index, local: RegionResult,
             escapes: dict[Target, sympy.Expr], graph: RegionGraph) -> sympy.Expr:
        if p == 0:
            if body:  # an arm never taken has no events, but keeps its place in the sequence: the event
                self.ctx.next_seq()  # right after a test is its first arm's (sad.measure.profile)
            return sympy.Integer(0)
        inner = self.region(body, index)
        for event, count in inner.counts.items():
            local.add(event, mul(p, count))
        for label, flow in inner.escapes.items():
            tgt = target(label, graph)
            escapes[tgt] = escapes.get(tgt, 0) + mul(p, flow)
        return mul(p, inner.fallthrough)

    def _do(self, stmt: ir.Do, i: int, graph: RegionGraph, index: Index, local: RegionResult,
            region_id: int) -> None:
        place = self.names.place(stmt, "DO")
        bounds = [self.values.bound(e, index, at=stmt) if e is not None else sympy.Integer(1)
                  for e in (stmt.lo, stmt.hi, stmt.step)]
        resolved = all(b is not None for b in bounds) and bounds[2] != 0
        idx = make_symbol(f"{stmt.index}_{self.proc.name}_{place}", "value", integer=True)
        inner_index = dict(index)
        if resolved:
            inner_index[stmt.index] = idx
            lo, hi, step = bounds
            if lo is not None and hi is not None and step is not None and step.is_Number:
                # its least value, for the sign of a quotient of it (values._note_sign)
                self.ctx.facts.index_lower[idx] = lo if step > 0 else hi
        else:
            inner_index.pop(stmt.index, None)
        state = (Counter(self.names.ordinals), self.region_ids, len(self.ctx.diagnostics))
        first: tuple[RegionResult, sympy.Expr] | str | None = None
        if resolved and bounds[2] is not None and bounds[2].has(sympy.Piecewise):
            # A step chosen in several places (a blocked loop's NB): summed with the choices stood in for
            # first. Summed as they are, every count folds their Piecewise (DORMQL's file: 25 s, 5 s so).
            first = self._with_standins(stmt, place, idx, index, inner_index, state)
            if not isinstance(first, str):
                self._entry(stmt, index, local, region_id)
                self._add_summed(first, stmt, i, graph, local, region_id)
                return
        body = self._in_loop(stmt.index, stmt.body, inner_index)
        summed = resolved  # the body's counts are summed over the index
        exits = {label: flow for label, flow in body.escapes.items() if label != "@stop"}
        if exits and resolved and _tests_index(idx, list(exits.values()), list(body.counts.values())):
            # Left early where a test of the index decides (IF (I .GT. 7) EXIT): summed over X trips, such
            # a test would count an exit at every trip past it; and a test of the index in the body has no
            # closed sum over a named number of trips (open sums of its indicators: SLSQP's LSQ took
            # minutes). Built again without the index, under the same names: the tests become
            # probabilities.
            self.names.ordinals, self.region_ids = Counter(state[0]), state[1]
            del self.ctx.diagnostics[state[2]:]
            inner_index.pop(stmt.index, None)
            summed = False
            body = self._in_loop(stmt.index, stmt.body, inner_index)
            exits = {label: flow for label, flow in body.escapes.items() if label != "@stop"}
        self._entry(stmt, index, local, region_id)
        if resolved and not exits:
            try:
                trial, iterations = self._summed_trips(body, idx, bounds)
            except (ValueError, TypeError) as exc:
                self.names.ordinals, self.region_ids = Counter(state[0]), state[1]
                del self.ctx.diagnostics[state[2]:]
                retried = first if first is not None else \
                    self._with_standins(stmt, place, idx, index, inner_index, state)
                if isinstance(retried, str):
                    # sympy met nan summing over bounds computed by functions (DGEQRF's DO I = 1, K - NX, NB
                    # with NB = ILAENV(...) and LWORK/N in its choices): built again without the index,
                    # under the same names, with a named trip count
                    inner_index.pop(stmt.index, None)
                    body = self._in_loop(stmt.index, stmt.body, inner_index)
                    # a fallback the user must hear of: the trips are a parameter where they had a formula
                    self.ctx.warn(stmt.loc, f"DO {stmt.index}: the sum over its bounds failed ({exc}){retried}; "
                                            f"its trips are a named count")
                    resolved = False
                else:
                    trial, iterations = retried
            if resolved:
                self._add_summed((trial, iterations), stmt, i, graph, local, region_id)
                return
        if not resolved:
            summed = False
        if resolved and exits and self._left_on_first_trip(stmt, idx, bounds, body, exits, graph, i, local,
                                                           region_id):
            return
        why = "bounds not known statically" if not resolved else "loop left early by a jump"
        x = self.names.loop_count(f"X_{self.proc.name}_{place}", stmt.loc, why, stmt,
                                  sympy.Add(*exits.values()) if exits else None)
        if summed:
            # Left early (EXIT, a GOTO out) on data: X trips, the index running over its first X values, so
            # that what the body does with the index (a callee's size, an inner loop's bound) is summed
            lo, _hi, step = bounds
            self._summed(body, idx, lo, lo + (x - 1) * step, step, local)
        else:
            for event, count in body.counts.items():
                local.add(event, mul(x, count))
        left: sympy.Expr = sympy.Integer(0)
        for label, flow in exits.items():
            graph.add_edge(i, target(label, graph), mul(x, flow))
            left += mul(x, flow)
        graph.add_edge(i, graph.successor(i), expanded(1 - left) if exits else sympy.Integer(1))
        it = self._event(stmt.loc, "loop_iter", loop_iteration_cost().ops, region_id, False, stmt)
        local.add(it, x)

    def _entry(self, stmt: ir.Do, index: Index, local: RegionResult, region_id: int) -> None:
        """The loop's entry, once, with the calls its bounds make (DO I = 1, NB(N))."""
        entry_cost = loop_entry_cost(stmt)
        entry = self._event(stmt.loc, "loop_entry", entry_cost, region_id, False, stmt)
        local.add(entry, sympy.Integer(1))
        self.calls.calls_in(entry_cost, stmt.loc, index, local, entry, sympy.Integer(1), stmt)

    def _add_summed(self, summed: tuple[RegionResult, sympy.Expr], stmt: ir.Do, i: int, graph: RegionGraph,
                    local: RegionResult, region_id: int) -> None:
        """A loop whose body's counts were summed over its index: those counts, its trips, and its way on."""
        trial, iterations = summed
        for event, count in trial.counts.items():
            local.add(event, count)
        graph.add_edge(i, graph.successor(i), sympy.Integer(1))
        it = self._event(stmt.loc, "loop_iter", loop_iteration_cost().ops, region_id, False, stmt)
        local.add(it, iterations)

    def _left_on_first_trip(self, stmt: ir.Do, idx: sympy.Symbol, bounds: list[sympy.Expr], body: RegionResult,
                            exits: dict[str, sympy.Expr], graph: RegionGraph, i: int, local: RegionResult,
                            region_id: int) -> bool:
        """A loop every pass of which leaves it (DLARFT's `DO LASTV = N, I+1, -1` with `IF (V(LASTV,I).NE.ZERO)
        EXIT`, decided for generic data): one trip where there is any, at the first index value, so no
        named trip count. False (nothing added) where a pass may go on."""
        flows = [expanded(flow) for flow in exits.values()]
        if expanded(sympy.Add(*flows)) != 1 or any(idx in free_symbols(flow) for flow in flows):
            return False
        lo, hi, step = bounds
        try:
            once = sympy.Min(1, sum_over_index(sympy.Integer(1), idx, lo, hi, step))
        except (ValueError, TypeError):
            return False
        for event, count in body.counts.items():
            local.add(event, mul(once, substitute(count, {idx: lo})))
        for label, flow in exits.items():
            graph.add_edge(i, target(label, graph), mul(once, flow))
        graph.add_edge(i, graph.successor(i), expanded(1 - once))
        it = self._event(stmt.loc, "loop_iter", loop_iteration_cost().ops, region_id, False, stmt)
        local.add(it, once)
        return True

    def _summed_trips(self, body: RegionResult, idx: sympy.Symbol, bounds: list[sympy.Expr]
                      ) -> tuple[RegionResult, sympy.Expr]:
        """The body's counts summed over the loop's index, and the loop's trips."""
        lo, hi, step = bounds
        trial = RegionResult()
        self._summed(body, idx, lo, hi, step, trial)
        return trial, sum_over_index(sympy.Integer(1), idx, lo, hi, step)

    def _with_standins(self, stmt: ir.Do, place: str, idx: sympy.Symbol, index: Index, inner_index: Index,
                       state: tuple) -> tuple[RegionResult, sympy.Expr] | str:
        """The loop summed with the invariant variables of its bounds whose values are choices (Piecewise)
        stood in for by symbols (sad.analysis.standins): kept where their values are functions of the formals,
        else put back; else why not, for the note (the names and notes of the attempt undone)."""
        values: dict[sympy.Symbol, sympy.Expr] = {}
        stood: Index = {}
        modified = self.ctx.facts.modified
        for var in standins.candidates(stmt, self.proc, modified.may_modify if modified is not None else None):
            value = self.values.bound(var, index, at=stmt) if var.name not in index else None
            if value is not None and value.has(sympy.Piecewise) and idx not in free_symbols(value):
                stood[var.name] = sym = standins.symbol(var.name, self.proc.name, place)
                values[sym] = value
        if not values:
            return ""
        outer = {**index, **stood}
        bounds = [self.values.bound(e, outer, at=stmt) if e is not None else sympy.Integer(1)
                  for e in (stmt.lo, stmt.hi, stmt.step)]
        names = ", ".join(stood)
        if any(b is None for b in bounds) or bounds[2] == 0:
            return f", and with {names} stood in its bounds are not known"
        # what the attempt's calls take (expansion budget, warnings, the stand-ins and deferred references
        # they leave with this routine), given back where it fails
        undo = (self.calls.taken, set(self.calls.not_expanded), {k: dict(v) for k, v in self.ctx.standins.items()},
                {k: list(v) for k, v in self.ctx.deferred.items()})
        body = self._in_loop(stmt.index, stmt.body, {**inner_index, **stood})
        try:
            if any(label != "@stop" for label in body.escapes):
                raise ValueError("left early")  # a named trip count, as without the stand-ins
            trial, iterations = self._summed_trips(body, idx, bounds)
        except (ValueError, TypeError) as exc:
            why = f", and with {names} stood in as well ({exc})"
        else:
            if standins.bindable(values.values(), self.ctx.formal_symbols(resolve_name(self.proc.name))):
                # functions of the formals: kept, bound at each call (sad.analysis.calls), named at a root
                self.ctx.standins.setdefault(resolve_name(self.proc.name), {}).update(values)
                return trial, iterations
            size = standins.written_size([*trial.counts.values(), iterations], values)
            if size <= BIND_LIMIT:
                memo: dict = {}
                out = RegionResult()
                for event, count in trial.counts.items():
                    out.add(event, standins.put_back(count, values, memo))
                return out, standins.put_back(iterations, values, memo)
            # too large for any call to bind (sad.analysis.calls): the named trip count costs no more
            why = f"; with {names} stood in, its counts would have {size} nodes, past the {BIND_LIMIT} a call binds"
        self.names.ordinals, self.region_ids = Counter(state[0]), state[1]
        del self.ctx.diagnostics[state[2]:]
        self.calls.taken, self.calls.not_expanded, self.ctx.standins, self.ctx.deferred = undo
        return why

    def _summed(self, body: RegionResult, idx: sympy.Symbol, lo: sympy.Expr, hi: sympy.Expr, step: sympy.Expr,
                local: RegionResult) -> None:
        """The body's counts summed over the loop's index from lo to hi (each distinct count once)."""
        memo: dict[sympy.Expr, sympy.Expr] = {}
        for event, count in body.counts.items():
            if count not in memo:
                memo[count] = sum_over_index(count, idx, lo, hi, step)
            local.add(event, memo[count])

    def _while(self, stmt: ir.While, i: int, graph: RegionGraph, index: Index, local: RegionResult,
               region_id: int) -> None:
        place = self.names.place(stmt, "WHILE")
        body = self._in_loop(None, stmt.body, dict(index))
        entry = self._event(stmt.loc, "loop_entry", Counter({"loop_start": 1}), region_id, False, stmt)
        local.add(entry, sympy.Integer(1))
        folded = self.branches.fold(stmt.cond, index, stmt) if stmt.cond is not None else None
        if folded is False and not stmt.test_at_end:
            cond = self._event(stmt.loc, "cond", condition_cost(stmt.cond).ops, region_id, False, stmt)
            local.add(cond, sympy.Integer(1))
            graph.add_edge(i, graph.successor(i), sympy.Integer(1))
            return
        x = None
        if not body.escapes:
            found = whileloops.induction(stmt, self.proc)
            x = self._pointer_trips(stmt, graph.stmts[:i], index, found) if found is not None and \
                found.var.type == "pointer" else self._counted(stmt, index, found=found)
        if x is None:
            x = self.names.loop_count(f"X_{self.proc.name}_{place}", stmt.loc, "while loop", stmt,
                                      sympy.Add(*body.escapes.values()) if body.escapes else None)
        if stmt.cond is not None:
            evaluations = x if stmt.test_at_end else x + 1
            cond_cost = condition_cost(stmt.cond)
            cond = self._event(stmt.loc, "cond", cond_cost.ops, region_id, False, stmt)
            local.add(cond, evaluations)
            self.calls.calls_in(cond_cost, stmt.loc, index, local, cond, evaluations)
        for event, count in body.counts.items():
            local.add(event, mul(x, count))
        it = self._event(stmt.loc, "loop_iter", loop_iteration_cost().ops, region_id, False, stmt)
        local.add(it, x)
        left: sympy.Expr = sympy.Integer(0)
        for label, flow in body.escapes.items():
            graph.add_edge(i, target(label, graph), mul(x, flow))
            left += mul(x, flow)
        if stmt.cond is not None:
            graph.add_edge(i, graph.successor(i), expanded(1 - left) if body.escapes else sympy.Integer(1))

    def _goto_loops(self, stmts: list[ir.Stmt], index: Index) -> Callable[[LoopInfo], sympy.Expr | None]:
        """The count of each loop GOTOs build in ``stmts``: counted where it is a do-while in disguise
        (``_goto_trips``) or a while loop (``_head_test_trips``), else named (sad.analysis.naming)."""
        named = self.names.goto_loops(stmts)
        memo: dict[int, sympy.Expr | None] = {}

        def count(loop: LoopInfo) -> sympy.Expr | None:
            if loop.header not in memo:
                trips = self._goto_trips(stmts, loop, index)
                memo[loop.header] = trips if trips is not None else self._head_test_trips(stmts, loop, index)
            found = memo[loop.header]
            return found if found is not None else named(loop)
        return count

    def _goto_trips(self, stmts: list[ir.Stmt], loop: LoopInfo, index: Index) -> sympy.Expr | None:
        """Back jumps per entry of a loop built with GOTO that is a do-while: an assignment, then the statements
        from the labelled header to ``IF (cond) GOTO header``, no other label among them and no other jump to
        the header (the F66 form: ``I = 0`` / ``30 I = I + 1`` ... ``IF (I .LT. N) GOTO 30``), counted as that
        while loop is (``_counted``), from the variable's value after the assignment: its trips less one.
        The step may stand in the test's arm, before the jump (DGTTS2's ``J = 1`` / ``10 CONTINUE`` ... ``IF
        (J.LT.NRHS) THEN; J = J + 1; GO TO 10``): the test then reads the value before the step, as a while
        loop's test does, and each pass it holds is a jump back. None for any other loop."""
        first, last = loop.header, max(loop.nodes)
        header, test = stmts[first], stmts[last]
        if first == 0 or loop.nodes != set(range(first, last + 1)) or header.label is None \
                or not isinstance(test, ir.If) or len(test.arms) != 1 or test.orelse \
                or len(test.arms[0].body) not in (1, 2):
            return None
        *stepped, jump = test.arms[0].body
        body, before = stmts[first:last] + stepped, stmts[first - 1]
        jumps_in = _jumps_in(stmts, header.label)
        if not isinstance(jump, ir.Goto) or jump.target != header.label or test.label is not None or jumps_in != 1 \
                or any(s.label is not None for s in body[1:]) or not isinstance(before, ir.Assign) \
                or before.label is not None or not all(isinstance(s, ir.Assign) for s in stepped):
            return None
        loop_stmt = ir.While(test.arms[0].cond, body, test_at_end=not stepped, loc=header.loc)
        found = whileloops.induction(loop_stmt, self.proc)
        if found is None or found.partner_step is not None \
                or any(getattr(s, "target", None) != found.var for s in stepped):
            return None
        # the variable's value on entry: the assignment's where it sets it, else the one it leaves alone
        start = self._value_on_entry([before], found.var, index)
        trips = self._counted(loop_stmt, index, at=header, start=start, found=found)
        return trips - 1 if trips is not None and not stepped else trips

    def _head_test_trips(self, stmts: list[ir.Stmt], loop: LoopInfo, index: Index) -> sympy.Expr | None:
        """Back jumps per entry of a loop built with GOTO that is a while loop, its test at its head: the
        labelled header (the test itself or a CONTINUE just before it), then either ``IF (cond) GOTO exit``, the
        body and ``GOTO header`` (gotoloop.f's ``10 IF (K .LE. 1) GOTO 20`` / ``K = K / 2`` / ``GOTO 10``:
        ``while (.NOT. cond)``), or ``IF (cond) THEN``, the body and ``GOTO header`` closing its arm (``10
        CONTINUE`` / ``IF (J .LE. N) THEN`` / ... / ``J = J + 3`` / ``GO TO 10`` / ``END IF``: ``while (cond)``);
        no other label in it and no other jump to the header. Counted as that while loop is (``_counted``),
        each pass one jump back, from the variable's value on entry (``_value_on_entry``). None for any other
        loop."""
        first, last = loop.header, max(loop.nodes)
        header = stmts[first]
        at = first + 1 if isinstance(header, ir.Continue) else first
        if first == 0 or header.label is None or at > last or loop.nodes != set(range(first, last + 1)):
            return None
        test = stmts[at]
        if not isinstance(test, ir.If) or len(test.arms) != 1 or test.orelse or not test.arms[0].body \
                or (at != first and test.label is not None):
            return None
        arm = test.arms[0].body
        cond: ir.Expr | None
        if at == last and _jumps_to(arm[-1], header.label):  # IF (cond) THEN ... GOTO header END IF
            cond, body = test.arms[0].cond, arm[:-1]
        elif len(arm) == 1 and isinstance(arm[0], ir.Goto) and arm[0].target != header.label \
                and _jumps_to(stmts[last], header.label) and stmts[last].label is None:
            cond, body = whileloops.negated(test.arms[0].cond), stmts[at + 1:last]
        else:
            return None
        jumps_in = _jumps_in(stmts, header.label)
        if cond is None or jumps_in != 1 or any(s.label is not None for s in ir.walk_stmts(body)):
            return None
        loop_stmt = ir.While(cond, body, test_at_end=False, loc=test.loc)
        found = whileloops.induction(loop_stmt, self.proc)
        start = self._value_on_entry(stmts[:first], found.var, index) if found is not None else None
        if found is None or found.partner_step is not None or start is None:
            return None
        return self._counted(loop_stmt, index, at=header, start=start, found=found)

    def _value_on_entry(self, before: list[ir.Stmt], var: ir.Var, index: Index) -> sympy.Expr | None:
        """The value `var` has after the plain assignments that end `before` (no label among them, so nothing
        jumps between them and the loop): its own assignment's, else its value before the first of them; None
        where no plain assignment precedes the loop."""
        run = whileloops.plain_run(before)
        for stmt in run:
            if isinstance(stmt.target, ir.Var) and stmt.target.name == var.name:
                return self.values.expr_at(stmt.value, stmt, index)
        return self.values.expr_at(var, run[-1], index) if run else None

    def _counted(self, stmt: ir.While, index: Index, at: ir.Stmt | None = None,
                 start: sympy.Expr | None = None, found: whileloops.Induction | None = None) -> sympy.Expr | None:
        """The trips of a while loop driven by an induction variable (sad.analysis.whileloops; ``found``, where
        the caller has it already), from the variable's value where the loop starts (``start``, else its value
        before ``at``: the loop itself by default), its bound and its step; None when one is not known."""
        found = found if found is not None else whileloops.induction(stmt, self.proc)
        if found is None:
            return None
        at = stmt if at is None else at
        start = self.values.expr_at(found.var, at, index) if start is None else start
        if found.partner_step is not None and isinstance(found.bound, ir.Var):
            # both sides move (i < j with i++, j--): the difference i - j against 0
            other = self.values.expr_at(found.bound, at, index)
            step_value = self.values.bound(found.step, index, at=at)
            if start is None or other is None or step_value is None:
                return None
            return whileloops.trips(found.op, start - other, sympy.Integer(0),
                                    found.sign * step_value - found.partner_step, stmt.test_at_end)
        bound = self.values.bound(found.bound, index, at=at)
        step = self.values.bound(found.step, index, at=at)
        if start is None or bound is None or step is None:
            return None
        if found.scale != "add":
            return whileloops.geometric_trips(found.scale, found.op, start, bound, step, stmt.test_at_end)
        return whileloops.trips(found.op, start, bound, found.sign * step, stmt.test_at_end)

    def _pointer_trips(self, stmt: ir.While, before: list[ir.Stmt], index: Index,
                       found: whileloops.Induction) -> sympy.Expr | None:
        """The trips of a while loop that walks a pointer (``while (p < end) *p++ = ...``, a C for over a
        pointer; `found` its induction), counted on the offsets of its start and bound from one base
        (sad.analysis.whileloops.pointer_span); None where they have no common base or an offset is not known."""
        span = whileloops.pointer_span(stmt, before, self.proc, self._declared, found)
        if span is None:
            return None
        first, last = (self.values.bound(off, index, at=stmt) for off in (span.start, span.bound))
        step = self.values.bound(span.found.step, index, at=stmt)
        if first is None or last is None or step is None:
            return None
        return whileloops.trips(span.found.op, first, last, span.found.sign * step, stmt.test_at_end)

    def _declared(self, name: str) -> ir.Variable | None:
        """A name's declaration: the routine's own, else the program's (a C file-scope array)."""
        return self.proc.variables.get(name) or self.values.facts.program.globals.get(name)

    def _in_loop(self, loop_index: str | None, body: list[ir.Stmt], index: Index) -> RegionResult:
        outer = self.layout
        self.layout = Layout(loop_index, self.fastest)
        try:
            return self.region(body, index)
        finally:
            self.layout = outer

    # ------------------------------------------------------------------ events
    def _event(self, loc: ir.Loc, role: str, cost: Cost | Counter, region_id: int, groupable: bool,
               stmt: ir.Stmt) -> Event:
        ops = cost.ops if isinstance(cost, Cost) else cost
        simple_stmt = role in ("stmt", "goto")
        event = Event(self.proc.name, loc, role, Counter(ops), region_id, self.ctx.next_seq(), groupable,
                      last_line=loc.line, text=type(stmt).__name__,
                      terminal=simple_stmt and isinstance(stmt, _TERMINAL),
                      starts_block=simple_stmt and stmt.label is not None)
        self.made.setdefault((id(stmt), role), []).append(event)
        return event

