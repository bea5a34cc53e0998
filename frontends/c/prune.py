"""Between steps 1 and 2 of the C frontend: drop the prototypes of sad's headers that the program never names.

Data flow: `load` → `preprocess` (cpp's text) → `drop_unused_prototypes(text)` → `parse`. sad's headers
(frontends/c/include) declare whole C libraries (math.h alone is 200 prototypes); a typical program calls a
handful, yet pycparser parsed and the frontend lowered every one for every file: most of the parse time of a
small program. A prototype only gives the type of calls to its function, so one whose name appears nowhere
else in the text (the user's code after macro expansion, and the headers' other declarations) cannot change
the IR.

Only what is certainly a whole prototype is dropped: on a line of one of sad's headers (per cpp's line
markers), a `;`-separated piece of the form `type words and stars NAME(parameters)` with balanced
parentheses and no braces, `=` or `typedef`. Anything else (typedefs, structs, variables, multi-line
declarations, function-pointer forms) stays as it is. A dropped line is left empty, so line numbers and
pycparser's coordinates do not move.
"""
from __future__ import annotations

import re

from .preprocess import is_sad_header, marker_file

_PROTOTYPE = re.compile(r"^\s*[A-Za-z_][\w\s*]*?[\s*](?P<name>[A-Za-z_]\w*)\s*\((?P<params>[^{}=;]*)\)\s*$")
_WORD = re.compile(r"[A-Za-z_]\w*")


def drop_unused_prototypes(text: str) -> str:
    """cpp's text without the unnamed prototypes of sad's headers (see the module docstring)."""
    lines = text.split("\n")
    candidates: dict[int, list[tuple[str, str | None]]] = {}  # line index → its pieces, each with its name
    names: set[str] = set()
    in_header = False
    for i, line in enumerate(lines):
        if line.startswith("#"):
            name = marker_file(line)
            if name is not None:
                in_header = is_sad_header(name)
            continue
        pieces = _prototype_pieces(line) if in_header else None
        if pieces is None:
            names.update(_WORD.findall(line))
        else:
            candidates[i] = pieces
    if not candidates:
        return text
    for i, pieces in candidates.items():
        kept = [piece for piece, name in pieces if name in names]
        lines[i] = " ".join(kept)
    return "\n".join(lines)


def _prototype_pieces(line: str) -> list[tuple[str, str | None]] | None:
    """The line's declarations with their function names when every one is a plain prototype, else None."""
    body = line.strip()
    if not body.endswith(";") or "typedef" in body or "{" in body or "}" in body:
        return None
    pieces = []
    for part in body[:-1].split(";"):
        m = _PROTOTYPE.match(part)
        if m is None or not _balanced(m.group("params")):
            return None
        pieces.append((part.strip() + ";", m.group("name")))
    return pieces


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0
