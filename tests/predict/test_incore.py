"""The in-core part of the loop-cost model (sad.predict.incore, sad.predict.sourceloops): which compiled loop
runs a source loop, and what its iterations cost in the core."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import sympy

from sad.analysis.description import group_blocks
from sad.analysis.pipeline import analyze
from sad.machine import hierarchy as hier
from sad.machine.model import load_machine
from sad.predict import compiled as cc
from sad.predict.incore import COPY_16, compiled_bounds, compiled_loop, entries_cycles
from sad.predict.loopcost import price_loops
from sad.predict.sourceloops import source_loops
from tests.predict.loop_nests import host_machine

ROOT = Path(__file__).resolve().parents[2]
needs_mca = pytest.mark.skipif(shutil.which("llvm-mca") is None or shutil.which("gcc") is None,
                               reason="llvm-mca and gcc are needed for the compiled-code model")

STENCIL_C = """#include <stdio.h>
#define N 40
static double A[N][N], B[N][N];
int main(void) {
    int i, j;
    for (i = 0; i < N * N; i++) A[i / N][i % N] = i;
    for (i = 1; i < N - 1; i++)
        for (j = 1; j < N - 1; j++)
            B[i][j] = 0.25 * (A[i + 1][j] + A[i - 1][j])
                    + 0.25 * (A[i][j + 1] + A[i][j - 1])
                    + A[i][j];
    printf("%g\\n", B[3][4]);
    return 0;
}
"""


@needs_mca
@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_a_statement_over_several_lines_keeps_its_loop_in_the_compiled_code(tmp_path, level):
    # the j loop is on line 8 and its one statement on lines 9-11: the debug line table spreads the
    # statement's instructions over all three, so the loop's extent must reach line 11 (the next
    # statement, printf, is on line 12) for its assembly loop to have most of its instructions inside
    src = tmp_path / "stencil.c"
    src.write_text(STENCIL_C)
    loop = next(lp for lp in source_loops(analyze([str(src)]).program) if lp.line == 8)
    assert (loop.line, loop.last_line) == (8, 11)
    cf = cc.compiled_file(src, f"gcc {level}")
    assert isinstance(cf, cc.CompiledFile)
    assert compiled_loop(loop, cf, str(src.resolve())) is not None


HIER = hier.Hierarchy(clock_hz=2.5e9, line_bytes=64, levels=(
    hier.Level("L1", 32 * 1024, 0.3e-9, 0.4e-9, 0.3e-9, 0.4e-9),
    hier.Level("memory", None, 6.0e-9, 8.0e-9, 12e-9, 14e-9)), forward_s=2.8e-9, forward_fp_s=3.2e-9)

CONTRACT_C = """#include <stdio.h>
#define N 64
static double A[N][N], C[N][N], S[N], Y[4 * N], Z[4 * N];
int main(int argc, char **argv) {
    int q, p, s, k, i;
    for (i = 0; i < N * N; i++) { A[i / N][i % N] = i + argc; C[i % N][i / N] = i - argc; }
    for (k = 0; k < 100; k++) {
        for (q = 0; q < N; q++) {
            for (p = 0; p < N; p++) {
                S[p] = 0;
                for (s = 0; s < N; s++)
                    S[p] += A[q][s] * C[s][p];
            }
            for (p = 0; p < 32; p++)
                A[q][p] = S[p];
        }
        for (i = 0; i < 4 * N; i++)
            Z[i] = A[i % N][k % N] + Y[i];
        for (i = 0; i < 4 * N; i++)
            Y[i] = Z[i];
    }
    printf("%g\\n", A[1][2] + Y[3]);
    return 0;
}
"""


def compiled_source(tmp_path, name: str, text: str, spec: str = "gcc -O2"):
    """(source loops by line, the file compiled with ``spec``, its resolved path) of a C source given as text."""
    src = tmp_path / name
    src.write_text(text)
    loops = {lp.line: lp for lp in source_loops(analyze([str(src)]).program)}
    cf = cc.compiled_file(src, spec)
    assert isinstance(cf, cc.CompiledFile)
    return loops, cf, str(src.resolve())


def _contract(tmp_path):
    return compiled_source(tmp_path, "contract.c", CONTRACT_C)


@needs_mca
def test_an_outer_loop_vectorized_around_the_inner_one_does_two_iterations_per_packed_one(tmp_path):
    # gcc -O2 vectorizes the p loop (line 9) around the s loop (line 11): S[p], S[p+1] in one register, the s
    # loop run once for both; 16-byte vectors of doubles = 2 source iterations per compiled iteration
    loops, cf, file = _contract(tmp_path)
    if 9 not in cf.vectorized:
        pytest.skip("this gcc does not vectorize the outer loop at -O2")
    found = compiled_loop(loops[11], cf, file)
    assert found is not None and found[1] == 16
    bounds = compiled_bounds(loops[11], cf, file, HIER, "gcc -O2")
    assert bounds is not None and bounds.width == 2
    asm = found[0]
    cycles = max(cc.mca(tuple(asm.instructions)).cycles, cc.register_chain(asm.instructions))
    assert bounds.core_s == pytest.approx(cycles / 2 / HIER.clock_hz)


@needs_mca
def test_a_loop_replaced_by_memcpy_costs_an_sse_copy_of_its_bytes(tmp_path):
    # Y[i] = Z[i] (line 19) becomes a copy (memcpy, or rep movsq for this constant size): 8 bytes per
    # iteration, half of the 16-byte SSE copy loop llvm-mca prices (one load, one store per iteration:
    # about a cycle on x86 cores)
    loops, cf, file = _contract(tmp_path)
    assert compiled_loop(loops[19], cf, file) is None
    bounds = compiled_bounds(loops[19], cf, file, HIER, "gcc -O2", trips=256.0)
    copy = cc.mca(COPY_16).cycles
    assert 0.5 <= copy <= 2.0
    assert bounds is not None and bounds.core_s == pytest.approx(copy * 8 / 16 / HIER.clock_hz)


@needs_mca
def test_a_loop_replaced_by_memcpy_costs_the_calibrated_copy_where_the_machine_has_it(tmp_path):
    """With the machine's memcpy figures (processor.library.memcpy: per byte and per call), 8 bytes an iteration
    and a call per entry of 256 iterations; the figure holds the copy's L1 work (the data part takes the
    transfers beyond L1). A machine with the library section but no figure per byte: the SSE loop, and the
    figure named as missing."""
    loops, cf, file = _contract(tmp_path)
    figures = {"memcpy": 1.6e-9, "memcpy.byte": 0.0125e-9}
    bounds = compiled_bounds(loops[19], cf, file, HIER, "gcc -O2", trips=256.0, library=figures.get)
    assert bounds is not None and bounds.l1_included
    assert bounds.core_s == pytest.approx(8 * 0.0125e-9 + 1.6e-9 / 256)
    assert "processor.library.memcpy: 0.0125 ns a byte, 1.6 ns a call" in bounds.scaled
    bare = compiled_bounds(loops[19], cf, file, HIER, "gcc -O2", trips=256.0, library={}.get)
    assert bare is not None and not bare.l1_included and bare.unmeasured == ("processor.library.memcpy.byte",)
    assert bare.core_s == pytest.approx(cc.mca(COPY_16).cycles * 8 / 16 / HIER.clock_hz)


@needs_mca
def test_a_loop_unrolled_completely_is_priced_per_entry_then_per_iteration(tmp_path):
    # A[q][p] = S[p] for 32 p (line 14): no loop of its own in the -O2 code; its instructions in the q loop,
    # outside the s loop, run once per entry: llvm-mca's cycles for them / 32 iterations
    loops, cf, file = _contract(tmp_path)
    assert compiled_loop(loops[14], cf, file) is None
    assert compiled_bounds(loops[14], cf, file, HIER, "gcc -O2") is None     # trips unknown: not priced
    bounds = compiled_bounds(loops[14], cf, file, HIER, "gcc -O2", trips=32.0)
    assert bounds is not None and bounds.instructions >= 16       # at least a load and a store per 16 bytes
    per_entry = bounds.core_s * 32 * HIER.clock_hz
    assert 8 <= per_entry <= 40           # 16 stores of 16 bytes: one or two per cycle


ROWS_C = """#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n = 4000, m, i, j; if (scanf("%d", &m) != 1) return 1;
    double *a = malloc(sizeof(double) * n * m), *c = malloc(sizeof(double) * n), s, t = 0;
    for (i = 0; i < n * m; i++) a[i] = i;
    for (i = 0; i < n; i++) {
        s = 0;
        for (j = 0; j < m; j++)
            s += a[i * m + j];
        c[i] = s;
    }
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            t += a[i * m + j];
    printf("%g %g\\n", c[3], t);
    return 0;
}
"""


@needs_mca
def test_short_rows_of_a_fresh_sum_overlap_and_a_carried_sum_stays_a_chain(tmp_path):
    # s += a[..] at -O2: one addsd chain, 3 cycles an iteration (its latency) in a long loop. With 8 iterations
    # per entry and s set to 0 at each entry (line 9), 8 iterations of ~4 instructions are far fewer than the
    # reorder buffer holds, so the next rows' chains run alongside: the iteration costs the loop's throughput
    # and its share of the entry, below the latency; t (line 14) carries its chain from row to row: 3 cycles
    src = tmp_path / "rows.c"
    src.write_text(ROWS_C)
    loops = {lp.line: lp for lp in source_loops(analyze([str(src)]).program)}
    cf = cc.compiled_file(src, "gcc -O2")
    assert isinstance(cf, cc.CompiledFile)
    fresh = compiled_loop(loops[9], cf, str(src.resolve()))
    carried = compiled_loop(loops[14], cf, str(src.resolve()))
    assert fresh is not None and carried is not None and fresh[1] == carried[1] == 0
    latency = max(cc.mca(tuple(fresh[0].instructions)).cycles, cc.register_chain(fresh[0].instructions))
    assert 2.9 <= latency <= 4.5
    short = entries_cycles(fresh[0], cf, 8.0)
    assert short is not None and short < 0.75 * latency
    assert short >= cc.mca(tuple(fresh[0].instructions)).block_rthroughput
    long_rows = entries_cycles(carried[0], cf, 8.0)
    assert long_rows is not None and long_rows >= 0.95 * latency
    assert entries_cycles(fresh[0], cf, 1000.0) is None          # beyond SHORT_TRIPS: the steady state
    bounds = compiled_bounds(loops[9], cf, str(src.resolve()), HIER, "gcc -O2", trips=8.0)
    assert bounds is not None and bounds.core_s == pytest.approx(short / HIER.clock_hz)


def _analyzed(tmp_path, name: str, source: str):
    """The program written to tmp_path/name, its analysis, its blocks, and a machine file: sparc2's database with
    a gcc -O2 compile command and a two-level hierarchy (the compiled-code model on)."""
    src = tmp_path / name
    src.write_text(source)
    analysis = analyze([str(src)])
    return src, analysis, group_blocks(analysis.counts), host_machine(tmp_path)


@needs_mca
def test_trips_bound_at_prediction_time_reach_the_short_rows(tmp_path):
    # m is read at run time: the rows' trips are known only from the bound values (m = 8), as a sweep or
    # `sad analyze -D m=8` gives them; the fresh sum of line 9 is then priced with its entries as above
    src, analysis, blocks, machine_file = _analyzed(tmp_path, "rows.c", ROWS_C)
    symbols = {s.name: s for b in blocks for s in sympy.sympify(b.count).free_symbols}
    assert "m" in symbols
    _, explained = price_loops(analysis, blocks, load_machine(machine_file), {"m": sympy.Integer(8)})
    fresh = next(lp for lp in explained if lp.loop.line == 9)
    cf = cc.compiled_file(src, "gcc -O2")
    asm = compiled_loop(fresh.loop, cf, str(src.resolve()))[0]
    assert fresh.core_s == pytest.approx(entries_cycles(asm, cf, 8.0) / 2.5e9)
    _, unbound = price_loops(analysis, blocks, load_machine(machine_file))
    steady = next(lp for lp in unbound if lp.loop.line == 9)
    assert steady.core_s > 2 * fresh.core_s          # without m: the steady state, the chain's latency


TRIANGLE_C = """#include <stdio.h>
#define N 40
static double A[N][N];
int main(void) {
    int i, j, k;
    for (i = 0; i < N * N; i++) A[i / N][i % N] = 1.0 + i % 7;
    for (i = 0; i < N; i++)
        for (j = 0; j < i; j++) {
            for (k = 0; k < j; k++)
                A[i][j] -= A[i][k] * A[j][k];
            A[i][j] /= A[j][j];
        }
    printf("%g\\n", A[N - 1][3]);
    return 0;
}
"""


def _priced(tmp_path, name: str, source: str, line: int):
    """The program's blocks, the per-block prices price_loops gives them, and the innermost loop of ``line``."""
    _, analysis, blocks, machine_file = _analyzed(tmp_path, name, source)
    overrides, explained = price_loops(analysis, blocks, load_machine(machine_file))
    return blocks, overrides, next(lp for lp in explained if lp.loop.line == line)


