"""C loops whose condition shifts the index by a term (``k + 3 < n`` of a hand-unrolled loop, ``3 + k < n``,
``k + 1 <= n``, ``k - 2 >= 0`` downwards, a term that is a variable, ``while (i + 3 < n)``) are counted loops:
their counts equal gcov's where they were named loop counts before. An unsigned index shifted down stays a
while loop with a named count (``u - 1 < n`` wraps at u = 0 where ``u < n + 1`` does not)."""
from __future__ import annotations

from tests.analysis.gcov_checked import c_loops, sad_counts

SHIFTED = r"""
#include <stdio.h>
static double a[1000];
int main(int argc, char **argv) {
    int n = 999 - argc + 1, w = 2, k;
    double s = 0.0;
    for (k = 0; k < 1000; k++) a[k] = k * 0.5;
    for (k = 0; k + 3 < n; k += 4) s += a[k] + a[k + 1] + a[k + 2] + a[k + 3];
    for (int j = 0; 3 + j < n; j += 4) s += a[j];
    for (int j = 0; j + 1 <= n; j++) s += a[j];
    for (int j = n - 1; j - 2 >= 0; j -= 3) s += a[j];
    for (long j = 1; j + w < n; j++) s += a[j];
    k = 0;
    while (k + 7 < n) { s += a[k]; k += 8; }
    printf("%g\n", s);
    return 0;
}
"""


def test_shifted_conditions_are_counted_as_gcov_counts_them(tmp_path):
    # n = 999. k = 0, 4, ..., 992: 249 trips + the last test; the same from 3 + j; j <= 998: 999 + 1;
    # 998, 995, ..., 2: (998 - 2) / 3 + 1 = 333 + 1; j = 1 ... 996: 996 + 1; k = 0, 8, ..., 984: 124 + 1
    counts = sad_counts(tmp_path, "shifted", SHIFTED)
    assert [counts[n] for n in (8, 9, 10, 11, 12, 14)] == ["250", "250", "1000", "334", "997", "125"]


def test_shifted_loops_are_do_loops_and_an_unsigned_shift_down_is_not(tmp_path):
    loops = c_loops(tmp_path, SHIFTED)
    assert [type(lp).__name__ for lp in loops if lp.loc.line in (8, 9, 10, 11, 12)] == ["Do"] * 5
    unsigned = SHIFTED.replace("for (int j = 0; 3 + j < n; j += 4)", "for (unsigned j = 1; j - 1 < n; j += 4)")
    assert [type(lp).__name__ for lp in c_loops(tmp_path, unsigned) if lp.loc.line == 9] == ["While"]
