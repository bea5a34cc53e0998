"""A reference the inner loop sweeps along its fastest subscript, which the enclosing loop shifts by one element
(durbin's ``r[k - i - 1]``): the next iteration of the enclosing loop reads the same elements again but one, so
its reuse distance is the inner loop's footprint, not the whole nest's (sad.predict.reuse.reuse_footprint).
Hand-derived footprints; no timing."""
from __future__ import annotations

import sympy

from sad.predict.reuse import reuse_footprint
from tests.predict.loop_nests import inner_loop

DURBIN_C = """#include <stdio.h>
#define N 4000
static double r[N], y[N];
int main(void) {
    int k, i; double sum = 0;
    for (i = 0; i < N; i++) { r[i] = 1.0 / (i + 2); y[i] = i; }
    for (k = 1; k < N; k++)
        for (i = 0; i < k; i++)
            sum += r[k - i - 1] * y[i];
    printf("%g\\n", sum);
    return 0;
}
"""


def test_a_window_the_enclosing_loop_shifts_by_one_is_reused_by_its_next_iteration(tmp_path):
    # line 8: i runs k times an entry, on average (1 + 3999) / 2 = 2000; r's window and y's row, 8 bytes an
    # element each: 2 x 8 x 2000 = 32000 bytes between two uses of r[m] (k's next iteration reads it at i + 1),
    # where the whole nest (the old answer, r from memory after 3999 windows) is 3999 x 32000 bytes
    loop, trips = inner_loop(tmp_path, DURBIN_C, 8)
    r = next(ref for ref in loop.refs if ref.array == "r")
    assert sympy.nsimplify(reuse_footprint(r, loop, trips, 64)) == 32000


def test_a_row_the_enclosing_loop_moves_by_a_whole_row_is_not_a_window(tmp_path):
    # r[k*N + i] of a flattened N x N matrix: k's next iteration reads the next row, no reuse there: the whole
    # nest, r's 3999 rows of 2000 elements on average and y's 2000: 8 x (3999 x 2000 + 2000) = 64000000 bytes
    source = DURBIN_C.replace("r[k - i - 1]", "r[k * N + i]").replace("static double r[N]", "static double r[N * N]")
    loop, trips = inner_loop(tmp_path, source, 8)
    r = next(ref for ref in loop.refs if ref.array == "r")
    assert sympy.nsimplify(reuse_footprint(r, loop, trips, 64)) == 64000000
