"""The packrat memo around fparser2 (frontends.fortran.memo) gives the trees fparser2 gives without it."""
from __future__ import annotations

from pathlib import Path

import pytest
from fparser.two.utils import NoMatchError

from sad.frontends.fortran import memo, parse
from sad.frontends.fortran.rewrite import rewrite
from sad.frontends.fortran.source import SourceReader

ROOT = Path(__file__).resolve().parents[2]


def _statements(path: Path):
    stmts = SourceReader([], {}).read(str(path))
    for stmt in stmts:
        stmt.text = rewrite(stmt.text)
    return stmts


@pytest.mark.parametrize("name", ["corpus/whetstone/whetstone.f", "corpus/kernels/gotoloop.f"])
def test_same_trees_with_and_without_the_memo(name):
    stmts = _statements(ROOT / name)
    parse.classes()
    memo._MEMO.clear()
    first = [parse.parse_statement(s) for s in stmts]
    again = [parse.parse_statement(s) for s in stmts]  # every statement now a memo hit
    with memo.disabled():
        plain = [parse.parse_statement(s) for s in stmts]
    for a, b, c in zip(first, again, plain):
        assert (a.kind, repr(a.node)) == (c.kind, repr(c.node)) == (b.kind, repr(b.node)), a.stmt.text
    assert any(p.kind == "exec" for p in plain) and len(memo._MEMO) > len(stmts)


def test_a_remembered_failure_raises_the_same_error():
    parse.classes()
    from fparser.two.Fortran2003 import Assignment_Stmt
    text = "X = = 1"
    messages = []
    for _ in range(2):
        with pytest.raises(NoMatchError) as caught:
            Assignment_Stmt(text)
        messages.append(str(caught.value))
    assert messages[0] == messages[1] == f"Assignment_Stmt: '{text}'"
    assert isinstance(memo._MEMO[(Assignment_Stmt, text)], memo._Failed)


def test_the_memo_is_bounded(monkeypatch):
    parse.classes()
    monkeypatch.setattr(memo, "LIMIT", 5)
    memo._MEMO.clear()
    for k in range(20):
        parse.classes()["Action_Stmt"](f"X{k} = Y + {k}")
    assert len(memo._MEMO) <= 5