@needs_mca
def test_the_code_between_short_entries_is_priced_once(tmp_path):
    # the k loop (line 9, 19.5 iterations per entry) is a latency-bound chain priced with its entries: llvm-mca
    # runs its body with the code between two entries (the division of line 11, j's step, k's start), so the
    # division's block, the k loop's entry and the j loop's iteration are not priced again per operation
    blocks, overrides, inner = _priced(tmp_path, "tri.c", TRIANGLE_C, 9)
    assert 11 in inner.between and 9 in inner.between
    priced_once = {(b.kind, b.first_line) for b in blocks if overrides.get(id(b)) == 0}
    assert {("code", 11), ("loop_entry", 9), ("loop_iter", 8)} <= priced_once
    # the initialization loop (line 6) is no short-trip chain: nothing around it is taken off
    assert ("loop_entry", 6) not in priced_once and ("loop_iter", 7) not in priced_once


ONE_LINE_C = """#include <stdio.h>
#define N 23
static double A[N * N], B[N * N], C[N * N];
int main(void) {
    int i, j, k;
    for (i = 0; i < N * N; i++) { A[i] = 1 + i % 7; B[i] = 2; }
    for (i = 0; i < N; i++) for (j = 0; j < N; j++) for (k = 0; k < N; k++) C[i * N + j] += A[i * N + k] * B[k * N + j];
    printf("%g\\n", C[5]);
    return 0;
}
"""


@needs_mca
def test_loops_of_one_line_keep_their_prices(tmp_path):
    # the three loops of line 7 share their blocks' line: which one runs between the k loop's entries cannot
    # be told, and nothing is taken off (taken off, the k loop's own price went too: 0 s for the nest)
    blocks, overrides, inner = _priced(tmp_path, "mm.c", ONE_LINE_C, 7)
    iterations = [overrides[id(b)] for b in blocks if b.kind == "loop_iter" and b.first_line == 7]
    assert iterations and all(price == inner.seconds and price != 0 for price in iterations)
