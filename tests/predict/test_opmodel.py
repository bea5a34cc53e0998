"""The in-core model of loops not priced from compiled code: calibrated operation classes, throughput bound
versus the latency of the loop-carried chain (sad.predict.opmodel), hand-derived."""
from __future__ import annotations

from pathlib import Path

import pytest
import sympy

from sad.analysis.cost import Layout
from sad.analysis.description import group_blocks
from sad.analysis.pipeline import analyze
from sad.machine import hierarchy as hier
from sad.machine.model import load_machine
from sad.predict import compiled as cc
from sad.predict import incore, opmodel
from sad.predict.loopcost import price_loops, source_loops

ROOT = Path(__file__).resolve().parents[2]

HIER = hier.Hierarchy(clock_hz=2.5e9, line_bytes=64, levels=(
    hier.Level("L1", 32 * 1024, 0.3e-9, 0.4e-9), hier.Level("memory", None, 6.0e-9, 8.0e-9)),
    forward_s=2.8e-9, forward_fp_s=3.2e-9,
    ops={"add.double": (1.2e-9, 0.2e-9), "mul.double": (1.6e-9, 0.25e-9), "div.double": (5.2e-9, 1.8e-9),
         "add.integer": (0.4e-9, 0.15e-9)})

DOT = """double dot(double *a, double *b, int n) {
    int i; double s = 0;
    for (i = 0; i < n; i++)
        s = s + a[i] * b[i];
    return s;
}
"""


def _loop(tmp_path, text: str, name: str = "k.c"):
    src = tmp_path / name
    src.write_text(text)
    analysis = analyze([str(src)])
    return analysis, source_loops(analysis.program)[0]


def test_operation_classes_cover_their_relatives():
    assert opmodel.op_class("sub.real") == "add.double"
    assert opmodel.op_class("compare.integer") == "add.integer"
    assert opmodel.op_class("div.double") == "div.double"
    assert opmodel.op_class("load.double") is None and opmodel.op_class("pow.double") is None


def test_dot_product_throughput_and_latency_bounds(tmp_path):
    _, loop = _loop(tmp_path, DOT)
    body, layout = loop.nest[-1].body, Layout(loop.index, loop.fastest)
    assert opmodel.iteration_ops(body, layout) == {"load.double": 2, "index": 2, "mul.double": 1, "add.double": 1,
                                                   "assign.double": 1}
    tp, lat = opmodel.core_seconds(body, layout, HIER, lambda key: 0.1e-9, in_memory=False)
    # throughput: add 0.2 + mul 0.25 + (2 loads, 2 subscripts, 1 assignment, the loop's increment) x 0.1 ns
    assert tp == pytest.approx(0.2e-9 + 0.25e-9 + 6 * 0.1e-9)
    # latency: s's chain is the add alone (the product does not depend on s); in registers at -O2
    assert lat == pytest.approx(1.2e-9)
    _, lat0 = opmodel.core_seconds(body, layout, HIER, lambda key: 0.1e-9, in_memory=True)
    assert lat0 == pytest.approx(1.2e-9 + 3.2e-9)      # -O0: s lives on the stack, + FP store-to-load forwarding


def test_chain_through_a_division_and_a_multiply(tmp_path):
    _, loop = _loop(tmp_path, DOT.replace("s = s + a[i] * b[i]", "s = (s * a[i]) / b[i] + 1.0"))
    lat = opmodel.chain_seconds(loop.nest[-1].body, HIER, in_memory=False)
    assert lat == pytest.approx(1.6e-9 + 5.2e-9 + 1.2e-9)   # mul, then div, then add, all on s's path


