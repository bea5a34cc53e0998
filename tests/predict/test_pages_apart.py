"""Two column walks of the same rows share pages unless a page boundary lies between their columns
(sad.predict.reuse.on_other_pages): the gap is taken at the middle of the enclosing loops' ranges, each index at
its first value plus half its trips per entry. The trips are the SAD's, bound at the call: a covariance kernel
in a function of its own, `for (j = i; j < m; j++)` with m a formal argument, had a time left unbound in m (the
loop's written upper bound was used) though every count was a number. Hand-derived; no timing."""
from __future__ import annotations

import pytest
import sympy

from sad.predict.reuse import Walk, on_other_pages
from tests.predict.loop_nests import inner_loop

KERNEL_C = """#include <stdio.h>
#define M 700
#define N 800
static double data[N][M], cov[M][M];
static void kernel(int m, int n) {
    int i, j, k;
    for (i = 0; i < m; i++)
        for (j = i; j < m; j++)
            for (k = 0; k < n; k++)
                cov[i][j] += data[k][i] * data[k][j];
}
int main(void) {
    kernel(M, N);
    printf("%g\\n", cov[1][2]);
    return 0;
}
"""


def test_the_gap_between_two_columns_is_taken_at_the_bound_middle(tmp_path):
    loop, trips = inner_loop(tmp_path, KERNEL_C, 9)
    first, second = [ref for ref in loop.refs if ref.array == "data"]
    whole = Walk(sympy.Integer(M_ROW := 700 * 8), sympy.Integer(800 * 64))
    part = on_other_pages(whole, second, first, loop, 4096, trips)
    # j from i, 350.5 trips an entry on average: its middle i + 349.5 / 2, j - i = 174.75
    # elements at the middle, 1 398 bytes: that share of a page
    assert not part.bytes.free_symbols and part.pitch == M_ROW
    assert float(part.bytes) == pytest.approx(800 * 64 * 174.75 * 8 / 4096)


def test_the_gap_is_taken_at_four_places_in_each_of_the_two_loops_it_depends_on(tmp_path):
    from sad.predict.reuse import QUANTILES, gap_points
    loop, trips = inner_loop(tmp_path, KERNEL_C, 9)
    first, second = [ref for ref in loop.refs if ref.array == "data"]
    whole = Walk(sympy.Integer(700 * 8), sympy.Integer(800 * 64))
    streams = [(first, None, None, whole), (second, None, None, Walk(whole.pitch, whole.bytes))]
    points = gap_points(streams, first, whole, loop)
    # j - i depends on j and on i: 4 x 4 equally weighted places, the j loop's (innermost) first
    assert len(points) == 16 and points[0] == {"j": 0.125, "i": 0.125} and points[-1] == {"j": 0.875, "i": 0.875}
    # at j's first eighth: j - i = 349.5 / 8 elements whatever i, and their mean is the middle's (the share is
    # linear below a page); the TLB's extra, convex in the pages, is averaged over the 16 (data_seconds)
    shares = [float(on_other_pages(whole, second, first, loop, 4096, trips, at).bytes) for at in points]
    assert shares[0] == pytest.approx(800 * 64 * 349.5 * 0.125 * 8 / 4096)
    assert sum(shares) / 16 == pytest.approx(800 * 64 * 174.75 * 8 / 4096)
    assert QUANTILES == (0.125, 0.375, 0.625, 0.875)
    # one walk alone, or a second over other rows: the middle only
    assert gap_points(streams[:1], first, whole, loop) == [{}]
