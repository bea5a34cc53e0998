"""References whose subscripts are read from data (sad.predict.reuse): a histogram's h[key[i]] and a CSR product's
x[col[k]] touch a line per access, but of their array only, and each line of it comes back about once every
(its lines) iterations; a CSR row's val[k], k from start[i], is another row for every i. Hand-derived footprints;
no timing."""
from __future__ import annotations

import pytest
import sympy

from sad.predict.reuse import first_touch_bytes, reuse_footprint
from tests.predict.loop_nests import inner_loop

HIST_C = """#include <stdio.h>
static int key[4000000];
static double h[4096];
int main(void) {
    int r, i;
    for (i = 0; i < 4000000; i++) key[i] = (i * 7919) % 4096;
    for (r = 0; r < 20; r++)
        for (i = 0; i < 4000000; i++)
            h[key[i]] += 1;
    printf("%g\\n", h[7]);
    return 0;
}
"""

CSR_C = """#include <stdio.h>
#define N 1000
static int col[7 * N], start[N + 1];
static double val[7 * N], x[N], y[N];
int main(void) {
    int i, k;
    for (i = 0; i <= N; i++) start[i] = 7 * i;
    for (k = 0; k < 7 * N; k++) { col[k] = (k * 31) % N; val[k] = 1.0; }
    for (i = 0; i < N; i++) {
        double t = 0;
        for (k = start[i]; k < start[i + 1]; k++)
            t += val[k] * x[col[k]];
        y[i] = t;
    }
    printf("%g\\n", y[5]);
    return 0;
}
"""


def test_a_gather_comes_back_once_its_arrays_lines_have_been_used(tmp_path):
    # line 8: h is 4096 doubles, 32768 bytes, 512 lines; one of them comes back about every 512 iterations,
    # in which key brings 512 x 4 bytes: 32768 + 2048 = 34816 bytes between reuses (the nest's answer was
    # a line per iteration of all 4 000 000: 256 000 000 bytes, from memory)
    loop, trips = inner_loop(tmp_path, HIST_C, 8)
    h = next(ref for ref in loop.refs if ref.array == "h")
    assert sympy.nsimplify(reuse_footprint(h, loop, trips, 64)) == 34816


def test_an_array_is_first_touched_no_more_than_whole(tmp_path):
    # the histogram's first touch of h: its 32768 bytes, not a line per iteration
    loop, trips = inner_loop(tmp_path, HIST_C, 8)
    assert "h" in loop.first_touch
    assert sympy.nsimplify(first_touch_bytes(loop, trips, 64)) == 32768


def test_a_row_that_starts_where_data_says_is_another_row_for_each_i(tmp_path):
    # line 11, k from start[i] over X = 7 trips a row: i's next iteration reads another row, so one val[k] comes
    # back only with the next pass over all 1000 rows, which bring 1000 x 7 x (8 of val + 4 of col + a line of x
    # for the gather, x's size being known only once X is) = 532000 bytes (the old answer: one row, 532 bytes,
    # i's next iteration taken to read it again)
    loop, trips = inner_loop(tmp_path, CSR_C, 11)
    val = next(ref for ref in loop.refs if ref.array == "val")
    fp = sympy.sympify(reuse_footprint(val, loop, trips, 64))
    assert sympy.nsimplify(fp.subs({s: 7 for s in fp.free_symbols})) == 532000


def test_a_gathers_lines_cost_the_column_figure_of_their_level(tmp_path):
    # h[key[i]] += 1: each access its own line of h, in an order no prefetcher follows, as a column walk's
    # lines: L2's column update 1.1 ns (34816 bytes between reuses: more than half of L1); key streams from
    # memory, 4 of 64 bytes a line at 6 ns: 1.1 + 0.375 ns (the read figure, 0.9 ns, priced h before)
    from sad.machine import hierarchy as hier
    from sad.predict.reuse import data_seconds
    host = hier.Hierarchy(clock_hz=2.5e9, line_bytes=64, levels=(
        hier.Level("L1", 32 * 1024, 0.3e-9, 0.4e-9, 0.5e-9, 0.6e-9),
        hier.Level("L2", 1024 * 1024, 0.8e-9, 0.9e-9, 1.0e-9, 1.1e-9),
        hier.Level("memory", None, 6.0e-9, 8.0e-9, 12e-9, 14e-9)))
    loop, trips = inner_loop(tmp_path, HIST_C, 8)
    assert float(data_seconds(loop, trips, host)[0]) == pytest.approx(1.1e-9 + 6e-9 * 4 / 64)
