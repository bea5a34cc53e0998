"""Step 1 of the C frontend, short cut: the files that cpp would only strip the comments from.

Data flow: `preprocess(path, ...)` asks `verbatim(path, options)` first; its text, when there is one, takes
the place of cpp's output (same lines, same `# 1 "file"` marker), and cpp is not run for that file.

cpp costs about 7 ms of CPU per file before it reads a byte (gcc's cc1 starting up), which is more than
parsing and lowering a short C file together. A file with no preprocessor directive, no line splice and no
name that cpp defines as a macro (its predefined macros such as `unix`, sad's prelude such as `inline`, the
user's -D) comes out of cpp as it went in, less its comments. Which names are macros is asked of the same cpp
with the same options (`-dM`), once per set of options; anything this module is not sure of (a `#`, a
backslash, `??`, a lone carriage return, a name starting with `__`, an unterminated literal or comment)
goes to cpp. Columns are the file's own (cpp squeezes runs of blanks, which moved pycparser's columns).

Hand-written rather than a preprocessor library's: what is needed is the part of a C lexer that finds
comments, string and character literals and names, and the decision to run cpp stays with cpp's own answers.
"""
from __future__ import annotations

import os
import re
import subprocess

__all__ = ["verbatim"]

# Comments and literals, whichever starts first; a literal does not run over a line end (C forbids it, and a
# spliced one has made the file go to cpp already).
_COMMENT_OR_LITERAL = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', re.S)
_NAME = re.compile(r"[A-Za-z_]\w*")
_NOT_SURE = re.compile(r'[#\\"\'\x00]|/\*|%:|\?\?')   # left in code outside literals and comments
_MACRO = re.compile(r"#define\s+([A-Za-z_]\w*)")
_MACROS: dict[tuple[str, ...], frozenset[str] | None] = {}


def verbatim(path: str, options: list[str]) -> str | None:
    """cpp's output for the file at `path` under the cpp command `options + [path]`, made here when cpp
    would only remove its comments; None when cpp must run (the file cannot be read, or see the module
    docstring)."""
    try:
        with open(path, encoding="utf-8", errors="replace", newline="") as f:
            text = f.read()
    except OSError:
        return None
    if "\\\n" in text or "\\\r" in text or "??" in text:
        return None
    text = text.replace("\r\n", "\n")
    if "\r" in text or not path.isprintable():
        return None
    macros = _macro_names(tuple(options))
    if macros is None:
        return None
    kept: list[str] = []
    code: list[str] = []
    last = 0
    for m in _COMMENT_OR_LITERAL.finditer(text):
        piece = text[last:m.start()]
        kept.append(piece)
        code.append(piece)
        token = m.group()
        if token.startswith("/"):   # a comment is one blank to cpp; its line ends are kept for the line numbers
            kept.append(" " + "\n" * token.count("\n"))
            code.append(" ")
        else:
            kept.append(token)
            code.append(" ")
        last = m.end()
    kept.append(text[last:])
    code.append(text[last:])
    bare = "".join(code)
    if _NOT_SURE.search(bare):
        return None
    names = set(_NAME.findall(bare))
    if names & macros or any(name.startswith("__") or name == "_Pragma" for name in names):
        return None
    return f'# 1 "{_escaped(path)}"\n' + "".join(kept)


def _escaped(path: str) -> str:
    """The file name as cpp writes it in a line marker."""
    return path.replace("\\", "\\\\").replace('"', '\\"')


def _macro_names(options: tuple[str, ...]) -> frozenset[str] | None:
    """The names cpp defines as macros before it reads a file, under these options (`cpp ... -dM`); None when
    that cannot be asked."""
    if options not in _MACROS:
        try:
            shown = subprocess.run([*options, "-dM", os.devnull], capture_output=True, text=True, timeout=60)
            names = frozenset(_MACRO.findall(shown.stdout)) if shown.returncode == 0 else None
        except (OSError, subprocess.SubprocessError):
            names = None
        _MACROS[options] = names or None
    return _MACROS[options]
