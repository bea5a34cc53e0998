"""A packrat memo for fparser2's grammar rules: each (rule class, text) is matched once per process.

Data flow: frontends.fortran.parse installs it once, before the first statement is parsed; from then on every
fparser2 rule application on a plain string — the statement classes parse.py calls and the sub-rules their
match methods call (an assignment's Variable and Expr, the operands of every operator split the expression
rules try) — first looks up (class, text).

Why: fparser2 parses an expression by trying each operator occurrence as a split point and parsing both sides
with the next precedence level, so the same substring is parsed by the same rule many times over (and mostly
fails). Remembering results and failures makes that linear in practice: the parse of a statement takes about
half the time on code without repeated statements (corpus files and one family of the generated codebase),
and a statement seen before (`INFO = 0`, `J = J + 1`, `END IF`) costs one look-up. fparser2 has no such
option, so this wraps its `Base.__new__`; fparser stays the parser and its results are unchanged:

- only calls with a plain string and no `parent_cls` are remembered. A call with `parent_cls` is fparser's
  dispatch to a rule's subclasses, whose result depends on the classes already on that dispatch chain; a call
  without it starts a fresh chain, so its result (node or NoMatchError) depends on (class, text) alone;
- a remembered NoMatchError is raised again with the same message (fparser compares messages to stop
  recursion); other exceptions are never remembered;
- remembered nodes are shared between the trees that contain them. The frontend only reads fparser nodes
  (never mutates them, never follows `parent`), so sharing is safe; fparser's `parent` link of a shared node
  names the last tree that took it.

The memo is bounded: it is emptied when it holds LIMIT entries (about 6 per distinct statement, 430 bytes
each with its nodes: LIMIT keeps it under about 100 MB in a long-running `sad check` worker).
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

LIMIT = 200_000

_MEMO: dict[tuple[type, str], Any] = {}
_installed = False
_original: Any = None


class _Failed:
    """A remembered NoMatchError: its arguments, raised again on a hit."""
    __slots__ = ("args",)

    def __init__(self, args: tuple) -> None:
        self.args = args


def install() -> None:
    """Wrap fparser2's rule application with the memo (once per process)."""
    global _installed, _original
    if _installed:
        return
    from fparser.two import utils

    original = _original = utils.Base.__new__
    no_match = utils.NoMatchError

    def memo_new(cls, string, parent_cls=None, _deepcopy=False):
        if parent_cls is not None or _deepcopy or type(string) is not str:
            return original(cls, string, parent_cls, _deepcopy)
        key = (cls, string)
        hit = _MEMO.get(key)
        if hit is None:
            if len(_MEMO) >= LIMIT:
                _MEMO.clear()
            try:
                hit = original(cls, string)
            except no_match as exc:
                _MEMO[key] = _Failed(exc.args)
                raise
            _MEMO[key] = hit
            return hit
        if type(hit) is _Failed:
            raise no_match(*hit.args)
        return hit

    utils.Base.__new__ = memo_new
    _installed = True


@contextmanager
def disabled() -> Iterator[None]:
    """fparser2 without the memo for the duration (the tests compare its trees with the memo's)."""
    from fparser.two import utils

    install()
    wrapped = utils.Base.__new__
    utils.Base.__new__ = _original
    try:
        yield
    finally:
        utils.Base.__new__ = wrapped
