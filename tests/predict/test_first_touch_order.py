"""The first touch of an array's pages in the order a run reaches the loops (sad.predict.sourceloops.FirstTouch):
from the program's entry, calls followed with formal arrays standing for the caller's storage, as a benchmark
harness allocates its arrays in main and fills them in an init routine through formal arguments."""
from __future__ import annotations

import contextlib
import io
import shutil
from pathlib import Path

import pytest

from sad.analysis.description import group_blocks
from sad.analysis.pipeline import analyze, load_program
from sad.cli.main import run
from sad.machine.model import load_machine
from sad.predict.loopcost import price_loops
from sad.predict.sourceloops import source_loops

needs_mca = pytest.mark.skipif(shutil.which("llvm-mca") is None or shutil.which("gcc") is None,
                               reason="llvm-mca and gcc are needed to price loops from compiled code")

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


ZERO_PAGE_C = """#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#define N 4194304
int main(void) {
    double *junk = calloc(N, sizeof(double)), *x = malloc(N * sizeof(double)), *z = malloc(N * sizeof(double));
    double s = 0;
    long i, j;
    memset(z, 0, N * sizeof(double));
    for (i = 0; i < N; i++) s += junk[i];
    for (i = 0; i < 2048; i++) {
        x[i * 2048] = i;
        for (j = 1; j < 2048; j++) s += x[i * 2048 + j] + z[i * 2048 + j];
    }
    printf("%g\\n", s);
    return 0;
}
"""


def test_an_array_only_read_before_any_write_reads_the_zero_page(tmp_path):
    # junk (calloc'd, summed) is read before anything writes it: the zero page's faults; x is written by a
    # statement outside the inner loop first and z by memset: pages allocated and zeroed, as before
    src = tmp_path / "zero.c"
    src.write_text(ZERO_PAGE_C)
    program, failed = load_program([str(src)], [], {})
    assert not failed
    loops = {lp.line: (lp.first_touch, lp.read_first) for lp in source_loops(program)}
    assert loops == {10: (["junk"], ["junk"]), 13: (["x", "z"], [])}


ROOT = Path(__file__).resolve().parents[2]


def _host(tmp_path: Path, first_read: bool) -> Path:
    """sparc2 with a compile command and a hierarchy: first touch 2 us a page, a first read 0.7 us (or none, in a
    version 3 file)."""
    text = (ROOT / "machine_db" / "sparc2.yaml").read_text().replace("models:\n", 'models:\n  compile: "gcc -O2"\n', 1)
    if not first_read:
        text = text.replace("format_version: 8", "format_version: 3")
    text += ("hierarchy:\n  clock: 2500 MHz\n  page: 4096\n  first_touch: 2000 ns\n"
             + ("  first_read: 700 ns\n" if first_read else "")
             + "  levels:\n    - {name: L1, size: 32 KiB, read: 0.3 ns, write: 0.4 ns}\n"
             "    - {name: memory, read: 6 ns, write: 8 ns}\n")
    path = tmp_path / ("host.yaml" if first_read else "old.yaml")
    path.write_text(text)
    return path


def _summing(tmp_path: Path, machine: Path):
    src = tmp_path / "zero.c"
    src.write_text(ZERO_PAGE_C)
    analysis = analyze([str(src)])
    _, explained = price_loops(analysis, group_blocks(analysis.counts), load_machine(machine))
    return next(lp for lp in explained if lp.loop.line == 10)


def _explain(tmp_path: Path, machine: Path) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(tmp_path):
        assert run(["analyze", "zero.c", "-m", str(machine), "--explain"], out, err) == 0, err.getvalue()
    return out.getvalue()


@needs_mca
def test_the_first_read_is_priced_from_the_machine_files_figure(tmp_path):
    # 4 194 304 doubles = 32 MiB = 8 192 pages of 4 KiB, each a read fault of 0.7 us: 5.7344 ms once per run
    summing = _summing(tmp_path, _host(tmp_path, True))
    assert float(summing.touch_s) == pytest.approx(8192 * 0.7e-6)
    text = _explain(tmp_path, _host(tmp_path, True))
    assert "first read of junk (the zero page mapped): 8192 pages x 0.7 us once per run" in text
    assert "first touch of x, z: " in text


@needs_mca
def test_a_file_without_the_figure_prices_the_read_as_a_write_and_says_so(tmp_path):
    summing = _summing(tmp_path, _host(tmp_path, False))
    assert float(summing.touch_s) == pytest.approx(8192 * 2e-6)
    text = _explain(tmp_path, _host(tmp_path, False))
    assert "first read of junk (no first_read figure in the machine file: priced as a write's): 8192 pages x " \
           "2 us once per run" in text
