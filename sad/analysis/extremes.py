"""Min, Max and Piecewise built once per distinct argument tuple.

Data flow: the value backtracer (sad.analysis.values: MIN/MAX intrinsics; sad.analysis.conditional: guarded
reassignments) and parameter binding (sad.analysis.bindings, for every formula the mapper, the report and
the profiler bind) build these from arguments that repeat: md1's cell count Min(40, floor(BOXL/Min(RCUT,
BOXL/2))) is rebuilt for every bound, count and report row that mentions it. sympy's constructors compare
every pair of arguments (Min/Max factor their differences to find dominated ones; Piecewise folds its
conditions), which took a large share of an analysis, and sympy's own cache does not cover them. The
result is a function of the arguments alone (their symbols carry their assumptions), so the remembered
expression is the one sympy would build again.
"""
from __future__ import annotations

from functools import lru_cache

import sympy

_BUILT = (sympy.Min, sympy.Max, sympy.Piecewise)


def minimum(*args) -> sympy.Expr:
    """sympy.Min(*args)."""
    return build(sympy.Min, tuple(sympy.sympify(a) for a in args))


def maximum(*args) -> sympy.Expr:
    """sympy.Max(*args)."""
    return build(sympy.Max, tuple(sympy.sympify(a) for a in args))


def rebuild(func, args: tuple) -> sympy.Basic:
    """func(*args) for a node being rebuilt with new arguments (already sympy objects): remembered for
    Min, Max and Piecewise, built directly otherwise."""
    return build(func, args) if func in _BUILT else func(*args)


@lru_cache(maxsize=8192)
def build(func, args: tuple) -> sympy.Basic:
    """func(*args), remembered (args: sympy objects, so that 2 and 2.0 are different keys)."""
    return func(*args)
