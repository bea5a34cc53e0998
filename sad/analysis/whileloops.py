"""Counted while loops: a WHILE whose trips follow from an induction variable, as a DO loop's do.

Data flow: the SAD builder (sad.analysis.builder) asks, for each structured while loop (DO WHILE, C while and
do-while, a C for that is not canonical), whether its trips can be counted instead of named (X_...). Here the
loop is read syntactically (`induction`): its condition compares an integer variable with a bound (v < B,
v <= B, v > B, v >= B, either side, v + c for v; v != B where the step is one, ``while (n--)``; two bounds in
one direction joined by a logical and, the nearer one), its body adds a constant
to the variable once per iteration (one assignment v = v + c or v = v - c among the body's own statements, not
under an IF) or multiplies or divides it by one (v = v * c, v = v / c, v << c, v >> c: `geometric_trips`), and
nothing else in the
body can change the variable, the bound or the step: no other assignment, READ, call or message that is given
one of them, no address of one taken (anywhere in the routine), no call at all when one is global or in
COMMON, no inner DO over one, and no jump anywhere in the body (a jump could skip the update or leave the
loop). Storage association (EQUIVALENCE) is not seen, as everywhere in the value backtracer. The builder evaluates
the variable's value where the loop starts, the bound and the step with the value backtracer
(sad.analysis.values), and `trips` turns them into the DO loop's count: v < B is v <= B - 1 for integers, and
a do-while makes one pass before its first test. A C pointer may be the variable (``while (p < end) *p++ =
...``, a for over a pointer): writing through it (``*p = x``) does not move it, and the builder counts it on
offsets in elements from one base (`address`: ``v``, ``v + n - 1``, ``&w[3]``, a pointer), as the plain
assignments just before the loop set the pointer and its bound.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sympy

from sad import ir
from sad.analysis.counting import trip_count
from sad.common.exactdiv import FloorLog

_FLIPPED = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "ne": "ne"}
_JUMPS = (ir.Goto, ir.ComputedGoto, ir.AssignedGoto, ir.ArithmeticIf, ir.Return, ir.Stop, ir.Unsupported)
_SHARED = ("common", "global", "static")


@dataclass(frozen=True)
class Induction:
    """v OP bound with v += sign × step once per iteration (OP with the variable on the left); where the bound
    is a variable that moves too (``i < j`` with ``i++, j--``), its own step: the loop is then counted on the
    difference v - bound, which moves by sign × step - partner_step."""
    var: ir.Var
    op: str
    bound: ir.Expr
    step: ir.Expr
    sign: int
    partner_step: int | None = None
    # how the step moves the variable: "add" (v + sign × step), or geometrically, "mul" (v × step) and "div"
    # (v / step, truncated), a shift by `step` bits being a product or quotient by 2**step ("shl", "shr")
    scale: str = "add"


def induction(loop: ir.While, proc: ir.Procedure) -> Induction | None:
    """The loop's induction variable, bound and step, or None when its trips cannot be counted so."""
    test = _comparison(loop.cond) or _both(loop.cond)
    if test is None:
        return None
    var, op, bound = test
    if not (var.type == "integer" and bound.type == "integer" or var.type == "pointer"):
        return None
    updates = [s for s in loop.body if isinstance(s, ir.Assign) and _named(s.target, var.name)]
    step = _step(updates[0].value, var.name) if len(updates) == 1 else None
    scaled = _scaling(updates[0].value, var.name) if len(updates) == 1 and step is None else None
    if scaled is not None:
        step = scaled[0], 1
    if step is None or not _pure(bound) or not _pure(step[0]):
        return None
    watched = {var.name} | _names(bound) | _names(step[0])
    if var.name in _names(bound) | _names(step[0]):
        return None
    # a geometric step is counted against a bound that stays: no partner
    partner = _partner(loop, bound, step[0]) if isinstance(bound, ir.Var) and scaled is None else None
    moved = (updates[0],) + ((partner[0],) if partner is not None else ())
    if not _untouched(loop.body, watched, moved, proc):
        return None
    return Induction(var, op, bound, step[0], step[1], partner[1] if partner is not None else None,
                     scaled[1] if scaled is not None else "add")


