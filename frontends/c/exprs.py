"""C expressions → IR expressions, with side effects hoisted into statements.

Data flow: `stmts` (and `decls` for initializers) hand pycparser expression nodes to `ExprLowerer`; it
returns an IR `Expr` typed by C's usual arithmetic conversions, and appends the side effects it met to an
`Effects` (statements to run before the expression: assignments inside expressions, prefix ++/--, I/O and
MPI calls; and after it: postfix ++/--). Expression statements become IR statements here (`statement`).

Conventions:
- a[i][j] → ArrayRef("a", [i, j]); *p → ArrayRef("p", []); *(p + i) → ArrayRef("p", [i]); a base that is
  not a plain name (s->v[i]) is named by its C text ("s->v"); p->x → Member(arrow=True); in pos[k].x the
  ArrayRef pos[k] takes the member's type (the memory reference is to the member).
- Mixed arithmetic gets explicit `Cast` nodes (constants are converted instead of cast). Comparisons and
  logical operators have type "integer" (C int); their operands are converted to the common type.
- A condition that is not a comparison or logical operation is made explicit: `if (p)` → `p != 0`.
- && and || in expression context stay BinOp("and"/"or") (short-circuit evaluation is not modelled there);
  ?: stays Ternary. In statement context `stmts` lowers them to If statements.
- pow/powf/powl → BinOp("pow"); math functions → FuncCall(intrinsic=True) with the generic name; calls
  through function pointers are indirect. A function the user defines in this file is never intrinsic or
  special, whatever its name.
- An I/O call used as a value (`if (scanf(...) != 1)`) is hoisted as an IO statement whose result goes to
  an invented local ".ioN" (an input-dependent value); an MPI call used as a value is hoisted as a Message
  and the value is MPI_SUCCESS (0).
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field

from pycparser import c_ast, c_generator

from sad import ir

from . import consteval, library
from . import typesys as ts
from .context import UnitContext, ctype_of, set_ctype
from .mathlib import POW_NAMES, intrinsic_name

BINOPS = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod", "==": "eq", "!=": "ne", "<": "lt",
          "<=": "le", ">": "gt", ">=": "ge", "&&": "and", "||": "or", "&": "band", "|": "bor", "^": "bxor",
          "<<": "shl", ">>": "shr"}
_COMPARE = {"eq", "ne", "lt", "le", "gt", "ge"}
_ARITH_IR = {"integer", "real", "double", "complex", "logical"}
_ESCAPES = {"n": 10, "t": 9, "r": 13, "0": 0, "\\": 92, "'": 39, '"': 34, "a": 7, "b": 8, "f": 12, "v": 11,
            "?": 63, "e": 27}


@dataclass
class Effects:
    """Statements a C expression's side effects need before (pre) and after (post) its value is used."""
    pre: list[ir.Stmt] = field(default_factory=list)
    post: list[ir.Stmt] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        """True when no side effect must run before or after the expression."""
        return not self.pre and not self.post


def c_text(node: c_ast.Node) -> str:
    """The C text of a pycparser node, for messages ('?' if it cannot be printed)."""
    try:
        return c_generator.CGenerator().visit(node)
    except Exception:
        return "?"


def is_condition(e: ir.Expr) -> bool:
    """Whether an IR expression is already a truth value (comparison, and/or, not)."""
    return (isinstance(e, ir.BinOp) and e.op in _COMPARE | {"and", "or"}) or \
        (isinstance(e, ir.UnOp) and e.op == "not")


