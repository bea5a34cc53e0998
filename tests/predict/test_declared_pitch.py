"""The row pitch of a column walk comes from the array's declaration where it fixes it: a static
`double c[256][256]` walked over its rows is 2048 B per step even when the loops use 250 of them (corpus
matmul_jki.c, whose crowded L1 sets the model missed with a pitch of 8 n), and a Fortran A(NMAX, NMAX) with
NMAX a PARAMETER is 8 NMAX B per row of A. Without a declaration that fixes it, the pitch is the footprint over
the rows, 8 n."""
from __future__ import annotations

from pathlib import Path

from sad.predict.loopcost import declared_pitch, row_pitch
from tests.predict.loop_nests import inner_loop

STATIC_C = """#include <stdio.h>
static double a[256][300];
static double b[64][256][300];
int main(void) {
    int n, i, j; double s = 0;
    if (scanf("%d", &n) != 1 || n > 256) return 1;
    for (i = 0; i < n; i++) for (j = 0; j < n; j++) { a[i][j] = i + j; b[3][i][j] = i; }
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++)
            s += a[i][j] + b[3][i][j] + a[j][i] + a[2 * i][j];
    printf("%g\\n", s);
    return 0;
}
"""

MATMUL_F = (Path(__file__).resolve().parents[2] / "corpus/kernels/matmul.f").read_text()


def test_a_static_arrays_rows_are_its_declared_width_apart(tmp_path):
    loop, trips = inner_loop(tmp_path, STATIC_C, 9, "static.c")
    a_col, b_col, a_row, a_even = [r for r in loop.refs if r.array in ("a", "b")]
    assert a_col.extents == (256, 300) and b_col.extents == (64, 256, 300)
    assert declared_pitch(a_col, "i", "last") == 8 * 300          # a[i][j] over i: one row of 300
    assert declared_pitch(b_col, "i", "last") == 8 * 300          # b[3][i][j]: the dimensions after i only
    assert declared_pitch(a_row, "i", "last") is None             # a[j][i]: unit stride, not a walk
    assert declared_pitch(a_even, "i", "last") is None            # a[2*i][j]: not a ±1 step, left to the rule
    assert row_pitch(a_col, loop, trips, 64) == 2400


def test_a_fortran_column_is_nmax_elements_apart(tmp_path):
    # corpus/kernels/matmul.f: A(NMAX, NMAX) with PARAMETER (NMAX = 200); S = S + A(I,K)*B(K,J) over K
    loop, trips = inner_loop(tmp_path, MATMUL_F, 23, "matmul.f")
    a_row, b_col = loop.refs
    assert a_row.extents == b_col.extents == (200, 200)
    assert declared_pitch(a_row, "K", "first") == 8 * 200            # A(I, K) over K: a column of NMAX apart
    assert declared_pitch(b_col, "K", "first") is None               # B(K, J): unit stride
    assert row_pitch(a_row, loop, trips, 64) == 1600


def test_without_a_declaration_the_pitch_is_the_footprint_over_the_rows(tmp_path):
    from tests.predict.loop_nests import column_loop
    loop, trips = column_loop(tmp_path)
    (ref,) = loop.refs
    assert ref.extents is None and declared_pitch(ref, loop.index, loop.fastest) is None
    pitch = row_pitch(ref, loop, trips, 64)                           # 8 n: a[i*n+j] over i
    assert pitch.subs({s: 100 for s in pitch.free_symbols}) == 800