_NEGATED = {"lt": "ge", "le": "gt", "gt": "le", "ge": "lt", "eq": "ne", "ne": "eq"}


def negated(cond: ir.Expr | None) -> ir.Expr | None:
    """The comparison that holds where `cond` fails (the loop condition of ``10 IF (K .LE. 1) GOTO 20``), None
    for a condition that is not one comparison."""
    if not isinstance(cond, ir.BinOp) or cond.op not in _NEGATED:
        return None
    return ir.BinOp(_NEGATED[cond.op], cond.left, cond.right, type=cond.type)


def _comparison(cond: ir.Expr | None) -> tuple[ir.Var, str, ir.Expr] | None:
    """(v, OP, bound) of a condition `v OP bound` or `bound OP v` (v possibly plus a constant, ``_unshifted``), OP
    turned to have v on the left; None for any other condition."""
    if not isinstance(cond, ir.BinOp) or cond.op not in _FLIPPED:
        return None
    (var, bound), op = _unshifted(cond.left, cond.right), cond.op
    if not isinstance(var, ir.Var):
        (var, bound), op = _unshifted(cond.right, cond.left), _FLIPPED[cond.op]
    return (var, op, bound) if isinstance(var, ir.Var) else None


def _both(cond: ir.Expr | None) -> tuple[ir.Var, str, ir.Expr] | None:
    """Two bounds on one variable in one direction joined by a logical and (``while (i < n && i < m)``, ``DO WHILE
    (I .LE. N .AND. I .LE. M)``) as the nearer one: (v, lt, MIN(n, m + 1)) with a le bound taken as lt its bound
    + 1 (gt and ge downwards, MAX). None for any other condition."""
    if not isinstance(cond, ir.BinOp) or cond.op != "and":
        return None
    first, second = _comparison(cond.left), _comparison(cond.right)
    if first is None or second is None or first[0] != second[0] or "ne" in (first[1], second[1]):
        return None
    up = first[1] in ("lt", "le")
    if up != (second[1] in ("lt", "le")):
        return None
    strict = "lt" if up else "gt"
    bounds = [b if op == strict else ir.BinOp("add" if up else "sub", b, ir.Const(1, type="integer"), type="integer")
              for _, op, b in (first, second)]
    return first[0], strict, ir.FuncCall("MIN" if up else "MAX", bounds, intrinsic=True, type="integer")


def _unshifted(side: ir.Expr, other: ir.Expr) -> tuple[ir.Expr, ir.Expr]:
    """(side, other), or (v, other - c) where `side` is an integer variable plus a constant c >= 0 (``while (i + 3
    < n)`` of a hand-unrolled loop is ``while (i < n - 3)``). Only a constant added: the IR does not say whether a
    C variable is unsigned, and ``u - 1 < n`` wraps at u = 0 where ``u < n + 1`` does not."""
    if isinstance(side, ir.BinOp) and side.op == "add" and side.type == "integer":
        for v, c in ((side.left, side.right), (side.right, side.left)):
            if isinstance(v, ir.Var) and isinstance(c, ir.Const) and isinstance(c.value, int) \
                    and not isinstance(c.value, bool) and c.value >= 0:
                return v, ir.BinOp("sub", other, c, type="integer")
    return side, other


def _partner(loop: ir.While, bound: ir.Var, step: ir.Expr) -> tuple[ir.Assign, int] | None:
    """The one update of a bound variable that the body moves by a constant (``j--`` beside ``i++`` in ``for
    (i = 0, j = n - 1; i < j; i++, j--)``), with its signed step, where the variable's own step is a constant
    too; None otherwise (the bound must then stay unchanged)."""
    updates = [s for s in loop.body if isinstance(s, ir.Assign) and _named(s.target, bound.name)]
    found = _step(updates[0].value, bound.name) if len(updates) == 1 else None
    if found is None or not isinstance(found[0], ir.Const) or not isinstance(step, ir.Const) \
            or not isinstance(found[0].value, int):
        return None
    return updates[0], found[1] * found[0].value


