"""A C pointer walk (`while (p < end) *p++ = 0.5 * *q++`, a for over a pointer) is priced as the counted loop it
is (sad.predict.pointerwalks): its elements are its bases' (`*p` is v's element at the walk's offset, `*q`
w's), so the data part sees two unit-stride streams, and the compiled loop prices its core. Before, every
while loop was priced per operation: countdown of benchmarks/devkernels12 at -O2, 1.52 s predicted against
0.55 s measured (its walk 2.75 ns an iteration per operation, about 0.3 compiled); now 0.58 s."""
from __future__ import annotations

import shutil

import pytest

from sad.analysis.pipeline import analyze
from sad.predict.sourceloops import source_loops
from tests.predict.loop_nests import explain_compiled, inner_loop

WALK = """static double v[4096], w[4096];
int main(void) {
    double *p = v, *q = w, *end = v + 4000;
    while (p < end)
        *p++ = 0.5 * *q++ + 1e-9;
    double s = 0.0;
    for (const double *r = w + 3999; r >= w + 1; r -= 2)
        s += r[0] * r[-1];
    return s > 0;
}
"""


def test_a_walk_is_a_loop_over_its_bases_elements(tmp_path):
    loop, _trips = inner_loop(tmp_path, WALK, 4)
    assert loop.index == "p__k" and len(loop.nest) == 1
    refs = {(r.array, str(r.indices[0]), r.write) for r in loop.refs}
    # p from v's element 0, q from w's: q's offset is k - 0 + 0 as p's moves
    assert refs == {("v", "Var(type='integer', name='p__k')", True),
                    ("w", "BinOp(type='integer', op='add', left=Const(type='integer', value=0), right=BinOp("
                          "type='integer', op='sub', left=Var(type='integer', name='p__k'), right=Const("
                          "type='integer', value=0)))", False)}
    down, _ = inner_loop(tmp_path, WALK, 7)
    # r from w's element 3 999 down by twos while at or above element 1: the last pass at offset 0 + 1
    assert down.nest[-1].step.value == -2 and str(down.nest[-1].hi) == \
        "BinOp(type='integer', op='add', left=Const(type='integer', value=0), right=Const(type='integer', value=1))"
    assert sorted(r.array for r in down.refs) == ["w", "w"]


@pytest.mark.skipif(not (shutil.which("gcc") and shutil.which("llvm-mca")), reason="needs gcc, llvm-mca")
def test_a_walk_is_priced_from_the_compiled_code(tmp_path):
    out, err = explain_compiled(tmp_path, "walk.c", WALK, "gcc -O2")
    assert "2 of 2 innermost loops priced from the compiled code" in out, out
    assert "a while loop" not in err
    row = next(line for line in out.splitlines() if "walk.c:4 " in line and "per iteration" in line)
    assert "data" in row      # the two streams of v and w are priced, not only the core


def test_a_walk_whose_pointer_escapes_stays_per_operation(tmp_path):
    # the pointer read as a value (compared with another): no element of a base stands for it
    src = tmp_path / "escape.c"
    src.write_text(WALK.replace("*p++ = 0.5 * *q++ + 1e-9;", "{ *p = 0.5 * *q++ + (p == q); p++; }"))
    skipped: list = []
    loops = source_loops(analyze([str(src)]).program, skipped)
    assert [lp.line for lp in loops] == [7]
    assert [(loc.line, why) for loc, why in skipped] == \
        [(4, "a while loop that walks no pointer from a known start to a known bound")]
