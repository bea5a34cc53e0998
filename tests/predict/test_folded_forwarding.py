"""A chain through a stack slot whose load is folded into an operation (gcc -O0's ``xorl -12(%rbp), %eax`` in
``h = (h ^ v[i]) * 16777619``) pays the forwarding a folded load gets (``hierarchy.forward_folded``), not the
plain load's, which AMD Zen renames (0.35 ns here against 2.4 ns; the loop runs 3.6 ns an iteration where the
renamed chain would take 1.4). Hand-derived; no timing."""
from __future__ import annotations

import dataclasses

import pytest

from sad.machine import hierarchy as hier
from sad.predict import compiled as cc
from sad.predict.incore import forwarding_seconds
from tests.predict.loop_nests import forwarding_runs

HASHMIX_O0 = ["movl -8(%rbp), %eax", "cltq", "leaq 0(,%rax,4), %rdx", "leaq v(%rip), %rax",
              "movl (%rdx,%rax), %eax", "xorl -12(%rbp), %eax", "imull $16777619, %eax, %eax",
              "movl %eax, -12(%rbp)", "addl $1, -8(%rbp)", "cmpl $4095, -8(%rbp)", "jle .L6"]
# llvm-mca's latencies of the kind it reports: an operation with a memory operand includes the load (4 cycles)
LATENCIES = (5.0, 1.0, 1.0, 1.0, 5.0, 5.0, 3.0, 1.0, 6.0, 5.0, 1.0)

HOST = hier.Hierarchy(clock_hz=2.5e9, line_bytes=64, levels=(hier.Level("memory", None, 6e-9, 8e-9, 12e-9, 14e-9),),
                      forward_s=0.4e-9, forward_fp_s=3.2e-9, forward_folded_s=2.4e-9)


def test_the_hash_chain_is_found_through_a_folded_load():
    chains = {c.slot: c for c in cc.memory_chains(HASHMIX_O0, LATENCIES, load_cycles=4)}
    # h: the xor's own cycle (5 - 4 of load-to-use) and the multiply's 3, its load folded into the xor
    assert chains["-12(%rbp)"] == cc.MemoryChain("-12(%rbp)", False, 4.0, True)
    # the index: a read-modify-write in one instruction, not a folded load of a chain
    assert not chains["-8(%rbp)"].folded


def test_a_folded_chain_pays_the_folded_forwarding():
    chain = cc.MemoryChain("-12(%rbp)", False, 4.0, True)
    assert forwarding_seconds(chain, HOST) == 2.4e-9
    assert forwarding_seconds(dataclasses.replace(chain, folded=False), HOST) == 0.4e-9
    assert forwarding_seconds(dataclasses.replace(chain, floating=True), HOST) == 3.2e-9
    # a machine calibrated before the figure existed: the plain forwarding stands in (loopcost warns)
    older = dataclasses.replace(HOST, forward_folded_s=0.0)
    assert forwarding_seconds(chain, older) == pytest.approx(0.4e-9)


HASHMIX_C = """#include <stdio.h>
static unsigned v[4096];
int main(void) {
    int r, i;
    unsigned h = 2166136261u;
    for (r = 0; r < 100; r++)
        for (i = 0; i < 4096; i++)
            h = (h ^ v[i]) * 16777619u;
    printf("%u\\n", h);
    return 0;
}
"""


@pytest.mark.skipif(cc.available() is not None, reason="gcc and llvm-mca are needed for the compiled-code model")
def test_the_compiled_hash_loop_waits_for_the_folded_forwarding(tmp_path):
    # gcc -O0 reads h with xorl -12(%rbp): 20 ns of folded forwarding + xor and imul (1 + 3 cycles at 2.5 GHz)
    row, err, missing = forwarding_runs(tmp_path, "hash.c", HASHMIX_C, "forward_folded", 7)
    assert "latency chain through memory 21.6 ns" in row and "hierarchy.forward_folded" not in err
    assert "hash.c:7: warning: 1 innermost loop (line 7): a chain through memory whose load is folded" in missing


# gfortran -O0's V(I, J) = U(I - 1, J) ... over I: each address is J * 1200 (imulq's three-operand form, which
# does not read %rdx) + I, scaled; the loop index I lives at -4(%rbp) and is stepped in memory
JACOBI_O0 = ["movl -8(%rbp), %eax", "cltq", "imulq $1200, %rax, %rdx", "movl -4(%rbp), %eax", "cltq",
             "addq %rdx, %rax", "leaq 0(,%rax,8), %rdx", "leaq u(%rip), %rax", "movsd (%rdx,%rax), %xmm1",
             "movl -8(%rbp), %eax", "cltq", "imulq $1200, %rax, %rdx", "movl -4(%rbp), %eax", "cltq",
             "addq %rdx, %rax", "leaq 0(,%rax,8), %rdx", "leaq v(%rip), %rax", "movsd %xmm1, (%rdx,%rax)",
             "addl $1, -4(%rbp)"]
JACOBI_LATENCIES = (5.0, 1.0, 3.0, 5.0, 1.0, 1.0, 1.0, 1.0, 5.0, 5.0, 1.0, 3.0, 5.0, 1.0, 1.0, 1.0, 1.0, 1.0, 6.0)


def test_a_three_operand_multiply_does_not_chain_the_addresses_of_a_sweep():
    # the index's chain: its step in memory (1 cycle) and the store's address from the index's load: sign
    # extension, the add of J's row and the scaling lea, 3 cycles. Taking imulq for a reader of %rdx carried
    # the first address into the second (9 cycles here; 35 on the sweep's five addresses, +103 % at -O0)
    (chain,) = cc.memory_chains(JACOBI_O0, JACOBI_LATENCIES, load_cycles=4)
    assert chain == cc.MemoryChain("-4(%rbp)", False, 4.0)
    assert cc.reads_destination("addsd", ["%xmm0", "%xmm1"]) and cc.reads_destination("vfmadd231sd", ["a", "b", "c"])
    assert not cc.reads_destination("imulq", ["$1200", "%rax", "%rdx"])
    assert not cc.reads_destination("vaddsd", ["%xmm0", "%xmm1", "%xmm2"])
