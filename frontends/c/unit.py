"""Step 3 of the C frontend: one translation unit's AST → IR procedures and globals.

Data flow: `load` → `lower_unit(ast, path)` → (procedures, globals, diagnostics). File-scope declarations
go to `decls` (sad's own headers only give symbols), each user function to `stmts.StmtLowerer.function`. A
failure inside one function is reported as an internal error at that function and the others still lower.
"""
from __future__ import annotations

import traceback

from pycparser import c_ast

from sad import ir

from .context import UnitContext
from .stmts import StmtLowerer


def lower_unit(ast: c_ast.FileAST, path: str) -> tuple[list[ir.Procedure], dict[str, ir.Variable],
                                                        list[ir.Diagnostic]]:
    """Lower a translation unit: its procedures, its global variables and the diagnostics."""
    ctx = UnitContext(path)
    lowerer = StmtLowerer(ctx)
    ctx.defined_functions = {ext.decl.name for ext in ast.ext or []
                             if isinstance(ext, c_ast.FuncDef) and ctx.is_user(ext)}
    procedures: list[ir.Procedure] = []
    for ext in ast.ext or []:
        ctx.loc = ctx.loc_of(ext)
        try:
            if isinstance(ext, c_ast.FuncDef):
                if ctx.is_user(ext):
                    procedures.append(lowerer.function(ext))
            elif isinstance(ext, c_ast.Typedef):
                lowerer.decls.typedef(ext)
            elif isinstance(ext, c_ast.Decl):
                lowerer.decls.declaration(ext, file_scope=True)
        except RecursionError:
            ctx.diagnostics.append(ir.Diagnostic(ctx.loc, "error", "C construct nested too deeply to analyse"))
        except Exception as exc:
            where = traceback.extract_tb(exc.__traceback__)[-1]
            ctx.diagnostics.append(ir.Diagnostic(
                ctx.loc, "error", f"internal error: {type(exc).__name__}: {exc} "
                                  f"(at {where.name}:{where.lineno} in the C frontend)"))
            ctx.proc = None
    return procedures, ctx.globals, ctx.diagnostics
