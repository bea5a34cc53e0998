"""Branch probabilities of IF statements: folded conditions, exact indicators, error exits, named P.

Data flow: the builder (sad.analysis.builder) asks, per IF, for the fraction of its executions that take
each arm. A condition the value backtracer (sad.analysis.values) folds to a constant gives 0 or 1; the
conditions of an IF (every arm of a block IF / ELSE IF) on run-time values and formal arguments (at most one
loop index, nothing the procedure changes) are exact indicators 1/0 that sad.analysis.counting sums over
loops and a call site binds to its actual arguments (`IF (N .LE. 0) RETURN`, `IF (INCX.EQ.1 .AND.
INCY.EQ.1)` in BLAS; a call passing data gets a named probability instead); an arm that ends the program is
assumed not taken; tests of floating-point data are decided by the generic-data model where it applies
(sad.analysis.genericdata, through the backtracer), unless the user binds the IF's probability; every other
arm gets a named probability P (sad.analysis.naming).
"""
from __future__ import annotations

import sympy

from sad import ir
from sad.analysis.buildstate import BuildContext, Target
from sad.analysis.cfg import Decision, RegionGraph
from sad.analysis.conditional import is_condition
from sad.analysis.counting import indicator
from sad.analysis.jumps import ErrorExits
from sad.analysis.naming import ParameterNamer
from sad.analysis.values import ValueResolver, resolve_name

Index = dict[str, sympy.Symbol]  # loop variable → the symbol of its index in the enclosing counted loops


