"""Cost counting: the vector S of atomic operations that one execution of a statement performs.

Data flow: the SAD builder asks this module for the cost of each simple statement and of the header of each
compound one (a condition, a loop's bounds); the keys are those of `sad.ir.ops`, priced later by the mapper.
Calls to user functions found inside expressions are returned beside the cost, for interprocedural
composition. One visitor, one job: it counts, it does not decide control flow.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from sad import ir
from sad.ir import ops

_LOGICAL = set(ir.LOGICAL_OPS)
_COMPARE = set(ir.COMPARE_OPS)
_BITS = set(ir.BIT_OPS)


@dataclass(frozen=True)
class Layout:
    """Where a statement runs, as far as memory strides go: the innermost loop's index (None outside
    counted loops) and which subscript varies fastest in memory (Fortran: the first; C: the last)."""
    index: str | None = None
    fastest: str = "first"


def is_strided(ref: ir.ArrayRef, layout: Layout | None) -> bool:
    """Does this element reference jump through memory as the innermost loop advances? Unit-stride and
    loop-invariant references are not strided; the innermost index in a slower dimension, or a fastest
    subscript that does not move by ±1 with it, is."""
    if layout is None or layout.index is None or not ref.indices:
        return False
    subscripts = list(ref.indices)
    fast = subscripts.pop(0) if layout.fastest == "first" else subscripts.pop()
    if any(_mentions(e, layout.index) for e in subscripts):
        return True
    return _mentions(fast, layout.index) and not unit_step(fast, layout.index)


def _mentions(expr: ir.Expr, name: str) -> bool:
    if isinstance(expr, ir.Var):
        return expr.name == name
    return any(_mentions(child, name) for child in ir.expr_children(expr))


def unit_step(expr: ir.Expr, name: str) -> bool:
    """A subscript that moves by +1 or -1 element per trip: index, -index, index ± c, c ± index (c not
    depending on the index). `r[k-i-1]` walks backwards through consecutive elements: unit stride."""
    if isinstance(expr, ir.Cast):
        return unit_step(expr.operand, name)
    if isinstance(expr, ir.Var):
        return expr.name == name
    if isinstance(expr, ir.UnOp) and expr.op == "neg":
        return unit_step(expr.operand, name)
    if isinstance(expr, ir.BinOp) and expr.op in ("add", "sub"):
        if unit_step(expr.left, name) and not _mentions(expr.right, name):
            return True
        return unit_step(expr.right, name) and not _mentions(expr.left, name)
    return False


POWER_CHAIN_MAX = 256
"""The largest |k| of X**k that compilers expand into multiplications (gfortran's gfc_conv_cst_int_power
uses its table of addition chains up to this exponent, at every optimization level)."""


def power_chain(node: ir.BinOp) -> tuple[int, bool] | None:
    """X**k with k an INTEGER literal, 0 < |k| <= POWER_CHAIN_MAX: what the compiler emits instead of a call
    of pow, as (multiplications, one division for a negative k). Counted by the binary method,
    floor(log2 |k|) squarings and popcount(|k|) - 1 products, which the compiler's addition chains never
    exceed (X**2: 1, X**3: 2, X**4: 2; X**(-2): 1 and 1/). None for anything else (a run-time or real
    exponent stays a pow)."""
    if node.op != "pow" or not isinstance(node.right, ir.Const) or node.right.type != "integer":
        return None
    k = node.right.value
    if not isinstance(k, int) or isinstance(k, bool) or k == 0 or abs(k) > POWER_CHAIN_MAX:
        return None
    n = abs(k)
    return n.bit_length() - 1 + bin(n).count("1") - 1, k < 0


def side_effect_free(expr: ir.Expr | None) -> bool:
    """No call of a user routine (intrinsics are pure) and no hoisted I/O: safe to evaluate unconditionally."""
    if expr is None:
        return True
    if isinstance(expr, ir.FuncCall) and not expr.intrinsic:
        return False
    return all(side_effect_free(child) for child in ir.expr_children(expr))


def is_select(stmt: ir.If) -> bool:
    """An IF that compilers turn into a conditional move rather than a branch: every arm (and the ELSE, if
    any) is one assignment to the same variable or element from side-effect-free operands, e.g.
    `m = a < b ? a : b` (lowered to two arms) or the MIN/MAX idiom `if (a[i] < m) m = a[i];`, whose one arm
    assigns a variable the condition reads."""
    arms = [arm.body for arm in stmt.arms] + ([stmt.orelse] if stmt.orelse is not None else [])
    assigns = [body[0] for body in arms if len(body) == 1 and isinstance(body[0], ir.Assign) and body[0].label is None]
    nested = stmt.orelse[0] if stmt.orelse is not None and len(stmt.orelse) == 1 and \
        isinstance(stmt.orelse[0], ir.If) and stmt.orelse[0].label is None else None
    inner = nested.arms[0].body[0] if nested is not None and is_select(nested) else None
    if isinstance(inner, ir.Assign) and len(assigns) == len(arms) - 1:
        # `x = c1 ? a : (c2 ? b : d)`: a select whose else is a select of the same variable, one cmov more
        assigns.append(inner)
    if len(assigns) != len(arms):
        return False
    targets = [a.target for a in assigns]
    if not isinstance(targets[0], (ir.Var, ir.ArrayRef)) or not all(t == targets[0] for t in targets):
        return False
    if not side_effect_free(targets[0]):
        return False
    if not all(side_effect_free(arm.cond) for arm in stmt.arms):
        return False
    if not all(side_effect_free(a.value) for a in assigns):
        return False
    if len(arms) == 1:
        return _mentions(stmt.arms[0].cond, targets[0].name)  # MIN/MAX-like: the test reads the target
    return True


@dataclass
class Cost:
    """Operation counts of one execution, and the user-function references it makes."""
    ops: Counter[str] = field(default_factory=Counter)   # counts; a ternary's two arms weigh 0.5 each
    calls: list[ir.FuncCall] = field(default_factory=list)

    def add(self, key: str, n: float = 1) -> None:
        """Count `n` more operations of kind `key`."""
        self.ops[key] += n  # type: ignore[assignment]  # Counter holds the fractional weights too

    def merge(self, other: Cost, weight: float = 1) -> None:
        """Add another cost, its operation counts scaled by `weight`, and its calls."""
        for key, n in other.ops.items():
            self.ops[key] += n * weight  # type: ignore[assignment]
        self.calls.extend(other.calls)


class ExprCounter(ir.NodeVisitor):
    """Walks an expression tree and counts what evaluating it costs (variables and constants cost nothing
    by themselves: the generic visit of a leaf does nothing)."""

    def __init__(self, cost: Cost, layout: Layout | None = None) -> None:
        self.cost = cost
        self.layout = layout

    def visit_ArrayRef(self, node: ir.ArrayRef) -> None:
        """Count a load (strided when the subscripts step across the layout's fast dimension) and the subscripts."""
        kind = "load_strided" if is_strided(node, self.layout) else "load"
        self.cost.add(ops.memory(kind, node.type))
        self._subscripts(node)

    def _subscripts(self, node: ir.ArrayRef) -> None:
        for index in node.indices:
            if not isinstance(index, ir.Const):  # a constant subscript is folded by the compiler
                self.cost.add("index")
            self.visit(index)

    def visit_Member(self, node: ir.Member) -> None:
        """Count a load through a pointer for `->` (none for `.`), then the base expression."""
        if node.arrow:
            self.cost.add(ops.memory("load", node.type))
        self.visit(node.base)

    def visit_BinOp(self, node: ir.BinOp) -> None:
        """Count both operands and the operation: a compare, logical, bit, concatenation or arithmetic op."""
        self.visit(node.left)
        self.visit(node.right)
        if node.op in _COMPARE:
            self.cost.add(ops.arith("compare", _operand_type(node)))
        elif node.op in _LOGICAL:
            self.cost.add("logical")
        elif node.op in _BITS:
            self.cost.add("bitop")
        elif node.op == "concat":
            self.cost.add(ops.arith("assign", "character"))
        elif (chain := power_chain(node)) is not None:
            muls, divide = chain
            if muls:
                self.cost.add(ops.arith("mul", node.type), muls)
            if divide:
                self.cost.add(ops.arith("div", node.type))
        else:
            self.cost.add(ops.arith(node.op, node.type))

    def visit_UnOp(self, node: ir.UnOp) -> None:
        """Count the operand and a negation, logical not or bitwise not."""
        self.visit(node.operand)
        if node.op == "neg":
            self.cost.add(ops.arith("neg", node.type))
        elif node.op == "not":
            self.cost.add("logical")
        elif node.op == "bnot":
            self.cost.add("bitop")

    def visit_Cast(self, node: ir.Cast) -> None:
        """Count the operand and a conversion when the type changes."""
        self.visit(node.operand)
        if node.operand.type != node.type:
            self.cost.add(ops.arith("convert", node.type))

    def visit_FuncCall(self, node: ir.FuncCall) -> None:
        """Count the arguments and an intrinsic, or a call whose callee's cost the caller adds."""
        for arg in node.args:
            self.visit(arg)
        if node.intrinsic:
            arg_type = node.args[0].type if node.args else node.type
            self.cost.add(ops.intrinsic(node.name, arg_type))
        else:
            self.cost.add("call")
            self.cost.calls.append(node)

    def visit_Ternary(self, node: ir.Ternary) -> None:
        """Count a conditional expression: a select of both arms when they have no effects, else a branch."""
        self.visit(node.cond)
        if side_effect_free(node.then) and side_effect_free(node.orelse):
            # Compilers evaluate both arms and pick one with a conditional move: no branch.
            self.visit(node.then)
            self.visit(node.orelse)
            self.cost.add("select")
            return
        # A branch whose arms are not separately visible: half of each arm, as an even split.
        self.cost.add("branch")
        for arm in (node.then, node.orelse):
            half = Cost()
            ExprCounter(half, self.layout).visit(arm)
            self.cost.merge(half, 0.5)

    def visit_Substring(self, node: ir.Substring) -> None:
        """Count the base string and the bounds of a substring (no cost of its own)."""
        self.visit(node.base)
        self.visit(node.lo)
        self.visit(node.hi)


def _operand_type(node: ir.BinOp) -> str:
    """The type a comparison works in: the wider of its operands."""
    order = ("logical", "character", "integer", "real", "double", "complex")
    types = [t for t in (node.left.type, node.right.type) if t in order]
    return max(types, key=order.index) if types else "integer"


def expr_cost(expr: ir.Expr | None, layout: Layout | None = None) -> Cost:
    """The operations one evaluation of an expression performs."""
    cost = Cost()
    ExprCounter(cost, layout).visit(expr)
    return cost


def store_cost(target: ir.Expr, layout: Layout | None = None) -> Cost:
    """What writing to `target` costs: the subscripts and the store of an element, or a scalar assign."""
    cost = Cost()
    counter = ExprCounter(cost, layout)
    if isinstance(target, ir.ArrayRef):
        cost.add(ops.memory("store_strided" if is_strided(target, layout) else "store", target.type))
        counter._subscripts(target)
    elif isinstance(target, ir.Member):
        if target.arrow:
            cost.add(ops.memory("store", target.type))
        counter.visit(target.base)
    elif isinstance(target, ir.Substring):
        counter.visit(target.lo)
        counter.visit(target.hi)
    return cost


def statement_cost(stmt: ir.Stmt, layout: Layout | None = None) -> Cost:
    """The cost of one execution of a simple statement (not the bodies of compound ones)."""
    cost = Cost()
    if isinstance(stmt, ir.Assign):
        cost.merge(expr_cost(stmt.value, layout))
        cost.merge(store_cost(stmt.target, layout))
        cost.add(ops.arith("assign", stmt.target.type))
    elif isinstance(stmt, ir.CallStmt):
        for arg in stmt.args:
            if not isinstance(arg, (ir.Var, ir.Const)):
                cost.merge(expr_cost(arg))
        cost.add("call")
        if stmt.alt_returns:
            cost.add("branch")
    elif isinstance(stmt, ir.IO):
        cost.add(f"io.{stmt.kind.lower()}")
        cost.add("io_item", len(stmt.items) + len(stmt.targets))
        for item in stmt.items:
            cost.merge(expr_cost(item))
        for target in stmt.targets:
            cost.merge(store_cost(target))
    elif isinstance(stmt, ir.Message):
        cost.add(f"msg.{stmt.kind}")
    elif isinstance(stmt, (ir.Goto, ir.AssignedGoto)):
        cost.add("goto")
    elif isinstance(stmt, ir.AssignLabel):
        cost.add(ops.arith("assign", "integer"))
    elif isinstance(stmt, ir.Return):
        cost.merge(expr_cost(stmt.value))
        cost.merge(expr_cost(stmt.alt))
    elif isinstance(stmt, ir.ComputedGoto):
        cost.merge(expr_cost(stmt.selector))
        cost.add("branch")
    elif isinstance(stmt, ir.ArithmeticIf):
        cost.merge(expr_cost(stmt.expr))
        cost.add(ops.arith("compare", stmt.expr.type), 2)
        cost.add("branch")
    return cost


def condition_cost(cond: ir.Expr | None, layout: Layout | None = None) -> Cost:
    """One evaluation of a branch or loop condition and the branch decision."""
    cost = expr_cost(cond, layout)
    cost.add("branch")
    return cost


def select_cost(cond: ir.Expr | None, layout: Layout | None = None) -> Cost:
    """One evaluation of the condition of a select-like IF (`is_select`) and the conditional move."""
    cost = expr_cost(cond, layout)
    cost.add("select")
    return cost


def loop_entry_cost(stmt: ir.Do) -> Cost:
    """Entering a counted loop: its bounds are evaluated once, the loop is set up."""
    cost = Cost()
    for expr in (stmt.lo, stmt.hi, stmt.step):
        cost.merge(expr_cost(expr))
    cost.add("loop_start")
    return cost


def loop_iteration_cost() -> Cost:
    """The cost of one loop trip: one loop_iter."""
    cost = Cost()
    cost.add("loop_iter")
    return cost