def test_machine_without_a_compiler_prices_innermost_loops_from_operation_classes(tmp_path):
    src = tmp_path / "dot.c"
    src.write_text(DOT)
    text = (ROOT / "machine_db" / "sparc2.yaml").read_text()   # no models.compile: nothing to compile with
    text += ("hierarchy:\n  clock: 2500 MHz\n  forward_fp: 3.2 ns\n  ops:\n"
             "    add.double: {latency: 30 us, throughput: 0.2 ns}\n"
             "    mul.double: {latency: 1.6 ns, throughput: 0.25 ns}\n"
             "  levels:\n    - {name: L1, size: 32 KiB, read: 0.3 ns, write: 0.4 ns}\n"
             "    - {name: memory, read: 6 ns, write: 8 ns}\n")
    (tmp_path / "host.yaml").write_text(text)
    analysis = analyze([str(src)])
    blocks = group_blocks(analysis.counts)
    overrides, explained = price_loops(analysis, blocks, load_machine(tmp_path / "host.yaml"))
    (loop,) = explained
    assert loop.source == "operation classes"
    # the 30 us add latency (+ 3.2 ns forwarding: no -O flag, variables in memory) bounds the iteration,
    # above the sparc2 per-operation prices of its loads and subscripts (~1 us)
    assert loop.chain_s == pytest.approx(30.0032e-6)
    block = next(b for b in blocks if b.kind == "loop_iter" and b.first_line == 3)
    at = {s: 100 for s in overrides[id(block)].free_symbols}
    # + half the core's figure, the shorter (sad.predict.overlap.chained)
    assert 0.5e-6 < loop.core_s < 2e-6
    assert float(sympy.sympify(overrides[id(block)]).xreplace(at)) == pytest.approx(30.0032e-6 + 0.5 * loop.core_s)


COLSUM = """void colsum(double *a, double *x, double *y, int n) {
    int i, j;
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++) {
            x[j] = x[j] + a[i * n + j];
            y[i] = y[i] + a[i * n + j];
        }
}
"""


def test_an_element_updated_in_place_is_a_chain_one_whose_subscript_moves_is_not(tmp_path):
    _, loop = _loop(tmp_path, COLSUM)
    body = loop.nest[-1].body
    # x[j] with j fixed in the loop on i: its add is on the chain; y[i] moves with i: no chain
    assert opmodel.element_chain_seconds(body, loop.index, HIER, 0.4e-9) == pytest.approx(1.2e-9)
    assert opmodel.element_chain_seconds(body[1:] if len(body) > 1 else [], loop.index, HIER, 0.4e-9) == 0.0
    no_classes = hier.Hierarchy(2.5e9, 64, HIER.levels)
    assert opmodel.element_chain_seconds(body, loop.index, no_classes, 0.4e-9) == pytest.approx(3 * 0.4e-9)


def test_invariant_store_is_a_memory_chain_only_when_the_loop_reloads_it():
    from sad.predict import compiled as cc
    kept = ["addsd\t(%rcx), %xmm0", "addl\t$1, %eax", "addq\t%r9, %rcx", "movsd\t%xmm0, (%rsi)",
            "cmpl\t%eax, %edx", "jne\t.L4"]                  # gcc -O2: the sum stays in xmm0, stored each time
    reloaded = ["movsd\t(%rsi), %xmm0", "addsd\t(%rcx), %xmm0", "addq\t%r9, %rcx", "movsd\t%xmm0, (%rsi)",
                "cmpq\t%rcx, %rdx", "jne\t.L4"]
    assert cc.invariant_stores(kept) == []
    assert cc.invariant_stores(reloaded) == ["(%rsi)"]


RECUR = """void f(int n, double *x, double t) {
    int i; double v;
    for (i = 1; i < n; i++) x[i] = x[i] + t * x[i - 1];
    for (i = 2; i < n; i++) x[i] = x[i - 2] * t;
    for (i = 0; i < n - 1; i++) x[i] = x[i + 1] * t;
    for (i = 1; i < n; i++) { v = x[i - 1] + 1.0; x[i] = v * t; }
}
"""


def test_recurrence_through_an_element_written_and_read_back_later(tmp_path):
    (tmp_path / "r.c").write_text(RECUR)
    analysis = analyze([str(tmp_path / "r.c")])
    loops = [lp.nest[-1] for lp in source_loops(analysis.program)]
    # x[i - 1] is last iteration's x[i]: forwarding 3.2 + mul 1.6 + add 1.2 ns per iteration
    assert opmodel.recurrence_seconds(loops[0], HIER, 0.4e-9) == pytest.approx(6.0e-9)
    # distance 2: the chain (forwarding + mul) spans two iterations
    assert opmodel.recurrence_seconds(loops[1], HIER, 0.4e-9) == pytest.approx((3.2e-9 + 1.6e-9) / 2)
    # x[i + 1] is read before it is written: no chain
    assert opmodel.recurrence_seconds(loops[2], HIER, 0.4e-9) == 0.0
    # through a scalar kept in memory: forwarding, add, forwarding of v, mul
    assert opmodel.recurrence_seconds(loops[3], HIER, 0.4e-9) == pytest.approx(3.2e-9 + 1.2e-9 + 3.2e-9 + 1.6e-9)