def trips(op: str, start: sympy.Expr, bound: sympy.Expr, step: sympy.Expr, test_at_end: bool
          ) -> sympy.Expr | None:
    """Iterations of the loop from the variable's value where it starts, the bound and the signed step; None
    when the step, a number, does not move the variable towards the bound (the loop runs forever or not at
    all). A step that is a formula is taken to move it there, as a DO loop's count takes it (``trip_count``)."""
    if op == "ne":
        # v != B by steps of one (C's `while (n--)`, `for (...; p != end; ...)` lowered as a while): the
        # variable meets B on its way, as v < B (v > B) would stop it there; a larger step may jump past B
        if step not in (1, -1):
            return None
        op = "lt" if step > 0 else "gt"
    if step.is_number:
        if not step.is_Integer or step == 0 or (step > 0) != (op in ("lt", "le")):
            return None
    elif not step.is_integer:
        return None
    # else a step that is a formula (J = J + NB), counted as a DO loop's is: a loop that is entered and ends
    # moves its variable towards the bound, so the step has the sign that does
    last = {"lt": bound - 1, "le": bound, "gt": bound + 1, "ge": bound}[op]   # integers: v < B is v <= B - 1
    if test_at_end:
        return 1 + trip_count(start + step, last, step)
    return trip_count(start, last, step)


def geometric_trips(scale: str, op: str, start: sympy.Expr, bound: sympy.Expr, factor: sympy.Expr,
                    test_at_end: bool) -> sympy.Expr | None:
    """Iterations of a loop whose variable is multiplied (``for (m = 1; m < n; m *= 3)``) or divided (``do {
    ... ii /= 2; } while (ii > 0)``, a bisection's halving) by an integer factor c >= 2 each pass.

    Up by a product from s >= 1 to v < B: the k >= 0 with s·c^k <= B - 1, floor(log_c((B-1)/s)) + 1 of them.
    Down by a truncated quotient from s to v > B: floor(s/c^k) >= B + 1 holds while s/c^k >= B + 1,
    floor(log_c(s/(B+1))) + 1 times (sad.common.exactdiv.FloorLog, exact on numbers). None where the loop may
    not end (a product from s < 1, a quotient towards a bound below 1, where it stays at 0) or the factor is
    not a known integer."""
    if scale in ("shl", "shr"):
        if not factor.is_Integer or factor < 1:
            return None
        factor, scale = 2 ** factor, "mul" if scale == "shl" else "div"
    if not factor.is_Integer or factor < 2 or (scale == "mul") != (op in ("lt", "le")):
        return None  # moving away from the bound: never or forever
    if scale == "mul":
        if start.is_positive is not True:
            return None  # 0 stays 0, a negative start moves away
        edge = bound - 1 if op == "lt" else bound  # the largest value a pass runs with
        after = start * factor
    else:
        edge = bound + 1 if op == "gt" else bound  # the least value a pass runs with
        if edge.is_positive is not True:
            return None
        after = sympy.floor(start / factor)  # truncation: the same where it matters (a start below 1 runs 0)

    def passes(first: sympy.Expr) -> sympy.Expr:
        ratio, outside = (edge / first, first > edge) if scale == "mul" else (first / edge, first < edge)
        return sympy.Piecewise((0, outside), (FloorLog(ratio, factor) + 1, True))
    return 1 + passes(after) if test_at_end else passes(start)


def _scaling(value: ir.Expr, name: str) -> tuple[ir.Expr, str] | None:
    """(c, scale) for name * c, c * name, name / c (an integer quotient), name << c or name >> c."""
    if not isinstance(value, ir.BinOp) or value.type != "integer":
        return None
    if value.op == "mul" and _named(value.right, name) and name not in _names(value.left):
        return value.left, "mul"
    scale = {"mul": "mul", "div": "div", "shl": "shl", "shr": "shr"}.get(value.op)
    if scale is not None and _named(value.left, name) and name not in _names(value.right):
        return value.right, scale
    return None


def _named(node: ir.Expr, name: str) -> bool:
    return isinstance(node, ir.Var) and node.name == name


