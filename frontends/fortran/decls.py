"""Specification statements of one program unit into its `Scope`.

Data flow: frontends.fortran.lower hands every parsed specification statement (IMPLICIT, PARAMETER, type
declarations, DIMENSION, COMMON, DATA, EQUIVALENCE, SAVE, EXTERNAL, INTRINSIC) to `declare`; the filled Scope
is then used to type expressions (frontends.fortran.exprs) and becomes Procedure.variables / .commons.
"""
from __future__ import annotations

from typing import Any

from sad.ir import Const, Diagnostic, Expr, Loc

from .exprs import ExprBuilder, Unsupported, items_of, name_of, tname
from .symbols import BLANK_COMMON, Scope

MAX_DATA_REPEAT = 100_000


def type_of_spec(spec: Any, scope: Scope | None = None, loc: Loc | None = None) -> str:
    """Intrinsic_Type_Spec → IR type string (REAL*8, REAL(KIND(1.D0)), REAL(WP) with WP = 8 and DOUBLE
    PRECISION are "double"); `scope` gives the kind parameters' values."""
    base = str(spec.items[0]).upper().replace(" ", "")
    kind = _kind(spec.items[1], scope, loc) if len(spec.items) > 1 else None
    if base == "DOUBLEPRECISION":
        return "double"
    if base == "DOUBLECOMPLEX":
        return "complex"
    if base == "REAL":
        return "double" if kind in (8, 16) else "real"
    if base in ("INTEGER", "BYTE"):
        return "integer"
    if base == "COMPLEX":
        return "complex"
    if base == "LOGICAL":
        return "logical"
    if base == "CHARACTER":
        return "character"
    return "unknown"


def element_bytes(spec: Any, scope: Scope | None = None, loc: Loc | None = None) -> int | None:
    """Bytes of one element of a COMPLEX or INTEGER declaration where the IR type does not say them
    (COMPLEX*16, COMPLEX(KIND=8) and DOUBLE COMPLEX: 16; COMPLEX: 8; INTEGER*8: 8), None for the others."""
    base = str(spec.items[0]).upper().replace(" ", "")
    selector = spec.items[1] if len(spec.items) > 1 else None
    kind = _kind(selector, scope, loc)
    star = selector is not None and tname(selector) == "Kind_Selector" and str(selector.items[0]).strip() == "*"
    if base == "DOUBLECOMPLEX":
        return 16
    if base == "COMPLEX":
        return kind if star and kind else 2 * kind if kind else 8
    if base in ("INTEGER", "BYTE"):
        return 1 if base == "BYTE" else kind or 4
    return None


def _kind(selector: Any, scope: Scope | None, loc: Loc | None) -> int | None:
    if selector is None or tname(selector) != "Kind_Selector":
        return None
    for item in selector.items:
        text = str(item).strip()
        if text.isdigit():
            return int(text)
        if scope is not None and text not in ("(", ")", "*"):
            from .constants import kind_value
            return kind_value(item, scope, loc or Loc("", 0))
    return None


def declare(node: Any, scope: Scope, loc: Loc, diags: list[Diagnostic]) -> None:
    """Record one specification statement in `scope`."""
    handler = _HANDLERS.get(tname(node))
    if handler is not None:
        handler(node, scope, loc, diags)


def _implicit(node: Any, scope: Scope, loc: Loc, diags: list[Diagnostic]) -> None:
    spec_list = node.items[0]
    if isinstance(spec_list, str) or str(node).upper().replace(" ", "") == "IMPLICITNONE":
        for letter in scope.implicit:
            scope.implicit[letter] = None
        return
    for spec in items_of(spec_list):
        ty = type_of_spec(spec.items[0])
        for letters in items_of(spec.items[1]):
            lo = str(letters.items[0]).upper()
            hi = str(letters.items[1] or letters.items[0]).upper()
            for c in range(ord(lo), ord(hi) + 1):
                scope.implicit[chr(c)] = ty


