"""Free-form (Fortran 90) physical lines to logical statements: the free-form half of the source stage.

Data flow: frontends.fortran.source reads a .f90/.F90 file (through cpp for .F90) into physical lines with
their Locs and hands them here instead of to its fixed-form reader; the statements come back in the same
`Logical` form (text, label, Loc of the first line), so rewrite, parse and lower do not know which form the
file had.

The rules (Fortran 2008, 6.3.2): no columns; `!` starts a comment outside character constants; a line whose
last non-comment character is `&` continues on the next non-comment line, which may begin with `&` (the
text resumes after it; a character constant split across lines needs it); `;` separates statements on a
line; a statement may begin with a label of up to five digits.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from sad.ir import Diagnostic, Loc

_LABEL = re.compile(r"^(\d{1,5})\s+(?=\S)")


@dataclass
class Statement:
    """One free-form statement: its text (continuations joined), its label, the Loc of its first line."""
    text: str
    label: str | None
    loc: Loc


def code_of(line: str, quote: str) -> tuple[str, str]:
    """The line without its `!` comment, and the quote still open at its end ('' for none): `quote` is the
    one a continued character constant left open on the line before."""
    marks, quote = _outside_quotes(line, quote, "!")
    return (line[:marks[0]], "") if marks else (line, quote)


def _outside_quotes(text: str, quote: str, char: str) -> tuple[list[int], str]:
    """The positions of `char` outside character constants (`quote`: the one open where the text starts),
    and the quote open at its end."""
    marks = []
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == char:
            marks.append(i)
    return marks, quote


def statements(lines: list[tuple[str, Loc]], diags: list[Diagnostic]) -> list[Statement]:
    """The statements of free-form source lines, comments dropped and continuations joined."""
    out: list[Statement] = []
    text, first, quote = "", None, ""
    for raw, loc in lines:
        code, quote = code_of(raw, quote)
        body = code.strip()
        if not body:
            continue  # a comment or blank line: between continuation lines too
        if first is not None and body.startswith("&"):
            body = body[1:]  # the statement resumes right after it (a token may be split there)
        elif first is not None:
            if quote:
                diags.append(Diagnostic(loc, "error", "a character constant continued on this line must "
                                                      "resume after '&'"))
            body = " " + body  # no token is split: the line break separates like a blank
        more = body.endswith("&")
        if more:
            body = body[:-1].rstrip() if not quote else body[:-1]
        text, first = (text + body, first) if first is not None else (body, loc)
        if more:
            continue
        out.extend(_split(text, first))
        text, first, quote = "", None, ""
    if first is not None:
        diags.append(Diagnostic(first, "error", "the statement continued with '&' on this line has no "
                                                "continuation line before the end of the file"))
        out.extend(_split(text, first))
    return out


def _split(text: str, loc: Loc) -> Iterator[Statement]:
    """The `;`-separated statements of one logical line, each with its label split off."""
    for part in _semicolon_parts(text):
        part = part.strip()
        if not part:
            continue
        m = _LABEL.match(part)
        label = str(int(m.group(1))) if m else None
        yield Statement(part[m.end():] if m else part, label, loc)


def _semicolon_parts(text: str) -> list[str]:
    marks, _ = _outside_quotes(text, "", ";")
    return [text[a + 1:b] for a, b in zip([-1, *marks], [*marks, len(text)])]
