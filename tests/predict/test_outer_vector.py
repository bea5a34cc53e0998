"""A loop gcc vectorizes along the enclosing loop (outer-loop vectorization: gemver's ``x[i] += A[j][i] * y[j]``
over j, with i, i + 1 in one register) does the work of ``width`` source iterations per compiled iteration:
its core and its data per source iteration are the compiled loop's / width. Real gcc -O2, real llvm-mca."""
from __future__ import annotations

import shutil

import pytest
import sympy

from sad.machine import hierarchy as hier
from sad.predict import compiled as cc
from sad.predict.incore import _outer_vectorized, compiled_bounds, compiled_loop
from sad.predict.loopcost import _price_one
from sad.predict.reuse import data_seconds
from tests.predict.loop_nests import inner_loop

needs_tools = pytest.mark.skipif(shutil.which("llvm-mca") is None or shutil.which("gcc") is None,
                                 reason="llvm-mca and gcc are needed for the compiled-code model")

GEMVER_COLUMN = """static double A[1024][1024], x[1024], y[1024];
int main(void) {
    int i, j;
    for (i = 0; i < 1024; i++)
        for (j = 0; j < 1024; j++)
            x[i] = x[i] + 1.2 * A[j][i] * y[j];
    return x[3] > 0;
}
"""

HOST = hier.Hierarchy(clock_hz=3.4e9, line_bytes=64, levels=(
    hier.Level("L1", 32 * 1024, 0.2e-9, 0.3e-9, 0.25e-9, 0.22e-9, ways=8, sets=64, line_bytes=64),
    hier.Level("L2", 1024 * 1024, 0.56e-9, 0.64e-9, 0.57e-9, 0.57e-9, ways=8, sets=2048, line_bytes=64),
    hier.Level("L3", 32 * 1024 ** 2, 0.64e-9, 0.69e-9, 0.8e-9, 0.77e-9, ways=16, sets=32768, line_bytes=64),
    hier.Level("memory", None, 4.7e-9, 3.7e-9, 13e-9, 12.5e-9)))


@needs_tools
def test_the_enclosing_loops_vector_divides_the_data_per_iteration(tmp_path):
    loop, trips = inner_loop(tmp_path, GEMVER_COLUMN, 5, "gv.c")
    cf = cc.compiled_file(tmp_path / "gv.c", "gcc -O2", (), ())
    assert isinstance(cf, cc.CompiledFile)
    assert loop.line not in cf.vectorized and _outer_vectorized(loop, cf) == 16
    core = compiled_bounds(loop, cf, str((tmp_path / "gv.c").resolve()), HOST, "gcc -O2")
    assert core is not None and core.outer and core.width == 2
    # Hand-derived data per source iteration, not vectorized: A's rows 8 KiB apart, 1024 lines (64 KiB) plus
    # y's 8 KiB between reuses of a line: L1 keeps 8 lines of such a walk, L2 (physically indexed: one offset
    # in a page x 32 page colours = 32 sets x 8 ways) 16 KiB, L3 512 sets x 16 ways = 512 KiB, half 256 KiB
    # >= 64 KiB -> A from L3 at its column cost 0.8 ns a line; y 8 B of a line from L2 (72 KiB <= 512 KiB):
    # 0.56 / 8 = 0.07 ns -> 0.87 ns; no window given here, so no one-set excess. Vectorized by 2: 0.435 ns.
    data, _ = data_seconds(loop, trips, HOST, None, None)
    assert float(data) == pytest.approx(0.8e-9 + 0.56e-9 / 8)
    by_line = {(str((tmp_path / "gv.c").resolve()), lp.loc.line): trips[id(lp)] for lp in loop.nest}
    price = _price_one(loop, cf, str((tmp_path / "gv.c").resolve()), by_line, HOST, "gcc -O2")
    assert price is not None and price.outer
    with_window, _ = data_seconds(loop, trips, HOST, None, price.window)
    assert float(price.data_s) == pytest.approx(float(with_window) / 2)
    assert sympy.sympify(price.data_s).free_symbols == set()



DOITGEN_ROWS = """static double A[8][8][128], C4[128][128], sum[128];
int main(void) {
    int r, q, p, s;
    for (r = 0; r < 8; r++)
        for (q = 0; q < 8; q++) {
            for (p = 0; p < 128; p++) {
                sum[p] = 0;
                for (s = 0; s < 128; s++)
                    sum[p] += A[r][q][s] * C4[s][p];
            }
            for (p = 0; p < 128; p++)
                A[r][q][p] = sum[p];
        }
    return A[1][1][1] > 0;
}
"""


@needs_tools
def test_a_loop_vectorized_along_the_enclosing_one_runs_all_its_trips_each_entry(tmp_path):
    # doitgen's contraction: gcc keeps sum[p], sum[p + 1] in one register (an addpd chain through it) and runs
    # the s loop's 128 trips per entry, each for two p. 128 compiled iterations an entry are beyond SHORT_TRIPS:
    # the steady state, whose pass costs at least the chain's latency. Taken as 128 / 2 = 64 short iterations,
    # successive entries' chains overlapped in llvm-mca's model: doitgen at n = 128 predicted 32 % fast.
    loop, trips = inner_loop(tmp_path, DOITGEN_ROWS, 8, "dg.c")
    cf = cc.compiled_file(tmp_path / "dg.c", "gcc -O2", (), ())
    assert isinstance(cf, cc.CompiledFile)
    core = compiled_bounds(loop, cf, str((tmp_path / "dg.c").resolve()), HOST, "gcc -O2", trips=128.0)
    assert core is not None and core.outer and core.width == 2
    chosen, _ = compiled_loop(loop, cf, str((tmp_path / "dg.c").resolve()))
    chain = cc.register_chain(chosen.instructions)
    assert chain >= 3                                             # addpd's latency
    assert core.core_s * HOST.clock_hz * core.width >= 0.99 * chain
    assert not core.between                                       # not priced per entry
