"""An innermost loop whose trips differ from entry to entry is priced at points of its trips, each weighed by the
iterations it stands for (sad.predict.tripspread): hand-counted nests, small enough that every entry is taken."""
from __future__ import annotations

import pytest
import sympy

from sad.predict import loopcost, tripspread
from tests.predict.loop_nests import inner_loop

TRIANGLE = """#include <stdio.h>
static double a[16][16];
int main(void) {
    int i, k; double s = 0;
    for (i = 0; i < 16; i++)
        for (k = i + 1; k < 16; k++)
            s += a[k][i];
    printf("%g\\n", s);
    return 0;
}
"""

# LU's second nest: n - i entries of i trips each
WEIGHTED = """#include <stdio.h>
static double a[16][16];
int main(void) {
    int i, j, k; double s = 0;
    for (i = 0; i < 16; i++)
        for (j = i; j < 16; j++)
            for (k = 0; k < i; k++)
                s += a[k][j];
    printf("%g\\n", s);
    return 0;
}
"""


def _trip_points(loop, *given) -> list[tuple[int, float]]:
    """(trips per entry, share of the iterations) of each of the loop's points."""
    return [(point.trips, point.share) for point in tripspread.nest_points(loop, *given)]


def _mean_trips(points: list[tuple[int, float]]) -> float:
    return sum(t * share for t, share in points)


def test_a_triangle_is_cut_into_equal_shares_of_its_iterations(tmp_path):
    loop, trips = inner_loop(tmp_path, TRIANGLE, 6)
    points = _trip_points(loop)
    assert len(points) == tripspread.POINTS
    assert sum(share for _, share in points) == pytest.approx(1.0)
    assert all(share == pytest.approx(1 / tripspread.POINTS) for _, share in points)
    # entries of 15, 14, ..., 0 trips: the mean per entry is 7.5 (what the SAD gives), the mean over the
    # iterations Σt² / Σt = 1240 / 120 = 10.33 (each point rounded: within half a trip)
    assert float(trips[id(loop.nest[-1])]) == 7.5
    assert _mean_trips(points) == pytest.approx(1240 / 120, abs=0.5)
    assert [t for t, _ in points] == sorted(t for t, _ in points)
    # eighths of the 120 iterations, 15 each: the fewest are the entries of 1..5 trips (1 + 2 + 3 + 4 + 5 = 15
    # iterations, mean trips Σt² / Σt = 55 / 15 = 3.67 -> 4), the most the entry of 15 trips alone
    assert tripspread.POINTS == 8
    assert points[0] == (4, pytest.approx(0.125)) and points[-1] == (15, pytest.approx(0.125))


def test_an_enclosing_loop_the_trips_do_not_mention_multiplies_the_entries(tmp_path):
    loop, _ = inner_loop(tmp_path, WEIGHTED, 7)
    points = _trip_points(loop)
    # i trips at each of 16 - i entries: iterations i(16 - i), mean Σi²(16 - i) / Σi(16 - i) = 5440 / 680 = 8
    # (without the j loop's entries it would be 1240 / 120 = 10.33)
    assert _mean_trips(points) == pytest.approx(8.0, abs=0.5)


def test_trips_the_same_at_every_entry_or_told_by_a_run_give_no_points(tmp_path):
    square = TRIANGLE.replace("k = i + 1", "k = 0")
    loop, _ = inner_loop(tmp_path, square, 6)
    assert _trip_points(loop) == []
    unknown = TRIANGLE.replace("int i, k; double s = 0;", "int i, k, m; double s = 0; scanf(\"%d\", &m);") \
        .replace("k < 16", "k < m")
    loop, _ = inner_loop(tmp_path, unknown, 6, "unknown.c")
    assert _trip_points(loop) == []                 # m unbound: the mean, as before
    assert _trip_points(loop, {"m": sympy.Integer(16)}) != []