class ExprLowerer:
    """Lowers C expressions to typed IR expressions, collecting side effects in an Effects."""
    def __init__(self, ctx: UnitContext) -> None:
        self.ctx = ctx

    # ------------------------------------------------------------------------------------------ helpers
    def const(self, value, ct: ts.CType) -> ir.Expr:
        """A constant carrying the C type `ct`."""
        return set_ctype(ir.Const(value), ct)

    def convert(self, e: ir.Expr, ct: ts.CType | None) -> ir.Expr:
        """e converted to the arithmetic type ct (a Cast, or a converted constant)."""
        if ct is None or not ts.is_arith(ct):
            return e
        target = ts.ir_type(ct)
        if e.type == target or e.type not in _ARITH_IR:
            return e
        if isinstance(e, ir.Const) and not isinstance(e.value, str):
            return set_ctype(consteval.convert_const(e, target), ct)
        return set_ctype(ir.Cast(e), ct)

    def user_defined(self, name: str) -> bool:
        """True when `name` is a function defined in the translation units being analyzed."""
        return name in self.ctx.defined_functions

    def lower_silent(self, node: c_ast.Node) -> ir.Expr:
        """Lower for the type only (sizeof): side effects are not evaluated."""
        return self.lower(node, Effects())

    # -------------------------------------------------------------------------------------------- entry
    def rvalue(self, node: c_ast.Node, fx: Effects) -> ir.Expr:
        """Lower an expression whose value is used; side effects go to `fx`."""
        return self.lower(node, fx)

    def condition(self, node: c_ast.Node, fx: Effects) -> ir.Expr:
        """Lower a controlling expression as a truth value (non-zero test added when it is not a comparison)."""
        e = self.lower(node, fx)
        return self.as_condition(e)

    def as_condition(self, e: ir.Expr) -> ir.Expr:
        """`e` as a condition: comparisons unchanged, constants folded to 0/1, anything else compared with 0."""
        if is_condition(e):
            return e
        if isinstance(e, ir.Const) and isinstance(e.value, (int, float)):
            return self.const(int(bool(e.value)), ts.INT)
        zero = self.convert(self.const(0, ts.INT), ctype_of(e)) if e.type in _ARITH_IR else self.const(0, ts.INT)
        return set_ctype(ir.BinOp("ne", e, zero), ts.INT)

    def lower(self, node: c_ast.Node, fx: Effects) -> ir.Expr:
        """Lower any C expression node by dispatch on its class; unsupported ones warn and become 0."""
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            self.ctx.diag(node, "warning", f"unsupported C expression ({type(node).__name__}); treated as 0")
            return self.const(0, ts.INT)
        return method(node, fx)

    # ------------------------------------------------------------------------------------------- leaves
    def _Constant(self, node: c_ast.Constant, fx: Effects) -> ir.Expr:
        return parse_constant(node.type, node.value)

    def _ID(self, node: c_ast.ID, fx: Effects) -> ir.Expr:
        sym = self.ctx.symbols.get(node.name)
        if sym is None:
            if node.name == "__func__":
                return _string_const(self.ctx.proc.name if self.ctx.proc else "")
            return ir.Var(node.name, type="unknown")
        return set_ctype(ir.Var(node.name), sym.ctype)

    # --------------------------------------------------------------------------------------- references
    def _ArrayRef(self, node: c_ast.ArrayRef, fx: Effects) -> ir.Expr:
        subscripts: list[c_ast.Node] = []
        base: c_ast.Node = node
        while isinstance(base, c_ast.ArrayRef):
            subscripts.append(base.subscript)
            base = base.name
        subscripts.reverse()
        if isinstance(base, c_ast.ID):
            lowered_base = self._ID(base, fx)
            name = base.name
        else:
            lowered_base = self.lower(base, fx)
            name = lowered_base.name if isinstance(lowered_base, ir.Var) else c_text(base)
            if isinstance(lowered_base, ir.ArrayRef) and isinstance(base, c_ast.UnaryOp) and base.op == "*":
                # (*p)[i]: p[0][i]
                indices = list(lowered_base.indices) or [self.const(0, ts.INT)]
                ct = ctype_of(lowered_base)
                for s in subscripts:
                    indices.append(self.rvalue(s, fx))
                    ct = ts.element(ct)
                return set_ctype(ir.ArrayRef(lowered_base.name, indices), ct)
        ct = ctype_of(lowered_base)
        indices = []
        for s in subscripts:
            idx = self.rvalue(s, fx)
            # C allows i[a]: the pointer is then the subscript
            indices.append(idx)
            ct = ts.element(ct)
        return set_ctype(ir.ArrayRef(name, indices), ct)

    def _deref(self, ptr: ir.Expr, node: c_ast.Node) -> ir.Expr:
        elem = ts.element(ts.decay(ctype_of(ptr)))
        if isinstance(ptr, ir.Var):
            return set_ctype(ir.ArrayRef(ptr.name, []), elem)
        if isinstance(ptr, ir.BinOp) and ptr.op in ("add", "sub"):
            lt, rt = ctype_of(ptr.left), ctype_of(ptr.right)
            base: ir.Expr | None = None
            idx: ir.Expr = ptr.right
            if ts.is_pointerish(lt) and not ts.is_pointerish(rt):
                base, idx = ptr.left, ptr.right
                if ptr.op == "sub":
                    idx = set_ctype(ir.UnOp("neg", idx), ctype_of(idx))
            elif ptr.op == "add" and ts.is_pointerish(rt) and not ts.is_pointerish(lt):
                base, idx = ptr.right, ptr.left
            if isinstance(base, ir.Var):
                return set_ctype(ir.ArrayRef(base.name, [idx]), elem)
            if isinstance(base, ir.ArrayRef):
                prefix = list(base.indices) or [self.const(0, ts.INT)]
                return set_ctype(ir.ArrayRef(base.name, prefix + [idx]), elem)
        if isinstance(ptr, ir.ArrayRef):
            prefix = list(ptr.indices) or [self.const(0, ts.INT)]
            return set_ctype(ir.ArrayRef(ptr.name, prefix + [self.const(0, ts.INT)]), elem)
        if isinstance(ptr, ir.Cast) and isinstance(ptr.operand, (ir.Var, ir.ArrayRef)):
            inner = self._deref(ptr.operand, node)
            return set_ctype(inner, elem)
        return set_ctype(ir.ArrayRef(c_text(node), []), elem)

    def _StructRef(self, node: c_ast.StructRef, fx: Effects) -> ir.Expr:
        base = self.lower(node.name, fx)
        fname = node.field.name if isinstance(node.field, c_ast.ID) else c_text(node.field)
        ct = self.ctx.types.field_type(ctype_of(base), fname)
        arrow = node.type == "->"
        if not arrow and ct is not None:
            # pos[k].x: the memory reference is to the member, so the element reference takes its type
            inner = base
            while isinstance(inner, ir.Member) and not inner.arrow:
                inner = inner.base
            if isinstance(inner, ir.ArrayRef) and isinstance(ctype_of(inner), ts.Struct):
                inner.type = ts.ir_type(ct)
        return set_ctype(ir.Member(base, fname, arrow=arrow), ct)

    # ---------------------------------------------------------------------------------------- operators
    def _UnaryOp(self, node: c_ast.UnaryOp, fx: Effects) -> ir.Expr:
        op = node.op
        if op in ("++", "--", "p++", "p--"):
            target = self.lower(node.expr, fx)
            assign = self.increment(target, op)
            (fx.pre if op in ("++", "--") else fx.post).append(assign)
            return copy.deepcopy(target)
        if op == "sizeof":
            ct: ts.CType | None
            if isinstance(node.expr, c_ast.Typename):
                ct = self.ctx.types.convert(node.expr)
            else:
                ct = ctype_of(self.lower_silent(node.expr))
            return self.const(ts.sizeof(ct, self.ctx.types, self.dim_value), ts.SIZE_T)
        if op == "_Alignof":
            return self.const(8, ts.SIZE_T)
        if op == "*":
            return self._deref(self.lower(node.expr, fx), node.expr)
        if op == "&":
            inner = self.lower(node.expr, fx)
            return set_ctype(ir.UnOp("addr", inner), ts.Pointer(ctype_of(inner) or ts.VOID))
        if op == "!":
            inner = self.condition(node.expr, fx)
            if isinstance(inner, ir.Const):
                return self.const(int(not inner.value), ts.INT)
            return set_ctype(ir.UnOp("not", inner), ts.INT)
        operand = self.lower(node.expr, fx)
        ct = ctype_of(operand)
        if isinstance(ct, ts.Scalar):
            ct = ts.promote(ct)
        if op == "+":
            return self.convert(operand, ct)
        if op == "-":
            if isinstance(operand, ir.Const) and isinstance(operand.value, (int, float, complex)):
                return set_ctype(ir.Const(-operand.value), ct)
            return set_ctype(ir.UnOp("neg", self.convert(operand, ct)), ct)
        if op == "~":
            if isinstance(operand, ir.Const) and isinstance(operand.value, int):
                return set_ctype(ir.Const(~operand.value), ct)
            return set_ctype(ir.UnOp("bnot", operand), ct)
        self.ctx.diag(node, "warning", f"unsupported unary operator '{op}'")
        return operand

    def increment(self, target: ir.Expr, op: str) -> ir.Assign:
        """target = target ± 1 for ++/-- (pointers step by one element)."""
        ct = ctype_of(target)
        one = self.const(1, ts.INT)
        if ts.is_arith(ct) and not ts.is_integer(ct):
            one = self.convert(one, ct)
        bop = "add" if "+" in op else "sub"
        value = set_ctype(ir.BinOp(bop, copy.deepcopy(target), one), ts.decay(ct) if ct is not None else ts.INT)
        if ct is None:
            value.type = target.type
        return ir.Assign(target, value, loc=self.ctx.loc)

    def _BinaryOp(self, node: c_ast.BinaryOp, fx: Effects) -> ir.Expr:
        op = BINOPS.get(node.op)
        if op is None:
            self.ctx.diag(node, "warning", f"unsupported binary operator '{node.op}'")
            return self.const(0, ts.INT)
        if op in ("and", "or"):
            left = self.condition(node.left, fx)
            right = self.condition(node.right, fx)
            return set_ctype(ir.BinOp(op, left, right), ts.INT)
        left = self.rvalue(node.left, fx)
        right = self.rvalue(node.right, fx)
        return self.binary(op, left, right)

    def binary(self, op: str, left: ir.Expr, right: ir.Expr) -> ir.Expr:
        """A binary operation typed by C's rules (usual arithmetic conversions, pointer arithmetic, shifts)."""
        lct, rct = ts.decay(ctype_of(left)), ts.decay(ctype_of(right))
        if op in _COMPARE:
            if ts.is_arith(lct) and ts.is_arith(rct):
                common = ts.usual_arithmetic(lct, rct)
                left, right = self.convert(left, common), self.convert(right, common)
            return set_ctype(ir.BinOp(op, left, right), ts.INT)
        if op in ("add", "sub") and (ts.is_pointerish(lct) or ts.is_pointerish(rct)):
            if op == "sub" and ts.is_pointerish(lct) and ts.is_pointerish(rct):
                return set_ctype(ir.BinOp(op, left, right), ts.LONG)
            ptr = lct if ts.is_pointerish(lct) else rct
            return set_ctype(ir.BinOp(op, left, right), ptr)
        if op in ("shl", "shr"):
            ct = ts.promote(lct) if isinstance(lct, ts.Scalar) else ts.INT
            return set_ctype(ir.BinOp(op, left, right), ct)
        if (ts.is_arith(lct) or lct is None) and (ts.is_arith(rct) or rct is None):
            common = ts.usual_arithmetic(lct, rct)
            left, right = self.convert(left, common), self.convert(right, common)
            return set_ctype(ir.BinOp(op, left, right), common)
        return set_ctype(ir.BinOp(op, left, right), lct if lct is not None else rct)

    def _TernaryOp(self, node: c_ast.TernaryOp, fx: Effects) -> ir.Expr:
        cond = self.condition(node.cond, fx)
        then = self.rvalue(node.iftrue, fx)
        orelse = self.rvalue(node.iffalse, fx)
        tct, ect = ts.decay(ctype_of(then)), ts.decay(ctype_of(orelse))
        ct: ts.CType | None
        if ts.is_arith(tct) and ts.is_arith(ect):
            ct = ts.usual_arithmetic(tct, ect)
            then, orelse = self.convert(then, ct), self.convert(orelse, ct)
        else:
            ct = tct if ts.is_pointerish(tct) else ect
        return set_ctype(ir.Ternary(cond, then, orelse), ct)

    def _Cast(self, node: c_ast.Cast, fx: Effects) -> ir.Expr:
        ct = self.ctx.types.convert(node.to_type)
        operand = self.rvalue(node.expr, fx)
        if isinstance(operand, ir.Const) and ts.is_arith(ct) and not isinstance(operand.value, str):
            return set_ctype(consteval.convert_const(operand, ts.ir_type(ct)), ct)
        return set_ctype(ir.Cast(operand), ct)

    def _Assignment(self, node: c_ast.Assignment, fx: Effects) -> ir.Expr:
        stmt = self.assignment(node, fx)
        fx.pre.append(stmt)
        if isinstance(stmt, ir.Assign):
            return copy.deepcopy(stmt.target)
        if isinstance(stmt, ir.IO) and stmt.targets:
            return copy.deepcopy(stmt.targets[-1])
        return self.const(0, ts.INT)

    def assignment(self, node: c_ast.Assignment, fx: Effects) -> ir.Stmt:
        """The statement for `lvalue op= rvalue`; side effects of both sides go to fx."""
        target = self.lower(node.lvalue, fx)
        rv = node.rvalue
        if node.op == "=" and isinstance(rv, c_ast.FuncCall) and isinstance(rv.name, c_ast.ID) \
                and not self.user_defined(rv.name.name):
            kind = library.special_kind(rv.name.name)
            if kind is not None:
                args = self.call_args(rv, fx, None)
                if kind == "io":
                    return library.build_io(rv.name.name, args, self.ctx.loc, result=target)
                if kind == "stop":
                    return library.build_stop(rv.name.name, args, self.ctx.loc)
                return library.build_message(rv.name.name, args, self.ctx.loc, result=target)
        value = self.rvalue(rv, fx)
        if node.op != "=":
            op = BINOPS.get(node.op[:-1], "add")
            value = self.binary(op, copy.deepcopy(target), value)
        value = self.convert(value, ctype_of(target))
        return ir.Assign(target, value, loc=self.ctx.loc)

    def _ExprList(self, node: c_ast.ExprList, fx: Effects) -> ir.Expr:
        exprs = list(node.exprs or [])
        if not exprs:
            return self.const(0, ts.INT)
        for e in exprs[:-1]:
            fx.pre.extend(self.statement(e))
        return self.lower(exprs[-1], fx)

    def _Typename(self, node: c_ast.Typename, fx: Effects) -> ir.Expr:
        return self.const(0, self.ctx.types.convert(node))

    def _InitList(self, node: c_ast.InitList, fx: Effects) -> ir.Expr:
        return self.const(0, ts.INT)

    def _CompoundLiteral(self, node: c_ast.CompoundLiteral, fx: Effects) -> ir.Expr:
        ct = self.ctx.types.convert(node.type)
        for e in (node.init.exprs if node.init is not None else []):
            if not isinstance(e, (c_ast.InitList, c_ast.NamedInitializer)):
                self.lower(e, fx)
        return set_ctype(ir.Const(0), ct)

    # -------------------------------------------------------------------------------------------- calls
    def callee(self, node: c_ast.FuncCall) -> tuple[str, bool, ts.CType | None]:
        """(name as written, direct?, function type)."""
        fn = node.name
        if isinstance(fn, c_ast.ID):
            sym = self.ctx.symbols.get(fn.name)
            if sym is None:
                return fn.name, True, None
            if sym.kind == "func" or isinstance(sym.ctype, ts.Func):
                return fn.name, True, sym.ctype
            ct: ts.CType | None = sym.ctype
            target = ts.element(ct) if isinstance(ct, ts.Pointer) else ct
            return fn.name, False, target if isinstance(target, ts.Func) else None
        if isinstance(fn, c_ast.UnaryOp) and fn.op == "*" and isinstance(fn.expr, c_ast.ID):
            sym = self.ctx.symbols.get(fn.expr.name)
            ct = ts.element(sym.ctype) if sym is not None else None
            return fn.expr.name, False, ct if isinstance(ct, ts.Func) else None
        ct = ctype_of(self.lower_silent(fn))
        if isinstance(ct, ts.Pointer):
            ct = ct.target
        return c_text(fn), False, ct if isinstance(ct, ts.Func) else None

    def call_args(self, node: c_ast.FuncCall, fx: Effects, ftype: ts.CType | None) -> list[ir.Expr]:
        """The lowered arguments of a call, converted to the prototype's arithmetic parameter types."""
        if ftype is None and isinstance(node.name, c_ast.ID):
            sym = self.ctx.symbols.get(node.name.name)
            ftype = sym.ctype if sym is not None else None
        params = ftype.params if isinstance(ftype, ts.Func) else []
        args = []
        for i, a in enumerate(node.args.exprs if node.args is not None else []):
            e = self.rvalue(a, fx)
            if i < len(params) and ts.is_arith(params[i]):
                e = self.convert(e, params[i])
            args.append(e)
        return args

    def _FuncCall(self, node: c_ast.FuncCall, fx: Effects) -> ir.Expr:
        name, direct, ftype = self.callee(node)
        args = self.call_args(node, fx, ftype)
        ret = ftype.ret if isinstance(ftype, ts.Func) else ts.INT
        if direct and not self.user_defined(name):
            if name in POW_NAMES and len(args) == 2:
                return set_ctype(ir.BinOp("pow", args[0], args[1]), ret)
            generic = intrinsic_name(name)
            if generic is not None:
                return set_ctype(ir.FuncCall(generic, args, intrinsic=True), ret)
            kind = library.special_kind(name)
            if kind == "io":
                temp = self.ctx.new_temp("io", ts.ir_type(ret))
                result = set_ctype(ir.Var(temp), ret)
                fx.pre.append(library.build_io(name, args, self.ctx.loc, result=copy.deepcopy(result)))
                return result
            if kind == "stop":
                fx.pre.append(library.build_stop(name, args, self.ctx.loc))
                return self.const(0, ts.INT)
            if kind == "mpi":
                if library.returns_value(name):  # pvm_gsize, pvm_joingroup, ...: the value is the point
                    temp = self.ctx.new_temp("mpi", ts.ir_type(ret))
                    result = set_ctype(ir.Var(temp), ret)
                    fx.pre.append(library.build_message(name, args, self.ctx.loc, result=copy.deepcopy(result)))
                    return result
                fx.pre.append(library.build_message(name, args, self.ctx.loc))
                return self.const(0, ts.INT)
        return set_ctype(ir.FuncCall(name, args, intrinsic=False, indirect=not direct), ret)

    # ------------------------------------------------------------------------------ expression statements
    def statement(self, node: c_ast.Node) -> list[ir.Stmt]:
        """An expression evaluated for its side effects, as IR statements."""
        fx = Effects()
        main: list[ir.Stmt] = []
        if isinstance(node, c_ast.Assignment):
            main.append(self.assignment(node, fx))
        elif isinstance(node, c_ast.UnaryOp) and node.op in ("++", "--", "p++", "p--"):
            target = self.lower(node.expr, fx)
            main.append(self.increment(target, node.op))
        elif isinstance(node, c_ast.ExprList):
            out: list[ir.Stmt] = []
            for e in node.exprs or []:
                out.extend(self.statement(e))
            return out
        elif isinstance(node, c_ast.Cast) and isinstance(node.expr, (c_ast.FuncCall, c_ast.Assignment,
                                                                     c_ast.UnaryOp, c_ast.ExprList)):
            return self.statement(node.expr)
        elif isinstance(node, c_ast.FuncCall):
            main.extend(self.call_statement(node, fx))
        else:
            self.lower(node, fx)  # the value is discarded; its side effects stay
        return fx.pre + main + fx.post

    def call_statement(self, node: c_ast.FuncCall, fx: Effects) -> list[ir.Stmt]:
        """A call used as a statement: I/O, exit or message-passing nodes for library calls, else a CallStmt."""
        name, direct, ftype = self.callee(node)
        args = self.call_args(node, fx, ftype)
        loc = self.ctx.loc
        if direct and not self.user_defined(name):
            kind = library.special_kind(name)
            if kind == "io":
                return [library.build_io(name, args, loc)]
            if kind == "stop":
                return [library.build_stop(name, args, loc)]
            if kind == "mpi":
                return [library.build_message(name, args, loc)]
            if name in POW_NAMES or intrinsic_name(name) is not None:
                return []  # a pure function whose value is discarded
        return [ir.CallStmt(name, args, indirect=not direct, loc=loc)]

    # ----------------------------------------------------------------------------------------- constants
    def dim_value(self, dim: c_ast.Node | None) -> int | None:
        """The value of a constant array dimension, else None."""
        if dim is None:
            return None
        c = consteval.fold(self.lower_silent(dim), self.ctx.const_lookup)
        return c.value if c is not None and isinstance(c.value, int) else None