def _step(value: ir.Expr, name: str) -> tuple[ir.Expr, int] | None:
    """(c, ±1) for name + c, c + name or name - c."""
    if not isinstance(value, ir.BinOp) or value.op not in ("add", "sub"):
        return None
    if _named(value.left, name) and name not in _names(value.right):
        return value.right, 1 if value.op == "add" else -1
    if value.op == "add" and _named(value.right, name) and name not in _names(value.left):
        return value.left, 1
    return None


def _names(expr: ir.Node) -> set[str]:
    return {n.name for n in ir.walk(expr) if isinstance(n, (ir.Var, ir.ArrayRef))}


def _pure(expr: ir.Node) -> bool:
    """No call but an intrinsic's and no array element (its value may change in the loop unseen); an element's
    address (``&w[n - 1]``) is no read of it, only its subscripts count."""
    if isinstance(expr, ir.UnOp) and expr.op == "addr" and isinstance(expr.operand, ir.ArrayRef):
        return all(_pure(i) for i in expr.operand.indices)
    if isinstance(expr, (ir.ArrayRef, ir.FuncCall)) and not getattr(expr, "intrinsic", False):
        return False
    return all(_pure(child) for child in expr.child_nodes())


def untouched(body: list[ir.Stmt], names: set[str], proc: ir.Procedure,
              writes: Callable[[str, int], bool] | None = None) -> bool:
    """Nothing in the body can change a variable of `names`, and nothing jumps. With `writes` (whether a
    routine may write its argument at a position: sad.analysis.values.ModifiedFormals.may_modify), a call
    that passes one of them only where the callee does not write it (DSYTRD's block size NB passed to DLATRD)
    leaves it unchanged; without, any call passing one may change it."""
    return _untouched(body, names, (), proc, writes)


def _untouched(body: list[ir.Stmt], names: set[str], updates: tuple[ir.Assign, ...], proc: ir.Procedure,
               writes: Callable[[str, int], bool] | None = None) -> bool:
    """Nothing in the body but `updates` can change a variable of `names`, and nothing jumps."""
    shared = any(proc.variables.get(n) is None or proc.variables[n].storage in _SHARED for n in names)
    if any(isinstance(node, ir.UnOp) and node.op == "addr" and not isinstance(node.operand, ir.ArrayRef)
           and _target(node.operand) in names
           for node in ir.walk(proc)):
        return False  # a pointer to one of them, taken anywhere in the routine, may change it in the loop
    for stmt in ir.walk_stmts(body):
        if isinstance(stmt, _JUMPS) or ir.jump_targets(stmt):
            return False
        if isinstance(stmt, ir.Assign) and not any(stmt is u for u in updates) and _target(stmt.target) in names \
                and not _through_pointer(stmt.target, proc):
            return False
        if isinstance(stmt, ir.Do) and stmt.index in names:
            return False
        if isinstance(stmt, ir.IO) and any(_names(t) & names for t in stmt.targets):
            return False
        if isinstance(stmt, ir.CallStmt) and writes is not None and not shared:
            if _passed_to_write(stmt.name, stmt.args, names, writes):
                return False
        elif isinstance(stmt, (ir.CallStmt, ir.Message)) and (shared or _names(stmt) & names):
            return False
        for expr in ir.own_exprs(stmt):
            for node in ir.walk(expr):
                if not isinstance(node, ir.FuncCall) or node.intrinsic:
                    continue
                if shared or (_passed_to_write(node.name, node.args, names, writes) if writes is not None
                              else any(_names(a) & names for a in node.args)):
                    return False
    return True


def _passed_to_write(callee: str, args: list[ir.Expr], names: set[str], writes: Callable[[str, int], bool]
                     ) -> bool:
    """Whether a call passes a variable of `names` (or an element of it) where the callee may write it; an
    expression such as `I+NB-1` is passed as a value, never written back."""
    return any(isinstance(a, (ir.Var, ir.ArrayRef)) and a.name in names and writes(callee, pos)
               for pos, a in enumerate(args))


def _through_pointer(target: ir.Expr, proc: ir.Procedure) -> bool:
    """Whether an assignment writes what a pointer points to (``*p = x``, ``p[k] = x``), not the pointer."""
    decl = proc.variables.get(target.name) if isinstance(target, ir.ArrayRef) else None
    return decl is not None and decl.type == "pointer"


