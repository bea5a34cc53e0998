"""Source iterations per pass of a compiled loop (sad.predict.incore.vector_width, pass_iterations): read from
how far the loop's addresses advance, whatever made a pass cover several (the vectorizer, an unroll, both)."""
from __future__ import annotations

import shutil

import pytest

from sad.analysis.pipeline import analyze
from sad.predict import compiled as cc
from sad.predict.incore import compiled_bounds, compiled_loop, pass_iterations, vector_width
from sad.predict.sourceloops import source_loops
from tests.predict.test_incore import HIER, ROOT, compiled_source

needs_mca = pytest.mark.skipif(shutil.which("llvm-mca") is None or shutil.which("gcc") is None,
                               reason="llvm-mca and gcc are needed for the compiled-code model")

SUM_C = """#include <stdio.h>
#define N 4000000
static double a[N];
static long k[N];
int main(void) {
    int i, r; double s = 0; long t = 0;
    for (i = 0; i < N; i++) a[i] = i;
    for (r = 0; r < 4; r++)
        for (i = 0; i < N; i++)
            s += a[i];
    for (i = 0; i < N; i++) t += k[i];
    printf("%g %ld\\n", s, t);
    return 0;
}
"""


def _sum(tmp_path, spec="gcc -O2"):
    return compiled_source(tmp_path, "sum.c", SUM_C, spec)


@needs_mca
def test_an_in_order_reduction_prices_two_source_iterations_a_pass(tmp_path):
    # gcc 12 -O2 vectorizes s += a[i] (no -ffast-math: a fold-left reduction) into a loop of two scalar addsd a
    # pass, the pointer advancing 16 bytes, and no store: two source iterations a pass
    loops, cf, file = _sum(tmp_path)
    if 9 not in cf.vectorized:
        pytest.skip("this gcc does not vectorize the reduction at -O2")
    asm, vector_bytes = compiled_loop(loops[9], cf, file) or (None, 0)
    assert asm is not None and not asm.packed
    assert [i.split()[0] for i in asm.instructions].count("addsd") == 2
    assert cc.address_advances(asm.instructions) == [(16, False), (16, False)]
    bounds = compiled_bounds(loops[9], cf, file, HIER, "gcc -O2")
    assert bounds is not None and bounds.width == 2
    # hand-derived: one pass is llvm-mca's cycles for the body (bound by the two addsd in a chain), per source
    # iteration half of it; the accumulator chain is one addsd (register form) a source iteration
    addsd = cc.mca(("addsd\t%xmm15, %xmm0",)).latencies[0]
    cycles = cc.mca(tuple(asm.instructions)).cycles
    assert cycles == pytest.approx(2 * addsd, rel=0.02)
    assert bounds.core_s == pytest.approx(cycles / 2 / HIER.clock_hz)
    assert bounds.latency_s == pytest.approx(addsd / HIER.clock_hz)


@needs_mca
def test_an_unrolled_loop_covers_its_unroll_times_the_vector(tmp_path):
    # -funroll-loops: eight pairs of addsd a pass, the pointer advancing 128 bytes = 16 doubles
    loops, cf, file = _sum(tmp_path, "gcc -O2 -funroll-loops")
    asm, vector_bytes = compiled_loop(loops[9], cf, file) or (None, 0)
    assert asm is not None
    adds = [i.split()[0] for i in asm.instructions].count("addsd")
    assert {a for a, _ in cc.address_advances(asm.instructions)} == {8 * adds}
    assert vector_width(asm, loops[9], vector_bytes, 9 in cf.vectorized) == adds


def test_a_scalar_loop_unrolled_by_four_on_a_scaled_counter(tmp_path):
    # clang's unroll by 4 of s += a[i]: the counter moves 4, each address scales it by 8
    loop = next(lp for lp in source_loops(_program(tmp_path, SUM_C)) if lp.line == 9)
    body = ["addsd\t(%rdi,%rax,8), %xmm0", "addsd\t8(%rdi,%rax,8), %xmm0", "addsd\t16(%rdi,%rax,8), %xmm0",
            "addsd\t24(%rdi,%rax,8), %xmm0", "addq\t$4, %rax", "cmpq\t%rax, %rsi", "jne\t.LBB0_3"]
    asm = cc.AsmLoop("main", 0, len(body) - 1, body)
    assert pass_iterations(asm, loop) == 4
    assert vector_width(asm, loop, 0, False) == 4
    # the same body with the counter moved by something else than a constant: its addresses tell nothing
    moved = body[:4] + ["addq\t%rcx, %rax"] + body[5:]
    assert pass_iterations(cc.AsmLoop("main", 0, len(moved) - 1, moved), loop) is None


def test_elements_of_an_inexact_size_tell_no_count(tmp_path):
    # k[i] is a C long, "integer" in the IR as an int is: 16 bytes a pass may be two longs or four ints
    loop = next(lp for lp in source_loops(_program(tmp_path, SUM_C)) if lp.line == 11)
    body = ["addq\t(%rax), %rdx", "addq\t$16, %rax", "addq\t-8(%rax), %rdx", "cmpq\t%rax, %rcx", "jne\t.L5"]
    assert pass_iterations(cc.AsmLoop("main", 0, 4, body), loop) is None
    assert vector_width(cc.AsmLoop("main", 0, 4, body), loop, 0, True) == 1


COLUMN_C = """static double A[1000][1000], b[1000];
void f(int j) {
    int i;
    for (i = 1; i < 1000; i++)
        A[i][j] = A[i - 1][j] * b[i];
}
"""


