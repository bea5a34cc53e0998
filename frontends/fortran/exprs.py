"""fparser2 expression nodes to typed IR expressions.

Data flow: frontends.fortran.stmts and .decls hand fparser2 expression nodes to `ExprBuilder.expr`; it consults
the unit's `Scope` (frontends.fortran.symbols) to decide what `NAME(...)` is, types every node by the Fortran
promotion rules (integer < real < double < complex, implicit conversions made explicit as `Cast`), maps
intrinsic names onto generic names (frontends.intrinsics) and inlines statement functions.
"""
from __future__ import annotations

from typing import Any

from sad.ir import ArrayRef, BinOp, Cast, Const, Expr, FuncCall, Loc, Substring, UnOp, Var, substitute

from .. import intrinsics
from .symbols import Scope, StatementFunction

NUMERIC = ("integer", "real", "double", "complex")

BINARY = {"+": "add", "-": "sub", "*": "mul", "/": "div", "**": "pow", "//": "concat",
          ".EQ.": "eq", "==": "eq", ".NE.": "ne", "/=": "ne", ".LT.": "lt", "<": "lt", ".LE.": "le", "<=": "le",
          ".GT.": "gt", ">": "gt", ".GE.": "ge", ">=": "ge",
          ".AND.": "and", ".OR.": "or", ".EQV.": "eqv", ".NEQV.": "neqv"}
UNARY = {"-": "neg", ".NOT.": "not"}


# intrinsics whose optional last argument is the kind of their result (Fortran 90)
_KIND_ARGUMENT = ("REAL", "INT", "NINT", "CEILING", "FLOOR")


class Unsupported(Exception):
    """An expression the frontend cannot lower; the enclosing statement becomes ir.Unsupported."""


def items_of(node: Any) -> list[Any]:
    """The elements of an fparser2 *_List node (or the node itself when fparser did not wrap it)."""
    if node is None:
        return []
    if type(node).__name__.endswith("_List"):
        return list(node.items)
    return [node]


def tname(node: Any) -> str:
    """The fparser class name of a node (the dispatch key of the lowering)."""
    return type(node).__name__


ARRAY_MARK = "_SAD_ARRAY_"  # frontends.fortran.parse's respelling of an array named like an intrinsic


def name_of(node: Any) -> str:
    """A Fortran name as written, upper-cased (without the respelling mark of an array named like an
    intrinsic)."""
    name = str(node).strip().upper()
    return name[:-len(ARRAY_MARK)] if name.endswith(ARRAY_MARK) else name


def promote(a: str, b: str) -> str:
    """The type of a mixed-type arithmetic result (Fortran 77 type promotion)."""
    if a in NUMERIC and b in NUMERIC:
        return NUMERIC[max(NUMERIC.index(a), NUMERIC.index(b))]
    return a if a in NUMERIC else (b if b in NUMERIC else a)


def convert(expr: Expr, ty: str) -> Expr:
    """Make an implicit numeric conversion explicit."""
    if expr.type == ty or expr.type not in NUMERIC or ty not in NUMERIC:
        return expr
    return Cast(expr, type=ty)


