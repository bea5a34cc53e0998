"""The SAD builder: one procedure's IR to its symbolic application description.

Data flow: IR procedure (frontends) → for each statement list a region graph (sad.analysis.cfg) whose nodes are
statements and whose nested lists are analysed first → per-entry execution counts of *events* (a simple
statement run, a condition evaluated, a loop entered or iterated), each with its cost vector (sad.analysis.cost).
Counted loops multiply or, when an inner bound depends on the index, sum exactly (sad.analysis.counting); loops with
unknown counts and data-dependent branches become named parameters X and P. A call expands the callee's
already-built SAD with the actual arguments bound to the formals, inside the caller's loops, so a call in a
triangular nest is summed like any other statement.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import sympy

from sad import ir
from sad.analysis.cfg import Decision, LoopInfo, RegionGraph, solve, tidy
from sad.analysis.cost import Cost, Layout, condition_cost, is_select, loop_entry_cost, loop_iteration_cost
from sad.analysis.cost import select_cost, statement_cost
from sad.analysis.counting import sum_over_index
from sad.analysis.params import Parameter, make_symbol
from sad.analysis.values import ProgramFacts, ValueResolver, resolve_name

_SIMPLE = (ir.Assign, ir.CallStmt, ir.IO, ir.Continue, ir.Message, ir.Pause, ir.AssignLabel,
           ir.Unsupported)
_TERMINAL = (ir.Goto, ir.Return, ir.Stop, ir.AssignedGoto)


@dataclass(eq=False)
class Event:
    """Something that happens a countable number of times: a statement, a condition, a loop entry or
    iteration. Identity-hashed: the same event reached through two call sites is one event."""
    procedure: str
    loc: ir.Loc
    role: str  # stmt | cond | loop_entry | loop_iter | goto
    cost: Counter
    region: int
    seq: int
    groupable: bool = False
    last_line: int = 0
    text: str = ""
    terminal: bool = False  # control leaves after it (GOTO, RETURN, STOP): it ends a block
    starts_block: bool = False  # a labelled statement: a jump may land here


@dataclass
class RegionResult:
    counts: dict[Event, sympy.Expr] = field(default_factory=dict)
    fallthrough: sympy.Expr = sympy.Integer(1)
    escapes: dict[str, sympy.Expr] = field(default_factory=dict)

    def add(self, event: Event, count: sympy.Expr) -> None:
        if count != 0:
            self.counts[event] = self.counts.get(event, 0) + count


@dataclass
class ProcedureSAD:
    procedure: ir.Procedure
    counts: dict[Event, sympy.Expr]  # per entry into the procedure, callees expanded


@dataclass
class BuildContext:
    """What every procedure's build shares: program facts, parameters met, SADs built so far."""
    facts: ProgramFacts
    table: object  # ParameterTable
    overrides: dict[str, sympy.Expr]
    built: dict[str, ProcedureSAD] = field(default_factory=dict)
    recursive_calls: set[tuple[str, str]] = field(default_factory=set)
    cycles: dict[str, frozenset[str]] = field(default_factory=dict)
    candidates: dict[sympy.Symbol, Parameter] = field(default_factory=dict)
    diagnostics: list[ir.Diagnostic] = field(default_factory=list)
    seq: int = 0

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq


class ProcedureBuilder:
    def __init__(self, ctx: BuildContext, proc: ir.Procedure) -> None:
        self.ctx = ctx
        self.proc = proc
        self.values = ValueResolver(ctx.facts, proc, ctx.table, ctx.overrides)
        self.ordinals: Counter = Counter()
        self.region_ids = 0
        self.assigned_labels = self._assigned_labels()
        self.fastest = "first" if proc.language == "fortran" else "last"
        self.layout = Layout(None, self.fastest)  # the innermost loop around what is being costed

    # ------------------------------------------------------------------ entry point
    def build(self) -> ProcedureSAD:
        result = self.region(self.proc.body, {})
        for label, flow in result.escapes.items():
            if not label.startswith("@"):
                self._warn(self.proc.loc, f"jump to label {label} that is not in {self.proc.name}")
        return ProcedureSAD(self.proc, result.counts)

    # ------------------------------------------------------------------ regions
    def region(self, stmts: list[ir.Stmt], index: dict[str, sympy.Symbol]) -> RegionResult:
        self.region_ids += 1
        region_id = self.region_ids
        graph = RegionGraph(len(stmts))
        for i, stmt in enumerate(stmts):
            if stmt.label is not None:
                graph.labels.setdefault(stmt.label, i)
        graph.error_labels = self._error_labels(stmts)
        node_events: dict[int, RegionResult] = {}
        for i, stmt in enumerate(stmts):
            node_events[i] = self.node(stmt, i, graph, index, region_id)
        solution = solve(graph, self._loop_symbol_for(stmts))
        result = RegionResult(fallthrough=solution.fallthrough, escapes=solution.escapes)
        for i, inner in node_events.items():
            freq = solution.freq.get(i, sympy.Integer(0))
            if freq == 0:
                continue
            for event, count in inner.counts.items():
                if solution.subs:
                    count = tidy(count.xreplace(solution.subs))
                result.add(event, _mul(freq, count))
        return result

    def node(self, stmt: ir.Stmt, i: int, graph: RegionGraph, index, region_id: int) -> RegionResult:
        """Events of one statement per execution of it, and its out-edges in `graph`."""
        local = RegionResult()
        self._current_node, self._current_next = i, graph.successor(i)
        if isinstance(stmt, ir.If):
            self._if(stmt, i, graph, index, local, region_id)
        elif isinstance(stmt, ir.Do):
            self._do(stmt, i, graph, index, local, region_id)
        elif isinstance(stmt, ir.While):
            self._while(stmt, i, graph, index, local, region_id)
        else:
            self._simple(stmt, local, index, region_id)
            for target, weight in self._jumps(stmt, graph):
                graph.add_edge(i, target, weight)
            if isinstance(stmt, ir.Unsupported):
                self._warn(stmt.loc, f"unsupported construct, costed as an unresolved parameter: "
                                     f"{stmt.text.strip()[:60]}")
        return local

    # ------------------------------------------------------------------ simple statements and jumps
    def _simple(self, stmt: ir.Stmt, local: RegionResult, index, region_id: int) -> None:
        cost = statement_cost(stmt, self.layout)
        role = ("cond" if isinstance(stmt, (ir.ComputedGoto, ir.ArithmeticIf)) else
                "goto" if isinstance(stmt, (ir.Goto, ir.AssignedGoto)) else "stmt")
        event = self._event(stmt.loc, role, cost, region_id, isinstance(stmt, _SIMPLE + _TERMINAL), stmt)
        if isinstance(stmt, ir.Unsupported):
            event.cost[f"cost:{self._unsupported_param(stmt)}"] += 1
        local.add(event, sympy.Integer(1))
        if isinstance(stmt, ir.CallStmt):
            self._expand_call(stmt.name, stmt.args, stmt.loc, index, local, event, stmt.indirect)
        for call in cost.calls:
            self._expand_call(call.name, call.args, stmt.loc, index, local, event, call.indirect)

    def _jumps(self, stmt: ir.Stmt, graph: RegionGraph):
        """(target, weight) out-edges of a simple statement; targets outside the list are escapes."""
        if isinstance(stmt, ir.Goto):
            return [(self._target(stmt.target, graph), sympy.Integer(1))]
        if isinstance(stmt, ir.Return):
            return [(("esc", "@return"), sympy.Integer(1))]
        if isinstance(stmt, ir.Stop) or self._terminates(stmt):
            return [(("esc", "@stop"), sympy.Integer(1))]
        if isinstance(stmt, ir.ArithmeticIf):
            return self._multiway(stmt, [("NEG", stmt.neg), ("ZERO", stmt.zero), ("POS", stmt.pos)], graph,
                                  "AIF", None)
        if isinstance(stmt, ir.ComputedGoto):
            arms = [(str(k + 1), t) for k, t in enumerate(stmt.targets)]
            return self._multiway(stmt, arms, graph, "CGOTO", stmt.default)
        if isinstance(stmt, ir.AssignedGoto):
            targets = stmt.targets or self.assigned_labels.get(stmt.var, [])
            arms = [(str(k + 1), t) for k, t in enumerate(targets)]
            return self._multiway(stmt, arms, graph, "AGOTO", arms[-1][1] if arms else None)
        if isinstance(stmt, ir.CallStmt) and stmt.alt_returns:
            arms = [(f"RET{k + 1}", t) for k, t in enumerate(stmt.alt_returns)]
            return self._multiway(stmt, arms, graph, "ALTRET", None)
        if isinstance(stmt, ir.IO) and (stmt.end_label or stmt.err_label):
            self.ctx.diagnostics.append(ir.Diagnostic(stmt.loc, "note",
                                                      "I/O error and end-of-file branches assumed not taken"))
        return [(self._current_next, sympy.Integer(1))]

    def _target(self, label: str, graph: RegionGraph):
        if label in graph.labels:
            return graph.labels[label]
        return ("esc", label)

    def _multiway(self, stmt, arms: list[tuple[str, str]], graph: RegionGraph, kind: str,
                  default: str | None):
        """A decision among labelled targets: one probability per distinct target, the last (or the
        fall-through / default) takes the rest. Targets listed twice share one arm."""
        place = self._place(stmt, kind)
        distinct: list[tuple[str, str]] = []
        for name, label in arms:
            if all(label != seen for _, seen in distinct):
                distinct.append((name, label))
        fallback = self._target(default, graph) if default else self._current_next
        if default in graph.error_labels:
            fallback = None  # the default arm is an error exit: the last real arm takes the rest
        errors = [label for _, label in distinct if label in graph.error_labels]
        if errors:
            self.ctx.diagnostics.append(ir.Diagnostic(stmt.loc, "note", "jumps to error exits assumed not taken"))
        distinct = [(name, label) for name, label in distinct if label not in graph.error_labels] or distinct
        out = [(self._target(label, graph), name) for name, label in distinct]
        if default is None and kind in ("AIF",):
            fallback = None  # an arithmetic IF always jumps: its last arm takes the rest
        if fallback is None:
            *named, (last_target, _) = out
        else:
            named, last_target = out, fallback
        symbols = []
        for target, name in named:
            suffix = "" if len(named) == 1 else f"_{name}"
            symbols.append(self._probability(f"P_{self.proc.name}_{place}{suffix}", stmt.loc,
                                             len(named) + 1, stmt))
        edges = [(target, sym) for (target, _), sym in zip(named, symbols)]
        edges.append((last_target, 1 - sum(symbols)))
        if len(symbols) == 1:
            graph.decisions[self._current_node] = Decision(symbols[0], named[0][0], last_target)
        return edges

    # ------------------------------------------------------------------ compound statements
    def _if(self, stmt: ir.If, i: int, graph: RegionGraph, index, local: RegionResult, region_id):
        stmt = _merge_same_jumps(stmt)
        place = self._place(stmt, "IF")
        probs = self._arm_probabilities(stmt, place, index, graph)
        remaining = sympy.Integer(1)
        fallthrough = sympy.Integer(0)
        escapes: dict[object, sympy.Expr] = {}
        decide = select_cost if is_select(stmt) else condition_cost  # a conditional move, not a branch
        for k, (arm, p) in enumerate(zip(stmt.arms, probs)):
            loc = arm.loc or stmt.loc
            cond = self._event(loc, "cond", decide(arm.cond, self.layout), region_id, False, stmt)
            local.add(cond, remaining)
            self._calls_in(condition_cost(arm.cond), loc, index, local, cond, remaining)
            fallthrough += self._arm(arm.body, p, index, local, escapes, graph)
            remaining = remaining - p
        p_else = remaining
        if stmt.orelse is not None:
            fallthrough += self._arm(stmt.orelse, p_else, index, local, escapes, graph)
        else:
            fallthrough += p_else
        graph.add_edge(i, graph.successor(i), _tidy(fallthrough))
        for target, weight in escapes.items():
            graph.add_edge(i, target, _tidy(weight))
        if len(probs) == 1 and probs[0].is_Symbol:
            self._record_decision(graph, i, probs[0], escapes, graph.successor(i), fallthrough)

    def _record_decision(self, graph, i, p, escapes, nxt, fallthrough):
        """A one-armed IF whose arm always jumps to one place (the GOTO-loop idiom) is a two-way
        decision between that place and the next statement."""
        if len(escapes) == 1:
            (target, weight), = escapes.items()
            if sympy.simplify(weight - p) == 0 and sympy.simplify(fallthrough - (1 - p)) == 0:
                graph.decisions[i] = Decision(p, target, nxt)

    def _arm(self, body, p, index, local: RegionResult, escapes: dict, graph: RegionGraph):
        if p == 0:
            return sympy.Integer(0)
        inner = self.region(body, index)
        for event, count in inner.counts.items():
            local.add(event, _mul(p, count))
        for label, flow in inner.escapes.items():
            target = self._target(label, graph)
            escapes[target] = escapes.get(target, 0) + _mul(p, flow)
        return _mul(p, inner.fallthrough)

    def _arm_probabilities(self, stmt: ir.If, place: str, index, graph: RegionGraph) -> list[sympy.Expr]:
        """Per arm, the fraction of the IF's executions that take it. Conditions that fold to constants
        (direct parameters) give 0 or 1; an arm that ends the program (STOP: an error exit) is assumed
        not taken, and says so; the rest are named probabilities."""
        folded = [self._fold(arm.cond, index) for arm in stmt.arms]
        for k, arm in enumerate(stmt.arms):
            if folded[k] is None and self._error_exit(arm.body, graph):
                folded[k] = False
                self.ctx.diagnostics.append(ir.Diagnostic(arm.loc or stmt.loc, "note",
                                                          "branch to an error exit (STOP, exit, non-zero return from main) assumed not taken"))
        if all(f is not None for f in folded):
            probs, remaining = [], sympy.Integer(1)
            for f in folded:
                probs.append(remaining if f else sympy.Integer(0))
                if f:
                    remaining = sympy.Integer(0)
            return probs
        if len(stmt.arms) == 1 and folded[0] is None:
            indicator = self._indicator(stmt.arms[0].cond, index)
            if indicator is not None:
                return [indicator]
        open_arms = [k for k, f in enumerate(folded) if f is not False]
        arms = len(open_arms) + 1
        probs = []
        for k, arm in enumerate(stmt.arms):
            if folded[k] is False:
                probs.append(sympy.Integer(0))
                continue
            suffix = "" if len(open_arms) == 1 else f"_{k + 1}"
            probs.append(self._probability(f"P_{self.proc.name}_{place}{suffix}", arm.loc or stmt.loc, arms,
                                           stmt))
        return probs

    def _error_exit(self, body: list[ir.Stmt], graph: RegionGraph | None = None) -> bool:
        """An arm that ends the program: STOP (C exit/abort), a non-zero return from the main program, or a
        jump to a labelled piece of straight-line code that does one of these."""
        if not body:
            return False
        last = body[-1]
        if isinstance(last, ir.Goto) and graph is not None:
            return last.target in graph.error_labels
        if isinstance(last, ir.Stop) or self._terminates(last):
            return True
        return (isinstance(last, ir.Return) and self.proc.kind == "program" and isinstance(last.value, ir.Const)
                and last.value.value not in (0, False))

    def _terminates(self, stmt: ir.Stmt) -> bool:
        return isinstance(stmt, ir.CallStmt) and resolve_name(stmt.name) in self.ctx.facts.terminating

    def _error_labels(self, stmts: list[ir.Stmt]) -> set[str]:
        """Labels from which straight-line code (I/O, assignments, calls) runs into an error exit."""
        labels = set()
        for i, stmt in enumerate(stmts):
            if stmt.label is None:
                continue
            # A jump to `40 STOP` is how many F77 programs end normally: only code that reports
            # something (an error message, a STOP code, a non-zero status) counts as an error exit.
            reports = False
            for later in stmts[i:]:
                if self._error_exit([later]):
                    if reports or not isinstance(later, ir.Stop) or later.code is not None:
                        labels.add(stmt.label)
                    break
                if not isinstance(later, (ir.Assign, ir.IO, ir.CallStmt, ir.Continue)):
                    break
                reports = reports or isinstance(later, ir.IO)
        return labels

    def _indicator(self, cond: ir.Expr, index) -> sympy.Expr | None:
        """A condition on run-time values and constants only (no loop index, nothing that changes as the
        procedure runs) is taken exactly: 1 where it holds, 0 elsewhere."""
        value = self.values.expr(cond, index)
        if value is None or not _is_logical(value) or value.is_Atom:
            return None
        loop_indices = value.free_symbols & set(index.values())
        if len(loop_indices) > 1:
            return None  # (one index: summed exactly by sad.analysis.counting at its loop)
        formals = {self.ctx.facts.storage_name(self.proc, f) for f in self.proc.formals}
        if any(s.name in formals for s in value.free_symbols):
            return None  # an argument differs from call to call: a probability, not an indicator
        return sympy.Piecewise((sympy.Integer(1), value), (sympy.Integer(0), True))

    def _fold(self, cond: ir.Expr, index) -> bool | None:
        value = self.values.expr(cond, index)
        if value is sympy.true or value is True:
            return True
        if value is sympy.false or value is False:
            return False
        return None

    def _do(self, stmt: ir.Do, i: int, graph: RegionGraph, index, local: RegionResult, region_id):
        place = self._place(stmt, "DO")
        bounds = [self.values.bound(e, index) if e is not None else sympy.Integer(1)
                  for e in (stmt.lo, stmt.hi, stmt.step)]
        resolved = all(b is not None for b in bounds) and bounds[2] != 0
        idx = make_symbol(f"{stmt.index}_{self.proc.name}_{place}", "value", integer=True)
        inner_index = dict(index)
        if resolved:
            inner_index[stmt.index] = idx
        else:
            inner_index.pop(stmt.index, None)
        body = self._in_loop(stmt.index, stmt.body, inner_index)
        exits = {label: flow for label, flow in body.escapes.items() if label != "@stop"}
        entry = self._event(stmt.loc, "loop_entry", loop_entry_cost(stmt), region_id, False, stmt)
        local.add(entry, sympy.Integer(1))
        if resolved and not exits:
            lo, hi, step = bounds
            memo: dict = {}
            for event, count in body.counts.items():
                if count not in memo:
                    memo[count] = sum_over_index(count, idx, lo, hi, step)
                local.add(event, memo[count])
            iterations = sum_over_index(sympy.Integer(1), idx, lo, hi, step)
            graph.add_edge(i, graph.successor(i), sympy.Integer(1))
        else:
            why = "bounds not known statically" if not resolved else "loop left early by a jump"
            x = self._loop_count(f"X_{self.proc.name}_{place}", stmt.loc, why, stmt)
            for event, count in body.counts.items():
                local.add(event, _mul(x, count))
            iterations = x
            left = sympy.Integer(0)
            for label, flow in exits.items():
                graph.add_edge(i, self._target(label, graph), _mul(x, flow))
                left += _mul(x, flow)
            graph.add_edge(i, graph.successor(i), _tidy(1 - left) if exits else sympy.Integer(1))
        it = self._event(stmt.loc, "loop_iter", loop_iteration_cost().ops, region_id, False, stmt)
        local.add(it, iterations)

    def _while(self, stmt: ir.While, i: int, graph: RegionGraph, index, local: RegionResult, region_id):
        place = self._place(stmt, "WHILE")
        body = self._in_loop(None, stmt.body, dict(index))
        entry = self._event(stmt.loc, "loop_entry", Counter({"loop_start": 1}), region_id, False, stmt)
        local.add(entry, sympy.Integer(1))
        folded = self._fold(stmt.cond, index) if stmt.cond is not None else None
        if folded is False and not stmt.test_at_end:
            cond = self._event(stmt.loc, "cond", condition_cost(stmt.cond).ops, region_id, False, stmt)
            local.add(cond, sympy.Integer(1))
            graph.add_edge(i, graph.successor(i), sympy.Integer(1))
            return
        x = self._loop_count(f"X_{self.proc.name}_{place}", stmt.loc, "while loop", stmt)
        if stmt.cond is not None:
            evaluations = x if stmt.test_at_end else x + 1
            cond_cost = condition_cost(stmt.cond)
            cond = self._event(stmt.loc, "cond", cond_cost.ops, region_id, False, stmt)
            local.add(cond, evaluations)
            self._calls_in(cond_cost, stmt.loc, index, local, cond, evaluations)
        for event, count in body.counts.items():
            local.add(event, _mul(x, count))
        it = self._event(stmt.loc, "loop_iter", loop_iteration_cost().ops, region_id, False, stmt)
        local.add(it, x)
        left = sympy.Integer(0)
        for label, flow in body.escapes.items():
            graph.add_edge(i, self._target(label, graph), _mul(x, flow))
            left += _mul(x, flow)
        if stmt.cond is not None:
            graph.add_edge(i, graph.successor(i), _tidy(1 - left) if body.escapes else sympy.Integer(1))

    def _in_loop(self, loop_index: str | None, body: list[ir.Stmt], index) -> RegionResult:
        outer = self.layout
        self.layout = Layout(loop_index, self.fastest)
        try:
            return self.region(body, index)
        finally:
            self.layout = outer

    # ------------------------------------------------------------------ calls
    def _calls_in(self, cost: Cost, loc, index, local: RegionResult, event: Event, times) -> None:
        for call in cost.calls:
            scratch = RegionResult()
            self._expand_call(call.name, call.args, loc, index, scratch, event, call.indirect)
            for ev, count in scratch.counts.items():
                local.add(ev, _mul(times, count))

    def _expand_call(self, name: str, args: list[ir.Expr], loc: ir.Loc, index, local: RegionResult,
                     site: Event, indirect: bool) -> None:
        """Add the callee's events, with formals bound to actuals, or an unresolved call cost."""
        key = resolve_name(name)
        if (resolve_name(self.proc.name), key) in self.ctx.recursive_calls:
            return  # inside a cycle of calls: counted by the cycle's X_<routine>_CALLS at its entry
        callee = self.ctx.built.get(key)
        if indirect or callee is None:
            reason = "call through a pointer" if indirect else "routine not in the analyzed files"
            cname = f"C_{name}" if not indirect else f"C_{self.proc.name}_INDIRECT"
            self._call_cost(cname, loc, reason)
            site.cost[f"cost:{cname}"] += 1
            return
        if key in self.ctx.cycles:
            self._expand_cycle(key, args, index, local)
            return
        subs = self._bind_formals(callee.procedure, args, index)
        for event, count in callee.counts.items():
            local.add(event, count.xreplace(subs) if subs else count)

    def _expand_cycle(self, entry: str, args, index, local: RegionResult) -> None:
        """A call into recursion: each routine of the cycle runs X_<routine>_CALLS times per such call,
        which only execution can tell."""
        for member in sorted(self.ctx.cycles[entry]):
            built = self.ctx.built.get(member)
            if built is None:
                continue
            proc = built.procedure
            x = self._loop_count(f"X_{proc.name}_CALLS", proc.loc,
                                 "activations of a recursive routine per call from outside its cycle", proc)
            for event, count in built.counts.items():
                local.add(event, _mul(x, count))

    def _bind_formals(self, callee: ir.Procedure, args: list[ir.Expr], index) -> dict:
        subs = {}
        for pos, formal in enumerate(callee.formals):
            symbol = self.ctx.table.symbol(self.ctx.facts.storage_name(callee, formal))
            if symbol is None or pos >= len(args):
                continue
            value = self.values.expr(args[pos], index)
            if value is not None and not _is_logical(value):
                subs[symbol] = value
        return subs

    # ------------------------------------------------------------------ parameters
    def _place(self, stmt: ir.Stmt, kind: str) -> str:
        self.ordinals[kind] += 1
        if stmt.label and not stmt.label.startswith("."):
            return f"L{stmt.label}"
        return f"{kind}{self.ordinals[kind]}"

    def _probability(self, name: str, loc: ir.Loc, arms: int, stmt) -> sympy.Symbol:
        return self._candidate(Parameter(name, "unresolved", "branch_probability", loc.file, loc.line,
                                         self.proc.name, description=f"{arms}-way branch",
                                         default=round(1.0 / arms, 6), arms=arms,
                                         depends_on=_variables_of(stmt)))

    def _loop_count(self, name: str, loc: ir.Loc, why: str, stmt) -> sympy.Symbol:
        return self._candidate(Parameter(name, "unresolved", "loop_count", loc.file, loc.line,
                                         self.proc.name, description=why, default=1.0,
                                         depends_on=_variables_of(stmt)))

    def _call_cost(self, name: str, loc: ir.Loc, why: str) -> sympy.Symbol:
        return self._candidate(Parameter(name, "unresolved", "call_cost", loc.file, loc.line,
                                         self.proc.name, description=f"seconds per call ({why})"))

    def _unsupported_param(self, stmt: ir.Unsupported) -> str:
        name = f"C_{self.proc.name}_UNSUPPORTED{self.ordinals['UNSUPPORTED'] + 1}"
        self.ordinals["UNSUPPORTED"] += 1
        self._candidate(Parameter(name, "unresolved", "call_cost", stmt.loc.file, stmt.loc.line,
                                  self.proc.name, description=f"seconds per execution of: {stmt.text[:60]}"))
        return name

    def _candidate(self, param: Parameter) -> sympy.Symbol:
        symbol = param.symbol
        self.ctx.candidates.setdefault(symbol, param)
        return symbol

    def _loop_symbol_for(self, stmts: list[ir.Stmt]):
        def name_loop(loop: LoopInfo) -> sympy.Symbol | None:
            header = stmts[loop.header]
            place = f"L{header.label}" if header.label and not header.label.startswith(".") \
                else f"LOOP{loop.header + 1}_{header.loc.line}"
            return self._loop_count(f"X_{self.proc.name}_{place}", header.loc, "loop built with GOTO",
                                    header)
        return name_loop

    # ------------------------------------------------------------------ helpers
    def _event(self, loc: ir.Loc, role: str, cost, region_id: int, groupable: bool, stmt) -> Event:
        ops = cost.ops if isinstance(cost, Cost) else cost
        last = getattr(stmt, "end_line", None) or loc.line
        simple_stmt = role in ("stmt", "goto")
        return Event(self.proc.name, loc, role, Counter(ops), region_id, self.ctx.next_seq(), groupable,
                     last_line=last, text=type(stmt).__name__,
                     terminal=simple_stmt and isinstance(stmt, _TERMINAL),
                     starts_block=simple_stmt and stmt.label is not None)

    def _assigned_labels(self) -> dict[str, list[str]]:
        labels: dict[str, list[str]] = {}
        for stmt in ir.walk_stmts(self.proc.body):
            if isinstance(stmt, ir.AssignLabel) and stmt.target_label not in labels.get(stmt.var, []):
                labels.setdefault(stmt.var, []).append(stmt.target_label)
        return labels

    def _warn(self, loc: ir.Loc, message: str) -> None:
        self.ctx.diagnostics.append(ir.Diagnostic(loc, "warning", message))