_INT_SUFFIX = re.compile(r"[uUlL]+$")
_FLOAT_SUFFIX = re.compile(r"[fFlL]$")


def parse_constant(ctype_name: str, text: str) -> ir.Expr:
    """A C literal as a typed Const."""
    if ctype_name == "string" or text.startswith('"') or text[:2] in ('L"', 'u"', 'U"', 'u8'):
        body = text[text.find('"') + 1:-1] if '"' in text else text
        return _string_const(body)
    if ctype_name == "char" or text.startswith("'") or text[:2] in ("L'", "u'", "U'"):
        return set_ctype(ir.Const(_char_value(text)), ts.INT)
    t = text
    try:
        is_hex = t.lower().startswith("0x")
        if not is_hex and any(ch in t for ch in ".eE") or (is_hex and "p" in t.lower()):
            suffix = ""
            if _FLOAT_SUFFIX.search(t) and not (is_hex and t[-1] in "fF" and "p" not in t.lower()):
                suffix = t[-1].lower()
                t = t[:-1]
            value = float.fromhex(t) if is_hex else float(t)
            ct = ts.FLOAT if suffix == "f" else (ts.Scalar("ldouble") if suffix == "l" else ts.DOUBLE)
            return set_ctype(ir.Const(value), ct)
        int_suffix = _INT_SUFFIX.search(t)
        digits = t[:int_suffix.start()] if int_suffix else t
        if digits.lower().startswith("0x"):
            value = int(digits, 16)
        elif digits.lower().startswith("0b"):
            value = int(digits, 2)
        elif len(digits) > 1 and digits.startswith("0"):
            value = int(digits, 8)
        else:
            value = int(digits)
        s = int_suffix.group(0).lower() if int_suffix else ""
        ct = ts.Scalar("longlong" if s.count("l") >= 2 else ("long" if "l" in s else "int"),
                       unsigned="u" in s)
        return set_ctype(ir.Const(value), ct)
    except ValueError:
        return set_ctype(ir.Const(0), ts.INT)


def _string_const(body: str) -> ir.Expr:
    e = set_ctype(ir.Const(body), ts.Array(ts.CHAR))
    e.type = "character"
    return e


def _char_value(text: str) -> int:
    body = text[text.find("'") + 1:-1]
    if not body:
        return 0
    if body[0] != "\\":
        return ord(body[0])
    rest = body[1:]
    if not rest:
        return 92
    if rest[0] in _ESCAPES and not rest[0].isdigit() or rest == "0":
        return _ESCAPES.get(rest[0], 0)
    try:
        if rest[0] == "x":
            return int(rest[1:], 16)
        if rest[0].isdigit():
            return int(rest, 8)
    except ValueError:
        pass
    return ord(rest[0])
