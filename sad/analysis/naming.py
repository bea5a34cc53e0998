"""Naming a procedure's unresolved parameters: loop counts X, branch probabilities P, call costs C.

Data flow: the builder and its helpers (sad.analysis.builder, jumps, branches, calls) ask for a parameter at
a statement; this module gives it its stable name (sad.analysis.params: L<label>, else the kind and its
ordinal within the procedure), records what it depends on, and registers it as a *candidate* in the build
context. The pipeline keeps only the candidates the final SAD mentions.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import sympy

from sad import ir
from sad.analysis.buildstate import BuildContext
from sad.analysis.cfg import LoopInfo
from sad.analysis.params import Parameter

# Statements whose parameter depends on the variables their own expressions read.
_DECISIONS = (ir.If, ir.Do, ir.While, ir.ComputedGoto, ir.ArithmeticIf)


class ParameterNamer:
    """Names and registers the parameters of one procedure, numbering places in the order asked."""

    def __init__(self, ctx: BuildContext, proc: ir.Procedure) -> None:
        self.ctx = ctx
        self.proc = proc
        self.ordinals: Counter[str] = Counter()

    def place(self, stmt: ir.Stmt, kind: str) -> str:
        """L<label> for a labelled statement, else <kind><ordinal> (the ordinal counts every call)."""
        self.ordinals[kind] += 1
        if stmt.label and not stmt.label.startswith("."):
            return f"L{stmt.label}"
        return f"{kind}{self.ordinals[kind]}"

    def probability(self, name: str, loc: ir.Loc, arms: int, stmt: ir.Stmt) -> sympy.Symbol:
        """The symbol of a branch-probability parameter of an `arms`-way decision (default: equal arms)."""
        return self._candidate(Parameter(name, "unresolved", "branch_probability", loc.file, loc.line,
                                         self.proc.name, description=f"{arms}-way branch",
                                         default=round(1.0 / arms, 6), arms=arms,
                                         depends_on=variables_of(stmt)))

    def site_probability(self, param: Parameter, name: str) -> sympy.Symbol:
        """A callee's branch probability as one reference sees it (its own name: a call that binds the
        reference's arguments runs the callee for it, sad.analysis.calls)."""
        return self._candidate(Parameter(name, "unresolved", "branch_probability", param.file, param.line,
                                         param.procedure, description=f"{param.description}, at a reference in "
                                         f"{self.proc.name}", default=param.default, arms=param.arms,
                                         depends_on=list(param.depends_on)))

    def loop_count(self, name: str, loc: ir.Loc, why: str, where: ir.Stmt | ir.Procedure,
                   leaving: sympy.Expr | None = None) -> sympy.Symbol:
        """The symbol of an unresolved loop-count parameter, with `why` as its description (and, for a
        loop left early, the flow leaving it per trip: Parameter.leaving)."""
        return self._candidate(Parameter(name, "unresolved", "loop_count", loc.file, loc.line,
                                         self.proc.name, description=why, default=1.0,
                                         depends_on=variables_of(where), leaving=leaving))

    def call_cost(self, name: str, loc: ir.Loc, why: str) -> sympy.Symbol:
        """The symbol of a seconds-per-call parameter for a call whose cost is unknown."""
        return self._candidate(Parameter(name, "unresolved", "call_cost", loc.file, loc.line,
                                         self.proc.name, description=f"seconds per call ({why})"))

    def unsupported(self, stmt: ir.Unsupported) -> str:
        """The cost parameter of a construct the frontend could not lower."""
        self.ordinals["UNSUPPORTED"] += 1
        name = f"C_{self.proc.name}_UNSUPPORTED{self.ordinals['UNSUPPORTED']}"
        self._candidate(Parameter(name, "unresolved", "call_cost", stmt.loc.file, stmt.loc.line,
                                  self.proc.name, description=f"seconds per execution of: {stmt.text[:60]}"))
        return name

    def goto_loops(self, stmts: list[ir.Stmt]) -> Callable[[LoopInfo], sympy.Symbol | None]:
        """The namer of the loops GOTOs build in a statement list (sad.analysis.cfg asks per loop)."""
        def name_loop(loop: LoopInfo) -> sympy.Symbol | None:
            header = stmts[loop.header]
            place = f"L{header.label}" if header.label and not header.label.startswith(".") \
                else f"LOOP{loop.header + 1}_{header.loc.line}"
            return self.loop_count(f"X_{self.proc.name}_{place}", header.loc, "loop built with GOTO", header)
        return name_loop

    def irreducible_visits(self, stmts: list[ir.Stmt]) -> Callable[[list[int]], list[sympy.Symbol]]:
        """The namer of the visits of the statements of a large irreducible cycle (entered at several
        places), which sad.analysis.cfg does not solve symbolically: one count per statement, one warning
        per cycle."""
        def name_visits(nodes: list[int]) -> list[sympy.Symbol]:
            lines = sorted(stmts[node].loc.line for node in nodes)
            first = stmts[min(nodes)]
            self.ctx.warn(first.loc, f"irreducible control flow (a cycle of {len(nodes)} statements, lines "
                                     f"{lines[0]}-{lines[-1]}, entered at several places): the visits of each "
                                     f"statement are a named count X_{self.proc.name}_..._VISITS")
            return [self._visits(stmts[node], node) for node in nodes]
        return name_visits

    def _visits(self, stmt: ir.Stmt, node: int) -> sympy.Symbol:
        place = f"L{stmt.label}" if stmt.label and not stmt.label.startswith(".") else f"NODE{node + 1}_{stmt.loc.line}"
        return self.loop_count(f"X_{self.proc.name}_{place}_VISITS", stmt.loc,
                               "visits per entry into an irreducible cycle", stmt)

    def _candidate(self, param: Parameter) -> sympy.Symbol:
        symbol = param.symbol
        self.ctx.candidates.setdefault(symbol, param)
        return symbol


def variables_of(where: ir.Stmt | ir.Procedure) -> list[str]:
    """The variables a decision or a loop's extent reads: what its parameter is known to depend on."""
    if not isinstance(where, _DECISIONS):
        return []
    names = {node.name for expr in ir.own_exprs(where) for node in ir.walk(expr)
             if isinstance(node, (ir.Var, ir.ArrayRef)) and not node.name.startswith(".")}
    return sorted(names)
