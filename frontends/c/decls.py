"""C declarations → IR Variables (with types, array dims, storage, values and initial data).

Data flow: `unit` (file scope) and `stmts` (block scope) pass pycparser Decl/Typedef nodes here; symbols and
types are recorded in the `UnitContext`; user variables land in the procedure's `variables` or in the
program's `globals`; a block-scope initializer of an automatic scalar comes back as an Assign statement.

Conventions:
- storage: "formal", "local", "static" (block or file static), "global" (file scope, extern included),
  "const" for const-qualified objects with constant initializers (value = the folded Const for scalars,
  data = the values for arrays); enum constants are "const" integers with their value.
- dims: one (lo, hi) per array dimension, lo = Const(0), hi = dim - 1 (folded when constant), hi None for
  `[]` (or the initializer's length when it has one).
- declarations from sad's own headers only make symbols (types of library functions), never Variables.
- aggregate initializers of automatic arrays are recorded as `data`, not as statements.
"""
from __future__ import annotations

from pycparser import c_ast

from sad import ir

from . import consteval
from . import typesys as ts
from .context import Symbol, UnitContext, set_ctype
from .exprs import Effects, ExprLowerer


def is_const_object(type_node: c_ast.Node | None) -> bool:
    """Whether the declared object itself (not what it points to) is const."""
    node = type_node
    while isinstance(node, c_ast.ArrayDecl):
        node = node.type
    if isinstance(node, c_ast.PtrDecl):
        return "const" in (node.quals or [])
    if isinstance(node, c_ast.TypeDecl):
        return "const" in (node.quals or [])
    return False


