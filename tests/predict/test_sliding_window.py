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


BLOCKS_C = """#include <stdio.h>
#define N 4096
static double a[N];
int main(void) {
    int len, i, k; double s = 0;
    for (i = 0; i < N; i++) a[i] = i;
    for (len = 2; len <= N; len *= 2)
        for (i = 0; i < N; i += len)
            for (k = 0; k < len / 2; k++)
                a[i + k] += a[i + k + len / 2];
    printf("%g\\n", s + a[1]);
    return 0;
}
"""


def test_an_enclosing_loop_whose_step_only_a_run_knows_is_no_window(tmp_path):
    # an FFT's blocks: i moves by len, past the half block k swept: i's next iteration reads new elements, and
    # a[m] is used again only at the next stage (len's next value), after the i and k loops: on average
    # 1365/4 blocks of 8192/1365 elements, 8 bytes each: 16384 bytes (the block's other half, a[i + k + len/2],
    # counts with it: one array's references count once per region). Taken for a window shifted by one (i's
    # step read as 1), the reuse distance was the k loop's alone: 48 bytes, from L1
    loop, trips = inner_loop(tmp_path, BLOCKS_C, 9)
    a = next(ref for ref in loop.refs if ref.array == "a" and not ref.write)
    assert sympy.nsimplify(reuse_footprint(a, loop, trips, 64)) == 16384
