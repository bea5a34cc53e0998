"""The IR's one way to walk it (declared child fields, NodeVisitor) and its JSON round trip.

Every corpus program is loaded by the real frontends, written as `sad ir` writes it, read back, and must be
equal node for node; the reloaded IR analyzed gives the same SAD as the source.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from sad import ir
from sad.analysis.pipeline import analyze_program
from sad.frontends import load_file

ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted([*ROOT.glob("corpus/kernels/*.f"), *ROOT.glob("corpus/c/*.c"), ROOT / "corpus/md1/md1.f",
                 ROOT / "corpus/whetstone/whetstone.f", ROOT / "corpus/whetstone/whetstone.c",
                 *ROOT.glob("corpus/spmd/*.[fc]"), *ROOT.glob("corpus/tuning/*.c")])


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name if p.parent.name != "whetstone" else "w_" + p.name)
def test_json_round_trip_is_exact(path: Path) -> None:
    program = load_file(str(path), [], {})
    text = ir.jsonio.dumps(program)
    back = ir.jsonio.loads(text)
    assert back == program
    assert ir.jsonio.dumps(back) == text


def test_reloaded_ir_gives_the_same_sad() -> None:
    program = load_file(str(ROOT / "corpus/kernels/triangular.f"), [], {})
    back = ir.jsonio.loads(ir.jsonio.dumps(program))
    counts = sorted(str(c) for c in analyze_program(program).counts.values())
    assert sorted(str(c) for c in analyze_program(back).counts.values()) == counts


def test_complex_constants_and_dims_survive() -> None:
    var = ir.Variable("A", "double", dims=[(ir.Const(1, type="integer"), None)], value=ir.Const(1 + 2j))
    back = ir.from_jsonable(ir.to_jsonable(var))
    assert back == var and back.dims[0][1] is None and back.value.value == 1 + 2j


def test_unknown_node_kind_is_a_clear_error() -> None:
    with pytest.raises(ir.IRFormatError, match="unknown IR node kind 'Frob'"):
        ir.from_jsonable({"node": "Frob"})
    with pytest.raises(ir.IRFormatError, match="does not hold an IR Program"):
        ir.jsonio.loads('{"node": "Var", "name": "x", "type": "integer"}')


def test_every_child_field_is_declared() -> None:
    """A dataclass field that can hold a node must be in `_fields` (else walks would miss it)."""
    node_like = ("Expr", "Stmt", "IfArm", "Variable", "Procedure")
    for cls in ir.jsonio.NODE_CLASSES.values():
        if not issubclass(cls, ir.Node):
            continue
        for f in dataclasses.fields(cls):
            holds_node = any(k in str(f.type) for k in node_like)
            assert holds_node == (f.name in cls._fields), (cls.__name__, f.name)


def _expr() -> ir.Expr:
    # A(I+1, J) * SQRT(X) - 2
    i1 = ir.BinOp("add", ir.Var("I", type="integer"), ir.Const(1, type="integer"), type="integer")
    ref = ir.ArrayRef("A", [i1, ir.Var("J", type="integer")], type="double")
    call = ir.FuncCall("SQRT", [ir.Var("X", type="double")], intrinsic=True, type="double")
    return ir.BinOp("sub", ir.BinOp("mul", ref, call, type="double"), ir.Const(2, type="integer"), type="double")


def test_children_and_walk_in_source_order() -> None:
    expr = _expr()
    assert [name for name, _ in expr.children()] == ["left", "right"]
    ref = expr.left.left
    assert [name for name, _ in ref.children()] == ["indices[0]", "indices[1]"]
    names = [n.name for n in ir.walk(expr) if isinstance(n, ir.Var)]
    assert names == ["I", "J", "X"]


def test_visitor_generic_visit_and_values() -> None:
    class Vars(ir.NodeVisitor):
        def __init__(self) -> None:
            self.seen: list[str] = []

        def visit_Var(self, node: ir.Var) -> None:
            self.seen.append(node.name)

    v = Vars()
    v.visit(_expr())
    assert v.seen == ["I", "J", "X"]

    class Depth(ir.NodeVisitor):  # value-returning, c_generator style
        def generic_visit(self, node: ir.Node) -> int:
            return 1 + max((self.visit(c) for _, c in node.children()), default=0)

    assert Depth().visit(_expr()) == 5  # sub → mul → ArrayRef → add → I


def test_bodies_of_compound_statements() -> None:
    loc = ir.Loc("f.f", 1)
    inner = ir.Continue(loc=loc)
    arm = ir.IfArm(ir.Const(True, type="logical"), [inner])
    stmt = ir.If([arm], orelse=[ir.Pause(loc=loc)], loc=loc)
    loop = ir.Do("I", ir.Const(1), ir.Const(3), None, [stmt], loc=loc)
    assert ir.child_bodies(stmt) == [[inner], stmt.orelse]
    assert [type(s).__name__ for s in ir.walk_stmts([loop])] == ["Do", "If", "Continue", "Pause"]
    assert ir.own_exprs(stmt) == [arm.cond]
