"""The symbol table of one program unit: implicit typing, declarations, and what a name denotes.

Data flow: frontends.fortran.decls fills a `Scope` from the unit's specification statements; the expression
builder (frontends.fortran.exprs) asks it for types and for what `NAME(...)` means (array element, statement
function, intrinsic or external function); frontends.fortran.lower turns it into `Procedure.variables` and
`Procedure.commons`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sad.ir import Expr, Loc, Variable

from .. import intrinsics

BLANK_COMMON = "//"


def default_implicit() -> dict[str, str | None]:
    """The F77 default rule: I-N integer, everything else real."""
    return {chr(c): ("integer" if "I" <= chr(c) <= "N" else "real") for c in range(ord("A"), ord("Z") + 1)}


@dataclass
class Symbol:
    """Everything declared about one name in a program unit, before it becomes an IR variable."""
    name: str
    type: str | None = None  # declared type; None → implicit
    dims: list[tuple[Any, Any]] | None = None  # fparser nodes until converted
    storage: str = "local"
    common_block: str | None = None
    value: Any = None  # PARAMETER expression (fparser node until converted)
    data: list[Expr] | None = None
    external: bool = False
    intrinsic: bool = False
    saved: bool = False
    loc: Loc | None = None
    length: int | None = None  # CHARACTER length as declared (None: assumed *(*) or an expression)
    elem_bytes: int | None = None  # bytes of a COMPLEX or INTEGER element as declared (decls.element_bytes)


@dataclass
class StatementFunction:
    """A statement function: name, dummy arguments and body, expanded where it is referenced."""
    name: str
    formals: list[str]
    body: Expr  # with formals as Var placeholders


@dataclass
class Scope:
    """The declarations of one program unit: IMPLICIT rules, symbols, COMMON blocks, statement functions."""
    implicit: dict[str, str | None] = field(default_factory=default_implicit)
    symbols: dict[str, Symbol] = field(default_factory=dict)
    commons: dict[str, list[str]] = field(default_factory=dict)
    stmt_functions: dict[str, StatementFunction] = field(default_factory=dict)
    formals: list[str] = field(default_factory=list)
    save_all: bool = False
    unit_name: str = ""
    function_name: str | None = None
    result_name: str | None = None  # a function's RESULT(Y) variable: the function's value, named so inside
    host_locals: frozenset[str] = frozenset()  # variables of the host of an internal procedure (not seen)
    # procedures known here by a name that is not global: module and internal procedures (and renames by
    # USE), local name → the name they link by (LA_XISNAN_MP_DISNAN, HOST_IP_INNER)
    linkage: dict[str, str] = field(default_factory=dict)
    # generic names (a module's INTERFACE LA_ISNAN) → their specifics: (linkage, argument types, result type)
    generics: dict[str, list[tuple[str, list[str], str | None]]] = field(default_factory=dict)

    def canonical(self, name: str) -> str:
        """The name a symbol is kept under: a function's RESULT variable is the function's value."""
        return self.function_name if name == self.result_name and self.function_name else name

    def symbol(self, name: str, loc: Loc | None = None) -> Symbol:
        """The scope's symbol for `name`, created on first mention (the first location is kept)."""
        name = self.canonical(name)
        sym = self.symbols.get(name)
        if sym is None:
            sym = self.symbols[name] = Symbol(name, loc=loc)
        elif sym.loc is None:
            sym.loc = loc
        return sym

    def type_of(self, name: str) -> str:
        """The declared type of `name`, else its implicit type by first letter, else "unknown"."""
        name = self.canonical(name)
        sym = self.symbols.get(name)
        if sym is not None and sym.type:
            return sym.type
        if name in self.stmt_functions and name in self.symbols and self.symbols[name].type:
            return self.symbols[name].type or "unknown"
        return self.implicit.get(name[:1].upper()) or "unknown"

    def is_array(self, name: str) -> bool:
        """True when `name` is declared with dimensions."""
        name = self.canonical(name)
        sym = self.symbols.get(name)
        return sym is not None and sym.dims is not None

    def is_intrinsic_ref(self, name: str) -> bool:
        """An intrinsic name not declared otherwise (no dims, not EXTERNAL, not a formal or statement fn)."""
        name = self.canonical(name)
        sym = self.symbols.get(name)
        if sym is not None and (sym.external or sym.dims is not None or sym.storage in ("formal", "parameter")):
            return False
        if name in self.stmt_functions:
            return False
        return intrinsics.is_intrinsic(name)

    def note_reference(self, name: str, loc: Loc, storage: str | None = None) -> None:
        """Record an implicitly declared name (first use) so that Procedure.variables lists every name."""
        name = self.canonical(name)
        sym = self.symbol(name, loc)
        if storage and sym.storage == "local" and sym.dims is None and sym.common_block is None:
            sym.storage = storage

    def variable(self, sym: Symbol, dims: list[tuple[Expr | None, Expr | None]] | None,
                 value: Expr | None) -> Variable:
        """The IR variable for a symbol; locals that are SAVEd or DATA-initialised become static."""
        storage = sym.storage
        if storage == "local" and (sym.saved or self.save_all):
            storage = "static"
        if storage == "local" and sym.data is not None:
            storage = "static"
        return Variable(sym.name, self.type_of(sym.name), dims=dims, storage=storage,
                        common_block=sym.common_block, value=value, data=sym.data, loc=sym.loc,
                        length=sym.length if sym.type == "character" else None,
                        elem_bytes=sym.elem_bytes if sym.type in ("complex", "integer") else None)
