"""C for loops that walk a pointer over one array by a constant step (``for (p = a; p < a + n; p++)``, an end
pointer set in the for's init, ``&a[1]`` to ``&a[n - 1]`` by 4, a row of a 2-D array, downwards) are counted
loops over a hidden offset: their counts equal gcov's where a while loop left a named count, and the body's
``*p``, ``p[e]``, ``*(p + e)`` are references to the array that the loop model prices as streams."""
from __future__ import annotations

from sad import ir
from tests.analysis.gcov_checked import c_loops, sad_counts

WALKS = r"""
#include <stdio.h>
#define N 1000
static double a[N], b[N][64];
int main(void) {
    int i;
    double s = 0.0, *p, *e, *q;
    for (i = 0; i < N; i++) a[i] = (double)i;
    for (p = a; p < a + N; p++) s += *p;
    for (p = a, e = a + N; p != e; ++p) s += *p * 2;
    for (p = &a[1]; p < &a[N - 1]; p += 4) s += p[0] + p[-1] + *(p + 1);
    for (i = 0; i < N; i++)
        for (q = b[i]; q < b[i] + 64; q++) *q = s;
    for (p = a + N - 1; p >= a; p--) s += *p;
    printf("%g %g %g\n", s, b[3][5], *(p + 1));
    return 0;
}
"""


def test_pointer_walks_are_counted_as_gcov_counts_them(tmp_path):
    # 1 000 + 1 tests; (998 - 1) / 4 rounded up = 250 trips + 1; 1 000 rows of 64 + 1 test each = 65 000
    counts = sad_counts(tmp_path, "walks", WALKS)
    assert [counts[n] for n in (9, 10, 11, 13, 14)] == ["1001", "1001", "251", "65000", "1001"]


def test_the_bodys_dereferences_are_the_arrays_elements(tmp_path):
    loops = c_loops(tmp_path, WALKS)
    strided = next(lp for lp in loops if lp.loc.line == 11)
    assert isinstance(strided, ir.Do) and strided.index == "__p_offset"
    offsets = sorted(n.indices[0].right.value for s in strided.body for n in ir.walk(s)
                     if isinstance(n, ir.ArrayRef) and n.name == "a")
    assert offsets == [-1, 0, 1]               # p[-1], p[0], *(p + 1): a[k - 1], a[k + 0], a[k + 1]
    row = next(lp for lp in loops if lp.loc.line == 13)
    assert any(isinstance(n, ir.ArrayRef) and n.name == "b" and len(n.indices) == 2
               for s in row.body for n in ir.walk(s))


def test_an_end_pointer_the_function_sets_once_where_it_declares_it(tmp_path):
    source = WALKS.replace("double s = 0.0, *p, *e, *q;", "double s = 0.0, *p, *e, *q, *end = a + N;") \
        .replace("for (p = a; p < a + N; p++) s += *p;", "for (p = a; p != end; ++p) s += *p;")
    assert sad_counts(tmp_path, "ends", source)[9] == "1001"
    moved = source.replace("printf(", "end = a; printf(")      # set again later: no longer one value
    assert [type(lp).__name__ for lp in c_loops(tmp_path, moved) if lp.loc.line == 9] == ["While"]


def test_a_pointer_the_body_moves_or_another_array_stays_a_while_loop(tmp_path):
    source = WALKS.replace("for (p = a; p < a + N; p++) s += *p;", "for (p = a; p < a + N; p++) { s += *p; p++; }") \
        .replace("for (p = a, e = a + N; p != e; ++p)", "for (p = a, e = &b[0][0] + N; p != e; ++p)")
    loops = c_loops(tmp_path, source)
    assert [type(lp).__name__ for lp in loops if lp.loc.line in (9, 10)] == ["While", "While"]