class BranchProbabilities:
    """The arm probabilities of one procedure's IF statements."""

    def __init__(self, ctx: BuildContext, proc: ir.Procedure, values: ValueResolver, namer: ParameterNamer,
                 exits: ErrorExits) -> None:
        self.ctx = ctx
        self.proc = proc
        self.values = values
        self.namer = namer
        self.exits = exits

    def arms(self, stmt: ir.If, place: str, index: Index, graph: RegionGraph) -> list[sympy.Expr]:
        """Per arm, the fraction of the IF's executions that take it. Conditions that fold to constants
        (direct parameters) give 0 or 1; an arm that ends the program (STOP: an error exit) is assumed
        not taken, and says so; the rest are named probabilities."""
        facts = self.ctx.facts
        generic = facts.generic_data
        if generic and self._bound(place):  # the user's value (a profile) wins over generic data
            facts.generic_data = False
        try:
            return self._arms(stmt, place, index, graph)
        finally:
            facts.generic_data = generic

    def _bound(self, place: str) -> bool:
        """Whether the user binds a probability of the IF at `place`."""
        stem = f"P_{self.proc.name}_{place}"
        return any(name == stem or name.startswith(stem + "_") for name in self.ctx.overrides)

    def _arms(self, stmt: ir.If, place: str, index: Index, graph: RegionGraph) -> list[sympy.Expr]:
        folded: list[bool | None] = []
        for arm in stmt.arms:  # the arms after one that is always taken are never taken
            folded.append(False if True in folded else self.fold(arm.cond, index, stmt))
        for k, arm in enumerate(stmt.arms):
            if folded[k] is None and self.exits.ends_program(arm.body, graph):
                folded[k] = False
                self.ctx.note(arm.loc or stmt.loc,
                              "branch to an error exit (STOP, exit, non-zero return from main) assumed not taken")
            elif folded[k] is None and self.exits.error_return(arm.body) \
                    and self.condition(arm.cond, index, stmt) is None:
                folded[k] = False  # a test of data (a zero pivot), not of the arguments: a failure
                self.ctx.note(arm.loc or stmt.loc, "branch to a failure return (INFO set, then RETURN) assumed "
                                                   "not taken")
        undecided = [k for k, f in enumerate(folded) if f is None]
        if len(undecided) == 1 and True not in folded and stmt.orelse and self.exits.ends_program(stmt.orelse, graph):
            folded[undecided[0]] = True  # C's assert(x): `if (x) ; else abort();`, the else an error exit
            self.ctx.note(stmt.loc, "else branch to an error exit (a failed assert, STOP, exit) assumed not taken")
        if all(f is not None for f in folded):
            probs, remaining = [], sympy.Integer(1)
            for f in folded:
                probs.append(remaining if f else sympy.Integer(0))
                if f:
                    remaining = sympy.Integer(0)
            return probs
        exact = self.indicators(stmt, folded, index)
        if exact is not None:
            self._formal_fallbacks(stmt, place, exact)
            return exact
        first, reached = self._exact_prefix(stmt, folded, index)
        open_arms = [k for k, f in enumerate(folded) if f is not False and k >= len(first)]
        ways = len(open_arms) + 1
        probs = list(first)
        for k, arm in enumerate(stmt.arms[len(first):], start=len(first)):
            if folded[k] is False:
                probs.append(sympy.Integer(0))
                continue
            suffix = "" if len(open_arms) == 1 else f"_{k + 1}"
            p = self.namer.probability(f"P_{self.proc.name}_{place}{suffix}", arm.loc or stmt.loc, ways, stmt)
            probs.append(reached * self._partly_known(arm.cond, index, stmt, p, k == len(first)))
        return probs

    def _partly_known(self, cond: ir.Expr, index: Index, at: ir.Stmt, p: sympy.Symbol, first: bool) -> sympy.Expr:
        """An open arm's share `p`, with what is known of its condition where a part of it is not: `A .AND.
        X`, A known exactly, is taken only where A holds ([A] p: DPOSVX's `LSAME(FACT, 'F') .AND. .NOT.(RCEQU
        .OR. LSAME(EQUED, 'N'))` is never taken for FACT = 'E', so its ELSE is exact there); `A .OR. X` is
        taken wherever A holds ([A] + (1 - [A]) p), where no open arm before it took a share of the executions
        (`first`). A caller passing data for A's formals falls back to `p`."""
        op = cond.op if isinstance(cond, ir.BinOp) and cond.op in ("and", "or") else None
        if op is None or (op == "or" and not first):
            return p
        parts = [self.condition(part, index, at) for part in _operands(cond, op)]
        known = [c for c in parts if c is not None]
        whole = (sympy.And if op == "and" else sympy.Or)(*known)
        if not known or len(known) == len(parts) or whole in (sympy.true, sympy.false) or not is_condition(whole):
            return p  # nothing known, or all of it after an open arm: the arm's share as before
        gate = indicator(whole)
        # where a caller passes data for A's formals nothing is known: the arm's share alone
        # (sad.analysis.calls' `_data_branches`)
        self.fall_back(gate, sympy.Integer(1) if op == "and" else sympy.Integer(0))
        return gate * p if op == "and" else gate + (1 - gate) * p

    def selections(self, stmt: ir.ComputedGoto, index: Index) -> list[sympy.Basic] | None:
        """Per target of a computed GOTO (or a C switch's cases), the condition that the selector picks it,
        where every such test is known exactly as an IF's is (`condition`): DLARFX's `GO TO (10, 30, ...,
        190) M` on its formal M, which each call binds; None where one is not."""
        picks = []
        for k in range(len(stmt.targets)):
            values = stmt.cases[k] if stmt.cases is not None else [ir.Const(k + 1, type="integer")]
            tests = []
            for value in values:
                test = ir.BinOp("eq", stmt.selector, value, type="logical")
                folded = self.fold(test, index, stmt)
                known = sympy.sympify(folded) if folded is not None else self.condition(test, index, stmt)
                if known is None:
                    return None
                tests.append(known)
            picks.append(sympy.Or(*tests))
        return picks

    def fall_back(self, prob: sympy.Expr, instead: sympy.Expr) -> None:
        """What an exact weight in formal arguments becomes where a caller passes data for them: the named
        probability it stands for (a computed GOTO's target), or the neutral 1 or 0 of a known part of a
        condition (`_partly_known`); a weight in no formal is left as it is."""
        if self._in_formals(prob):
            self._fall_back(prob, instead)

    def _in_formals(self, prob: sympy.Expr) -> bool:
        """Whether an indicator is a condition on formal arguments (or the first elements holding a stored
        constant, bound like them), which each call binds."""
        formals = {self.ctx.facts.storage_name(self.proc, f) for f in self.proc.formals}
        formals |= self.ctx.facts.first_element_names(self.proc)
        return isinstance(prob, sympy.Piecewise) and any(s.name in formals for s in prob.free_symbols)

    def _fall_back(self, prob: sympy.Expr, instead: sympy.Expr) -> None:
        """What `prob` becomes where a caller cannot bind the formals it is in (sad.analysis.calls)."""
        self.ctx.formal_branches.setdefault(resolve_name(self.proc.name), []).append((prob, instead))

    def _exact_prefix(self, stmt: ir.If, folded: list[bool | None], index: Index
                      ) -> tuple[list[sympy.Expr], sympy.Expr]:
        """The arms before the first whose condition is not known exactly, each an indicator (as
        ``indicators``), and the indicator that none of them is taken: an ELSE IF chain that tests a loop index
        first and data after (``if (i == 0) ...; else if (a[i] > 0) ...``) takes its first arm exactly, the
        rest of the executions share the named probabilities of the later arms."""
        first: list[sympy.Expr] = []
        none_before: sympy.Basic = sympy.true
        for k, arm in enumerate(stmt.arms):
            cond = self.condition(arm.cond, index, stmt) if folded[k] is None else sympy.sympify(folded[k])
            if cond is None:
                break
            taken = sympy.And(none_before, cond)
            first.append(sympy.Integer(1) if taken is sympy.true else sympy.Integer(0) if taken is sympy.false
                         else indicator(taken))
            none_before = sympy.And(none_before, sympy.Not(cond))
        reached = sympy.Integer(1) if none_before is sympy.true else sympy.Integer(0) if none_before is sympy.false \
            else indicator(none_before)
        return first, reached

    def fold(self, cond: ir.Expr, index: Index, at: ir.Stmt | None = None) -> bool | None:
        """True or False where the condition's value (just before statement `at`) is known statically,
        else None."""
        value = self.values.expr_at(cond, at, index)
        if value is sympy.true or value is True:
            return True
        if value is sympy.false or value is False:
            return False
        return None

    def indicators(self, stmt: ir.If, folded: list[bool | None], index: Index) -> list[sympy.Expr] | None:
        """Every arm's condition known exactly (see `condition`): arm k is taken, 1 or 0, where its condition
        holds and no earlier arm's does."""
        first, _ = self._exact_prefix(stmt, folded, index)
        return first if len(first) == len(stmt.arms) else None

    def condition(self, cond: ir.Expr, index: Index, at: ir.Stmt | None = None) -> sympy.Basic | None:
        """A condition on run-time values and constants only (at most one loop index, nothing that changes
        as the procedure runs) is taken exactly: the relational, 1 where it holds, 0 elsewhere."""
        value = self.values.expr_at(cond, at, index)
        if value is not None and value.is_Symbol and value.name in self.ctx.facts.logical_formals(self.proc):
            return value  # `IF (UPPER)` on a LOGICAL argument: each call binds it to its truth value
        if value is None or not is_condition(value) or value.is_Atom:
            return None
        # A formal argument's symbol is fine: the routine's counts are a formula in its arguments and each
        # call site substitutes its actual values (sad.analysis.calls), so every call is counted exactly; a
        # call site that passes data gets the probability recorded by _formal_fallbacks instead.
        return value

    def _formal_fallbacks(self, stmt: ir.If, place: str, probs: list[sympy.Expr]) -> None:
        """For the arms whose indicator is in formal arguments: the named probability the arm stands for
        where a caller passes a value only a run can tell (an array element, a function result)."""
        for k, prob in enumerate(probs):
            if not self._in_formals(prob):
                continue
            suffix = "" if len(stmt.arms) == 1 else f"_{k + 1}"
            p = self.namer.probability(f"P_{self.proc.name}_{place}{suffix}", stmt.arms[k].loc or stmt.loc,
                                       len(stmt.arms) + 1, stmt)
            self._fall_back(prob, p)


