"""Constant folding of lowered IR expressions: enum values, const initializers, array dimensions, loop bounds.

Data flow: `decls` folds initializers and dimensions, `loops` builds `hi = bound - 1` with `offset`; `exprs`
retypes constants instead of wrapping them in Casts (`convert_const`). Pure functions on IR nodes.
"""
from __future__ import annotations

from collections.abc import Callable

from sad import ir

Lookup = Callable[[str], ir.Const | None]
# a function call's value from the call and its arguments folded (None where one is not constant)
Calls = Callable[[ir.FuncCall, list["ir.Const | None"]], ir.Const | None]


def _c_div(a, b):
    if isinstance(a, int) and isinstance(b, int):
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b >= 0) else -q
    return a / b


def _c_mod(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return a - _c_div(a, b) * b
    import math
    return math.fmod(a, b)


_BIN = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b, "div": _c_div,
    "mod": _c_mod, "pow": lambda a, b: a ** b,
    "eq": lambda a, b: int(a == b), "ne": lambda a, b: int(a != b), "lt": lambda a, b: int(a < b),
    "le": lambda a, b: int(a <= b), "gt": lambda a, b: int(a > b), "ge": lambda a, b: int(a >= b),
    "and": lambda a, b: int(bool(a) and bool(b)), "or": lambda a, b: int(bool(a) or bool(b)),
    "band": lambda a, b: a & b, "bor": lambda a, b: a | b, "bxor": lambda a, b: a ^ b,
    "shl": lambda a, b: a << b, "shr": lambda a, b: a >> b,
}


def fold(expr: ir.Expr | None, lookup: Lookup | None = None, depth: int = 0,
         calls: Calls | None = None) -> ir.Const | None:
    """The constant value of `expr` if it is a constant expression (names through `lookup`, function calls
    through `calls`), else None."""
    if expr is None or depth > 50:
        return None

    def sub(node: ir.Expr | None) -> ir.Const | None:
        return fold(node, lookup, depth + 1, calls)

    try:
        if isinstance(expr, ir.Const):
            return expr if isinstance(expr.value, (int, float, complex)) else None
        if isinstance(expr, ir.Var):
            return lookup(expr.name) if lookup is not None else None
        if isinstance(expr, ir.Cast):
            inner = sub(expr.operand)
            return convert_const(inner, expr.type) if inner is not None else None
        if isinstance(expr, ir.UnOp):
            inner = sub(expr.operand)
            if inner is None:
                return None
            v = inner.value
            if expr.op == "neg" and not isinstance(v, str):
                return ir.Const(-v, type=expr.type)
            if expr.op == "not":
                return ir.Const(int(not v), type="integer")
            if expr.op == "bnot" and isinstance(v, int):
                return ir.Const(~v, type=expr.type)
            return None
        if isinstance(expr, ir.BinOp) and expr.op in _BIN:
            left = sub(expr.left)
            right = sub(expr.right)
            if left is None or right is None:
                return None
            if expr.op in ("div", "mod") and right.value == 0:
                return None
            if expr.op in ("shl", "shr") and not (isinstance(left.value, int) and isinstance(right.value, int)
                                                 and 0 <= right.value < 256):
                return None
            value = _BIN[expr.op](left.value, right.value)
            return convert_const(ir.Const(value, type=expr.type), expr.type)
        if isinstance(expr, ir.FuncCall) and calls is not None:
            return calls(expr, [sub(a) for a in expr.args])
        if isinstance(expr, ir.Ternary):
            cond = sub(expr.cond)
            if cond is None:
                return None
            return sub(expr.then if cond.value else expr.orelse)
    except (ArithmeticError, TypeError, ValueError):
        return None
    return None


def convert_const(c: ir.Const, ir_type: str) -> ir.Const:
    """The constant converted to an IR type (C conversion rules: integers truncate toward zero)."""
    v = c.value
    try:
        if ir_type == "integer" and isinstance(v, (int, float, bool)) and not isinstance(v, complex):
            v = int(v)
        elif ir_type in ("real", "double") and isinstance(v, (int, float)):
            v = float(v)
        elif ir_type == "complex" and isinstance(v, (int, float)):
            v = complex(v)
    except (OverflowError, ValueError):
        pass
    return ir.Const(v, type=ir_type if ir_type != "unknown" else c.type)


def offset(expr: ir.Expr, k: int) -> ir.Expr:
    """expr + k, simplified when expr is a constant or already ends in `± constant` (n + 1 - 1 → n)."""
    if k == 0:
        return expr
    if isinstance(expr, ir.Const) and isinstance(expr.value, int):
        return ir.Const(expr.value + k, type=expr.type)
    if isinstance(expr, ir.BinOp) and expr.op in ("add", "sub") and isinstance(expr.right, ir.Const) \
            and isinstance(expr.right.value, int) and expr.type == "integer":
        total = expr.right.value * (1 if expr.op == "add" else -1) + k
        if total == 0:
            return expr.left
        op = "add" if total > 0 else "sub"
        return ir.BinOp(op, expr.left, ir.Const(abs(total), type="integer"), type=expr.type)
    op = "add" if k > 0 else "sub"
    return ir.BinOp(op, expr, ir.Const(abs(k), type="integer"), type=expr.type if expr.type != "unknown"
                    else "integer")
