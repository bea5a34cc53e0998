"""What is wrong with an input file before any frontend reads it, and how many of its errors to show.

Data flow: a path from the command line → one diagnostic naming the problem (missing, a directory, empty,
binary, free-form Fortran in a fixed-form file) instead of dozens of parser errors; after parsing, a file's
diagnostics are capped at MAX_ERRORS errors (like gcc's -fmax-errors) and control bytes in their messages
are escaped so that a terminal never receives them. Used by sad.analysis.pipeline.load_program.
"""
from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from sad import ir
from sad.ir.languages import FREE_FORM_SUFFIXES

MAX_ERRORS = 20
FIXED_FORM_SUFFIXES = {".f", ".for", ".f77", ".F", ".fpp", ".FOR", ".F77"}
SOURCE_SUFFIXES = FIXED_FORM_SUFFIXES | FREE_FORM_SUFFIXES | {".c"}
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def input_problem(path: str) -> str | None:
    """Why the file cannot be source text at all, or None."""
    if os.path.isdir(path):  # os.path, not pathlib: asked for every file every unit loads
        return "is a directory (give the source files in it, or the directory to the command line)"
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return "No such file or directory"
    except OSError as exc:
        return f"cannot read file: {exc.strerror}"
    fixed_form = os.path.splitext(path)[1] in FIXED_FORM_SUFFIXES
    # once per content: `sad check` loads a callee's file again for every unit that calls into it (the
    # memo keeps the digest, not the file)
    key = (hashlib.sha256(data).digest(), fixed_form)
    if key not in _PROBLEMS:
        if len(_PROBLEMS) >= _PROBLEMS_KEPT:
            _PROBLEMS.clear()
        _PROBLEMS[key] = _content_problem(data, fixed_form)
    return _PROBLEMS[key]


_PROBLEMS: dict[tuple[bytes, bool], str | None] = {}
_PROBLEMS_KEPT = 1 << 16


def _content_problem(data: bytes, fixed_form: bool) -> str | None:
    if not data.strip():
        return "file is empty"
    if _is_binary(data):
        return "binary file, not source text"
    if fixed_form and _looks_free_form(data.decode("utf-8", "replace")):
        return ("this looks like free-form Fortran 90 (statements start in column 1), not fixed-form "
                "Fortran 77: sad reads .f files as Fortran 77 (labels in columns 1-5, statements in 7-72)")
    return None


def _is_binary(data: bytes) -> bool:
    head = data[:8192]
    if b"\0" in head:
        return True
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13))
    return controls > len(head) // 100 + 2


def _looks_free_form(text: str) -> bool:
    """Most code lines have letters in columns 1-5 (where fixed form has labels) or use `::`."""
    code = [ln for ln in text.splitlines() if ln.strip() and ln[:1] not in "cC*!#" and
            not ln.lstrip().startswith("!")]
    if not code:
        return False
    free = sum(1 for ln in code if re.search(r"[A-Za-z]", ln[:5].replace("\t", "")) and not ln.startswith("\t"))
    return free * 2 > len(code) or sum("::" in ln for ln in code) * 2 > len(code)


def expand_sources(paths: list[str]) -> list[str]:
    """Directories replaced by the source files under them (recursively, sorted); other paths as given."""
    out: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            found = sorted(str(p) for p in Path(path).rglob("*") if p.is_file() and p.suffix in SOURCE_SUFFIXES)
            out.extend(found or [path])  # an empty directory stays, to be reported as one
        else:
            out.append(path)
    return out


def tidy(path: str, diagnostics: list[ir.Diagnostic]) -> list[ir.Diagnostic]:
    """At most MAX_ERRORS errors of one file (then one 'too many errors'), control bytes escaped."""
    out: list[ir.Diagnostic] = []
    errors = 0
    last = ir.Loc(path, 1)
    for d in diagnostics:
        if d.severity == "error":
            errors += 1
            if errors > MAX_ERRORS:
                continue
            last = d.loc
        message = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", d.message)
        out.append(d if message == d.message else ir.Diagnostic(d.loc, d.severity, message))
    if errors > MAX_ERRORS:
        out.append(ir.Diagnostic(last, "error", f"too many errors ({errors}); only the first "
                                 f"{MAX_ERRORS} are shown"))
    return out
