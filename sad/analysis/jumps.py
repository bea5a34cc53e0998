"""Control edges of simple statements: GOTO, RETURN, STOP, arithmetic IF, computed and assigned GOTO,
alternate returns, and which jumps are error exits.

Data flow: the builder (sad.analysis.builder) gives each statement of a statement list its node in the
region graph (sad.analysis.cfg); for a simple statement this module adds its out-edges, weighted 1 or by a
branch probability named by sad.analysis.naming, and records two-way decisions the loop finder can read a
GOTO loop's count from. Error exits (STOP, exit(), a non-zero return from the main program, or a jump to
straight-line code that reports and stops) are assumed not taken.
"""
from __future__ import annotations

from collections.abc import Callable

import sympy

from sad import ir
from sad.analysis import failures
from sad.analysis.buildstate import BuildContext, Target
from sad.analysis.cfg import Decision, RegionGraph
from sad.analysis.counting import indicator
from sad.analysis.naming import ParameterNamer
from sad.analysis.values import resolve_name


class ErrorExits:
    """Recognizes the code of one procedure that ends the program abnormally."""

    def __init__(self, ctx: BuildContext, proc: ir.Procedure) -> None:
        self.ctx = ctx
        self.proc = proc

    def ends_program(self, body: list[ir.Stmt], graph: RegionGraph | None = None) -> bool:
        """An arm that ends the program: STOP (C exit/abort), a non-zero return from the main program, or a
        jump to a labelled piece of straight-line code that does one of these."""
        if not body:
            return False
        last = body[-1]
        if isinstance(last, ir.Goto) and graph is not None:
            return last.target in graph.error_labels
        if isinstance(last, ir.Stop) or self.terminates(last):
            return True
        return (isinstance(last, ir.Return) and self.proc.kind == "program" and isinstance(last.value, ir.Const)
                and last.value.value not in (0, False))

    def error_return(self, body: list[ir.Stmt]) -> bool:
        """An arm that reports a failure through INFO and leaves (sad.analysis.failures)."""
        return failures.error_return(self.proc, body)

    def terminates(self, stmt: ir.Stmt) -> bool:
        """A call of a routine that never returns."""
        return isinstance(stmt, ir.CallStmt) and resolve_name(stmt.name) in self.ctx.facts.terminating

    def labels(self, stmts: list[ir.Stmt]) -> set[str]:
        """Labels from which straight-line code (I/O, assignments, calls) runs into an error exit."""
        labels = set()
        for i, stmt in enumerate(stmts):
            if stmt.label is None:
                continue
            # A jump to `40 STOP` is how many F77 programs end normally: only code that reports
            # something (an error message, a STOP code, a non-zero status) counts as an error exit.
            reports = False
            for later in stmts[i:]:
                if self.ends_program([later]):
                    if reports or not isinstance(later, ir.Stop) or later.code is not None:
                        labels.add(stmt.label)
                    break
                if not isinstance(later, (ir.Assign, ir.IO, ir.CallStmt, ir.Continue)):
                    break
                reports = reports or isinstance(later, ir.IO)
        return labels


def target(label: str, graph: RegionGraph) -> Target:
    """The node a label names in this region, or an escape to it."""
    if label in graph.labels:
        return graph.labels[label]
    return ("esc", label)


FallBack = Callable[[sympy.Expr, sympy.Expr], None]  # an exact weight and the probability it falls back to