def address(expr: ir.Expr | None, declared: Callable[[str], ir.Variable | None]) -> tuple[str, ir.Expr] | None:
    """A C address as (base, offset in elements): an array's name (``v``: its first element), a pointer
    variable's (``p``: where it points), either plus or minus an integer (``v + N - 1``) or ``&v[k]`` of a
    one-dimensional array; None for anything else. `declared` gives a name's declaration (the routine's or
    the program's)."""
    if isinstance(expr, ir.Var):
        decl = declared(expr.name)
        if expr.type == "pointer" or decl is not None and decl.dims and len(decl.dims) == 1:
            return expr.name, ir.Const(0, type="integer")
        return None
    if isinstance(expr, ir.UnOp) and expr.op == "addr" and isinstance(expr.operand, ir.ArrayRef) \
            and len(expr.operand.indices) == 1:
        decl = declared(expr.operand.name)
        one_level = decl is not None and (decl.type == "pointer" or decl.dims is not None and len(decl.dims) == 1)
        return (expr.operand.name, expr.operand.indices[0]) if one_level else None
    if isinstance(expr, ir.BinOp) and expr.op in ("add", "sub") and expr.right.type == "integer":
        inner = address(expr.left, declared)
        if inner is not None:
            return inner[0], ir.BinOp(expr.op, inner[1], expr.right, type="integer")
    if isinstance(expr, ir.BinOp) and expr.op == "add" and expr.left.type == "integer":
        inner = address(expr.right, declared)
        if inner is not None:
            return inner[0], ir.BinOp("add", inner[1], expr.left, type="integer")
    return None


@dataclass(frozen=True)
class PointerSpan:
    """A pointer walk's induction (`found`) with the offsets, in elements from one base array or pointer, of
    the pointer where the loop starts and of its bound."""
    found: Induction
    base: str
    start: ir.Expr
    bound: ir.Expr


def pointer_span(loop: ir.While, before: list[ir.Stmt], proc: ir.Procedure,
                 declared: Callable[[str], ir.Variable | None], found: Induction | None = None
                 ) -> PointerSpan | None:
    """The span of a while loop that walks a pointer: its start and bound as the plain assignments that end
    `before` set them (``double *p = v, *end = v + N;``; a name they do not assign stands for itself), read
    as addresses of one base that none of those assignments moves; None otherwise. `found`: the loop's
    induction where the caller has it."""
    found = found if found is not None else induction(loop, proc)
    if found is None or found.var.type != "pointer" or found.partner_step is not None or found.scale != "add":
        return None
    start = address(assigned_before(before, found.var.name), declared)
    bound_expr = assigned_before(before, found.bound.name) \
        if isinstance(found.bound, ir.Var) and found.bound.type == "pointer" else found.bound
    bound = address(bound_expr, declared)
    if start is None or bound is None or start[0] != bound[0] or start[0] in assigned_names(before):
        return None  # another base, or a base the assignments move between reading the two
    return PointerSpan(found, start[0], start[1], bound[1])


def plain_run(before: list[ir.Stmt]) -> list[ir.Assign]:
    """The plain assignments that end `before` (no label among them: nothing jumps in between), last first."""
    run: list[ir.Assign] = []
    for stmt in reversed(before):
        if not isinstance(stmt, ir.Assign) or stmt.label is not None:
            break
        run.append(stmt)
    return run


def assigned_names(before: list[ir.Stmt]) -> set[str]:
    """The variables the plain assignments that end `before` assign."""
    return {s.target.name for s in plain_run(before) if isinstance(s.target, ir.Var)}


def assigned_before(before: list[ir.Stmt], name: str) -> ir.Expr:
    """The value the plain assignments that end `before` give the pointer `name` (the last of them to assign
    it); the variable itself where they do not assign it."""
    for stmt in plain_run(before):
        if isinstance(stmt.target, ir.Var) and stmt.target.name == name:
            return stmt.value
    return ir.Var(name, type="pointer")


def _target(node: ir.Expr) -> str | None:
    """The variable an assignment writes (an element's array, a member's base)."""
    while isinstance(node, ir.Member):
        node = node.base
    return node.name if isinstance(node, (ir.Var, ir.ArrayRef)) else None
