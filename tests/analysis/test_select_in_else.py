"""`if (i < j - 1) t = max(t, a); else t = max(t, b);` with max a `?:`: the else is a select, not an `else if`.
Merged into the if's chain, its test of data made the chain's test of loop indices a probability too (a
Nussinov-style kernel stayed unbound after profiling: the index test's arms share one named probability).
Counts cross-checked against gcov; a nested ternary stays priced as a select."""
from __future__ import annotations

from pathlib import Path

from sad import ir
from sad.analysis.cost import is_select
from sad.analysis.pipeline import analyze

from .gcov_checked import sad_counts

KERNEL = """\
#include <stdio.h>
#define N 60
#define MAX(a, b) ((a) >= (b) ? (a) : (b))
int t[N][N];
int main(void) {
    int i, j;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) t[i][j] = (i * 7 + j * 3) % 11;
    for (i = N - 2; i >= 0; i--)
        for (j = i + 1; j < N; j++) {
            if (i < j - 1)
                t[i][j] = MAX(t[i][j], t[i + 1][j - 1] + 1);
            else
                t[i][j] = MAX(t[i][j], t[i + 1][j - 1]);
        }
    printf("%d\\n", t[0][N - 1]);
    return 0;
}
"""


def test_an_index_test_whose_else_is_a_select_stays_exact(tmp_path: Path) -> None:
    counts = sad_counts(tmp_path, "sel", KERNEL)
    # i from 58 down to 0, j from i + 1: 1 + 2 + ... + 59 = 1770 tests; i = j - 1 once per i (59 times)
    assert counts[11] == "1770"
    assert (counts[12], counts[14]) == (str(1770 - 59), "59")


def test_a_nested_ternary_is_one_select(tmp_path: Path) -> None:
    path = tmp_path / "k.c"
    path.write_text("int f(int i, int a, int b) { int s; s = (i > 0) ? a : (i < -3 ? b : 1); return s; }\n")
    body = analyze([str(path)]).program.procedures[0].body
    (outer,) = [s for s in body if isinstance(s, ir.If)]
    assert len(outer.arms) == 1 and isinstance(outer.orelse[0], ir.If)
    assert is_select(outer)