def _parameter(node: Any, scope: Scope, loc: Loc, diags: list[Diagnostic]) -> None:
    for definition in items_of(node.items[1]):
        sym = scope.symbol(name_of(definition.items[0]), loc)
        sym.storage = "parameter"
        sym.value = definition.items[1]


def _type_decl(node: Any, scope: Scope, loc: Loc, diags: list[Diagnostic]) -> None:
    spec, attrs, entities = node.items
    if tname(spec) != "Intrinsic_Type_Spec":
        diags.append(Diagnostic(loc, "warning", f"unsupported type declaration: {node}"))
        return
    ty = type_of_spec(spec, scope, loc)
    if ty != "character" and len(spec.items) > 1 and tname(spec.items[1]) == "Kind_Selector" \
            and _kind(spec.items[1], scope, loc) is None:
        diags.append(Diagnostic(loc, "warning", f"kind {spec.items[1]} is not a constant sad can evaluate: "
                                                f"the declaration is taken as default {ty}"))
    attributes = _attributes(attrs, loc, diags)
    size = element_bytes(spec, scope, loc)
    for entity in items_of(entities):
        sym = scope.symbol(name_of(entity.items[0]), loc)
        sym.type = ty
        sym.elem_bytes = size
        if entity.items[1] is not None:
            sym.dims = array_spec(entity.items[1])
        elif "DIMENSION" in attributes:
            sym.dims = array_spec(attributes["DIMENSION"])
        _entity_attributes(sym, attributes, entity, scope, loc, diags)
        if ty == "character":  # `CHARACTER A, B*3`, `CHARACTER*6 D`, `CHARACTER*(*) C`
            sym.length = _char_length(entity.items[2] if len(entity.items) > 2 and entity.items[2] is not None
                                      else spec.items[1] if len(spec.items) > 1 else None)


# attributes of a Fortran 90 declaration that change nothing the analysis counts
_NEUTRAL_ATTRIBUTES = ("INTENT", "OPTIONAL", "PUBLIC", "PRIVATE", "TARGET", "VALUE", "CONTIGUOUS", "PROTECTED")


def _attributes(attrs: Any, loc: Loc, diags: list[Diagnostic]) -> dict[str, Any]:
    """The attributes of a `TYPE, attr, ... ::` declaration by name (DIMENSION's array spec as its value)."""
    out: dict[str, Any] = {}
    for attr in items_of(attrs):
        if tname(attr) == "Dimension_Attr_Spec":
            out["DIMENSION"] = attr.items[1]
            continue
        name = str(attr.items[0] if tname(attr) != "Attr_Spec" and attr.items else attr).upper().split("(")[0]
        if name in ("PARAMETER", "SAVE", "EXTERNAL", "INTRINSIC"):
            out[name] = True
        elif name not in _NEUTRAL_ATTRIBUTES:
            diags.append(Diagnostic(loc, "warning", f"attribute {name} is not modelled: the variables are "
                                                    f"analyzed as plain ones"))
    return out


def _entity_attributes(sym: Any, attributes: dict[str, Any], entity: Any, scope: Scope, loc: Loc,
                       diags: list[Diagnostic]) -> None:
    """PARAMETER, SAVE, EXTERNAL, INTRINSIC and an initial value (`:: X = 0`, which implies SAVE) of one
    declared name."""
    init = entity.items[3] if len(entity.items) > 3 and entity.items[3] is not None else None
    value = init.items[1] if init is not None else None
    if attributes.get("PARAMETER"):
        sym.storage, sym.value = "parameter", value
    elif value is not None:
        sym.saved = True
        try:
            sym.data = [ExprBuilder(scope, loc).expr(value)]
        except Unsupported as exc:
            diags.append(Diagnostic(loc, "warning", f"initial value of {sym.name} not understood: {exc}"))
    if attributes.get("SAVE"):
        sym.saved = True
    if attributes.get("EXTERNAL"):
        sym.external = True
        if sym.storage == "local":
            sym.storage = "function"
    if attributes.get("INTRINSIC"):
        sym.intrinsic = True


