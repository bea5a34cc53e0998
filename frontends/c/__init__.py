"""The C frontend: C source files → sad's IR (sad.ir.Program).

Data flow, one module per step:
    preprocess  run `cpp -nostdinc` against sad's headers (include/), -I/-D forwarded, `# N "file"` markers kept
      verbatim  a file cpp would only strip the comments from: its text made here, cpp not run
    prune       drop the prototypes of sad's headers that the program never names (most of the parse time)
    parse       pycparser → AST whose coords are the user's original files and lines; syntax errors → Diagnostics
    unit        file scope: declarations (decls), functions (stmts) → Procedures and globals
      decls     declarations → Variables (types via typesys, constant folding via consteval)
      stmts     statements → IR statements (loops recognises canonical for-loops → Do)
      exprs     expressions → IR expressions, side effects hoisted; library (stdio/exit/MPI), mathlib (intrinsics)

`load` never raises: bad input and internal failures come back as error Diagnostics.
"""
from __future__ import annotations

import os
import traceback

from sad.ir import Diagnostic, Loc, Program

__all__ = ["load"]


def load(path: str, include_dirs: list[str] | None = None, defines: dict[str, str] | None = None) -> Program:
    """Parse one C file into the IR. Never raises on bad input."""
    prog = Program(files=[path])
    try:
        from .parse import parse
        from .preprocess import preprocess
        from .prune import drop_unused_prototypes
        from .unit import lower_unit

        pre = preprocess(path, list(include_dirs or []), dict(defines or {}))
        prog.diagnostics.extend(pre.diagnostics)
        if not pre.ok:
            return prog
        prog.files = pre.files or [path]
        ast, diags = parse(drop_unused_prototypes(pre.text), path)
        prog.diagnostics.extend(diags)
        if ast is None:
            return prog
        procedures, globals_, diags = lower_unit(ast, path)
        prog.procedures.extend(procedures)
        prog.globals.update(globals_)
        prog.diagnostics.extend(diags)
    except Exception as exc:
        where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
        at = f" (at {os.path.basename(where.filename)}:{where.lineno})" if where else ""
        prog.diagnostics.append(Diagnostic(Loc(path, 1), "error",
                                           f"internal error: {type(exc).__name__}: {exc}{at}"))
    return prog