def _operands(cond: ir.Expr, op: str) -> list[ir.Expr]:
    """The operands of a chain of one logical operator: `A .AND. B .AND. C` as [A, B, C]."""
    if isinstance(cond, ir.BinOp) and cond.op == op:
        return _operands(cond.left, op) + _operands(cond.right, op)
    return [cond]


def record_decision(graph: RegionGraph, node: int, p: sympy.Expr, escapes: dict[Target, sympy.Expr],
                    nxt: Target, fallthrough: sympy.Expr) -> None:
    """A one-armed IF whose arm always jumps to one place (the GOTO-loop idiom) is a two-way
    decision between that place and the next statement."""
    if len(escapes) == 1:
        (target, weight), = escapes.items()
        if _equal(weight, p) and _equal(fallthrough, 1 - p):
            graph.decisions[node] = Decision(p, target, nxt)


def _equal(a: sympy.Expr, b: sympy.Expr) -> bool:
    """a = b, as far as can be shown cheaply. A difference that is not zero at a sample point is not zero:
    most candidates differ (an IF whose arm returns from inside a loop lets out less than its P). A
    polynomial difference is zero exactly when its expansion is; other small ones are left to simplify
    (slow, and its first call imports sympy.physics). A large difference that is zero at every sample point
    but not shown to be zero counts as unequal: the IF is then no loop's decision, its loop is solved without
    a named count, and the counts stay exact (simplify took minutes on a fuzzed routine's 159-operation
    difference; the corpus and the codebase fixture never get this far)."""
    if a == b:
        return True
    diff = a - b
    if _nonzero_somewhere(diff):
        return False
    if diff.is_polynomial():
        return sympy.expand(diff) == 0
    if sympy.count_ops(diff) > _SIMPLIFY_OPS:
        return False
    return sympy.simplify(diff) == 0


