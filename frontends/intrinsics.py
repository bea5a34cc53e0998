"""Intrinsic functions shared by the frontends: every specific or generic name maps to one Fortran generic name.

Data flow: the Fortran frontend (frontends.fortran.exprs) and the C frontend look names up here while building
`FuncCall(intrinsic=True)` nodes, so that the cost counter sees one vocabulary ("SQRT", "ABS", ...) whatever the
source language spelled. Nothing here knows about parsing.

Result-type rules (`Intrinsic.rule`):
    "same"       the promoted type of the arguments (integer < real < double < complex)
    "real_of"    like "same" but a complex argument gives its real type (ABS, AIMAG, REAL of complex)
    "integer" / "real" / "double" / "complex" / "logical" / "character"   a fixed type
A specific name (DSQRT, AMAX1, IABS ...) fixes the result type by itself (`SPECIFIC[name] = (generic, type)`).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

_ORDER = {"integer": 0, "real": 1, "double": 2, "complex": 3}


@dataclass(frozen=True)
class Intrinsic:
    """A Fortran generic intrinsic: its result-type rule and its specific names."""
    generic: str
    rule: str
    specifics: dict[str, str | None] = field(default_factory=dict)  # specific name → fixed result type


def _i(generic: str, rule: str, **specifics: str | None) -> Intrinsic:
    return Intrinsic(generic, rule, dict(specifics))


TABLE: dict[str, Intrinsic] = {i.generic: i for i in [
    _i("SQRT", "same", DSQRT="double", CSQRT="complex", SQRT=None),
    _i("ABS", "real_of", IABS="integer", DABS="double", CABS="real"),
    _i("EXP", "same", DEXP="double", CEXP="complex"),
    _i("LOG", "same", ALOG="real", DLOG="double", CLOG="complex"),
    _i("LOG10", "same", ALOG10="real", DLOG10="double"),
    _i("SIN", "same", DSIN="double", CSIN="complex"),
    _i("COS", "same", DCOS="double", CCOS="complex"),
    _i("TAN", "same", DTAN="double"),
    _i("ASIN", "same", DASIN="double"),
    _i("ACOS", "same", DACOS="double"),
    _i("ATAN", "same", DATAN="double"),
    _i("ATAN2", "same", DATAN2="double"),
    _i("SINH", "same", DSINH="double"),
    _i("COSH", "same", DCOSH="double"),
    _i("TANH", "same", DTANH="double"),
    _i("MOD", "same", AMOD="real", DMOD="double"),
    _i("SIGN", "same", ISIGN="integer", DSIGN="double"),
    _i("DIM", "same", IDIM="integer", DDIM="double"),
    _i("MAX", "same", MAX0="integer", AMAX1="real", DMAX1="double", AMAX0="real", MAX1="integer"),
    _i("MIN", "same", MIN0="integer", AMIN1="real", DMIN1="double", AMIN0="real", MIN1="integer"),
    _i("INT", "integer", IFIX="integer", IDINT="integer", IINT="integer"),
    _i("NINT", "integer", IDNINT="integer"),
    _i("AINT", "same", DINT="double"),
    _i("ANINT", "same", DNINT="double"),
    _i("REAL", "real", FLOAT="real", SNGL="real"),
    _i("DBLE", "double", DFLOAT="double", DREAL="double"),
    _i("CMPLX", "complex", DCMPLX="complex"),
    _i("AIMAG", "real_of", DIMAG="double"),
    _i("CONJG", "same", DCONJG="complex"),
    _i("DPROD", "double"),
    _i("LEN", "integer"),
    _i("INDEX", "integer"),
    _i("ICHAR", "integer"),
    _i("CHAR", "character"),
    _i("LGE", "logical"), _i("LGT", "logical"), _i("LLE", "logical"), _i("LLT", "logical"),
    _i("LEN_TRIM", "integer"),
    # bit intrinsics (MIL-STD-1753, taken into Fortran 90; every Fortran 77 compiler has them): SPMD codes
    # form hypercube partners as IEOR(ME, 2**K)
    _i("IEOR", "integer"), _i("IAND", "integer"), _i("IOR", "integer"), _i("NOT", "integer"),
    _i("ISHFT", "integer"), _i("IBSET", "integer"), _i("IBCLR", "integer"), _i("BTEST", "logical"),
    # the model numbers of Fortran 90 (LAPACK's DLAMCH): constants of the argument's kind
    _i("EPSILON", "same"), _i("TINY", "same"), _i("HUGE", "same"),
    _i("RADIX", "integer"), _i("DIGITS", "integer"), _i("MINEXPONENT", "integer"), _i("MAXEXPONENT", "integer"),
    # Fortran 90: rounding to integers, and the kinds of the types (in LAPACK's constant expressions)
    _i("CEILING", "integer"), _i("FLOOR", "integer"), _i("KIND", "integer"), _i("SELECTED_REAL_KIND", "integer"),
]}

SPECIFIC: dict[str, tuple[str, str | None]] = {}
for _intr in TABLE.values():
    SPECIFIC[_intr.generic] = (_intr.generic, None)
    for _name, _ty in _intr.specifics.items():
        SPECIFIC[_name] = (_intr.generic, _ty)
# the specific name REAL is also the generic; FLOAT etc. above. DSQRT and friends fix their type.

# C math.h names onto the same generic names (float/long double variants included by the C frontend).
C_MATH: dict[str, str] = {
    "sqrt": "SQRT", "fabs": "ABS", "abs": "ABS", "labs": "ABS", "exp": "EXP", "log": "LOG", "log10": "LOG10",
    "sin": "SIN", "cos": "COS", "tan": "TAN", "asin": "ASIN", "acos": "ACOS", "atan": "ATAN", "atan2": "ATAN2",
    "sinh": "SINH", "cosh": "COSH", "tanh": "TANH", "fmod": "MOD", "copysign": "SIGN", "fdim": "DIM",
    "fmax": "MAX", "fmin": "MIN", "trunc": "AINT", "round": "ANINT", "lround": "NINT", "floor": "FLOOR",
    "ceil": "CEILING",
}


def is_intrinsic(name: str) -> bool:
    """Whether `name` is a Fortran 77 intrinsic function (specific or generic name)."""
    return name.upper() in SPECIFIC


def generic_name(name: str) -> str | None:
    """'DSQRT' → 'SQRT'; None when the name is no intrinsic."""
    entry = SPECIFIC.get(name.upper())
    return entry[0] if entry else None


def promote(types: Iterable[str]) -> str:
    """The Fortran arithmetic promotion of argument types (integer < real < double < complex)."""
    best = None
    for ty in types:
        if ty in _ORDER and (best is None or _ORDER[ty] > _ORDER[best]):
            best = ty
    return best or "unknown"


def result_type(name: str, arg_types: list[str]) -> str:
    """Result type of intrinsic `name` (generic or specific) applied to arguments of `arg_types`."""
    entry = SPECIFIC.get(name.upper())
    if entry is None:
        return "unknown"
    generic, fixed = entry
    if fixed is not None:
        return fixed
    rule = TABLE[generic].rule
    if rule == "same":
        if generic in ("CHAR",):
            return "character"
        return promote(arg_types) if arg_types else "real"
    if rule == "real_of":
        ty = promote(arg_types)
        if ty == "complex":
            return "real"  # complex is single precision here unless declared double complex
        return ty if ty != "unknown" else "real"
    return rule
