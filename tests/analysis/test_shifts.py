"""C's shift operators in counts: `1 << P` sizes an FFT and `i >> 1` halves a range; both were unknown values,
so every loop bounded by them had a named trip count (benchmarks/devkernels7/fft.c: six loops unbound)."""
from __future__ import annotations

import sympy

from sad.analysis.values import _shifted
from tests.analysis.gcov_checked import sad_counts

SHIFTED = r"""
#include <stdio.h>
#define P 10
#define NP (1 << P)
static double A[NP];
int main(void) {
    int i, n = NP >> 2;
    double s = 0;
    for (i = 0; i < NP; i++) A[i] = i;
    for (i = 0; i < n; i++) s += A[i << 1];
    for (i = 0; i < (NP - 3) >> 1; i++) s += A[i];
    printf("%g\n", s);
    return 0;
}
"""


def test_shift_bounds_give_exact_counts_equal_to_gcov(tmp_path):
    """2**10 + 1 tests of the first loop, 2**10 / 4 + 1 of the second, floor(1021 / 2) + 1 of the third."""
    counts = sad_counts(tmp_path, "shift", SHIFTED)
    assert (counts[9], counts[10], counts[11]) == ("1025", "257", "511")


def test_shift_values():
    n = sympy.Symbol("n", integer=True)
    assert _shifted("shl", n, sympy.Integer(2)) == 4 * n
    assert _shifted("shr", n, sympy.Integer(1)) == sympy.floor(n / 2)
    assert _shifted("shr", sympy.Integer(-5), sympy.Integer(1)) == -3   # gcc's arithmetic shift: floor
    assert _shifted("shl", n, sympy.Integer(-1)) is None                # a negative count: undefined in C
