"""A loop that calls routines of the program with no loop, call or I/O of their own (``static inline double
sq(double)``, a weight function kept out of line) is priced from its compiled code: a call the compiler kept
costs the call itself there (the routine's own blocks price its work), and a routine it inlined is in the loop's
core, so its own blocks are priced as none where every call of it comes from such loops. Before, such a loop
was priced per operation: calls_loop of benchmarks/devkernels12 at -O2, 1.14 s predicted, 0.60 s measured;
0.90 s now (its chain through the stack slot that keeps the sum across the call binds it). A loop calling a
routine with loops of its own stays per operation."""
from __future__ import annotations

import shutil

import pytest

from sad.analysis.description import group_blocks
from sad.analysis.pipeline import analyze
from sad.machine.model import load_machine
from sad.predict.loopcost import LoopCoverage, price_loops
from tests.predict.loop_nests import explain_compiled, host_machine

CALLS = """double a[4096], b[4096];
__attribute__((noinline)) double weight(double x, double y)
{
    return x * y + 0.25 * (x - y);
}
static inline double sq(double x)
{
    return x * x;
}
double total(int n)
{
    double t = 0.0;
    for (int i = 0; i < n; i++)
        t += a[i];
    return t;
}
int main(int argc, char **argv)
{
    double s = 0.0;
    for (int i = 0; i < 4096; i++)
        b[i] = (a[i] = i * argc) - 1.0;
    for (int r = 0; r < 100; r++)
        for (int i = 0; i < 4096; i++)
            s += sq(a[i]) + weight(a[i], b[i]);
    for (int r = 0; r < 10; r++)
        s += total(4096);
    return s > 0;
}
"""


@pytest.mark.skipif(not (shutil.which("gcc") and shutil.which("llvm-mca")), reason="needs gcc, llvm-mca")
def test_a_loop_calling_leaf_routines_is_priced_from_its_compiled_code(tmp_path):
    out, err = explain_compiled(tmp_path, "calls.c", CALLS, "gcc -O2")
    # the fill, the leaf-calling loop and total's loop; the loop calling total (it has a loop) per operation
    assert "3 of 4 innermost loops priced from the compiled code" in out, out
    assert "line 25, a loop that calls routines with loops, calls or I/O of their own" in err, err
    assert "calls: weight 0 ns per iteration" in out       # kept as a call: its own blocks price its work


@pytest.mark.skipif(not (shutil.which("gcc") and shutil.which("llvm-mca")), reason="needs gcc, llvm-mca")
def test_an_inlined_leaf_is_priced_once(tmp_path):
    src = tmp_path / "calls.c"
    src.write_text(CALLS)
    analysis = analyze([str(src)])
    blocks = group_blocks(analysis.counts)
    overrides, _ = price_loops(analysis, blocks, load_machine(host_machine(tmp_path, "gcc -O2")))
    by_routine = {b.procedure: overrides.get(id(b)) for b in blocks if b.procedure in ("sq", "weight")}
    assert by_routine == {"sq": 0, "weight": None}         # sq in the loop's core; weight's blocks keep theirs


@pytest.mark.skipif(not (shutil.which("gcc") and shutil.which("llvm-mca")), reason="needs gcc, llvm-mca")
def test_an_inlined_leaf_called_elsewhere_too_is_said_to_count_twice(tmp_path):
    src = tmp_path / "calls.c"
    src.write_text(CALLS.replace("    return s > 0;", "    s += sq(s);\n    return s > 0;"))
    analysis = analyze([str(src)])
    blocks = group_blocks(analysis.counts)
    coverage = LoopCoverage()
    overrides, _ = price_loops(analysis, blocks, load_machine(host_machine(tmp_path, "gcc -O2")), coverage=coverage)
    assert all(id(b) not in overrides for b in blocks if b.procedure == "sq")
    warned = [d for d in coverage.warnings if "count its work twice" in d.message]
    assert [(d.loc.line, d.message.split(" is inlined")[0]) for d in warned] == [(23, "sq")]
