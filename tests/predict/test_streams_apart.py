"""Two references of one row whose gap only a run knows (sad.predict.reuse.apart_in_loop): an FFT's halves
RE[i + k] and RE[i + k + half] are two streams where k stays below half, and a flattened stencil's rows
u[(i - 1)*n + j], u[i*n + j], u[(i + 1)*n + j] trail one another by an iteration of i (``trailing``), as a
two-dimensional array's rows do. One array's references a constant apart stay one stream. Derived by hand
from the subscripts and the loops' ranges; no timing."""
from __future__ import annotations

from sad.predict.reuse import apart_in_loop, trailing
from tests.predict.loop_nests import inner_loop

HALVES_C = """#include <stdio.h>
#define N 4096
static double a[N];
int main(void) {
    int len, i, k, half; double s = 0;
    for (i = 0; i < N; i++) a[i] = i;
    for (len = 2; len <= N; len *= 2) {
        half = len / 2;
        for (i = 0; i < N; i += len)
            for (k = 0; k < half; k++)
                a[i + k] += a[i + k + half];
    }
    printf("%g\\n", s + a[1]);
    return 0;
}
"""

FLAT_C = """#include <stdio.h>
#include <stdlib.h>
static void sweep(int n, const double *u, double *v) {
    int i, j;
    for (i = 1; i < n - 1; i++)
        for (j = 1; j < n - 1; j++)
            v[i * n + j] = u[(i - 1) * n + j] + u[i * n + j] + u[(i + 1) * n + j] + u[i * n + j + 1];
}
int main(void) {
    int n = 500, i;
    double *u = malloc(sizeof(double) * n * n), *v = malloc(sizeof(double) * n * n);
    for (i = 0; i < n * n; i++) { u[i] = i % 7; v[i] = 0; }
    sweep(n, u, v);
    printf("%g\\n", v[n + 1]);
    return 0;
}
"""


def _refs(loop, array: str) -> list:
    return [ref for ref in loop.refs if ref.array == array and not ref.write]


def test_the_halves_of_a_block_are_two_streams(tmp_path):
    # k runs 0 .. half - 1: a[i + k] never reaches a[i + k + half], half steps ahead of it
    loop, _ = inner_loop(tmp_path, HALVES_C, 10)
    low, high = _refs(loop, "a")
    assert apart_in_loop(low, high, loop) and apart_in_loop(high, low, loop)
    assert trailing(low, loop) is None         # and no loop of the nest brings one's lines to the other


def test_a_flattened_stencils_rows_trail_by_an_iteration_of_i(tmp_path):
    loop, _ = inner_loop(tmp_path, FLAT_C, 6)
    above, centre, below, right = _refs(loop, "u")
    # rows n and 2n apart, j running n - 2 trips: apart in j whatever n is
    assert apart_in_loop(above, below, loop) and apart_in_loop(centre, below, loop)
    # u[(i - 1)*n + j] reads what u[i*n + j] read one iteration of i (depth 1) before, and that one what
    # u[(i + 1)*n + j] read: (n / n) steps of i
    assert trailing(above, loop) == (1, 1) and trailing(centre, loop) == (1, 1)
    assert trailing(below, loop) is None      # the leading row: the stream from where the nest's data fits
    # u[i*n + j + 1] is one element from u[i*n + j]: the same line, one stream
    assert not apart_in_loop(centre, right, loop)
