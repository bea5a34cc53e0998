"""C types: a small model of C's type system, its mapping onto IR type strings, sizes and conversions.

Data flow: `decls` and `exprs` turn pycparser type nodes into `CType` objects through `TypeTable`; every
lowered expression carries the `CType` it has in C (see `exprs.ctype_of`), from which its IR `type` string is
derived here (`ir_type`). Nothing here builds IR statements.

IR type conventions (sad.ir): char, short, int, long, long long, _Bool, enums, unsigned → "integer"; float →
"real"; double and long double → "double"; any _Complex → "complex"; pointers → "pointer"; arrays → the
element type; void → "void"; structs/unions → "unknown"; functions → their return type.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeGuard

from pycparser import c_ast


@dataclass
class CType:
    """Base class of the C type model."""


@dataclass
class Scalar(CType):
    """An arithmetic or void type. kind: void | bool | char | short | int | long | longlong | float | double |
    ldouble; complex marks _Complex (kind is then its real type)."""
    kind: str = "int"
    complex: bool = False
    unsigned: bool = False


@dataclass
class Pointer(CType):
    """A C pointer type."""
    target: CType = field(default_factory=Scalar)


@dataclass
class Array(CType):
    """A C array type with its (possibly absent) dimension expression."""
    elem: CType = field(default_factory=Scalar)
    dim: c_ast.Node | None = None  # the C dimension expression, None for []


@dataclass
class Struct(CType):
    """A C struct or union type, complete when its fields are known."""
    tag: str | None = None
    union: bool = False
    fields: dict[str, CType] | None = None  # None: incomplete (resolved by tag through TypeTable)


@dataclass
class Func(CType):
    """A C function type: return type, parameter types, variadic or not."""
    ret: CType = field(default_factory=Scalar)
    params: list[CType] = field(default_factory=list)
    variadic: bool = False


INT = Scalar("int")
LONG = Scalar("long")
DOUBLE = Scalar("double")
FLOAT = Scalar("float")
CHAR = Scalar("char")
VOID = Scalar("void")
SIZE_T = Scalar("long", unsigned=True)

_SIZES = {"void": 1, "bool": 1, "char": 1, "short": 2, "int": 4, "long": 8, "longlong": 8, "float": 4,
          "double": 8, "ldouble": 16}
_INTEGER_KINDS = {"bool", "char", "short", "int", "long", "longlong"}
_RANK = {"bool": 0, "char": 1, "short": 2, "int": 3, "long": 4, "longlong": 5, "float": 6, "double": 7,
         "ldouble": 8}


def ir_type(t: CType | None) -> str:
    """The IR type string of a C type."""
    if t is None:
        return "unknown"
    if isinstance(t, Scalar):
        if t.complex:
            return "complex"
        if t.kind == "void":
            return "void"
        if t.kind in _INTEGER_KINDS:
            return "integer"
        return "real" if t.kind == "float" else "double"
    if isinstance(t, Pointer):
        return "pointer"
    if isinstance(t, Array):
        return ir_type(t.elem)
    if isinstance(t, Func):
        return ir_type(t.ret)
    return "unknown"


def is_arith(t: CType | None) -> TypeGuard[Scalar]:
    """Whether the type is arithmetic (an integer, floating or complex scalar)."""
    return isinstance(t, Scalar) and t.kind != "void"


def is_integer(t: CType | None) -> bool:
    """Whether the type is an integer scalar."""
    return isinstance(t, Scalar) and not t.complex and t.kind in _INTEGER_KINDS


def is_pointerish(t: CType | None) -> bool:
    """Whether the type is a pointer or an array (subscripts and dereferences apply)."""
    return isinstance(t, (Pointer, Array))


def element(t: CType | None) -> CType | None:
    """The type one subscript or dereference yields."""
    if isinstance(t, Pointer):
        return t.target
    if isinstance(t, Array):
        return t.elem
    return None


def decay(t: CType | None) -> CType | None:
    """Array-to-pointer and function-to-pointer conversion of an rvalue."""
    if isinstance(t, Array):
        return Pointer(t.elem)
    if isinstance(t, Func):
        return Pointer(t)
    return t


def promote(t: Scalar) -> Scalar:
    """C's integer promotion: bool, char and short become int."""
    if t.kind in ("bool", "char", "short") and not t.complex:
        return INT
    return t


def usual_arithmetic(a: CType | None, b: CType | None) -> CType:
    """C's usual arithmetic conversions (complex-aware, unsignedness ignored beyond rank)."""
    if not is_arith(a) or not is_arith(b):
        return a if is_arith(a) else (b if is_arith(b) else INT)
    assert isinstance(a, Scalar) and isinstance(b, Scalar)
    a, b = promote(a), promote(b)
    kind = a.kind if _RANK[a.kind] >= _RANK[b.kind] else b.kind
    if kind in _INTEGER_KINDS and _RANK[kind] < _RANK["int"]:
        kind = "int"
    cplx = a.complex or b.complex
    if cplx and kind in _INTEGER_KINDS:
        kind = "double"
    return Scalar(kind, complex=cplx, unsigned=(a.unsigned or b.unsigned) and kind in _INTEGER_KINDS)