class JumpEdges:
    """Adds the out-edges of one procedure's simple statements to their region graphs."""

    def __init__(self, ctx: BuildContext, proc: ir.Procedure, namer: ParameterNamer, exits: ErrorExits) -> None:
        self.ctx = ctx
        self.proc = proc
        self.namer = namer
        self.exits = exits
        self.assigned_labels = _assigned_labels(proc)

    def edges(self, stmt: ir.Stmt, node: int, graph: RegionGraph, picks: list[sympy.Basic] | None = None,
              fall_back: FallBack | None = None) -> list[tuple[Target, sympy.Expr]]:
        """(target, weight) out-edges of the simple statement at `node`; targets outside the list are escapes.
        `picks`: for a computed GOTO whose selector is known, each target's condition (its weight is then an
        exact indicator; `fall_back` learns the named probability it stands for where a caller passes data)."""
        if isinstance(stmt, ir.Goto):
            return [(target(stmt.target, graph), sympy.Integer(1))]
        if isinstance(stmt, ir.Return):
            return [(("esc", "@return"), sympy.Integer(1))]
        if isinstance(stmt, ir.Stop) or self.exits.terminates(stmt):
            return [(("esc", "@stop"), sympy.Integer(1))]
        if isinstance(stmt, ir.ArithmeticIf):
            arms = [("NEG", stmt.neg), ("ZERO", stmt.zero), ("POS", stmt.pos)]
            return self._multiway(stmt, node, arms, graph, "AIF", None)
        if isinstance(stmt, ir.ComputedGoto):
            arms = [(str(k + 1), t) for k, t in enumerate(stmt.targets)]
            return self._multiway(stmt, node, arms, graph, "CGOTO", stmt.default, picks, fall_back)
        if isinstance(stmt, ir.AssignedGoto):
            targets = stmt.targets or self.assigned_labels.get(stmt.var, [])
            arms = [(str(k + 1), t) for k, t in enumerate(targets)]
            return self._multiway(stmt, node, arms, graph, "AGOTO", arms[-1][1] if arms else None)
        if isinstance(stmt, ir.CallStmt) and stmt.alt_returns:
            arms = [(f"RET{k + 1}", t) for k, t in enumerate(stmt.alt_returns)]
            return self._multiway(stmt, node, arms, graph, "ALTRET", None)
        if isinstance(stmt, ir.IO) and (stmt.end_label or stmt.err_label):
            self.ctx.note(stmt.loc, "I/O error and end-of-file branches assumed not taken")
        return [(graph.successor(node), sympy.Integer(1))]

    def _multiway(self, stmt: ir.Stmt, node: int, arms: list[tuple[str, str]], graph: RegionGraph, kind: str,
                  default: str | None, picks: list[sympy.Basic] | None = None,
                  fall_back: FallBack | None = None) -> list[tuple[Target, sympy.Expr]]:
        """A decision among labelled targets: one probability per distinct target, the last (or the
        fall-through / default) takes the rest. Targets listed twice share one arm. With `picks` (each arm's
        condition), each distinct target's weight is the indicator that one of its arms is picked."""
        place = self.namer.place(stmt, kind)
        distinct: list[tuple[str, str]] = []
        for name, label in arms:
            if all(label != seen for _, seen in distinct):
                distinct.append((name, label))
        fallback: Target | None = target(default, graph) if default else graph.successor(node)
        if default in graph.error_labels:
            fallback = None  # the default arm is an error exit: the last real arm takes the rest
        errors = [label for _, label in distinct if label in graph.error_labels]
        if errors and picks is None:
            self.ctx.note(stmt.loc, "jumps to error exits assumed not taken")
        if picks is None:
            distinct = [(name, label) for name, label in distinct if label not in graph.error_labels] or distinct
        out = [(target(label, graph), name) for name, label in distinct]
        if default is None and kind == "AIF":
            fallback = None  # an arithmetic IF always jumps: its last arm takes the rest
        if fallback is None:
            *named, (last_target, _) = out
        else:
            named, last_target = out, fallback
        symbols = []
        for _, name in named:
            suffix = "" if len(named) == 1 else f"_{name}"
            symbols.append(self.namer.probability(f"P_{self.proc.name}_{place}{suffix}", stmt.loc,
                                                  len(named) + 1, stmt))
        if picks is not None:
            return self._picked(arms, picks, distinct, named, symbols, last_target, fall_back)
        edges: list[tuple[Target, sympy.Expr]] = [(tgt, sym) for (tgt, _), sym in zip(named, symbols)]
        edges.append((last_target, 1 - sum(symbols)))
        if len(symbols) == 1:
            graph.decisions[node] = Decision(symbols[0], named[0][0], last_target)
        return edges

    @staticmethod
    def _picked(arms: list[tuple[str, str]], picks: list[sympy.Basic], distinct: list[tuple[str, str]],
                named: list[tuple[Target, str]], symbols: list[sympy.Symbol], last_target: Target,
                fall_back: FallBack | None) -> list[tuple[Target, sympy.Expr]]:
        """The edges of a decision whose arms' conditions are known: each named target 1 where one of its
        arms is picked, the last target the rest (the fall-through where none is)."""
        by_name = {name: label for name, label in distinct}
        edges: list[tuple[Target, sympy.Expr]] = []
        for (tgt, name), symbol in zip(named, symbols):
            taken = sympy.Or(*[pick for (_, label), pick in zip(arms, picks) if label == by_name[name]])
            weight = sympy.Integer(1) if taken is sympy.true else sympy.Integer(0) if taken is sympy.false \
                else indicator(taken)
            if fall_back is not None:
                fall_back(weight, symbol)
            edges.append((tgt, weight))
        edges.append((last_target, 1 - sum(w for _, w in edges)))
        return edges


def _assigned_labels(proc: ir.Procedure) -> dict[str, list[str]]:
    """Per variable, the labels ASSIGNed to it, in source order (the targets of GOTO K without a list)."""
    labels: dict[str, list[str]] = {}
    for stmt in ir.walk_stmts(proc.body):
        if isinstance(stmt, ir.AssignLabel) and stmt.target_label not in labels.get(stmt.var, []):
            labels.setdefault(stmt.var, []).append(stmt.target_label)
    return labels
