"""Step 2 of the C frontend: preprocessed text → pycparser AST, syntax errors → Diagnostics.

Data flow: `load` → `parse(text, path)` → (FileAST or None, diagnostics). pycparser follows cpp's
`# N "file"` markers, so its coords and error positions are already in the user's original files; the error
text `file:line:col: msg` is split into a Diagnostic at that file and line.
"""
from __future__ import annotations

import re
import sys

from pycparser import c_ast, c_parser

from sad.ir import Diagnostic, Loc

_POSITION = re.compile(r"^(?P<file>.*?):(?P<line>\d+)(?::(?P<col>\d+))?:\s*(?P<msg>.*)$", re.S)


def parse(text: str, path: str) -> tuple[c_ast.FileAST | None, list[Diagnostic]]:
    """Parse preprocessed C text with pycparser: the AST (None on failure) and the diagnostics."""
    parser = c_parser.CParser()
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 20000))
    try:
        return parser.parse(text, path), []
    except c_parser.ParseError as exc:
        return None, [syntax_diagnostic(str(exc), path, _lexer_loc(parser, path))]
    except RecursionError:
        return None, [Diagnostic(Loc(path, 1), "error", "C source nested too deeply to parse")]
    except Exception as exc:
        # trips an assertion in its scope stack): a syntax error at the lexer's position
        what = "unbalanced '}'" if isinstance(exc, AssertionError) else f"{type(exc).__name__}: {exc}"
        return None, [Diagnostic(_lexer_loc(parser, path), "error", f"syntax error: {what}")]
    finally:
        sys.setrecursionlimit(old_limit)


def _lexer_loc(parser: c_parser.CParser, path: str) -> Loc:
    """Where the lexer stood when parsing failed (it follows the line markers, so this is the user's
    file and line)."""
    lexer = getattr(parser, "clex", None)
    line = getattr(lexer, "_lineno", None) or 1
    return Loc(getattr(lexer, "filename", None) or path, int(line))


def syntax_diagnostic(text: str, path: str, fallback: Loc | None = None) -> Diagnostic:
    """pycparser's message as a diagnostic; messages without a position (pycparser 3 raises some with the
    file name only) are placed where the lexer stopped."""
    m = _POSITION.match(text.strip())
    if m and m.group("file"):
        msg = m.group("msg").strip() or "syntax error"
        loc = Loc(m.group("file"), int(m.group("line")), int(m.group("col") or 0))
    elif m:
        msg = m.group("msg").strip() or "syntax error"
        loc = Loc(path, int(m.group("line")), int(m.group("col") or 0))
    else:
        msg, loc = text.strip() or "syntax error", fallback or Loc(path, 1)
        msg = msg.removeprefix(f"{loc.file}:").removeprefix(f"{path}:").strip() or "syntax error"
    before = re.fullmatch(r"before:\s*(.+)", msg, re.S)
    if before:  # pycparser's "before: return" in gcc's words
        msg = f"syntax error before '{before.group(1).strip()}'"
    if not msg.startswith("syntax error"):
        msg = f"syntax error: {msg}"
    return Diagnostic(loc, "error", msg)
