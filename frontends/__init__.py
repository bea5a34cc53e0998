"""Frontends: source languages to the IR of sad.ir. They know nothing of machines or of the SAD.

Each frontend module exposes `load(path, include_dirs, defines) -> sad.ir.Program` and never raises on bad
input: a file that cannot be read or parsed gives a Program with an error Diagnostic (file:line) instead.
"""
from __future__ import annotations

from pathlib import Path

from sad.ir import Diagnostic, Loc, Program
from sad.ir.languages import C_SUFFIXES, FORTRAN_SUFFIXES, language_of  # noqa: F401  (this package's API)


def load_file(path: str, include_dirs: list[str] | None = None,
              defines: dict[str, str] | None = None) -> Program:
    """Parse one source file into the IR with the frontend its suffix selects."""
    include_dirs = list(include_dirs or [])
    defines = dict(defines or {})
    lang = language_of(path)
    if lang is not None:
        from .macros import macro_defines
        defines = macro_defines(path, defines, lang)
    if lang == "fortran":
        from .fortran import load
    elif lang == "c":
        from .c import load
    else:
        prog = Program(files=[path])
        prog.diagnostics.append(Diagnostic(Loc(path, 1), "error",
                                           f"unknown source language for suffix '{Path(path).suffix}'"))
        return prog
    return load(path, include_dirs, defines)
