"""A loop that steps by more than one counts what its references reach between the elements it visits
(sad.predict.reuse.footprint): x[i] over i += 2 touches every line of x, and a hand-unrolled column walk,
A[i][j] and A[i+1][j] over i += 2, reads every row. Both were counted as half: a column sum over 2 000 rows
of 1 100 doubles, unrolled by two, had its new lines at 8.6 MiB between reuses (from L3) where the array's
17.2 MiB came back (-22 % at -O2 here, 2 000 rows, pinned). Hand-derived; no timing."""
from __future__ import annotations

import sympy

from sad.predict.reuse import footprint, fresh_lines
from tests.predict.loop_nests import inner_loop

UNROLLED = """#include <stdio.h>
static double A[2000][1100], x[4000];
int main(void) {
    long i, j; double s0 = 0, s1 = 0;
    for (j = 0; j < 1100; j++)
        for (i = 0; i < 2000; i += 2) { s0 += A[i][j]; s1 += A[i+1][j]; }
    for (j = 0; j < 1100; j++)
        for (i = 0; i < 2000; i += 2) s0 += A[i][j];
    for (j = 0; j < 10; j++)
        for (i = 0; i < 4000; i += 2) s1 += x[i];
    for (j = 0; j < 10; j++)
        for (i = 0; i < 4000; i += 16) s1 += x[i];
    printf("%g\\n", s0 + s1);
    return 0;
}
"""


def test_an_unrolled_pair_of_rows_reads_the_whole_array(tmp_path):
    loop, trips = inner_loop(tmp_path, UNROLLED, 6)
    first = next(ref for ref in loop.refs if ref.array == "A")
    # the line of A[i][j] comes back at j's next iteration, a new one every 8th; last used a whole run of
    # the nest ago: 2 000 rows x 1 100 doubles, both references' rows
    share, beyond = fresh_lines(first, loop, trips, 64)
    assert share == 1 / 8 and sympy.nsimplify(beyond) == 2000 * 1100 * 8


def test_one_reference_over_every_other_row_reads_half(tmp_path):
    loop, trips = inner_loop(tmp_path, UNROLLED, 8)
    ref = next(ref for ref in loop.refs if ref.array == "A")
    assert sympy.nsimplify(fresh_lines(ref, loop, trips, 64)[1]) == 1000 * 1100 * 8


def test_a_stride_of_two_elements_touches_every_line(tmp_path):
    loop, trips = inner_loop(tmp_path, UNROLLED, 10)
    inner = [loop.nest[-1]]
    # 2 000 elements visited, the 2 000 between them on the same lines: 32 000 bytes
    assert sympy.nsimplify(footprint(loop.refs, inner, trips, loop.fastest, 64)) == 4000 * 8


def test_a_stride_of_two_lines_touches_every_other_line(tmp_path):
    loop, trips = inner_loop(tmp_path, UNROLLED, 12)
    inner = [loop.nest[-1]]
    # 250 elements, each on its own line, the line between them untouched
    assert sympy.nsimplify(footprint(loop.refs, inner, trips, loop.fastest, 64)) == 250 * 64
