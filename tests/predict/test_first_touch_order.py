"""The first touch of an array's pages in the order a run reaches the loops (sad.predict.sourceloops.FirstTouch):
from the program's entry, calls followed with formal arrays standing for the caller's storage, as a benchmark
harness allocates its arrays in main and fills them in an init routine through formal arguments."""
from __future__ import annotations

from sad.analysis.pipeline import load_program
from sad.predict.sourceloops import source_loops

HARNESS_C = """#include <stdlib.h>
#define N 512
static void init(int n, double A[N][N], double x[N]) {
    int i, j;
    for (i = 0; i < n; i++) {
        x[i] = i;
        for (j = 0; j < n; j++)
            A[i][j] = i + j;
    }
}
static void kernel(int n, double A[N][N], double x[N], double y[N]) {
    int i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            y[i] += A[i][j] * x[j];
}
int main(void) {
    double (*A)[N][N] = malloc(sizeof(double) * N * N);
    double *x = malloc(sizeof(double) * N), *y = calloc(N, sizeof(double));
    init(N, *A, x);
    kernel(N, *A, x, y);
    return (int)y[3];
}
"""

LIBRARY_C = """#define N 512
void kernel(int n, double A[N][N], double x[N], double y[N]) {
    int i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            y[i] += A[i][j] * x[j];
}
"""

FILL_F = """      PROGRAM MAIN
      DOUBLE PRECISION A(1000), B(1000)
      CALL FILL(A, 1000)
      CALL FILL(A, 1000)
      CALL SCALE(A, B, 1000)
      PRINT *, B(7)
      END
      SUBROUTINE FILL(V, N)
      INTEGER N, I
      DOUBLE PRECISION V(N)
      DO 10 I = 1, N
         V(I) = I
   10 CONTINUE
      END
      SUBROUTINE SCALE(V, W, N)
      INTEGER N, I
      DOUBLE PRECISION V(N), W(N)
      DO 20 I = 1, N
         W(I) = 2 * V(I)
   20 CONTINUE
      END
"""


def _first_touches(tmp_path, name: str, text: str) -> dict[int, list[str]]:
    src = tmp_path / name
    src.write_text(text)
    program, failed = load_program([str(src)], [], {})
    assert not failed
    return {lp.line: lp.first_touch for lp in source_loops(program)}


def test_an_init_routine_pays_the_first_touch_of_the_arrays_main_allocated(tmp_path):
    # init's j loop (line 7) is the first loop to touch A, through its formal; x is first written outside an
    # innermost loop (x[i] = i), so it is paid at its first innermost loop, kernel's (line 14), with y
    assert _first_touches(tmp_path, "harness.c", HARNESS_C) == {7: ["A"], 14: ["x", "y"]}


def test_a_library_routine_touches_no_formal_array_first(tmp_path):
    # no entry: the textual order, where a formal array is someone else's
    assert _first_touches(tmp_path, "lib.c", LIBRARY_C) == {5: []}


def test_a_fortran_program_pays_once_for_a_routine_called_twice(tmp_path):
    # FILL's loop touches the program's A first; the second CALL FILL adds nothing; SCALE writes B first (its
    # formal W stands for B) and reads A, touched already
    assert _first_touches(tmp_path, "fill.f", FILL_F) == {11: ["V"], 18: ["W"]}
