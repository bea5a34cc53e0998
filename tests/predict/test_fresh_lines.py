"""A column walk that an enclosing loop reuses by moving along its lines reads a line new to it once every
(elements a line holds) iterations of that loop, a line last used as far back as the next loop out that reuses
it (sad.predict.reuse.fresh_lines): those come from the level that footprint needs. A transposing copy
b[j][i] = a[i][j] of 2000 x 2000 doubles was priced as if every line of b came from L2 (-48 % at -O2 here:
b's lines were written back to memory and read again at every run of the nest). Hand-derived; no timing."""
from __future__ import annotations

import pytest
import sympy

from sad.machine import hierarchy as hier
from sad.predict.reuse import data_seconds, fresh_lines
from tests.predict.loop_nests import inner_loop

TRANSPOSE = """static double a[2000][2000], b[2000][2000], x[2000], y[2000];
int main(void) {
    int r, i, j;
    for (r = 0; r < 40; r++)
        for (i = 0; i < 2000; i++)
            for (j = 0; j < 2000; j++)
                b[j][i] = a[i][j] + r;
    for (i = 0; i < 2000; i++)
        for (j = 0; j < 2000; j++)
            y[i] = y[i] + a[j][5] * x[j];
    return b[3][4] > 0;
}
"""

HOST = hier.Hierarchy(clock_hz=2.5e9, line_bytes=64, levels=(
    hier.Level("L1", 32 * 1024, 0.3e-9, 0.4e-9, 0.3e-9, 0.4e-9),
    hier.Level("L2", 1024 * 1024, 0.8e-9, 0.9e-9, 0.8e-9, 0.9e-9),
    hier.Level("memory", None, 6.0e-9, 8.0e-9, 12e-9, 14e-9)))


def test_a_transposed_walk_reads_a_new_line_every_eighth_iteration_of_i(tmp_path):
    loop, trips = inner_loop(tmp_path, TRANSPOSE, 6)
    b = next(ref for ref in loop.refs if ref.array == "b")
    a = next(ref for ref in loop.refs if ref.array == "a")
    # b's line comes back at i's next iteration (i moves along it: 8 doubles a line), a new one every 8th; it was
    # last used a run of the (r-free) nest ago: both arrays whole, 2 x 2000 x 2000 x 8 bytes
    share, beyond = fresh_lines(b, loop, trips, 64)
    assert share == 1 / 8 and sympy.nsimplify(beyond) == 64_000_000
    assert fresh_lines(a, loop, trips, 64) is None      # a unit-stride stream: no walk


def test_a_walk_reused_whole_by_the_next_loop_reads_no_new_line(tmp_path):
    # a[j][5] over j: i's next iteration reads the same lines again, it does not move along them
    loop, trips = inner_loop(tmp_path, TRANSPOSE, 9)
    a = next(ref for ref in loop.refs if ref.array == "a")
    assert fresh_lines(a, loop, trips, 64) is None


def test_the_new_lines_cost_the_farther_level_more(tmp_path):
    loop, trips = inner_loop(tmp_path, TRANSPOSE, 6)
    data, shown = data_seconds(loop, trips, HOST)
    # b(w): a line an iteration from L2 (2000 lines between reuses, 125 KiB: L2's column update 0.9 ns), a new
    # one every 8th from memory (column update 14 ns: + 13.1 / 8); a: 8 of 64 bytes from memory (6 / 8 ns)
    assert float(data) == pytest.approx(0.9e-9 + (14e-9 - 0.9e-9) / 8 + 6e-9 / 8)
    assert [entry[0] for entry in shown] == ["b(w)", "a", "b(w) new lines"]


def test_a_vectorized_enclosing_loop_moves_the_walk_its_width_a_pass(tmp_path):
    # gcc -O2 vectorizes threemm's j loop around the k loop (two doubles of B[k][j..j+1] a pass): each pass of
    # the compiled loop moves b's column two elements, so a quarter of its accesses find a new line, not an
    # eighth
    loop, trips = inner_loop(tmp_path, TRANSPOSE, 6)
    b = next(ref for ref in loop.refs if ref.array == "b")
    share, beyond = fresh_lines(b, loop, trips, 64, outer=2)
    assert share == 2 / 8 and sympy.nsimplify(beyond) == 64_000_000
    assert fresh_lines(b, loop, trips, 64, outer=16)[0] == 1.0      # at most every access