class ExprBuilder:
    """Lowers fparser expression nodes of one statement to typed IR expressions."""
    def __init__(self, scope: Scope, loc: Loc, bound: dict[str, str] | None = None) -> None:
        self.scope = scope
        self.loc = loc
        self.bound = bound or {}  # statement-function dummies: name → type (not registered as variables)

    # ------------------------------------------------------------------ entry point
    def expr(self, node: Any) -> Expr:
        """Lower an fparser expression node to a typed IR expression (Unsupported if it has no IR form)."""
        kind = tname(node)
        method = getattr(self, "_" + kind, None)
        if method is not None:
            return method(node)
        from fparser.two.utils import BinaryOpBase, UnaryOpBase
        if isinstance(node, BinaryOpBase):
            return self.binop(node.items[1], self.expr(node.items[0]), self.expr(node.items[2]))
        if isinstance(node, UnaryOpBase):
            return self.unop(node.items[0], self.expr(node.items[1]))
        raise Unsupported(f"expression '{node}' ({kind})")

    # ------------------------------------------------------------------ operators
    def binop(self, op_text: str, left: Expr, right: Expr) -> Expr:
        """A binary operation with Fortran's type promotion; comparisons and logical operators give LOGICAL."""
        op = BINARY.get(str(op_text).strip().upper())
        if op is None:
            raise Unsupported(f"operator '{op_text}'")
        if op == "concat":
            return BinOp(op, left, right, type="character")
        if op in ("and", "or", "eqv", "neqv"):
            return BinOp(op, left, right, type="logical")
        common = promote(left.type, right.type)
        if op in ("eq", "ne", "lt", "le", "gt", "ge"):
            return BinOp(op, convert(left, common), convert(right, common), type="logical")
        if op == "pow" and right.type == "integer":
            return BinOp(op, convert(left, common), right, type=common)
        return BinOp(op, convert(left, common), convert(right, common), type=common)

    def unop(self, op_text: str, operand: Expr) -> Expr:
        """A unary operation; unary plus disappears and a negated literal becomes a negative constant."""
        op_text = str(op_text).strip().upper()
        if op_text == "+":
            return operand
        op = UNARY.get(op_text)
        if op is None:
            raise Unsupported(f"operator '{op_text}'")
        if op == "neg" and isinstance(operand, Const) and isinstance(operand.value, (int, float, complex)) \
                and not isinstance(operand.value, bool):
            return Const(-operand.value, type=operand.type)  # a negative literal, e.g. a DO step of -1
        return UnOp(op, operand, type="logical" if op == "not" else operand.type)

    def _Parenthesis(self, node: Any) -> Expr:
        return self.expr(node.items[1])

    # ------------------------------------------------------------------ constants
    def _Int_Literal_Constant(self, node: Any) -> Expr:
        return Const(int(str(node.items[0])), type="integer")

    _Signed_Int_Literal_Constant = _Int_Literal_Constant

    def _Real_Literal_Constant(self, node: Any) -> Expr:
        text = str(node.items[0]).upper()
        kind = self.kind(node.items[1])
        ty = "double" if "D" in text or kind in (8, 16) else "real"
        try:
            value = float(text.replace("D", "E"))
        except ValueError:
            raise Unsupported(f"real constant '{text}'") from None
        return Const(value, type=ty)

    _Signed_Real_Literal_Constant = _Real_Literal_Constant

    def kind(self, kind: Any) -> int | None:
        """The value of a kind parameter (`8`, `WP` of `0.0_WP`), None where there is none; a name that is no
        constant is an unsupported expression, never a silent default kind."""
        if kind is None:
            return None
        from .constants import kind_value
        value = kind_value(kind, self.scope, self.loc)
        if value is None:
            raise Unsupported(f"kind parameter '{kind}' is not a constant")
        return value

    def _Complex_Literal_Constant(self, node: Any) -> Expr:
        re_, im = self.expr(node.items[0]), self.expr(node.items[1])
        if not (isinstance(re_, Const) and isinstance(re_.value, (int, float))
                and isinstance(im, Const) and isinstance(im.value, (int, float))):
            raise Unsupported(f"complex constant '{node}'")
        return Const(complex(float(re_.value), float(im.value)), type="complex")

    def _Logical_Literal_Constant(self, node: Any) -> Expr:
        return Const(str(node.items[0]).upper() == ".TRUE.", type="logical")

    def _Char_Literal_Constant(self, node: Any) -> Expr:
        text = str(node.items[0])
        quote = text[0]
        return Const(text[1:-1].replace(quote * 2, quote), type="character")

    def _Binary_Constant(self, node: Any) -> Expr:
        return Const(int(str(node)[2:-1], 2), type="integer")

    def _Octal_Constant(self, node: Any) -> Expr:
        return Const(int(str(node)[2:-1], 8), type="integer")

    def _Hex_Constant(self, node: Any) -> Expr:
        return Const(int(str(node)[2:-1], 16), type="integer")

    # ------------------------------------------------------------------ names and references
    def _Name(self, node: Any) -> Expr:
        name = self.scope.canonical(name_of(node))
        if name in self.bound:
            return Var(name, type=self.bound[name])
        self.scope.note_reference(name, self.loc)
        return Var(name, type=self.scope.type_of(name))

    def args(self, node: Any) -> list[Expr]:
        """The lowered actual arguments of a call or reference (keyword names dropped)."""
        out = []
        for item in items_of(node):
            if tname(item) in ("Actual_Arg_Spec", "Component_Spec"):
                item = item.items[1]
            out.append(self.expr(item))
        return out

    def _Part_Ref(self, node: Any) -> Expr:
        return self.reference(name_of(node.items[0]), node.items[1])

    _Intrinsic_Function_Reference = _Part_Ref
    _Structure_Constructor = _Part_Ref  # fparser's reading of F(A(I), 2.0) when F is unknown to it
    _Function_Reference = _Part_Ref

    def reference(self, name: str, arg_node: Any) -> Expr:
        """NAME(args): array element, substring, statement function, intrinsic or external function."""
        raw_args = items_of(arg_node)
        if name in self.bound:
            raise Unsupported(f"reference '{name}(...)' to a statement function dummy")
        if len(raw_args) == 1 and tname(raw_args[0]) in ("Subscript_Triplet", "Substring_Range") \
                and not self.scope.is_array(name):
            self.scope.note_reference(name, self.loc)
            lo, hi = self.range(raw_args[0])
            return Substring(Var(name, type=self.scope.type_of(name)), lo, hi, type="character")
        if self.scope.is_array(name):
            self.scope.note_reference(name, self.loc)
            if any(tname(a) == "Subscript_Triplet" for a in raw_args):
                raise Unsupported(f"array section of '{name}'")
            return ArrayRef(name, self.args(arg_node), type=self.scope.type_of(name))
        if name in self.scope.stmt_functions:
            return self.inline(self.scope.stmt_functions[name], self.args(arg_node))
        if self.scope.is_intrinsic_ref(name):
            args = self.args(arg_node)
            generic = intrinsics.generic_name(name) or name
            if generic in _KIND_ARGUMENT and len(args) == 2:
                return self.conversion(generic, args[0], raw_args[1])
            return FuncCall(generic, args, intrinsic=True,
                            type=intrinsics.result_type(name, [a.type for a in args]))
        if name in self.scope.generics:
            args = self.args(arg_node)
            link, result = self.specific(name, args)
            return FuncCall(link, args, type=result or "unknown")
        self.scope.note_reference(name, self.loc, storage="function")
        return FuncCall(self.scope.linkage.get(name, name), self.args(arg_node), type=self.scope.type_of(name))

    def specific(self, generic: str, args: list[Expr]) -> tuple[str, str | None]:
        """The specific procedure a generic name calls for these arguments (by their types, as the compiler
        chooses it): its linkage name and result type."""
        types = [a.type for a in args]
        for link, formals, result in self.scope.generics[generic]:
            if formals == types:
                return link, result
        raise Unsupported(f"no specific procedure of the generic {generic} takes ({', '.join(types)})")

    def conversion(self, generic: str, arg: Expr, kind_node: Any) -> Expr:
        """REAL(X, KIND), INT(X, KIND), ...: the conversion to the type that kind gives (REAL(X, 8) is DBLE)."""
        if tname(kind_node) == "Actual_Arg_Spec":
            kind_node = kind_node.items[1]
        from .constants import REAL_TYPE_OF_KIND
        kind = self.kind(kind_node)
        if generic == "REAL":
            if kind not in REAL_TYPE_OF_KIND:
                raise Unsupported(f"REAL of kind {kind}")
            generic = "DBLE" if REAL_TYPE_OF_KIND[kind] == "double" else "REAL"
        return FuncCall(generic, [arg], intrinsic=True, type=intrinsics.result_type(generic, [arg.type]))

    def range(self, node: Any) -> tuple[Expr | None, Expr | None]:
        """The lower and upper bound of a substring or section range (None where omitted)."""
        lo, hi = node.items[0], node.items[1]
        return (self.expr(lo) if lo is not None else None, self.expr(hi) if hi is not None else None)

    def _Array_Section(self, node: Any) -> Expr:
        base = self.expr(node.items[0])
        if tname(node.items[1]) != "Substring_Range":
            raise Unsupported(f"array section '{node}'")
        lo, hi = self.range(node.items[1])
        return Substring(base, lo, hi, type="character")

    _Substring = _Array_Section

    def inline(self, fn: StatementFunction, args: list[Expr]) -> Expr:
        """A statement function reference expanded in place with its actual arguments substituted."""
        if len(args) != len(fn.formals):
            raise Unsupported(f"statement function {fn.name} called with {len(args)} arguments, "
                              f"defined with {len(fn.formals)}")
        body = substitute(fn.body, dict(zip(fn.formals, args)))
        return convert(body, self.scope.type_of(fn.name))