def test_a_column_walk_moves_rows_a_pass_beside_the_row_references(tmp_path):
    # unrolled by 2 (gcc -O3's predictive commoning): b[i] advances 16 bytes, A's column two rows (16000 bytes)
    loop = source_loops(_program(tmp_path, COLUMN_C))[0]
    body = ["movsd\t(%rdx), %xmm1", "mulsd\t(%rax), %xmm0", "addq\t$16, %rax", "movsd\t%xmm0, (%rcx)",
            "mulsd\t8(%rax), %xmm0", "addq\t$16000, %rcx", "movsd\t%xmm0, -8000(%rcx)", "addq\t$16000, %rdx",
            "cmpq\t%rax, %rsi", "jne\t.L3"]
    assert pass_iterations(cc.AsmLoop("f", 0, len(body) - 1, body), loop) == 2
    # b[i] 24 bytes a pass would be three iterations, but the column's two rows are not three of anything
    odd = [t.replace("$16,", "$24,") for t in body]
    assert pass_iterations(cc.AsmLoop("f", 0, len(odd) - 1, odd), loop) is None


CELLS_C = """static double p[64][4], b[64][64], c[64];
void f(void) {
    int ip, i1, j1, k;
    for (ip = 0; ip < 64; ip++) {
        i1 = (int)p[ip][0];
        j1 = (int)p[ip][1];
        i1 &= 63;
        j1 &= 63;
        k = ip + 1;
        p[ip][2] += b[j1][i1]MORE;
    }
}
"""
CELLS_BODY = ["cvttsd2sil\t(%rdx), %eax", "cvttsd2sil\t8(%rdx), %r8d", "andl\t$63, %eax", "andl\t$63, %r8d",
              "salq\t$6, %r8", "addq\t%r8, %rax", "addq\t$32, %rdx", "movsd\t(%rcx,%rax,8), %xmm0",
              "addsd\t-16(%rdx), %xmm0", "movsd\t%xmm0, -16(%rdx)", "cmpq\t%rdx, %rsi", "jne\t.L3"]


def test_a_subscript_the_data_chooses_does_not_move_with_the_loop(tmp_path):
    # Livermore loop 13: i1 = (int)p[ip][0] and j1 pick b's element, so only p's rows (32 bytes) move a pass;
    # taking b[j1][i1] as moving by a double an iteration made that four source iterations a pass (4x too fast)
    loop = source_loops(_program(tmp_path, CELLS_C.replace("MORE", "")))[0]
    asm = cc.AsmLoop("f", 0, len(CELLS_BODY) - 1, CELLS_BODY)
    assert pass_iterations(asm, loop) is None
    assert vector_width(asm, loop, 0, False) == 1


def test_a_subscript_computed_from_the_index_moves_with_it(tmp_path):
    # c[k - 1] with k = ip + 1 moves as ip does: its address advancing 16 bytes a pass is two source iterations
    loop = source_loops(_program(tmp_path, CELLS_C.replace("MORE", " + c[k - 1]")))[0]
    body = CELLS_BODY[:6] + ["addq\t$64, %rdx", "addq\t$16, %rdi", "addsd\t(%rdi), %xmm0"] + CELLS_BODY[7:]
    assert pass_iterations(cc.AsmLoop("f", 0, len(body) - 1, body), loop) == 2


def _program(tmp_path, text: str):
    src = tmp_path / "k.c"
    src.write_text(text)
    return analyze([str(src)]).program


def _fortran(path: str):
    src = ROOT / path
    loops = {lp.line: lp for lp in source_loops(analyze([str(src)]).program)}
    cf = cc.compiled_file(src, "gcc -O2")
    assert isinstance(cf, cc.CompiledFile)
    return loops, cf, str(src.resolve())


@needs_mca
def test_a_loop_of_step_four_unrolled_by_hand_is_one_source_iteration_a_pass():
    # DO 20 I = M + 1, N, 4 with X(I..I+3)*Y(I..I+3): gcc -O2 packs the four products in two 16-byte vectors and
    # adds them in order; X and Y advance 32 bytes a pass = 4 x 8, the source's step: one iteration a pass
    loops, cf, file = _fortran("corpus/check/after/dot.f")
    asm, vector_bytes = compiled_loop(loops[12], cf, file) or (None, 0)
    assert asm is not None and asm.packed
    assert {a for a, _ in cc.address_advances(asm.instructions)} == {32}
    bounds = compiled_bounds(loops[12], cf, file, HIER, "gcc -O2")
    assert bounds is not None and bounds.width == 1
    cycles = max(cc.mca(tuple(asm.instructions)).cycles, cc.register_chain(asm.instructions))
    assert bounds.core_s == pytest.approx(cycles / HIER.clock_hz)


@needs_mca
def test_an_element_through_a_variable_the_loop_assigns_moves_with_it():
    # IC = IX + (IY - 1)*MX + ...; W(IC) = W(IC) + DBLE(IT*IX + IY - IZ): four ints a 16-byte vector, four
    # doubles stored a pass (32 bytes): W(IC) moves as IX does, four source iterations a pass
    loops, cf, file = _fortran("corpus/kernels/paramdirect.f")
    asm, vector_bytes = compiled_loop(loops[22], cf, file) or (None, 0)
    assert asm is not None and vector_bytes == 16
    assert max(a for a, store in cc.address_advances(asm.instructions) if store) == 32
    assert vector_width(asm, loops[22], vector_bytes, True) == 4
