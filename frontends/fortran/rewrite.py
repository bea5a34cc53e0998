"""Pre-pass on logical statements: rewrite F77 forms fparser2 rejects into forms it accepts and we recognise back.

Data flow: frontends.fortran.source gives `Logical` statements → this module rewrites their text → the unit
splitter/parser (frontends.fortran.units) feeds them to fparser2 → frontends.fortran.stmts recognises the
marker calls below and builds the real IR nodes.

Rewrites (applied also to the action statement of a logical IF):
    nHxxx (Hollerith)        → 'xxx'                         (a character constant)
    ASSIGN 10 TO K           → CALL SAD_ASSIGN_(10, K)        → ir.AssignLabel
    GO TO K [,] [(10, 20)]   → CALL SAD_AGOTO_(K, 10, 20)     → ir.AssignedGoto
    PAUSE [n | 'text']       → CALL SAD_PAUSE_()              → ir.Pause
"""
from __future__ import annotations

import re
from collections.abc import Iterator

MARK_ASSIGN = "SAD_ASSIGN_"
MARK_AGOTO = "SAD_AGOTO_"
MARK_PAUSE = "SAD_PAUSE_"
MARKERS = (MARK_ASSIGN, MARK_AGOTO, MARK_PAUSE)

_ASSIGN = re.compile(r"^\s*ASSIGN\s*(\d+)\s*TO\s*([A-Za-z][A-Za-z0-9_]*)\s*$", re.IGNORECASE)
_AGOTO = re.compile(r"^\s*GO\s*TO\s*([A-Za-z][A-Za-z0-9_]*)\s*(?:,?\s*\(([\d\s,]*)\))?\s*$", re.IGNORECASE)
_PAUSE = re.compile(r"^\s*PAUSE\b\s*(\d+|'.*'|\".*\")?\s*$", re.IGNORECASE)
_LOGICAL_IF = re.compile(r"^\s*IF\s*\(", re.IGNORECASE)


def rewrite(text: str) -> str:
    """Rewrite one logical statement's text (columns 7-72, continuations joined)."""
    text = hollerith_to_string(text)
    return _rewrite_action(text)


def _rewrite_action(text: str) -> str:
    m = _LOGICAL_IF.match(text)
    if m:
        close = matching_paren(text, m.end() - 1)
        if close is not None:
            rest = text[close + 1:]
            if rest.strip() and not re.match(r"^\s*THEN\s*$", rest, re.IGNORECASE) \
                    and not re.match(r"^\s*\d+\s*,\s*\d+\s*,\s*\d+\s*$", rest):
                return text[:close + 1] + " " + _rewrite_action(rest)
        return text
    m = _ASSIGN.match(text)
    if m:
        return f"CALL {MARK_ASSIGN}({int(m.group(1))}, {m.group(2)})"
    m = _AGOTO.match(text)
    if m and not re.match(r"^\s*GO\s*TO\s*\d", text, re.IGNORECASE):
        labels = [str(int(x)) for x in re.findall(r"\d+", m.group(2) or "")]
        return f"CALL {MARK_AGOTO}(" + ", ".join([m.group(1)] + labels) + ")"
    m = _PAUSE.match(text)
    if m:
        return f"CALL {MARK_PAUSE}()"
    return text


def matching_paren(text: str, open_index: int) -> int | None:
    """Index of the parenthesis closing the one at open_index, skipping character constants."""
    for i, ch, depth in _unquoted(text, open_index):
        if ch == ")" and depth == 0:
            return i
    return None


def split_top_level(text: str) -> list[str]:
    """The comma-separated items of a list, commas inside parentheses and character constants not
    splitting it."""
    items, start = [], 0
    for i, ch, depth in _unquoted(text):
        if ch == "," and depth == 0:
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:])
    return items


def _unquoted(text: str, start: int = 0) -> Iterator[tuple[int, str, int]]:
    """(index, character, parenthesis depth after it) of each character from `start` on that is outside
    character constants (the quotes themselves left out)."""
    depth, quote = 0, ""
    for i in range(start, len(text)):
        ch = text[i]
        if quote:
            quote = "" if ch == quote else quote
            continue
        if ch in "'\"":
            quote = ch
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        yield i, ch, depth


def hollerith_to_string(text: str) -> str:
    """Replace Hollerith constants nHxxx by quoted strings, outside character constants.

    A Hollerith constant is recognised after `(`, `,`, `/`, `=` or at a DATA value's repeat `*`: digits
    immediately followed by H. A statement that starts like a declaration (REAL*8 H...) is left alone.
    """
    if "h" not in text.lower():
        return text
    is_data = re.match(r"^\s*DATA\b", text, re.IGNORECASE) is not None
    out: list[str] = []
    i, quote, n = 0, None, len(text)
    while i < n:
        ch = text[i]
        if quote:
            out.append(ch)
            if ch == quote:
                quote = None
            i += 1
            continue
        if ch in "'\"":
            quote = ch
            out.append(ch)
            i += 1
            continue
        if ch.isdigit() and _hollerith_context(text, i, is_data):
            j = i
            while j < n and text[j].isdigit():
                j += 1
            if j < n and text[j] in "hH":
                count = int(text[i:j])
                if count > 0:
                    body = text[j + 1:j + 1 + count].ljust(count)
                    out.append("'" + body.replace("'", "''") + "'")
                    i = j + 1 + count
                    continue
            out.append(text[i:j])
            i = j
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _hollerith_context(text: str, i: int, is_data: bool) -> bool:
    k = i - 1
    while k >= 0 and text[k] == " ":
        k -= 1
    if k < 0:
        return False
    prev = text[k]
    if prev in "(,/=":
        return True
    return prev == "*" and is_data
