"""The names a user gives (-D, a params file, sweep and validate sizes) in the spelling the analysis uses:
Fortran names are case-insensitive (the IR spells them in upper case, `n` in the source is `N`), C names
are not.

Data flow: the values a command was given {name: value} + the IR program (and, once analyzed, its parameter
table) → the same values keyed by the analysis's names. Whether a name is Fortran's is decided by the
routines it comes from: a variable of a Fortran routine, or a parameter (X_..., P_..., a value) whose
routine is Fortran. A name spelled exactly as some name of the program is kept as given.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

import sympy

from sad import ir
from sad.analysis.params import ParameterTable

V = TypeVar("V")


def respellings(names: Iterable[str], program: ir.Program, table: ParameterTable | None = None) -> dict[str, str]:
    """{name as given: the Fortran name it spells} for the given names that are no name of the program as
    written but a Fortran name in another case."""
    exact, fortran = _names(program, table)
    out = {}
    for name in names:
        if name not in exact and name.upper() in fortran:
            out[name] = name.upper()
    return out


def respelled(values: dict[str, V], program: ir.Program, table: ParameterTable | None = None) -> dict[str, V]:
    """`values` keyed (and, in values that are formulas, written) with the program's spelling of each name;
    where both spellings are given, the exact one wins."""
    renames = respellings(list(values) + [s.name for v in values.values() for s in _symbols(v)], program, table)
    if not renames:
        return dict(values)
    out: dict[str, V] = {}
    for name, value in values.items():
        new = renames.get(name, name)
        if new != name and new in values:
            continue
        out[new] = _renamed(value, renames)
    return out


def _symbols(value: object) -> set[sympy.Symbol]:
    return value.free_symbols if isinstance(value, sympy.Basic) else set()


def _renamed(value: V, renames: dict[str, str]) -> V:
    if not isinstance(value, sympy.Basic):
        return value
    subs = {s: sympy.Symbol(renames[s.name]) for s in value.free_symbols
            if isinstance(s, sympy.Symbol) and s.name in renames}
    return value.xreplace(subs) if subs else value


def _names(program: ir.Program, table: ParameterTable | None) -> tuple[set[str], set[str]]:
    """(every name of the program as spelled, the names that are Fortran's)."""
    exact: set[str] = set(program.globals)
    fortran: set[str] = set()
    language = {}
    for proc in program.procedures:
        names = {proc.name, *proc.formals, *proc.variables}
        exact |= names
        language[proc.name] = proc.language
        if proc.language == "fortran":
            fortran |= names
    for param in table or []:
        exact.add(param.name)
        if language.get(param.procedure) == "fortran":
            fortran.add(param.name)
    return exact, fortran
