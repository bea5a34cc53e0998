"""math.h / complex.h / stdlib.h function names → the generic intrinsic names the IR uses (Fortran's).

Data flow: `exprs` asks `intrinsic_name(callee)` for every direct call; a hit becomes
`FuncCall(intrinsic=True)` with the generic name, a miss stays a user call. `pow` is not here: it lowers to
BinOp("pow") (see `POW_NAMES`). The shared table `frontends.intrinsics.C_MATH` is consulted first, so both
frontends use one vocabulary; the names it lacks (hyperbolic inverses, erf, cbrt, complex.h, ...) are added
here, with the nearest Fortran generic where there is one.
"""
from __future__ import annotations

POW_NAMES = frozenset({"pow", "powf", "powl", "cpow", "cpowf", "cpowl"})

# C base name (without the f/l suffix) → generic name.
_GENERIC = {
    "sqrt": "SQRT", "fabs": "ABS", "abs": "ABS", "labs": "ABS", "llabs": "ABS", "cabs": "ABS",
    "exp": "EXP", "log": "LOG", "log10": "LOG10", "sin": "SIN", "cos": "COS", "tan": "TAN",
    "asin": "ASIN", "acos": "ACOS", "atan": "ATAN", "atan2": "ATAN2", "sinh": "SINH", "cosh": "COSH",
    "tanh": "TANH", "asinh": "ASINH", "acosh": "ACOSH", "atanh": "ATANH",
    "fmod": "MOD", "floor": "FLOOR", "ceil": "CEILING", "fmin": "MIN", "fmax": "MAX",
    "trunc": "AINT", "round": "ANINT", "lround": "NINT", "llround": "NINT", "rint": "ANINT",
    "nearbyint": "ANINT", "lrint": "NINT", "llrint": "NINT",
    "copysign": "SIGN", "fdim": "DIM", "hypot": "HYPOT", "erf": "ERF", "erfc": "ERFC",
    "tgamma": "GAMMA", "lgamma": "LOG_GAMMA", "cbrt": "CBRT", "exp2": "EXP2", "log2": "LOG2",
    "expm1": "EXPM1", "log1p": "LOG1P", "fma": "FMA", "ldexp": "SCALE", "scalbn": "SCALE",
    "remainder": "MODULO", "nextafter": "NEAREST",
    "isnan": "ISNAN", "isinf": "ISINF", "isfinite": "ISFINITE",
    # complex.h
    "csqrt": "SQRT", "cexp": "EXP", "clog": "LOG", "csin": "SIN", "ccos": "COS", "ctan": "TAN",
    "creal": "REAL", "cimag": "AIMAG", "conj": "CONJG", "carg": "ARG",
}
# names that must not be suffix-stripped (their last letter is part of the name)
_NO_STRIP = frozenset({"labs", "llabs", "cabs", "fabs", "abs", "nearbyint", "rint", "lrint", "llrint", "round",
                       "lround", "llround", "fmod", "ceil", "log", "clog", "tgamma", "lgamma", "erf", "conj"})


try:  # the shared table wins where both know a name
    from ..intrinsics import C_MATH as _SHARED
    _GENERIC.update(_SHARED)
except ImportError:  # pragma: no cover - the shared table is optional
    pass


def intrinsic_name(c_name: str) -> str | None:
    """The generic intrinsic name of a C library function, or None."""
    if c_name in _GENERIC:
        return _GENERIC[c_name]
    if len(c_name) > 2 and c_name[-1] in "fl" and c_name not in _NO_STRIP:
        base = c_name[:-1]
        if base in _GENERIC:
            return _GENERIC[base]
    return None
