"""Chains through array elements in optimized code (sad.predict.compiled.element_chains, issue 27): an element
stored in one iteration and loaded back in a later one where gcc -O2 cannot keep it in a register (two pointer
arguments that may alias), priced as the calibrated store-to-load forwarding + the host's latencies of the
operations on the chain; and the vector width of a loop whose narrowest type is not its stored element's. Real
gcc and llvm-mca, hand-derived figures."""
from __future__ import annotations

import shutil

import pytest

from sad.analysis.pipeline import analyze
from sad.machine.hierarchy import Hierarchy, Level
from sad.predict import compiled as cc
from sad.predict.incore import compiled_bounds
from sad.predict.sourceloops import source_loops

pytestmark = pytest.mark.skipif(shutil.which("llvm-mca") is None or shutil.which("gcc") is None,
                                reason="gcc and llvm-mca are needed")

CLOCK = 4e9
ALIASED = """void g(double *a, double *b, int n) {
    int i;
    for (i = 1; i < n; i++) {
        a[i] = a[i - 1] + b[i];
        b[i] = a[i] * 2;
    }
}
"""
# gcc 12 -O2 on ALIASED: b[i] may be a[i], so a[i - 1] is loaded back from memory every iteration
ALIASED_ASM = ["movsd\t-8(%rdi,%rax,8), %xmm0", "addsd\t(%rsi,%rax,8), %xmm0", "movsd\t%xmm0, (%rdi,%rax,8)",
               "addsd\t%xmm0, %xmm0", "movsd\t%xmm0, (%rsi,%rax,8)", "addq\t$1, %rax", "cmpq\t%rdx, %rax",
               "jne\t.L8"]
# gcc 12 -O2 on an LCS table: L[i][j] stored from either arm of an if, loaded back as L[i][j - 1]
LCS_ASM = ["movl\t4(%r8,%rax,4), %edx", "movl\t(%rdi,%rax,4), %esi", "cmpl\t%esi, %edx", "cmovl\t%esi, %edx",
           "cmpb\t(%rbx,%rax), %r9b", "jne\t.L5", "movl\t(%r8,%rax,4), %esi", "leal\t1(%rsi), %edx",
           "movl\t%edx, 4(%rdi,%rax,4)", "addq\t$1, %rax", "cmpq\t$3000, %rax", "jne\t.L6"]
# gcc 12 -O2 on a[i][j] += a[i][j - 1]: the running value stays in %xmm0, the element loaded is the next one
PREFIX_ASM = ["addsd\t(%rax), %xmm0", "addq\t$8, %rax", "movsd\t%xmm0, -8(%rax)", "cmpq\t%rax, %rdx", "jne\t.L6"]


def _host() -> Hierarchy:
    # forwarding of a double 1.5 ns; a dependent add 4 cycles (1 ns at 4 GHz)
    return Hierarchy(CLOCK, 64, (Level("L1", 49152, 0.1e-9, 0.2e-9), Level("memory", None, 1e-9, 2e-9)),
                     forward_s=1.2e-9, forward_fp_s=1.5e-9, ops={"add.double": (1e-9, 0.25e-9)})


def test_an_element_stored_and_loaded_back_next_iteration_is_a_chain():
    (chain,) = cc.element_chains(ALIASED_ASM, (5.0, 4.0, 1.0, 4.0, 1.0, 1.0, 1.0, 1.0))
    # stored at (%rdi,%rax,8), loaded at -8(%rdi,%rax,8) with %rax + 1 (8 bytes) an iteration: one iteration
    # later; on the chain the addsd whose other operand (b[i]) comes from memory: its register form, 4 cycles
    assert (chain.store, chain.load, chain.distance, chain.floating, chain.cycles) == \
        ("(%rdi,%rax,8)", "-8(%rdi,%rax,8)", 1, True, 4.0)


def test_no_chain_through_a_branch_arm_or_a_register():
    lcs = cc.element_chains(LCS_ASM, tuple(1.0 for _ in LCS_ASM))
    assert lcs == []           # the diagonal arm stores a value that does not depend on the load
    assert cc.element_chains(PREFIX_ASM, (4.0, 1.0, 1.0, 1.0, 1.0)) == []   # loads a[j + 1], not a[j]


def test_the_chain_of_a_compiled_loop_is_forwarding_plus_the_hosts_add(tmp_path):
    src = tmp_path / "g.c"
    src.write_text(ALIASED)
    loop = source_loops(analyze([str(src)]).program)[0]
    cf = cc.compiled_file(src, "gcc -O2")
    assert isinstance(cf, cc.CompiledFile)
    core = compiled_bounds(loop, cf, str(src.resolve()), _host(), "gcc -O2")
    assert core is not None
    # 1.5 ns forwarding + the addsd on a[i - 1] at the host's 1 ns (measured on this host, an Ice Lake VM:
    # 2.61 ns per iteration where forwarding 1.448 + add 1.157 ns give 2.605; llvm-mca alone 0.6 ns)
    assert core.chain_s == pytest.approx(2.5e-9)


INIT = """double A[200][200];
void init(void) {
    int i, j;
    for (i = 0; i < 200; i++)
        for (j = 0; j < 200; j++)
            A[i][j] = (double)((i + j) % 9);
}
"""


def test_a_loop_vectorized_on_ints_stores_four_doubles_an_iteration(tmp_path):
    src = tmp_path / "init.c"
    src.write_text(INIT)
    loop = source_loops(analyze([str(src)]).program)[0]
    cf = cc.compiled_file(src, "gcc -O2")
    assert isinstance(cf, cc.CompiledFile) and cf.vectorized.get(5) == 16
    core = compiled_bounds(loop, cf, str(src.resolve()), _host(), "gcc -O2")
    # four ints per 16-byte vector: the loop stores 32 bytes (two movaps) an iteration, four doubles
    assert core is not None and core.width == 4
    assert cc.bytes_per_iteration(["movaps\t%xmm1, -32(%rax)", "movaps\t%xmm0, -16(%rax)", "addq\t$32, %rax",
                                   "cmpq\t%rdx, %rax", "jne\t.L2"]) == 32