_SIMPLIFY_OPS = 40
_SAMPLES = ((7, 3), (11, 5), (1, 1), (2, 3))  # the i-th symbol (by name) is first + step·i, or its inverse


def _nonzero_somewhere(expr: sympy.Expr) -> bool:
    """Whether expr evaluates to a non-zero number at one of a few fixed points that respect its symbols'
    assumptions (integers at positive integers, non-integers at their inverses, signs kept); a point where
    it is undefined proves nothing."""
    symbols = sorted(expr.free_symbols, key=lambda s: s.name)
    truths = _truth_symbols(expr)
    for first, step in _SAMPLES:
        point: dict[sympy.Symbol, sympy.Basic] = {}
        for i, symbol in enumerate(symbols):
            if symbol in truths:  # a LOGICAL argument's `IF (UP)`: true or false, not a number
                point[symbol] = sympy.true if (first + step * i) % 2 else sympy.false
                continue
            magnitude = sympy.Integer(first + step * i)
            if not symbol.is_integer:
                magnitude = 1 / magnitude
            point[symbol] = -magnitude if (symbol.is_negative or symbol.is_nonpositive) else magnitude
        value = expr.xreplace(point)
        if value.is_Number and value.is_finite and value != 0:
            return True
    return False


def _truth_symbols(expr: sympy.Expr) -> set[sympy.Symbol]:
    """The symbols that stand as a condition of a Piecewise or in a logical connective of one."""
    found = set()
    for piecewise in expr.atoms(sympy.Piecewise):
        stack = [cond for _, cond in piecewise.args]
        while stack:
            cond = stack.pop()
            if cond.is_Symbol:
                found.add(cond)
            elif isinstance(cond, sympy.logic.boolalg.BooleanFunction):
                stack.extend(cond.args)
    return found


def merge_same_jumps(stmt: ir.If) -> ir.If:
    """`if (a || b) goto l;` lowered to arms that all jump to one place is one decision: one probability,
    measurable from line counts, and the decision a GOTO loop's count can be read from."""
    if len(stmt.arms) < 2 or stmt.orelse is not None:
        return stmt
    bodies = [arm.body for arm in stmt.arms]
    jumps = [b[0] for b in bodies if len(b) == 1 and isinstance(b[0], ir.Goto)]
    if len(jumps) != len(bodies) or len({j.target for j in jumps}) != 1:
        return stmt
    cond = stmt.arms[0].cond
    for arm in stmt.arms[1:]:
        cond = ir.BinOp("or", cond, arm.cond, type="logical")
    merged = ir.IfArm(cond, bodies[0], stmt.arms[0].loc)
    return ir.If([merged], None, logical=stmt.logical, loc=stmt.loc, label=stmt.label)
