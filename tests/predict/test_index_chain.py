"""At -O0 the loop's index lives in memory (``addl $1, -4(%rbp)``, ``cmpl $1999, -4(%rbp)``, its loads for the
subscripts): a pass costs at least the machine's measured empty counted loop (``control.loop_iter``, timed by
`sad calibrate` with the same flags). The forwarding figure of a load-add-store (timed at -O2) put that chain at
0.2 ns + a cycle, 0.54 ns, on an Emerald Rapids VM where the -O0 empty loop runs 1.4-2.2 ns (2.0 calibrated)
and ``c[j] = 1.0`` 2.1-2.3 ns (1.22 predicted without it). At -O2 the index is in a register: no such floor."""
from __future__ import annotations

import io
import re

import pytest

from sad.cli.main import run
from sad.predict import compiled as cc
from sad.predict.incore import index_chain
from tests.predict.loop_nests import host_machine

FILL = """#include <stdio.h>
static double c[2000];
int main(void) {
    int j, r;
    for (r = 0; r < 100; r++)
        for (j = 0; j < 2000; j++)
            c[j] = 1.0;
    printf("%g\\n", c[3]);
    return 0;
}
"""


def test_the_index_chain_is_the_empty_loop_per_source_iteration():
    assert index_chain(2e-9, 1) == 2e-9
    assert index_chain(2e-9, 4) == 0.5e-9     # a pass over four source iterations
    assert index_chain(0.0, 1) == 0.0         # not measured: no floor


def _row(tmp_path, compile_command: str, loop_iter: str) -> str:
    src = tmp_path / "fill.c"
    src.write_text(FILL)
    machine = host_machine(tmp_path, compile_command)
    machine.write_text(machine.read_text().replace("    loop_iter: 0.4 ns", f"    loop_iter: {loop_iter}", 1))
    out, err = io.StringIO(), io.StringIO()
    assert run(["analyze", str(src), "-m", str(machine), "--explain"], out, err) == 0
    return next(t for t in out.getvalue().splitlines() if "fill.c:6 " in t and "per iteration" in t)


@pytest.mark.skipif(cc.available() is not None, reason="gcc and llvm-mca are needed for the compiled-code model")
def test_an_o0_pass_costs_at_least_the_measured_empty_loop(tmp_path):
    # an empty loop measured at 10 ns is the least a pass takes; one at 0.4 ns is not, and the index chain is
    # the test machine's forwarding (2.8 ns) + the cycles of the add to memory at 2.5 GHz
    row = _row(tmp_path, "gcc -O0", "10 ns")
    assert "latency chain through memory 10 ns" in row
    # the floor is the longer: half of the core's figure is added to it (sad.predict.overlap.chained; the test
    # machine has no measured chain_share, so the default share, said so)
    assert row.endswith("bound: core and index chain (the longer + 0.5 x the shorter, not measured on this machine)")
    core = float(re.search(r"core \(llvm-mca\) ([\d.]+) ns", row).group(1))
    both = float(re.search(r"on this machine\) ([\d.]+) ns", row).group(1))
    assert core < 10 and both == pytest.approx(10 + 0.5 * core, abs=0.05)
    chain = float(re.search(r"latency chain through memory ([\d.]+) ns", _row(tmp_path, "gcc -O0", "0.4 ns")).group(1))
    # whole cycles of llvm-mca's model of this host's core: 3 in sapphirerapids', 4 in znver3's (an Emerald
    # Rapids and a Zen 4 host), so 4 ns and 4.4 ns
    cycles = (chain - 2.8) / 0.4
    assert cycles == pytest.approx(round(cycles), abs=0.02) and 1 <= round(cycles) <= 5
    assert "latency chain through memory 10 ns" not in _row(tmp_path, "gcc -O2", "10 ns")


EMPTY = """#include <stdio.h>
int main(void) {
    int i, r;
    volatile int seen = 0;
    for (r = 0; r < 1000; r++) {
        for (i = 0; i < 2000; i++)
            ;
        seen = seen + i;
    }
    printf("%d\\n", seen);
    return 0;
}
"""


@pytest.mark.skipif(cc.available() is not None, reason="gcc and llvm-mca are needed for the compiled-code model")
def test_a_loop_the_compiler_removed_costs_nothing(tmp_path):
    """gcc -O2 deletes the empty loop (no instruction comes from lines 6-7): its 2 000 000 iterations cost 0,
    where the operation classes priced them before; at -O0 the loop is there and priced from its code."""
    src = tmp_path / "empty.c"
    src.write_text(EMPTY)
    rows, warned = {}, {}
    for level in ("gcc -O2", "gcc -O0"):
        out, err = io.StringIO(), io.StringIO()
        assert run(["analyze", str(src), "-m", str(host_machine(tmp_path, level)), "--explain"], out, err) == 0
        rows[level], warned[level] = out.getvalue(), err.getvalue()
    removed = rows["gcc -O2"]
    assert "empty.c:6: warning: 1 innermost loop (line 6) not in the code `gcc -O2` generates (no instruction " \
        "comes from its lines): removed by the compiler, priced as none" in warned["gcc -O2"]
    assert "removed by the compiler" not in warned["gcc -O0"]
    assert "empty.c:6  0 s; per iteration core (llvm-mca) 0 ns" in removed
    assert "no instruction comes from its lines: the compiler removed the loop" in removed
    assert "1 of 1 innermost loops priced from the compiled code (gcc -O2), 1 of them removed by the compiler" \
        in removed
    assert "the compiler removed the loop" not in rows["gcc -O0"] and "removed by the compiler" not in rows["gcc -O0"]
