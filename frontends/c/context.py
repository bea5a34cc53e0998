"""Shared state of one translation unit's lowering: symbols in scopes, types, the procedure being built.

Data flow: `unit.lower_unit` creates one `UnitContext` per file; `decls`, `exprs` and `stmts` read and write
it while they walk pycparser's AST. Every lowered IR expression carries its C type in its declared
`source_type` field (frontend-private: not compared, printed or serialized): `set_ctype` / `ctype_of`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from sad import ir

from . import typesys as ts
from .preprocess import is_sad_header, unescape


def set_ctype(expr: ir.Expr, ct: ts.CType | None) -> ir.Expr:
    """Attach the C type to an IR expression and set its IR type from it."""
    expr.source_type = ct
    expr.type = ts.ir_type(ts.decay(ct) if isinstance(ct, ts.Func) else ct) if ct is not None else expr.type
    return expr


def ctype_of(expr: ir.Expr | None) -> ts.CType | None:
    """The C type attached to an IR expression (None for an expression without one)."""
    if expr is None:
        return None
    ct = expr.source_type
    if ct is not None:
        return ct
    return {"integer": ts.INT, "real": ts.FLOAT, "double": ts.DOUBLE,
            "complex": ts.Scalar("double", complex=True), "pointer": ts.Pointer(ts.VOID)}.get(expr.type)


@dataclass
class Symbol:
    """A declared C name in a scope: variable, function, enum constant or parameter, with its C type."""
    name: str
    ctype: ts.CType
    kind: str = "var"  # var | func | enum | formal
    user: bool = True  # declared in the user's code (not in sad's headers)
    defined: bool = False  # functions: a body exists in this unit
    value: ir.Const | None = None  # enum constants


class Symbols:
    """Ordinary identifiers in nested block scopes (file scope at the bottom)."""

    def __init__(self) -> None:
        self._scopes: list[dict[str, Symbol]] = [{}]

    def push(self) -> None:
        """Open a block scope."""
        self._scopes.append({})

    def pop(self) -> None:
        """Close the innermost block scope (the file scope stays)."""
        if len(self._scopes) > 1:
            self._scopes.pop()

    def add(self, sym: Symbol) -> None:
        """Declare `sym` in the innermost scope."""
        self._scopes[-1][sym.name] = sym

    def add_global(self, sym: Symbol) -> None:
        """Declare `sym` at file scope (functions, whatever the current block)."""
        self._scopes[0][sym.name] = sym

    def get(self, name: str) -> Symbol | None:
        """The symbol `name` refers to from the innermost scope outwards, or None if undeclared."""
        for scope in reversed(self._scopes):
            if name in scope:
                return scope[name]
        return None

    @property
    def at_file_scope(self) -> bool:
        """True when no block scope is open (declarations here are globals)."""
        return len(self._scopes) == 1


@dataclass
class ProcState:
    """The procedure being lowered: its variables, label counters, break/continue targets."""
    name: str
    result: ts.CType
    variables: dict[str, ir.Variable] = field(default_factory=dict)
    counter: int = 0
    jumps: list[JumpFrame] = field(default_factory=list)
    temps: int = 0

    def new_id(self) -> int:
        """A fresh number, unique within the procedure (for generated labels)."""
        self.counter += 1
        return self.counter


@dataclass
class JumpFrame:
    """An enclosing loop or switch: where break (and for loops, continue) go."""
    kind: str  # loop | switch
    brk: str
    cont: str | None = None
    brk_used: bool = False
    cont_used: bool = False
    # switch only: targets in order, their case values, the default label
    targets: list[str] = field(default_factory=list)
    cases: list[list[ir.Expr]] = field(default_factory=list)
    default: str | None = None
    case_count: int = 0


class UnitContext:
    """Per-translation-unit state of the C lowering: types, scopes, globals, diagnostics, current procedure."""
    def __init__(self, main_file: str) -> None:
        self.main_file = main_file
        self.types = ts.TypeTable()
        self.symbols = Symbols()
        self.diagnostics: list[ir.Diagnostic] = []
        self.globals: dict[str, ir.Variable] = {}
        self.proc: ProcState | None = None
        self.loc = ir.Loc(main_file, 1)  # the statement being lowered (for synthetic nodes)
        self.defined_functions: set[str] = set()  # functions with a body in this unit (never intrinsic)

    def const_lookup(self, name: str) -> ir.Const | None:
        """The constant value of a const variable or enum constant in scope, for folding."""
        sym = self.symbols.get(name)
        if sym is None or sym.kind not in ("enum", "var", "formal"):
            return None
        for table in ((self.proc.variables if self.proc is not None else {}), self.globals):
            var = table.get(name)
            if var is not None:
                return var.value if isinstance(var.value, ir.Const) else None
        return getattr(sym, "value", None)

    # -------------------------------------------------------------------------------------- locations
    def loc_of(self, node: c_ast.Node | None) -> ir.Loc:
        """The IR location of a pycparser node (file and line), or the current location when it has none."""
        coord = getattr(node, "coord", None) if node is not None else None
        if coord is not None and getattr(coord, "line", None):
            file = coord.file or self.main_file
            if "\\" in file:
                file = unescape(file)
            return ir.Loc(file, int(coord.line))
        return self.loc

    def is_user(self, node: c_ast.Node | None) -> bool:
        """True unless the node comes from one of sad's own system headers."""
        coord = getattr(node, "coord", None)
        if coord is None or not coord.file:
            return True
        return not is_sad_header(coord.file)

    def diag(self, node: c_ast.Node | None, severity: str, msg: str) -> None:
        """Record a diagnostic of `severity` at the node's location."""
        self.diagnostics.append(ir.Diagnostic(self.loc_of(node), severity, msg))

    # -------------------------------------------------------------------------------------- variables
    def variable_table(self) -> dict[str, ir.Variable]:
        """The variables of the procedure being lowered, or the globals outside a procedure."""
        return self.proc.variables if self.proc is not None else self.globals

    def new_temp(self, prefix: str, ir_type: str) -> str:
        """An invented local (name starting with '.') holding a value the IR cannot express otherwise."""
        assert self.proc is not None
        self.proc.temps += 1
        name = f".{prefix}{self.proc.temps}"
        self.proc.variables[name] = ir.Variable(name, ir_type, storage="local", loc=self.loc)
        return name
