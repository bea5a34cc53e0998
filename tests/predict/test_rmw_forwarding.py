"""A chain through a stack slot closed by one read-modify-write of a register's value (gcc -O0's ``addq %rax,
-24(%rbp)`` for an integer ``t = t + b[j]``) pays its own forwarding figure (``hierarchy.forward_rmw``): Intel's
Golden Cove renames a slot's plain loads and its read-modify-writes of a constant (``addl $1, -12(%rbp)``, 1.1
cycles a link on the host it was measured on) but not this form (7.2 cycles a link; the -O0 loop 8 cycles an
iteration where the plain figure gave 1.6). Hand-derived; no timing."""
from __future__ import annotations

import dataclasses

import pytest

from sad.machine import hierarchy as hier
from sad.predict import compiled as cc
from sad.predict.incore import forwarding_seconds
from tests.predict.loop_nests import forwarding_runs

# gcc -O0's `for (j = 0; j < N; j++) t = t + b[j];` with long t at -24(%rbp) and int j at -12(%rbp)
SUM_O0 = ["movl -12(%rbp), %eax", "cltq", "leaq 0(,%rax,8), %rdx", "leaq b(%rip), %rax",
          "movq (%rdx,%rax), %rax", "addq %rax, -24(%rbp)", "addl $1, -12(%rbp)", "cmpl $999, -12(%rbp)",
          "jle .L6"]
LATENCIES = (5.0, 1.0, 1.0, 1.0, 5.0, 6.0, 6.0, 5.0, 1.0)

HOST = hier.Hierarchy(clock_hz=2.5e9, line_bytes=64, levels=(hier.Level("memory", None, 6e-9, 8e-9, 12e-9, 14e-9),),
                      forward_s=0.2e-9, forward_fp_s=2.0e-9, forward_folded_s=0.1e-9, forward_rmw_s=2.4e-9)


def test_the_sum_and_the_index_are_chains_of_one_instruction_each():
    chains = {c.slot: c for c in cc.memory_chains(SUM_O0, LATENCIES, load_cycles=4)}
    # t: read-modify-write of %rax's value; j: of the constant 1; each one cycle of add
    assert chains["-24(%rbp)"] == cc.MemoryChain("-24(%rbp)", False, 1, rmw=True)
    assert chains["-12(%rbp)"] == cc.MemoryChain("-12(%rbp)", False, 1, rmw=False)


def test_a_register_read_modify_write_pays_its_own_forwarding():
    rmw = cc.MemoryChain("-24(%rbp)", False, 1, rmw=True)
    assert forwarding_seconds(rmw, HOST) == 2.4e-9
    assert forwarding_seconds(dataclasses.replace(rmw, rmw=False), HOST) == 0.2e-9
    # a machine calibrated before the figure existed: the plain forwarding stands in (loopcost warns)
    assert forwarding_seconds(rmw, dataclasses.replace(HOST, forward_rmw_s=0.0)) == pytest.approx(0.2e-9)


SUM_C = """#include <stdio.h>
static long b[1000];
int main(void) {
    long r, t = 0;
    int j;
    for (j = 0; j < 1000; j++) b[j] = j;
    for (r = 0; r < 1000; r++)
        for (j = 0; j < 1000; j++)
            t = t + b[j];
    printf("%ld\\n", t);
    return 0;
}
"""


@pytest.mark.skipif(cc.available() is not None, reason="gcc and llvm-mca are needed for the compiled-code model")
def test_the_compiled_integer_sum_waits_for_the_read_modify_write_forwarding(tmp_path):
    # gcc -O0 adds b[j] into t with addq %rax, -24(%rbp): 20 ns of forwarding + the add's cycle at 2.5 GHz
    row, err, missing = forwarding_runs(tmp_path, "isum.c", SUM_C, "forward_rmw", 8)
    assert "latency chain through memory 20.4 ns" in row and "hierarchy.forward_rmw" not in err
    assert "isum.c:8: warning: 1 innermost loop (line 8): a chain through memory closed by a read-modify-write" \
        in missing