class DeclLowerer:
    """Lowers C declarations (typedefs, enums, variables, initializers, parameters) into IR variables."""
    def __init__(self, ctx: UnitContext, exprs: ExprLowerer) -> None:
        self.ctx = ctx
        self.ex = exprs

    # ------------------------------------------------------------------------------------------ types
    def typedef(self, node: c_ast.Typedef) -> None:
        """Register a typedef (and any enum constants its type declares)."""
        self.enums(node.type, self.ctx.is_user(node))
        self.ctx.types.add_typedef(node.name, self.ctx.types.convert(node.type))

    def enums(self, type_node: c_ast.Node | None, user: bool) -> None:
        """Register the enumerators of every enum defined inside a type node."""
        if type_node is None:
            return
        stack = [type_node]
        while stack:
            n = stack.pop()
            if isinstance(n, c_ast.Enum) and n.values is not None:
                self._enum(n, user)
                continue
            if isinstance(n, (c_ast.TypeDecl, c_ast.PtrDecl, c_ast.ArrayDecl, c_ast.Typename, c_ast.FuncDecl)):
                stack.append(n.type)
            elif isinstance(n, (c_ast.Struct, c_ast.Union)) and n.decls:
                stack.extend(d.type for d in n.decls if isinstance(d, c_ast.Decl))
            elif isinstance(n, c_ast.Decl):
                stack.append(n.type)

    def _enum(self, node: c_ast.Enum, user: bool) -> None:
        next_value = 0
        for e in node.values.enumerators or []:
            if e.value is not None:
                c = consteval.fold(self.ex.lower_silent(e.value), self.ctx.const_lookup)
                if c is not None and isinstance(c.value, int):
                    next_value = c.value
            value = ir.Const(next_value, type="integer")
            self.ctx.symbols.add(Symbol(e.name, ts.INT, kind="enum", user=user, value=value))
            if user:
                self.ctx.variable_table().setdefault(
                    e.name, ir.Variable(e.name, "integer", storage="const", value=value,
                                        loc=self.ctx.loc_of(e)))
            next_value += 1

    # ------------------------------------------------------------------------------------------ objects
    def declaration(self, decl: c_ast.Decl, file_scope: bool) -> list[ir.Stmt]:
        """Record one declaration; returns the statements its initializer executes (block scope only)."""
        user = self.ctx.is_user(decl)
        self.enums(decl.type, user)
        storage = decl.storage or []
        if decl.name is None:
            self.ctx.types.convert(decl.type)  # a struct/union/enum tag declaration
            return []
        ct = self.ctx.types.convert(decl.type)
        if "typedef" in storage:
            self.ctx.types.add_typedef(decl.name, ct)
            return []
        if isinstance(ct, ts.Func):
            old = self.ctx.symbols.get(decl.name)
            if old is None or old.kind != "func":
                self.ctx.symbols.add_global(Symbol(decl.name, ct, kind="func", user=user,
                                                   defined=decl.name in self.ctx.defined_functions))
            return []
        if isinstance(ct, ts.Array) and ct.dim is None and isinstance(decl.init, c_ast.InitList):
            ct = ts.Array(ct.elem, c_ast.Constant("int", str(len(decl.init.exprs or []))))
        self.ctx.symbols.add(Symbol(decl.name, ct, kind="var", user=user))
        if not user:
            return []
        if file_scope:
            kind = "static" if "static" in storage else "global"
        elif "extern" in storage:
            kind = "global"
        else:
            kind = "static" if "static" in storage else "local"
        var = self.variable(decl.name, ct, decl.type, kind, decl)
        table = self.ctx.globals if kind == "global" else self.ctx.variable_table()
        stmts: list[ir.Stmt] = []
        if decl.init is not None:
            stmts = self.initializer(var, ct, decl, automatic=(kind == "local"))
        if decl.name not in table or (table[decl.name].data is None and var.data is not None):
            table[decl.name] = var
        return stmts

    def variable(self, name: str, ct: ts.CType, type_node: c_ast.Node | None, storage: str,
                 node: c_ast.Node | None) -> ir.Variable:
        """The IR variable for a declared name of C type `ct` with the given storage class."""
        dims = self.dims(ct)
        vtype = ts.ir_type(ct)
        return ir.Variable(name, vtype, dims=dims or None, storage=storage, loc=self.ctx.loc_of(node),
                           elem_bytes=_element_bytes(ct, self.ctx.types))

    def dims(self, ct: ts.CType) -> list[tuple[ir.Expr | None, ir.Expr | None]]:
        """IR dimension bounds (0, extent-1) for each array level of `ct`; an unknown extent has no upper bound."""
        out: list[tuple[ir.Expr | None, ir.Expr | None]] = []
        while isinstance(ct, ts.Array):
            lo = ir.Const(0, type="integer")
            if ct.dim is None:
                out.append((lo, None))
            else:
                extent = self.ex.lower_silent(ct.dim)
                folded = consteval.fold(extent, self.ctx.const_lookup)
                if folded is not None and isinstance(folded.value, int):
                    out.append((lo, ir.Const(folded.value - 1, type="integer")))
                else:
                    out.append((lo, consteval.offset(extent, -1)))
            ct = ct.elem
        return out

    def initializer(self, var: ir.Variable, ct: ts.CType, decl: c_ast.Decl, automatic: bool) -> list[ir.Stmt]:
        """Attach an initializer to `var`: statics get data/values, automatics the assignment statements returned."""
        init = decl.init
        fx = Effects()
        elem = ct
        while isinstance(elem, ts.Array):
            elem = elem.elem
        if isinstance(init, c_ast.InitList) or isinstance(ct, ts.Array):
            values = [self.ex.convert(v, elem) for v in self.flatten(init, fx)]
            var.data = [consteval.fold(v, self.ctx.const_lookup) or v for v in values]
            if is_const_object(decl.type) and all(isinstance(v, ir.Const) for v in var.data):
                var.storage = "const"
            return fx.pre + fx.post if automatic else []
        value = self.ex.convert(self.ex.rvalue(init, fx), ct)
        folded = consteval.fold(value, self.ctx.const_lookup)
        if is_const_object(decl.type) and folded is not None and not isinstance(ct, ts.Struct):
            var.storage = "const"
            var.value = set_ctype(consteval.convert_const(folded, var.type), ct)
            return []
        if not automatic:
            var.data = [folded if folded is not None else value]
            return []
        self.ctx.loc = self.ctx.loc_of(decl)
        target = set_ctype(ir.Var(var.name), ct)
        return fx.pre + [ir.Assign(target, value, loc=self.ctx.loc_of(decl))] + fx.post

    def flatten(self, init: c_ast.Node | None, fx: Effects) -> list[ir.Expr]:
        """The scalar initial values of a (nested, possibly designated) initializer list, in order."""
        if init is None:
            return []
        if isinstance(init, c_ast.InitList):
            out: list[ir.Expr] = []
            for e in init.exprs or []:
                out.extend(self.flatten(e, fx))
            return out
        if isinstance(init, c_ast.NamedInitializer):
            return self.flatten(init.expr, fx)
        return [self.ex.rvalue(init, fx)]

    # ------------------------------------------------------------------------------------------ formals
    def formal(self, param: c_ast.Decl) -> str | None:
        """Declare a function parameter as a formal; returns its name, or None for an unnamed parameter."""
        if param.name is None:
            return None
        ct = self.ctx.types.convert(param.type)
        self.enums(param.type, True)
        self.ctx.symbols.add(Symbol(param.name, ct, kind="formal"))
        assert self.ctx.proc is not None
        self.ctx.proc.variables[param.name] = self.variable(param.name, ct, param.type, "formal", param)
        return param.name


def _element_bytes(ct: ts.CType, table: ts.TypeTable) -> int | None:
    """The bytes of one element a variable holds (itself, its array's elements, what it points to) where the IR
    type does not say them: C's integer kinds (char 1 to long 8, all "integer" in the IR), complex (8 or 16) and
    structs (``struct particle p[N]``: ``p[i].x`` is a double, but i steps over the 48-byte record, which is what
    the loop model's data traffic and address strides need); None for other types."""
    inner: ts.CType | None = ct
    while isinstance(inner, (ts.Array, ts.Pointer)):
        inner = ts.element(inner)
    if ts.is_integer(inner) or isinstance(inner, ts.Scalar) and inner.complex:
        return ts.sizeof(inner)
    if isinstance(inner, ts.Struct):
        return ts.sizeof(inner, table)
    return None