def test_recurrence_along_the_fastest_subscript_of_a_fortran_array(tmp_path):
    src = tmp_path / "r.f"
    src.write_text("      SUBROUTINE R(A, N, M)\n      INTEGER N, M, I, J\n      DOUBLE PRECISION A(N, M)\n"
                   "      DO 20 J = 1, M\n      DO 10 I = 2, N\n         A(I, J) = A(I - 1, J) + A(I, J)\n"
                   "   10 CONTINUE\n   20 CONTINUE\n      END\n")
    loop = source_loops(analyze([str(src)]).program)[0].nest[-1]
    assert opmodel.recurrence_seconds(loop, HIER, 0.4e-9) == pytest.approx(3.2e-9 + 1.2e-9)


@pytest.mark.skipif(__import__("shutil").which("llvm-mca") is None, reason="llvm-mca is needed")
def test_reorder_buffer_size_from_llvm_mca_scheduling_model():
    from sad.predict import compiled as cc
    assert cc.rob_entries("znver1") == 192        # AMD Zen 1 (Software Optimization Guide for family 17h)
    assert cc.rob_entries("skylake") == 224


CELLS = """\
      SUBROUTINE CELLS(NCELL, HEAD, LIST, X, S)
      INTEGER NCELL, HEAD(NCELL), LIST(*), I, J
      DOUBLE PRECISION X(*), S
      DO 10 I = 1, NCELL
         J = HEAD(I)
   20    IF (J .NE. 0) THEN
            S = S + X(J)
            J = LIST(J)
            GOTO 20
         END IF
   10 CONTINUE
      DO 30 I = 1, NCELL
         IF (HEAD(I) .EQ. 0) GOTO 30
         S = S + X(I)
   30 CONTINUE
      END
"""


def test_a_do_loop_around_a_goto_loop_is_not_one_compiled_iteration(tmp_path):
    """md1's cell-list walk: the GOTO loop inside DO 10 runs many times per iteration of I, so DO 10 is not
    priced as one iteration of compiled code (that priced the walk's blocks at 0 s and md1 ten times too
    fast); DO 30, whose GOTO only jumps forward, still is."""
    (tmp_path / "cells.f").write_text(CELLS)
    analysis = analyze([str(tmp_path / "cells.f")])
    assert [lp.line for lp in source_loops(analysis.program)] == [12]


def test_figures_the_model_would_guess_are_named(tmp_path):
    # s's chain is s * a[i] / b[i] + 1: mul, div and add; with no div.double class and a machine that prices
    # neither the division nor a subscript, the throughput counts both 0 s and the chain the division 0 s
    _, loop = _loop(tmp_path, DOT.replace("s = s + a[i] * b[i]", "s = (s * a[i]) / b[i] + 1.0"))
    body, layout = loop.nest[-1].body, Layout(loop.index, loop.fastest)
    no_div = hier.Hierarchy(clock_hz=HIER.clock_hz, line_bytes=64, levels=HIER.levels, forward_s=HIER.forward_s,
                            forward_fp_s=HIER.forward_fp_s,
                            ops={k: v for k, v in HIER.ops.items() if k != "div.double"})
    price = {"load.double": 0.1e-9, "assign.double": 0.1e-9, "loop_iter": 0.1e-9}.get
    assert opmodel.guessed_figures(body, layout, no_div, price) == [
        "div.double (no price: 0 s)", "index (no price: 0 s)",
        "div.double on a loop-carried chain (no calibrated latency: 0 s on a scalar's chain, 3 cycles on an "
        "element's)"]
    # the same with every class calibrated and every other operation priced: nothing guessed
    assert opmodel.guessed_figures(body, layout, HIER, lambda key: 0.1e-9) == []
    # and the figures those guesses give: add 0.2 + mul 0.25 + loads, the assignment and the loop 4 x 0.1 ns
    tp, lat = opmodel.core_seconds(body, layout, no_div, price, in_memory=False)
    assert tp == pytest.approx(0.2e-9 + 0.25e-9 + 4 * 0.1e-9)
    assert lat == pytest.approx(1.6e-9 + 1.2e-9)


NUSSINOV = """int table[150][150];
void fold(void) {
    int i, j, k;
    for (i = 148; i >= 0; i--)
        for (j = i + 1; j < 150; j++) {
            table[i][j] = table[i][j] > table[i][j - 1] ? table[i][j] : table[i][j - 1];
            for (k = i + 1; k < j; k++)
                table[i][j] = table[i][j] > table[i][k] + table[k + 1][j] ? table[i][j] : table[i][k] + table[k + 1][j];
        }
}
"""


