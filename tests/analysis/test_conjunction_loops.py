"""C for loops whose condition joins two bounds on the index with `&&` (``i < n && i < m``, a `<=` bound and a
shifted one, two lower bounds downwards) are counted loops over the nearer bound: their counts equal gcov's
where they were named loop counts before. A conjunction with a test of data, or of two bounds in opposite
directions, stays a while loop."""
from __future__ import annotations

from tests.analysis.gcov_checked import c_loops, sad_counts

JOINED = r"""
#include <stdio.h>
static double a[1000];
int main(int argc, char **argv) {
    int n = 999 - argc + 1, m = 500, k;
    double s = 0.0;
    for (k = 0; k < 1000; k++) a[k] = k * 0.5;
    for (k = 0; k < n && k < m; k++) s += a[k];
    for (int j = 0; j <= n && j + 1 < 700; j++) s += a[j];
    for (int j = n; j > 10 && j >= m; j--) s += a[j];
    for (int j = 0; m > j && j < n; j += 3) s += a[j];
    printf("%g\n", s);
    return 0;
}
"""


def test_joined_bounds_are_counted_as_gcov_counts_them(tmp_path):
    # n = 999, m = 500: k < 500 (500 trips + the last test); j < min(1000, 699) = 699 (700); j from 999 down
    # while j > max(10, 499) = 499: 500 (501); j = 0, 3, ..., 498: 167 trips (168)
    counts = sad_counts(tmp_path, "joined", JOINED)
    assert [counts[n] for n in (8, 9, 10, 11)] == ["501", "700", "501", "168"]


def test_a_test_of_data_or_opposite_bounds_stay_while_loops(tmp_path):
    source = JOINED.replace("k < n && k < m;", "k < n && a[k] < 100.0;") \
        .replace("j <= n && j + 1 < 700;", "j <= n && j > -5;")
    kinds = {lp.loc.line: type(lp).__name__ for lp in c_loops(tmp_path, source)}
    assert (kinds[8], kinds[9], kinds[10]) == ("While", "While", "Do")
