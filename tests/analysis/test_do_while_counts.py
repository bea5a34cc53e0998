"""C do-while loops and countdown while loops counted as gcov counts them: a do-while's test of a
post-increment reads the old value (``while (i++ < N - 1)`` runs N trips; the lowering used to run the increment
before the test, N - 1), ``while (n--)`` is a test of n != 0 stepping by one, and a do-while written on one
line is counted on that line as often as its body runs (gcov has no block entering it apart from the body's);
a loop whose two ends move towards each other (``i < j`` with ``i++, j--``) is counted on their difference."""
from __future__ import annotations

from tests.analysis.gcov_checked import sad_counts

LOOPS = r"""
#include <stdio.h>
#define N 1000
static double b[N];
int main(void) {
    int i, n;
    double s = 0.0;
    i = 0;
    do { s += b[i]; } while (++i < N);
    i = 0;
    do { s += b[i]; i++; } while (i < N);
    i = 0;
    do { s += b[i]; } while (i++ < N - 1);
    i = 5;
    do {
        s += b[i];
    } while (i-- > 0);
    n = N;
    while (n--) s += b[n];
    printf("%g %d %d\n", s, i, n);
    return 0;
}
"""


def test_do_while_and_countdown_loops_equal_gcov(tmp_path):
    # N trips each; i from 5 down, tested 5, 4, .., 0 then -1: 6 trips; while (n--): 1 000 trips, 1 001 tests
    counts = sad_counts(tmp_path, "dowhile", LOOPS)
    assert [counts[n] for n in (9, 11, 13, 16, 17, 19)] == ["1000", "1000", "1000", "6", "6", "1001"]


TWO_ENDS = r"""
#include <stdio.h>
#define N 1001
static double a[N];
int main(void) {
    int i, j;
    double t;
    for (i = 0; i < N; i++) a[i] = i;
    for (i = 0, j = N - 1; i < j; i++, j--) {
        t = a[i]; a[i] = a[j]; a[j] = t;
    }
    i = 3; j = 40;
    while (j >= i) { j -= 3; i += 2; }
    printf("%g %d %d\n", a[0], i, j);
    return 0;
}
"""


def test_a_loop_whose_two_ends_meet_is_counted(tmp_path):
    # i - j from -1000 by 2 while below 0: 500 trips, 501 tests; j - i from 37 by -5 while >= 0: 8 trips
    counts = sad_counts(tmp_path, "ends", TWO_ENDS)
    assert [counts[n] for n in (9, 10, 13)] == ["501", "500", "9"]