def test_an_element_the_next_entry_reads_carries_the_chain_between_entries(tmp_path):
    # table[i][j], updated over k, is read as table[i][j - 1] at the next j: distance 1 in j
    _, loop = _loop(tmp_path, NUSSINOV)
    assert opmodel.carried_between_entries(loop.nest[-1], loop.nest[-2])
    # without that read (each entry starts from its own cell) the entries are independent
    _, loop = _loop(tmp_path, NUSSINOV.replace("table[i][j - 1] ? table[i][j] : table[i][j - 1]", "0 ? 1 : 0"),
                    "free.c")
    assert not opmodel.carried_between_entries(loop.nest[-1], loop.nest[-2])
    # nor is a row sum's element, reset by nothing the enclosing loop reads later
    _, loop = _loop(tmp_path, """void rows(double *a, double *s, int n) {
    int i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            s[i] += a[i * n + j];
}
""", "rows.c")
    assert not opmodel.carried_between_entries(loop.nest[-1], loop.nest[-2])


LINREC = """void linrec(double *w, double b[64][64], int n) {
    int i, k;
    for (i = 1; i < n; i++) {
        w[i] = 0.01;
        for (k = 0; k < i; k++)
            w[i] += b[k][i] * w[(i - k) - 1];
    }
}
"""


def test_an_element_the_next_entry_reads_first_carries_the_chain_between_entries(tmp_path):
    # Livermore loop 6: at k = 0 entry i reads w[i - 1], the element entry i - 1 ended with; its chain starts
    # where that one ended (gcc -O2 keeps w[i] in a register, so llvm-mca sees no dependence between entries)
    _, loop = _loop(tmp_path, LINREC, "linrec.c")
    assert opmodel.carried_between_entries(loop.nest[-1], loop.nest[-2])
    # a forward substitution reads x[i - 1] last (at j = i - 1), x[0] first: its entries still overlap
    _, loop = _loop(tmp_path, """void trisolv(double *x, double L[64][64], int n) {
    int i, j;
    for (i = 1; i < n; i++)
        for (j = 0; j < i; j++)
            x[i] -= L[i][j] * x[j];
}
""", "trisolv.c")
    assert not opmodel.carried_between_entries(loop.nest[-1], loop.nest[-2])


DISTANCES = """void nearest(double *x, double *c, int *label, int n, int k) {
    int p, q, d;
    for (p = 0; p < n; p++) {
        double best = 1e300, dist;
        for (q = 0; q < k; q++) {
            dist = 0;
            for (d = 0; d < 8; d++)
                dist += (x[p * 8 + d] - c[q * 8 + d]) * (x[p * 8 + d] - c[q * 8 + d]);
            if (dist < best) { best = dist; label[p] = q; }
        }
    }
}
"""


def test_a_sum_set_afresh_before_each_entry_restarts_its_chain(tmp_path):
    # dist = 0 before the loop over d: each entry's chain is its own
    _, loop = _loop(tmp_path, DISTANCES)
    assert opmodel.restarts_each_entry(loop.nest[-1], loop.nest[-2])
    # without the reset the sum runs on from the last entry's
    _, loop = _loop(tmp_path, DISTANCES.replace("            dist = 0;\n", ""), "on.c")
    assert not opmodel.restarts_each_entry(loop.nest[-1], loop.nest[-2])
    # a reset that reads the old value continues the chain (dist = dist / 2)
    _, loop = _loop(tmp_path, DISTANCES.replace("dist = 0;", "dist = dist / 2;"), "half.c")
    assert not opmodel.restarts_each_entry(loop.nest[-1], loop.nest[-2])


def test_entries_in_flight_are_the_window_over_one_entry():
    # 20 instructions an iteration, 8 trips, no enclosing assembly loop: 160 an entry; 256 entries of the reorder
    # buffer keep 1.6 entries in flight; a long loop (40 trips: 800) at least one
    body = ["addsd %xmm0, %xmm1"] * 19 + ["jne 0"]
    inner = cc.AsmLoop("f", 0, 19, body)
    empty = cc.CompiledFile(Path("f.c"), [inner], {})
    assert incore.entries_in_flight(inner, empty, 8, 256) == pytest.approx(1.6)
    assert incore.entries_in_flight(inner, empty, 40, 256) == 1.0