def sizeof(t: CType | None, table: TypeTable | None = None, dim_value=None) -> int:
    """A plausible size in bytes (LP64, no padding beyond 8-byte rounding of structs)."""
    if t is None:
        return 8
    if isinstance(t, Scalar):
        size = _SIZES.get(t.kind, 8)
        return size * 2 if t.complex else size
    if isinstance(t, (Pointer, Func)):
        return 8
    if isinstance(t, Array):
        n = dim_value(t.dim) if (dim_value is not None and t.dim is not None) else None
        return sizeof(t.elem, table, dim_value) * (n if isinstance(n, int) and n > 0 else 1)
    if isinstance(t, Struct):
        fields = t.fields
        if fields is None and table is not None and t.tag is not None:
            fields = table.struct_fields(t.tag)
        if not fields:
            return 8
        sizes = [sizeof(f, table, dim_value) for f in fields.values()]
        total = max(sizes) if t.union else sum(sizes)
        return (total + 7) // 8 * 8 if total > 4 else total
    return 8


class TypeTable:
    """Typedef names and struct/union/enum tags, in nested block scopes."""

    def __init__(self) -> None:
        self._typedefs: list[dict[str, CType]] = [{}]
        self._tags: list[dict[str, Struct]] = [{}]

    def push(self) -> None:
        """Open a block scope for typedefs and struct tags."""
        self._typedefs.append({})
        self._tags.append({})

    def pop(self) -> None:
        """Close the innermost typedef/tag scope (the file scope stays)."""
        if len(self._typedefs) > 1:
            self._typedefs.pop()
            self._tags.pop()

    def add_typedef(self, name: str, t: CType) -> None:
        """Declare typedef `name` in the innermost scope."""
        self._typedefs[-1][name] = t

    def typedef(self, name: str) -> CType | None:
        """The type typedef `name` stands for, innermost scope first, or None."""
        for scope in reversed(self._typedefs):
            if name in scope:
                return scope[name]
        return None

    def struct_fields(self, tag: str) -> dict[str, CType] | None:
        """The fields of struct/union `tag` if a complete definition is visible, else None."""
        for scope in reversed(self._tags):
            if tag in scope and scope[tag].fields is not None:
                return scope[tag].fields
        return None

    def field_type(self, t: CType | None, name: str) -> CType | None:
        """The type of member `name` of struct type t (or of what t points to)."""
        if isinstance(t, (Pointer, Array)):
            t = element(t)
        if not isinstance(t, Struct):
            return None
        fields = t.fields if t.fields is not None else (self.struct_fields(t.tag) if t.tag else None)
        return (fields or {}).get(name)

    # ------------------------------------------------------------------------------ pycparser → CType
    def convert(self, node: c_ast.Node | None) -> CType:
        """The CType of a pycparser type node (TypeDecl, PtrDecl, ArrayDecl, FuncDecl, Typename, ...)."""
        if node is None:
            return INT
        if isinstance(node, (c_ast.Typename, c_ast.Decl)):
            return self.convert(node.type)
        if isinstance(node, c_ast.TypeDecl):
            return self.convert(node.type)
        if isinstance(node, c_ast.PtrDecl):
            return Pointer(self.convert(node.type))
        if isinstance(node, c_ast.ArrayDecl):
            return Array(self.convert(node.type), node.dim)
        if isinstance(node, c_ast.FuncDecl):
            params: list[CType] = []
            variadic = False
            for p in (node.args.params if node.args is not None else []):
                if isinstance(p, c_ast.EllipsisParam):
                    variadic = True
                elif isinstance(p, (c_ast.Decl, c_ast.Typename)):
                    pt = self.convert(p.type)
                    if not (isinstance(pt, Scalar) and pt.kind == "void" and p.name is None):
                        params.append(decay(pt) or pt)
                # an ID param (K&R identifier list) gets its type from the declaration list
            return Func(self.convert(node.type), params, variadic)
        if isinstance(node, c_ast.IdentifierType):
            return self._identifier_type(node.names)
        if isinstance(node, (c_ast.Struct, c_ast.Union)):
            return self._struct(node)
        if isinstance(node, c_ast.Enum):
            return INT
        return INT

    def _identifier_type(self, names: list[str]) -> CType:
        words = [n for n in names if n not in ("signed", "const", "volatile")]
        unsigned = "unsigned" in words
        words = [w for w in words if w != "unsigned"]
        cplx = "_Complex" in words or "complex" in words
        words = [w for w in words if w not in ("_Complex", "complex", "_Imaginary")]
        if not words:
            return Scalar("double" if cplx else "int", complex=cplx, unsigned=unsigned)
        if len(words) == 1 and words[0] not in _BASE_WORDS:
            found = self.typedef(words[0])
            return found if found is not None else INT
        n_long = words.count("long")
        if "double" in words:
            kind = "ldouble" if n_long else "double"
        elif "float" in words:
            kind = "float"
        elif "char" in words:
            kind = "char"
        elif "short" in words:
            kind = "short"
        elif "_Bool" in words:
            kind = "bool"
        elif "void" in words:
            kind = "void"
        elif n_long >= 2 or "__int128" in words:
            kind = "longlong"
        elif n_long == 1:
            kind = "long"
        else:
            kind = "int"
        return Scalar(kind, complex=cplx, unsigned=unsigned)

    def _struct(self, node: c_ast.Node) -> Struct:
        union = isinstance(node, c_ast.Union)
        if node.decls is None:
            return Struct(node.name, union, None)
        fields: dict[str, CType] = {}
        st = Struct(node.name, union, fields)
        if node.name:
            self._tags[-1][node.name] = st  # before the fields: self-referential structs
        for d in node.decls:
            if isinstance(d, c_ast.Decl):
                if d.name:
                    fields[d.name] = self.convert(d.type)
                elif isinstance(d.type, (c_ast.Struct, c_ast.Union)):  # anonymous member struct
                    inner = self._struct(d.type)
                    fields.update(inner.fields or {})
        return st


_BASE_WORDS = {"void", "char", "short", "int", "long", "float", "double", "_Bool", "__int128"}
