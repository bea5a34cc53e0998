"""The Fortran frontend (Fortran 77, and the Fortran 90 of free-form library code): `load(path, include_dirs,
defines) -> sad.ir.Program`.

Data flow (one module per stage):
    source   file → (cpp for .F/.FPP/.F90) → logical statements (fixed form, or free form for .f90 through
             freeform) with original Locs, INCLUDE expanded
    rewrite  Hollerith, ASSIGN, assigned GOTO, PAUSE → forms fparser2 accepts, recognised back later
    parse    each statement through fparser2's f2003 grammar classes; grouping into program units
    lower    unit → Procedure(s): decls (specification statements → symbols.Scope), stmts (executable
             statements and block structure), exprs (typed expressions, intrinsics, statement functions),
             messages (MPI / PVM calls), constants (kinds, PARAMETER values folded), modules (MODULE, USE,
             CONTAINS)
`load` never raises: bad input becomes error Diagnostics, and an internal bug becomes "internal error: ...".
"""
from __future__ import annotations

import traceback

from sad.ir import Diagnostic, Loc, Program

from .lower import lower_unit
from .modules import ModuleTable
from .parse import split_units
from .rewrite import rewrite
from .source import SourceReader

__all__ = ["load"]


def load(path: str, include_dirs: list[str] | None = None, defines: dict[str, str] | None = None) -> Program:
    """Parse one Fortran source file into the IR."""
    program = Program(files=[path])
    try:
        _load_into(program, path, list(include_dirs or []), dict(defines or {}))
    except Exception as exc:  # never a traceback for the user: an internal bug is an error diagnostic
        program.diagnostics.append(Diagnostic(Loc(path, 1), "error", f"internal error: {_describe(exc)}"))
    return program


def _load_into(program: Program, path: str, include_dirs: list[str], defines: dict[str, str]) -> None:
    reader = SourceReader(include_dirs, defines)
    stmts = reader.read(path)
    program.diagnostics.extend(reader.diagnostics)
    for extra in reader.files:
        if extra not in program.files:
            program.files.append(extra)
    for stmt in stmts:
        stmt.text = rewrite(stmt.text)
    modules = ModuleTable(path, include_dirs, defines)
    units = split_units(stmts, program.diagnostics)
    modules.contain(units)
    for unit in units:
        try:
            program.procedures.extend(lower_unit(unit, program.diagnostics, modules))
        except Exception as exc:  # one unit's internal failure must not lose the others
            loc = unit.items[0].stmt.loc if unit.items else Loc(path, 1)
            program.diagnostics.append(Diagnostic(loc, "error", f"internal error: {_describe(exc)}"))


def _describe(exc: Exception) -> str:
    where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    detail = f" (in {where.name}, {where.filename.rsplit('/', 1)[-1]}:{where.lineno})" if where else ""
    return f"{type(exc).__name__}: {exc}{detail}"
