"""Nesting: each compound statement's inner statements are walk_stmts's, walked once per procedure."""
from __future__ import annotations

from pathlib import Path

import pytest

from sad import ir
from sad.frontends import load_file
from sad.ir.nesting import nesting

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = [ROOT / "corpus/md1/md1.f", ROOT / "corpus/whetstone/whetstone.f", ROOT / "corpus/whetstone/whetstone.c"]


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.name)
def test_inside_is_the_walk_of_the_bodies(path: Path) -> None:
    program = load_file(str(path), [], {})
    compound = 0
    for proc in program.procedures:
        nested = nesting(proc)
        assert list(nested.statements) == list(ir.walk_stmts(proc.body))
        for stmt in nested.statements:
            want = [inner for body in ir.child_bodies(stmt) for inner in ir.walk_stmts(body)]
            assert list(nested.inside(stmt)) == want
            assert all(a is b for a, b in zip(nested.inside(stmt), want))
            assert nested.inside(stmt) is nested.inside(stmt)  # walked once
            compound += bool(want)
        assert nesting(proc) is nested
    assert compound > 5  # loops and IFs with statements inside were asked about


def test_a_procedure_is_remembered_by_itself_not_by_its_place() -> None:
    """Another procedure object, even an equal copy of the first, gets a nesting of its own."""
    first = load_file(str(PROGRAMS[0]), [], {}).procedures[0]
    again = load_file(str(PROGRAMS[0]), [], {}).procedures[0]
    assert nesting(first).proc is first and nesting(again).proc is again
