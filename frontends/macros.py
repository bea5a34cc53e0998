"""Which `-D NAME=VALUE` definitions reach the preprocessor.

Data flow: the CLI's -D both binds parameters (sad.analysis.bindings) and, for .F and C files, defines macros. A name
that the source declares or assigns as a variable (`scanf("%d", &n)` with `-D n=100`) must not be turned
into a macro, or the binding would rewrite `&n` into `&100`; every other name is passed on, so
`double a[N]` with `-D N=1000` and `#ifdef USE_MPI` with `-D USE_MPI=1` work as users expect.
"""
from __future__ import annotations

import re
from pathlib import Path

_C_TYPES = r"(?:int|long|short|char|float|double|unsigned|signed|size_t|bool|_Bool|const|static|register)"
_F_DECL = r"^\s{0,5}\d*\s*(?:INTEGER|REAL|DOUBLE\s*PRECISION|LOGICAL|COMPLEX|CHARACTER|DIMENSION|COMMON|" \
          r"DATA|PARAMETER)\b.*"


def macro_defines(path: str, defines: dict[str, str], language: str) -> dict[str, str]:
    """The -D bindings to pass to the preprocessor: names in directives or not used as variables."""
    if not defines:
        return {}
    try:
        text = Path(path).read_text(errors="replace")
    except OSError:
        return dict(defines)
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    directives = "\n".join(_macro_names(line) for line in text.splitlines() if line.lstrip().startswith("#"))
    kept = {}
    for name, value in defines.items():
        if not name.isidentifier():
            continue      # PROC.VAR binds a procedure's variable: no macro name (cpp would define PROC as `.VAR=...`)
        word = re.escape(name)
        in_directive = re.search(rf"\b{word}\b", directives) is not None
        if in_directive or not _is_variable(code, word, language):
            kept[name] = value
    return kept


def _macro_names(directive: str) -> str:
    """The part of a directive where a name is a macro: all of a test (`#if N > 100`, `#ifdef USE_MPI`), the
    name a `#define` or `#undef` defines, not a `#define`'s replacement text (`#define A(i, j) a[(i) * n + (j)]`
    reads the variable n: `-D n=1500` made `int n = ...` a syntax error)."""
    match = re.match(r"\s*#\s*(define|undef)\s+(\w+)", directive)
    return match.group(2) if match else directive


def _is_variable(code: str, word: str, language: str) -> bool:
    if language == "c":
        declared = re.search(rf"\b{_C_TYPES}\b[^;{{}}()=]*[\s*,]{word}\s*(?:[;=,\[)]|$)", code, re.M) is not None
        assigned = re.search(rf"(?<![\w.>])&?{word}\s*(?:[-+*/]?=(?!=)|\+\+|--)", code) is not None
        return declared or assigned
    declared = any(re.search(rf"\b{word}\b", line, re.I) for line in re.findall(_F_DECL, code, re.I | re.M))
    assigned = re.search(rf"^\s{{0,5}}\d*\s+{word}\s*(?:\([^=]*\))?\s*=", code, re.I | re.M) is not None
    read = re.search(rf"^\s*\d*\s*READ\b.*\b{word}\b", code, re.I | re.M) is not None
    return declared or assigned or read


def macros_used(path: str, include_dirs: list[str], defines: dict[str, str], language: str) -> set[str]:
    """The macros the preprocessor expanded or tested while reading ``path`` with these -I and -D (its headers
    included): cpp's own answer (``-dU``), so that a -D that only sets a macro (``-D N=60`` for an
    ``#ifndef N`` default) is not called a parameter the analysis does not know. Empty where cpp cannot run."""
    import shutil
    import subprocess

    from sad.frontends.c.preprocess import cpp_command
    from sad.frontends.fortran.source import cpp_options
    if language == "fortran":   # not traditional, as frontends.fortran.source runs it: that mode has no -dU
        cmd = [*cpp_options(shutil.which("cpp") or "cpp", path, include_dirs, defines), "-w"]
    else:
        cmd = cpp_command(path, include_dirs, defines)[:-1]
    try:
        proc = subprocess.run([*cmd, "-dU", "-E", path], capture_output=True, text=True, errors="replace",
                              timeout=120)
    except (OSError, subprocess.SubprocessError):
        return set()
    return set(re.findall(r"^#(?:define|undef)\s+(\w+)", proc.stdout, re.M))