def _char_length(selector: Any) -> int | None:
    """A CHARACTER length selector's value: 1 when none is written, the number when it is a constant,
    None for `*(*)` (the actual argument's length) or an expression."""
    if selector is None:
        return 1
    text = str(selector).replace(" ", "").lstrip("*")
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    if text.upper().startswith("LEN="):
        text = text[4:]
    return int(text) if text.isdigit() else None


def array_spec(spec: Any) -> list[tuple[Any, Any]]:
    """fparser array spec → [(lo node or None, hi node or None)], None hi for an assumed size `*`."""
    kind = tname(spec)
    if kind == "Assumed_Size_Spec":
        dims = array_spec(spec.items[0]) if spec.items[0] is not None else []
        return dims + [(spec.items[1], None)]
    dims = []
    for item in items_of(spec):
        if tname(item) == "Explicit_Shape_Spec":
            dims.append((item.items[0], item.items[1]))
        else:  # assumed / deferred shape (F90): bounds unknown
            dims.append((None, None))
    return dims


def _dimension(node: Any, scope: Scope, loc: Loc, diags: list[Diagnostic]) -> None:
    for name, spec in node.items[0]:
        scope.symbol(name_of(name), loc).dims = array_spec(spec)


def _common(node: Any, scope: Scope, loc: Loc, diags: list[Diagnostic]) -> None:
    for block, objects in node.items[0]:
        block_name = name_of(block) if block is not None else BLANK_COMMON
        members = scope.commons.setdefault(block_name, [])
        for obj in items_of(objects):
            if tname(obj) == "Common_Block_Object":
                name = name_of(obj.items[0])
                if obj.items[1] is not None:
                    scope.symbol(name, loc).dims = array_spec(obj.items[1])
            else:
                name = name_of(obj)
            sym = scope.symbol(name, loc)
            sym.storage, sym.common_block = "common", block_name
            if name not in members:
                members.append(name)


def _save(node: Any, scope: Scope, loc: Loc, diags: list[Diagnostic]) -> None:
    entities = node.items[1] if len(node.items) > 1 else None
    if entities is None:
        scope.save_all = True
        return
    for item in items_of(entities):
        if tname(item) == "Name":
            scope.symbol(name_of(item), loc).saved = True


def _volatile(node: Any, scope: Scope, loc: Loc, diags: list[Diagnostic]) -> None:
    """VOLATILE (F2003, met in F77 libraries): the variables are declared; their values are not traced
    differently (a loop bound that is VOLATILE is rare)."""
    for item in items_of(node.items[1]):
        scope.note_reference(name_of(item), loc)


def _external(node: Any, scope: Scope, loc: Loc, diags: list[Diagnostic]) -> None:
    for item in items_of(node.items[1]):
        sym = scope.symbol(name_of(item), loc)
        sym.external = True
        if sym.storage == "local":
            sym.storage = "function"


def _intrinsic(node: Any, scope: Scope, loc: Loc, diags: list[Diagnostic]) -> None:
    for item in items_of(node.items[1]):
        scope.symbol(name_of(item), loc).intrinsic = True


def _equivalence(node: Any, scope: Scope, loc: Loc, diags: list[Diagnostic]) -> None:
    """Storage association has no IR form; the names are still declared."""
    for eq_set in items_of(node.items[1]):
        for obj in [eq_set.items[0]] + items_of(eq_set.items[1]):
            name = name_of(obj.items[0]) if tname(obj) == "Part_Ref" else name_of(obj)
            scope.symbol(name, loc)


def _data(node: Any, scope: Scope, loc: Loc, diags: list[Diagnostic]) -> None:
    builder = ExprBuilder(scope, loc)
    for data_set in items_of(node.items[0]) if tname(node.items[0]).endswith("_List") else node.items:
        objects, values = data_set.items
        try:
            flat = _data_values(values, builder, scope)
        except Unsupported as exc:
            diags.append(Diagnostic(loc, "warning", f"DATA values not understood: {exc}"))
            continue
        _distribute(items_of(objects), flat, scope, loc)