def test_the_price_is_the_mean_of_the_points_prices(tmp_path):
    loop, trips = inner_loop(tmp_path, TRIANGLE, 6)
    inner = id(loop.nest[-1])

    def side(at):   # a cost per iteration of the square of the trips: convex, as a TLB's
        t = at[inner]
        return (t * t, t, sympy.Integer(0), 0, 0), []

    (seconds, data, _, _, _), _, count = loopcost._spread(loop, trips, None, side)
    points = _trip_points(loop)
    assert count == len(points)
    assert float(seconds) == pytest.approx(sum(share * t * t for t, share in points), rel=1e-5)
    assert float(seconds) > float(trips[inner]) ** 2           # above the cost at the mean trips
    assert float(data) == pytest.approx(_mean_trips(points), rel=1e-5)


def test_one_traced_nests_trips_are_priced_as_given(tmp_path):
    # sad.predict.traceloops prices each traced nest at its own trips: no points taken over them
    loop, trips = inner_loop(tmp_path, TRIANGLE, 6)
    inner = id(loop.nest[-1])

    def side(at):
        t = at[inner]
        return (t * t, t, sympy.Integer(0), 0, 0), []

    (seconds, _, _, _, _), _, count = loopcost._spread(loop, trips, None, side, spread=False)
    assert count == 0 and seconds == trips[inner] ** 2


# cholesky's nest: k < j < i, the rows read again at the next i
CHOLESKY = """#include <stdio.h>
static double a[16][16];
int main(void) {
    int i, j, k; double s = 0;
    for (i = 0; i < 16; i++)
        for (j = 0; j < i; j++)
            for (k = 0; k < j; k++)
                s += a[i][k] * a[j][k];
    printf("%g\\n", s);
    return 0;
}
"""


def test_each_point_carries_the_enclosing_loops_trips_over_its_iterations(tmp_path):
    loop, trips = inner_loop(tmp_path, CHOLESKY, 7)
    outer, middle = (id(lp) for lp in loop.nest[:2])
    points = tripspread.nest_points(loop)
    # 560 iterations (j at each (i, j), C(16, 3)), 70 a point. The first: j = 1 at i = 2..15 (14 iterations),
    # j = 2 at i = 3..15 (26), and 30 of j = 3's, at i = 4..13: the j loop (i trips an entry) at
    # (14 x 8.5 + 26 x 9 + 30 x 8.5) / 70 = 608 / 70 over them, the k loop at 156 / 70 = 2.2, rounded 2
    assert points[0].trips == 2 and points[0].share == pytest.approx(1 / 8)
    assert points[0].outer == ((outer, 16.0), (middle, pytest.approx(608 / 70)))
    means = [dict(p.outer)[middle] for p in points]
    assert means[0] < float(trips[middle]) + 2 < means[-1] and means[-1] > 14   # the long entries: large i
    assert float(trips[middle]) == 7.5                     # the j loop's mean over its entries

    def side(at):   # a cost per iteration that grows with the rows the middle loop covers, as a reuse's
        return (at[middle], at[id(loop.nest[-1])], sympy.Integer(0), 0, 0), []

    (seconds, data, _, _, _), _, count = loopcost._spread(loop, trips, None, side)
    assert count == len(points)
    assert float(seconds) == pytest.approx(sum(p.share * round(dict(p.outer)[middle]) for p in points), rel=1e-5)
    assert float(data) == pytest.approx(sum(p.share * p.trips for p in points), rel=1e-5)


POLYBENCH_STYLE = """#include <stdio.h>
static double a[16][16];
static double kernel(int n) {
    int i, k; double s = 0;
    for (i = 0; i < n; i++)
        for (k = i + 1; k < n; k++)
            s += a[k][i];
    return s;
}
int main(void) {
    printf("%g\\n", kernel(16));
    return 0;
}
"""


def test_a_size_passed_as_an_argument_is_read_off_the_outer_loops_trips(tmp_path):
    # the loops' bounds name the formal n; the counts know n = 16 from the call: the outer loop runs 16 times
    loop, trips = inner_loop(tmp_path, POLYBENCH_STYLE, 6)
    assert _trip_points(loop) == []                 # n alone is not known
    points = _trip_points(loop, None, trips)
    assert _mean_trips(points) == pytest.approx(1240 / 120, abs=0.5)   # as TRIANGLE's, where 16 is written
