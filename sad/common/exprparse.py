"""A restricted arithmetic-expression parser that builds sympy expressions without ever evaluating Python.

Data flow: text written by users or by strangers -- machine-file expressions (``programming_model``
primitives, numbers with units in ``sad.machine.units``), params files (``NPART: 0.93 + 12/NPART``) and
``-D NAME=VALUE`` values -- comes in here and leaves as a ``sympy.Expr`` for the SAD builder, the mapper and
``sad.machine.model``.

How: ``ast.parse(text, mode="eval")`` gives a syntax tree; only whitelisted nodes are walked (numbers, names,
``+ - * / ** // %``, unary ``-``/``+``, calls of a fixed set of functions) and sympy objects are built directly.
Nothing is passed to ``eval``, ``sympify`` or sympy's own ``parse_expr``, so a hostile file cannot run code.
Integers stay exact; decimal literals become exact rationals (``0.5`` -> ``1/2``).

Names may contain dots (``MATMUL.N``): dotted names are replaced by placeholder identifiers before
``ast.parse`` and mapped back afterwards, so ``MATMUL.N`` becomes ``sympy.Symbol("MATMUL.N")``.
"""
from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from fractions import Fraction

import sympy

MAX_LENGTH = 1000
"""Longer input is rejected (ast.parse and sympy work grow with it)."""
MAX_EXPONENT = 1000
"""Numeric powers and decimal exponents above this are rejected (9**9**9 would hang sympy)."""

_DOTTED = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_PLACEHOLDER = "sad_dotted_{}_"


class ExprError(ValueError):
    """A rejected expression; ``col`` is the 0-based column in the original text (None if unknown)."""

    def __init__(self, message: str, col: int | None = None) -> None:
        super().__init__(message if col is None else f"col {col + 1}: {message}")
        self.message = message
        self.col = col


def _log(x: sympy.Expr, base: sympy.Expr | None = None) -> sympy.Expr:
    return sympy.log(x) if base is None else sympy.log(x, base)


DEFAULT_FUNCTIONS: Mapping[str, Callable[..., sympy.Expr]] = {
    "min": sympy.Min,
    "max": sympy.Max,
    "log": _log,
    "log2": lambda x: sympy.log(x, 2),
    "log10": lambda x: sympy.log(x, 10),
    "exp": sympy.exp,
    "sqrt": sympy.sqrt,
    "ceil": sympy.ceiling,
    "floor": sympy.floor,
    "abs": sympy.Abs,
}
"""Function name -> sympy constructor. ``log(x)`` is natural, ``log(x, b)`` to base b."""


def parse_expr(
    text: str,
    names: set[str] | frozenset[str] | None = None,
    functions: Mapping[str, Callable[..., sympy.Expr]] | None = None,
) -> sympy.Expr:
    """Parse ``text`` into a sympy expression.

    names: if given, the only names allowed (others raise ExprError); None allows any name.
    functions: extra (or overriding) callables merged over DEFAULT_FUNCTIONS.
    Raises ExprError(message, col) naming the rejected piece.
    """
    if not isinstance(text, str):
        raise ExprError(f"expected an expression string, got {type(text).__name__}")
    tree, source, positions, dotted = _parse_tree(text)
    funcs = dict(DEFAULT_FUNCTIONS)
    funcs.update(functions or {})
    walker = _Walker(text, source, positions, dotted, names, funcs)
    try:
        return walker.visit(tree.body)
    except RecursionError:
        raise ExprError("expression too deeply nested", 0) from None


def _check_characters(text: str) -> None:
    if len(text) > MAX_LENGTH:
        raise ExprError(f"expression longer than {MAX_LENGTH} characters", MAX_LENGTH)
    if not text.strip():
        raise ExprError("empty expression", 0)
    for col, ch in enumerate(text):
        if not (ch.isascii() and (ch.isprintable() or ch in " \t")):
            raise ExprError(f"character {ch!r} not allowed", col)


def _replace_dotted(text: str) -> tuple[str, list[int], dict[str, str]]:
    """Replace dotted names by placeholders; return new text, new-index -> old-index map, placeholder -> name."""
    pieces: list[str] = []
    positions: list[int] = []
    dotted: dict[str, str] = {}
    last = 0
    for i, match in enumerate(_DOTTED.finditer(text)):
        pieces.append(text[last:match.start()])
        positions.extend(range(last, match.start()))
        placeholder = _PLACEHOLDER.format(i)
        while placeholder in text:
            placeholder = "x" + placeholder
        dotted[placeholder] = match.group()
        pieces.append(placeholder)
        positions.extend([match.start()] * len(placeholder))
        last = match.end()
    pieces.append(text[last:])
    positions.extend(range(last, len(text) + 1))
    return "".join(pieces), positions, dotted


