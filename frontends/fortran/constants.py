"""Constant expressions of Fortran 90: kind values, intrinsic inquiries, PARAMETER values folded to constants.

Data flow: frontends.fortran.decls and .exprs ask `kind_value` what a kind parameter (`REAL(WP)`, `0.0_WP`)
means; frontends.fortran.lower and .modules ask `parameter_value` for a named constant whose expression calls
intrinsics (`TBIG = REAL(RADIX(0._WP), WP)**FLOOR(...)`): the compiler evaluates such expressions when it
compiles (Fortran 2008, 7.1.12 constant expressions), and so does sad, once, here, so that the analysis sees
the number. Arithmetic is frontends.c.consteval's; this module adds the names and the intrinsics.

Kinds are gfortran's: KIND(1.0) = 4 (IEEE 754 binary32, the IR's "real"), KIND(1.D0) = 8 (binary64,
"double"). The model numbers of a real kind (Fortran 2008, 13.4 and 13.7: RADIX, DIGITS, MINEXPONENT,
MAXEXPONENT, and EPSILON = RADIX**(1-DIGITS), TINY = RADIX**(MINEXPONENT-1), HUGE =
(1-RADIX**-DIGITS)*RADIX**MAXEXPONENT) are those of IEEE 754-2008 (Table 3.5: binary32 has p = 24,
emax = 127; binary64 p = 53, emax = 1023; Fortran's exponents are one more than IEEE's).
"""
from __future__ import annotations

import math
import struct
from collections.abc import Callable
from typing import Any

from sad.ir import Const, Expr, FuncCall, Loc

from ..c.consteval import convert_const, fold
from .symbols import Scope

# (RADIX, DIGITS, MINEXPONENT, MAXEXPONENT) of the real kinds
MODEL = {"real": (2, 24, -125, 128), "double": (2, 53, -1021, 1024)}
KIND_OF_TYPE = {"real": 4, "double": 8, "integer": 4, "logical": 4, "complex": 4, "character": 1}
REAL_TYPE_OF_KIND = {4: "real", 8: "double"}


def model_number(name: str, ty: str) -> float | int | None:
    """An inquiry intrinsic's value for an argument of IR type `ty` (None for an integer's or other)."""
    if ty not in MODEL:
        return None
    radix, digits, emin, emax = MODEL[ty]
    values: dict[str, float | int] = {
        "RADIX": radix, "DIGITS": digits, "MINEXPONENT": emin, "MAXEXPONENT": emax,
        "EPSILON": math.ldexp(1.0, 1 - digits), "TINY": math.ldexp(1.0, emin - 1),
        "HUGE": math.ldexp(1.0 - math.ldexp(1.0, -digits), emax)}  # radix 2: ldexp is exact
    return values.get(name)


def kind_value(kind: Any, scope: Scope, loc: Loc) -> int | None:
    """The value of a kind parameter as written (`8`, `WP`, an fparser node), None when not constant."""
    if kind is None:
        return None
    text = str(kind).strip().upper()
    if text.isdigit():
        return int(text)
    if isinstance(kind, str) or type(kind).__name__ == "Name":
        found = parameter_value(scope, text, loc)
    else:  # an expression: REAL(KIND(1.D0)), REAL(SELECTED_REAL_KIND(15))
        expr = _lowered(kind, scope, loc)
        found = fold_expr(expr, scope, loc) if expr is not None else None
    return found.value if found is not None and isinstance(found.value, int) else None


def parameter_value(scope: Scope, name: str, loc: Loc, depth: int = 0) -> Const | None:
    """The value of the named constant `name` of `scope`, folded; None when it is none or not constant."""
    sym = scope.symbols.get(name)
    if sym is None or sym.storage != "parameter" or sym.value is None or depth > 50:
        return None
    expr = sym.value if isinstance(sym.value, Expr) else _lowered(sym.value, scope, loc)
    if expr is None:
        return None
    found = fold_expr(expr, scope, loc, depth + 1)
    if found is None:
        return None
    return _fit(found, scope.type_of(name))


def fold_expr(expr: Expr, scope: Scope, loc: Loc, depth: int = 0) -> Const | None:
    """The value of a lowered constant expression over literals, named constants and intrinsics."""
    return fold(expr, lambda n: parameter_value(scope, n, loc, depth + 1), calls=intrinsic_value)


def calls_intrinsic(expr: Expr) -> bool:
    """Whether an expression calls an intrinsic function (what the compiler, not the analysis, evaluates)."""
    if isinstance(expr, FuncCall) and expr.intrinsic:
        return True
    return any(calls_intrinsic(child) for child in _children(expr))


def _children(expr: Expr) -> list[Expr]:
    out = []
    for value in vars(expr).values():
        if isinstance(value, Expr):
            out.append(value)
        elif isinstance(value, list):
            out.extend(v for v in value if isinstance(v, Expr))
    return out


def _lowered(node: Any, scope: Scope, loc: Loc) -> Expr | None:
    from .exprs import ExprBuilder, Unsupported
    try:
        return ExprBuilder(scope, loc).expr(node)
    except Unsupported:
        return None


def _fit(value: Const, ty: str) -> Const:
    """A constant stored with the type of its name: a REAL one rounded to binary32."""
    out = convert_const(value, ty) if ty not in ("unknown", "character", "logical") else value
    if out.type == "real" and isinstance(out.value, float):
        try:
            out = Const(struct.unpack("f", struct.pack("f", out.value))[0], type="real")
        except (OverflowError, struct.error):
            return value
    return out


_ELEMENTAL: dict[str, Callable[..., Any]] = {
    "ABS": abs, "SQRT": math.sqrt, "EXP": math.exp, "LOG": math.log, "LOG10": math.log10, "CEILING": math.ceil,
    "FLOOR": math.floor, "INT": int, "AINT": math.trunc, "REAL": float, "DBLE": float, "MAX": max, "MIN": min}


def intrinsic_value(call: FuncCall, args: list[Const | None]) -> Const | None:
    """The value of an intrinsic call (its arguments folded, None where one is not constant): an inquiry
    needs only its argument's type, an elemental function constant arguments; None for one not evaluated."""
    if not call.intrinsic:
        return None
    name = call.name
    if name == "KIND" and call.args:
        kind = KIND_OF_TYPE.get(call.args[0].type)
        return Const(kind, type="integer") if kind is not None else None
    if call.args:
        model = model_number(name, call.args[0].type)
        if model is not None:
            return Const(model, type=call.type)
    values: list[int | float] = [a.value for a in args
                                 if a is not None and isinstance(a.value, (int, float))]
    if not values or len(values) < len(args):
        return None
    if name == "SELECTED_REAL_KIND":  # gfortran: binary32 up to 6 decimal digits, binary64 up to 15
        return Const(4 if values[0] <= 6 else 8 if values[0] <= 15 else -1, type="integer")
    if name == "NINT":  # to the nearest integer, halves away from zero
        return Const(int(math.copysign(math.floor(abs(values[0]) + 0.5), values[0])), type="integer")
    function = _ELEMENTAL.get(name)
    if function is None:
        return None
    return convert_const(Const(function(*values), type=call.type), call.type)
