"""C loops whose index doubles or halves (an FFT's stages, a tree reduction's strides) with constant bounds are
counted loops over the values the index takes: their bodies' counts summed exactly, equal to gcov's, where a
while loop left the stage count and the index itself as named parameters (benchmarks/devkernels7/fft.c)."""
from __future__ import annotations

from sad.analysis.pipeline import analyze
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
    """A bound only a run knows, a factor of three and an index the body changes keep the while loop (and
    its named count): the counted form needs the values the index takes."""
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
