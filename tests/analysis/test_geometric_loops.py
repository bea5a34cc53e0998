"""C loops whose index doubles or halves (an FFT's stages, a tree reduction's strides) with constant bounds are
counted loops over the values the index takes: their bodies' counts summed exactly, equal to gcov's, where a
while loop left the stage count and the index itself as named parameters (benchmarks/devkernels7/fft.c)."""
from __future__ import annotations

import numpy
import sympy

from sad.analysis.pipeline import analyze
from sad.common.exactdiv import FloorLog, floor_log_array
from tests.analysis.gcov_checked import c_loops, sad_counts

STAGES = r"""
#include <stdio.h>
#define P 10
#define NP (1 << P)
static double RE[NP];
int main(void) {
    int len, i, k, s;
    double t = 0;
    for (i = 0; i < NP; i++) RE[i] = i % 7;
    for (len = 2; len <= NP; len *= 2) {
        int half = len / 2;
        for (i = 0; i < NP; i += len)
            for (k = 0; k < half; k++)
                RE[i + k] += RE[i + k + half];
    }
    for (s = NP / 2; s > 0; s >>= 1)
        for (i = 0; i < s; i++)
            RE[i] += RE[i + s];
    for (int w = 1; w < 100; w <<= 2)
        t += w;
    printf("%g %g %d\n", RE[0], t, len);
    return 0;
}
"""


def test_doubling_and_halving_loops_are_counted_as_gcov_counts_them(tmp_path):
    """Ten stages of NP / len blocks of len / 2 butterflies: 5 120 butterflies and 1 033 tests of the block
    loop (NP / len + 1 a stage); strides 512 .. 1 summed to 1 023; w = 1, 4, 16, 64: four trips."""
    counts = sad_counts(tmp_path, "stages", STAGES)
    assert [counts[n] for n in (10, 11, 12, 13, 14, 16, 17, 18, 19, 20)] == \
        ["11", "10", "1033", "6143", "5120", "11", "1033", "1023", "5", "4"]


def test_loops_that_are_not_counted_stay_while_loops(tmp_path):
    """A bound only a run knows, a factor of three and an index the body changes keep the while loop: the
    counted form needs the values the index takes. (The first two are still counted, as while loops:
    test_scaled_while_loops_are_counted_as_gcov_counts_them.)"""
    source = """int f(int n) {
    int s, t = 0, v;
    for (s = 1; s < n; s *= 2) t += s;
    for (s = 1; s < 1000; s *= 3) t += s;
    for (v = 1; v < 1000; v *= 2) { t += v; if (t > 50) v++; }
    for (s = 1; s < 1000; s *= 2) t += s;
    return t;
}
"""
    kinds = [type(loop).__name__ for loop in c_loops(tmp_path, source)]
    assert kinds == ["While", "While", "While", "Do"]
    trips = [c for ev, c in analyze([str(tmp_path / "k.c")]).counts.items()
             if ev.loc.line == 6 and ev.role == "loop_iter"]
    assert trips == [10]   # s = 1, 2, 4, ..., 512


SCALED = r"""
#include <stdio.h>
int main(void) {
    int k, m, ii, n = 1000, t = 0;
    for (m = 1; m < n; m *= 3)
        t += m;
    ii = n;
    do {
        t += ii;
        ii /= 2;
    } while (ii > 0);
    k = n;
    while (k > 1) {
        k = k / 3;
        t++;
    }
    for (m = 7; m <= n; m <<= 2)
        t++;
    ii = n;
    while (ii >= 3)
        ii >>= 1;
    printf("%d\n", t);
    return 0;
}
"""


def test_scaled_while_loops_are_counted_as_gcov_counts_them(tmp_path):
    """While loops whose variable is multiplied or divided by a constant each pass, which the C frontend leaves
    as while loops (a factor of three, a do-while, a bound not a constant of the source): 1, 3, .., 729 is 7
    trips (8 tests); 1000 halved to 0 is 10 passes of the do-while; 1000 to 333, 111, 37, 12, 4, 1 is 6
    divisions by three; 7, 28, 112, 448 is 4 trips; 1000 shifted right while >= 3 (1000 .. 3) is 9 shifts."""
    counts = sad_counts(tmp_path, "scaled", SCALED)
    assert [counts[n] for n in (5, 6, 9, 10, 13, 14, 15, 17, 18, 20, 21)] == \
        ["8", "7", "10", "10", "7", "6", "6", "5", "4", "10", "9"]


def test_a_scaled_loop_counts_exactly_at_a_power_given_as_a_float(tmp_path):
    """The count of a doubling loop up to a run-time n is floor(log2(n - 1)) + 1 trips for n > 1, 0 below: in
    integers where n is a number, even a float (log(1024.0)/log(2) is 9.999... in floating point)."""
    source = """int f(int n) {
    int s, t = 0;
    for (s = 1; s < n; s *= 2) t += s;
    return t;
}
"""
    (tmp_path / "k.c").write_text(source)
    analysis = analyze([str(tmp_path / "k.c")])
    (count,) = [c for ev, c in analysis.counts.items() if ev.loc.line == 3 and ev.role == "loop_iter"]
    n = analysis.table.symbol("f.n") or next(iter(count.free_symbols))
    assert [count.xreplace({n: v}) for v in (0, 1, 2, 3, 1024, 1025)] == [0, 0, 1, 2, 10, 11]
    assert [count.xreplace({n: sympy.Float(v)}) for v in (1024.0, 1025.0, 4097.0)] == [10, 11, 13]
    assert FloorLog(sympy.Float(2.0) ** 40, 2) == 40 and FloorLog(sympy.Integer(999), 10) == 2
    assert list(floor_log_array(numpy.array([1000.0, 999.0, 2.0 ** 40]), 10)) == [3, 2, 12]
