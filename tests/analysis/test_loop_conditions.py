"""C loops whose condition is no plain `i OP bound` but says as much: the index shifted by a term (``k + 3 < n``
of a hand-unrolled loop, ``3 + k < n``, ``k + 1 <= n``, ``k - 2 >= 0`` downwards, a term that is a variable,
``while (i + 7 < n)``), and two bounds on the index in one direction joined by `&&` (``k < n && k < m``, a `<=`
bound beside a shifted one, two lower bounds downwards), counted over the nearer one. Their counts equal gcov's
where they were named loop counts before. An unsigned index shifted down (``u - 1 < n`` wraps at u = 0 where
``u < n + 1`` does not), a test of data joined to a bound, and bounds in opposite directions stay while loops."""
from __future__ import annotations

from tests.analysis.gcov_checked import c_loops, sad_counts

CONDITIONS = r"""
#include <stdio.h>
static double a[1000];
int main(int argc, char **argv) {
    int n = 999 - argc + 1, w = 2, m = 500, k;
    double s = 0.0;
    for (k = 0; k < 1000; k++) a[k] = k * 0.5;
    for (k = 0; k + 3 < n; k += 4) s += a[k] + a[k + 1] + a[k + 2] + a[k + 3];
    for (int j = 0; 3 + j < n; j += 4) s += a[j];
    for (int j = 0; j + 1 <= n; j++) s += a[j];
    for (int j = n - 1; j - 2 >= 0; j -= 3) s += a[j];
    for (long j = 1; j + w < n; j++) s += a[j];
    k = 0;
    while (k + 7 < n) { s += a[k]; k += 8; }
    for (k = 0; k < n && k < m; k++) s += a[k];
    for (int j = 0; j <= n && j + 1 < 700; j++) s += a[j];
    for (int j = n; j > 10 && j >= m; j--) s += a[j];
    for (int j = 0; m > j && j < n; j += 3) s += a[j];
    printf("%g\n", s);
    return 0;
}
"""


def test_such_conditions_are_counted_as_gcov_counts_them(tmp_path):
    # n = 999, m = 500. k = 0, 4, ..., 992: 249 trips + the last test; the same from 3 + j; j <= 998: 999 + 1;
    # 998, 995, ..., 2: 333 + 1; j = 1 ... 996: 996 + 1; k = 0, 8, ..., 984: 124 + 1. Joined: k < 500 (500 + 1);
    # j < min(1000, 699) (699 + 1); j from 999 down while j > max(10, 499) (500 + 1); j = 0, 3, ..., 498 (167 + 1)
    counts = sad_counts(tmp_path, "conditions", CONDITIONS)
    assert [counts[n] for n in (8, 9, 10, 11, 12, 14)] == ["250", "250", "1000", "334", "997", "125"]
    assert [counts[n] for n in (15, 16, 17, 18)] == ["501", "700", "501", "168"]


def test_they_are_do_loops_and_the_others_stay_while_loops(tmp_path):
    kinds = {lp.loc.line: type(lp).__name__ for lp in c_loops(tmp_path, CONDITIONS)}
    assert [kinds[n] for n in (8, 9, 10, 11, 12, 15, 16, 17, 18)] == ["Do"] * 9
    others = CONDITIONS.replace("for (int j = 0; 3 + j < n; j += 4)", "for (unsigned j = 1; j - 1 < n; j += 4)") \
        .replace("k < n && k < m;", "k < n && a[k] < 100.0;").replace("j <= n && j + 1 < 700;", "j <= n && j > -5;")
    kinds = {lp.loc.line: type(lp).__name__ for lp in c_loops(tmp_path, others)}
    assert [kinds[n] for n in (9, 15, 16, 17)] == ["While", "While", "While", "Do"]