_BINOPS: dict[type, Callable[[sympy.Expr, sympy.Expr], sympy.Expr]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: sympy.floor(a / b),
    ast.Mod: lambda a, b: sympy.Mod(a, b),
    ast.Pow: lambda a, b: a ** b,
}


class _Walker(ast.NodeVisitor):
    """Turns a whitelisted ast into sympy; anything else raises ExprError (the standard library's
    NodeVisitor dispatches to visit_<Kind>; its generic_visit is where the whitelist refuses)."""

    def __init__(self, text: str, source: str, positions: list[int], dotted: dict[str, str],
                 names: set[str] | frozenset[str] | None, functions: dict[str, Callable[..., sympy.Expr]]) -> None:
        self.text, self.source, self.positions = text, source, positions
        self.dotted, self.names, self.functions = dotted, names, functions

    def col(self, node: ast.AST) -> int:
        offset = getattr(node, "col_offset", 0) or 0
        return self.positions[min(offset, len(self.positions) - 1)]

    def piece(self, node: ast.AST) -> str:
        segment = ast.get_source_segment(self.source, node) or type(node).__name__
        for placeholder, name in self.dotted.items():
            segment = segment.replace(placeholder, name)
        return segment if len(segment) <= 40 else segment[:37] + "..."

    def fail(self, node: ast.AST, what: str) -> ExprError:
        return ExprError(f"{what} not allowed: '{self.piece(node)}'", self.col(node))

    def generic_visit(self, node: ast.AST) -> sympy.Expr:
        """Every kind of Python syntax without a visit_ method of its own is refused."""
        raise self.fail(node, _describe(node))

    def visit_Constant(self, node: ast.Constant) -> sympy.Expr:
        value = node.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(node, "constant " + type(value).__name__)
        if isinstance(value, int):
            return sympy.Integer(value)
        return self.decimal(node)

    def decimal(self, node: ast.Constant) -> sympy.Expr:
        literal = (ast.get_source_segment(self.source, node) or repr(node.value)).replace("_", "")
        exponent = re.search(r"[eE]([+-]?\d+)$", literal)
        if exponent and abs(int(exponent.group(1))) > MAX_EXPONENT:
            raise ExprError(f"number out of range: '{literal}'", self.col(node))
        try:
            fraction = Fraction(literal)
        except (ValueError, ZeroDivisionError):
            raise ExprError(f"bad number '{literal}'", self.col(node)) from None
        return sympy.Rational(fraction.numerator, fraction.denominator)

    def visit_Name(self, node: ast.Name) -> sympy.Expr:
        name = self.dotted.get(node.id, node.id)
        if any(part.startswith("__") or part.endswith("__") for part in name.split(".")):
            raise ExprError(f"dunder name not allowed: '{name}'", self.col(node))
        if name in self.functions:
            raise ExprError(f"function '{name}' used as a value", self.col(node))
        if self.names is not None and name not in self.names:
            raise ExprError(f"unknown name '{name}'", self.col(node))
        return sympy.Symbol(name)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> sympy.Expr:
        operand = self.visit(node.operand)
        if isinstance(node.op, ast.USub):
            return -operand
        if isinstance(node.op, ast.UAdd):
            return operand
        raise self.fail(node, "operator " + type(node.op).__name__)

    def visit_BinOp(self, node: ast.BinOp) -> sympy.Expr:
        build = _BINOPS.get(type(node.op))
        if build is None:
            raise self.fail(node, "operator " + type(node.op).__name__)
        left, right = self.visit(node.left), self.visit(node.right)
        if isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) and right == 0:
            raise ExprError(f"division by zero: '{self.piece(node)}'", self.col(node.right))
        if isinstance(node.op, ast.Pow):
            self.check_power(node, left, right)
        return build(left, right)

    def check_power(self, node: ast.BinOp, base: sympy.Expr, exponent: sympy.Expr) -> None:
        if exponent.is_number and base.is_number and base not in (0, 1, -1):
            if abs(exponent) > MAX_EXPONENT:
                raise ExprError(f"exponent too large: '{self.piece(node)}'", self.col(node.right))
        if base == 0 and exponent.is_number and exponent.is_negative:
            raise ExprError(f"division by zero: '{self.piece(node)}'", self.col(node))

    def visit_Call(self, node: ast.Call) -> sympy.Expr:
        if not isinstance(node.func, ast.Name):
            raise self.fail(node.func, "call of " + _describe(node.func))
        name = self.dotted.get(node.func.id, node.func.id)
        function = self.functions.get(name)
        if function is None:
            raise ExprError(f"function '{name}' not allowed", self.col(node))
        if node.keywords:
            raise ExprError(f"keyword argument not allowed in '{name}(...)'", self.col(node.keywords[0].value))
        if not node.args:
            raise ExprError(f"'{name}' needs an argument", self.col(node))
        args = [self.visit(arg) for arg in node.args]
        try:
            return function(*args)
        except (TypeError, ValueError) as exc:
            raise ExprError(f"bad call '{self.piece(node)}': {exc}", self.col(node)) from None