def _variables_of(stmt: ir.Stmt | ir.Procedure) -> list[str]:
    """The variables a decision or a loop's extent reads: what its parameter is known to depend on."""
    if not isinstance(stmt, (ir.If, ir.Do, ir.While, ir.ComputedGoto, ir.ArithmeticIf)):
        return []
    names = {node.name for expr in ir.own_exprs(stmt) for node in ir.walk(expr)
             if isinstance(node, (ir.Var, ir.ArrayRef)) and not node.name.startswith(".")}
    return sorted(names)


def _merge_same_jumps(stmt: ir.If) -> ir.If:
    """`if (a || b) goto l;` lowered to arms that all jump to one place is one decision: one probability,
    measurable from line counts, and the decision a GOTO loop's count can be read from."""
    if len(stmt.arms) < 2 or stmt.orelse is not None:
        return stmt
    bodies = [arm.body for arm in stmt.arms]
    if not all(len(b) == 1 and isinstance(b[0], ir.Goto) for b in bodies):
        return stmt
    if len({b[0].target for b in bodies}) != 1:
        return stmt
    cond = stmt.arms[0].cond
    for arm in stmt.arms[1:]:
        cond = ir.BinOp("or", cond, arm.cond, type="logical")
    merged = ir.IfArm(cond, bodies[0], stmt.arms[0].loc)
    return ir.If([merged], None, logical=stmt.logical, loc=stmt.loc, label=stmt.label)


def _is_logical(value: sympy.Basic) -> bool:
    """A truth value or condition (sympy's Symbol is also a Boolean, so test the kinds that are not)."""
    return (value.is_Relational or isinstance(value, sympy.logic.boolalg.BooleanFunction)
            or value in (sympy.true, sympy.false))


def _mul(a, b) -> sympy.Expr:
    if a == 1:
        return b
    if b == 1:
        return a
    return a * b


def _tidy(expr) -> sympy.Expr:
    expr = sympy.sympify(expr)
    return expr if expr.is_Atom else sympy.expand(expr)