def _data_values(values: Any, builder: ExprBuilder, scope: Scope) -> list[Expr]:
    flat: list[Expr] = []
    for value in items_of(values):
        repeat = 1
        if tname(value) == "Data_Stmt_Value":
            if value.items[0] is not None:
                repeat = const_int(value.items[0], scope) or 1
            value = value.items[1]
        expr = builder.expr(value)
        flat.extend([expr] * min(repeat, MAX_DATA_REPEAT))
    return flat


def _distribute(objects: list[Any], values: list[Expr], scope: Scope, loc: Loc) -> None:
    pos = 0
    for i, obj in enumerate(objects):
        name, size = _data_target(obj, scope)
        if name is None:
            continue
        take = len(values) - pos if (size is None or i == len(objects) - 1) else size
        sym = scope.symbol(name, loc)
        sym.data = (sym.data or []) + values[pos:pos + take]
        pos += take


def _data_target(obj: Any, scope: Scope) -> tuple[str | None, int | None]:
    kind = tname(obj)
    if kind == "Name":
        name = name_of(obj)
        sym = scope.symbols.get(name)
        if sym is None or sym.dims is None:
            return name, 1
        size = 1
        for lo, hi in sym.dims:
            lo_v = const_int(lo, scope) if lo is not None else 1
            hi_v = const_int(hi, scope) if hi is not None else None
            if lo_v is None or hi_v is None:
                return name, None
            size *= max(0, hi_v - lo_v + 1)
        return name, size
    if kind in ("Part_Ref", "Array_Section", "Substring"):
        return name_of(obj.items[0]) if kind == "Part_Ref" else _data_target(obj.items[0], scope)[0], 1
    if kind == "Data_Implied_Do":
        inner = items_of(obj.items[0])
        target = _data_target(inner[0], scope)[0] if inner else None
        lo, hi = const_int(obj.items[2], scope), const_int(obj.items[3], scope)
        step = const_int(obj.items[4], scope) if obj.items[4] is not None else 1
        if lo is None or hi is None or not step:
            return target, None
        return target, max(0, (hi - lo + step) // step) * len(inner)
    return None, None


def const_int(node: Any, scope: Scope, depth: int = 0) -> int | None:
    """Evaluate an integer constant expression over literals and PARAMETER names (None if not constant)."""
    if node is None or depth > 50:
        return None
    kind = tname(node)
    if kind in ("Int_Literal_Constant", "Signed_Int_Literal_Constant"):
        return int(str(node.items[0]))
    if kind == "Name":
        sym = scope.symbols.get(name_of(node))
        if sym is not None and sym.storage == "parameter" and sym.value is not None and not isinstance(sym.value, Expr):
            return const_int(sym.value, scope, depth + 1)
        if sym is not None and isinstance(sym.value, Const) and isinstance(sym.value.value, int):
            return sym.value.value
        return None
    if kind == "Parenthesis":
        return const_int(node.items[1], scope, depth + 1)
    if len(node.items) == 2 and str(node.items[0]) in ("-", "+"):
        v = const_int(node.items[1], scope, depth + 1)
        return None if v is None else (-v if str(node.items[0]) == "-" else v)
    if len(node.items) == 3 and isinstance(node.items[1], str):
        a, b = const_int(node.items[0], scope, depth + 1), const_int(node.items[2], scope, depth + 1)
        if a is None or b is None:
            return None
        op = node.items[1].strip()
        try:
            return {"+": a + b, "-": a - b, "*": a * b}.get(op) if op != "/" else int(a / b)
        except ZeroDivisionError:
            return None
    return None


_HANDLERS = {
    "Implicit_Stmt": _implicit,
    "Parameter_Stmt": _parameter,
    "Type_Declaration_Stmt": _type_decl,
    "Dimension_Stmt": _dimension,
    "Common_Stmt": _common,
    "Save_Stmt": _save,
    "External_Stmt": _external,
    "Intrinsic_Stmt": _intrinsic,
    "Equivalence_Stmt": _equivalence,
    "Data_Stmt": _data,
    "Volatile_Stmt": _volatile,
}