def _describe(node: ast.AST) -> str:
    kinds = {ast.Attribute: "attribute access", ast.Subscript: "subscript", ast.Lambda: "lambda",
             ast.Compare: "comparison", ast.BoolOp: "boolean operator", ast.Starred: "starred argument",
             ast.IfExp: "conditional expression", ast.Tuple: "tuple", ast.List: "list",
             ast.Dict: "dict", ast.Set: "set", ast.JoinedStr: "f-string", ast.NamedExpr: "assignment"}
    for kind, text in kinds.items():
        if isinstance(node, kind):
            return text
    return type(node).__name__


_COMPARISONS: dict[type, Callable[..., sympy.Basic]] = {   # sympy.Lt(a, b, evaluate=False) etc.
    ast.Lt: sympy.Lt, ast.LtE: sympy.Le, ast.Gt: sympy.Gt, ast.GtE: sympy.Ge, ast.Eq: sympy.Eq, ast.NotEq: sympy.Ne,
}


class _ConditionWalker(_Walker):
    """The arithmetic walker plus comparisons (chained, as `1 <= G <= N/P`), `and`, `or` and `not`."""

    def visit_Compare(self, node: ast.Compare) -> sympy.Basic:
        left = self.visit(node.left)
        parts = []
        for op, right_node in zip(node.ops, node.comparators):
            build = _COMPARISONS.get(type(op))
            if build is None:
                raise self.fail(node, "operator " + type(op).__name__)
            right = self.visit(right_node)
            parts.append(build(left, right, evaluate=False))
            left = right
        return sympy.And(*parts) if len(parts) > 1 else parts[0]

    def visit_BoolOp(self, node: ast.BoolOp) -> sympy.Basic:
        values = [self.condition(v) for v in node.values]
        return sympy.And(*values) if isinstance(node.op, ast.And) else sympy.Or(*values)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> sympy.Basic:
        if isinstance(node.op, ast.Not):
            return sympy.Not(self.condition(node.operand))
        return super().visit_UnaryOp(node)

    def condition(self, node: ast.AST) -> sympy.Basic:
        value = self.visit(node)
        if not isinstance(value, (sympy.logic.boolalg.Boolean, sympy.core.relational.Relational)):
            raise ExprError(f"'{self.piece(node)}' is not a condition", self.col(node))
        return value


def parse_condition(text: str, names: set[str] | frozenset[str] | None = None) -> sympy.Basic:
    """Parse a condition such as ``1 <= G <= N/NPROCS and G % 2 == 0`` into a sympy Boolean, with the same
    restrictions as parse_expr (no eval, whitelisted nodes and functions) plus comparisons and and/or/not.
    Raises ExprError when the text is not a condition."""
    if not isinstance(text, str):
        raise ExprError(f"expected a condition string, got {type(text).__name__}")
    tree, source, positions, dotted = _parse_tree(text)
    walker = _ConditionWalker(text, source, positions, dotted, names, dict(DEFAULT_FUNCTIONS))
    try:
        return walker.condition(tree.body)
    except RecursionError:
        raise ExprError("expression too deeply nested", 0) from None


def _parse_tree(text: str) -> tuple[ast.Expression, str, list[int], dict[str, str]]:
    """Python's parser on the text with Fortran's dotted operators replaced; errors as ExprError with the
    column in the user's text. Shared by parse_expr and parse_condition."""
    _check_characters(text)
    source, positions, dotted = _replace_dotted(text)
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as exc:
        col = positions[min(max((exc.offset or 1) - 1, 0), len(positions) - 1)]
        raise ExprError(f"syntax error in '{text.strip()}'", col) from None
    except (RecursionError, MemoryError, ValueError):
        raise ExprError("expression too deeply nested", 0) from None
    return tree, source, positions, dotted
