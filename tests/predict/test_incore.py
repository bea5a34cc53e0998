"""The in-core part of the loop-cost model (sad.predict.incore, sad.predict.sourceloops): which compiled loop
runs a source loop, and what its iterations cost in the core."""
from __future__ import annotations

import shutil

import pytest

from sad.analysis.pipeline import analyze
from sad.predict import compiled as cc
from sad.predict.incore import compiled_loop
from sad.predict.sourceloops import source_loops

needs_mca = pytest.mark.skipif(shutil.which("llvm-mca") is None or shutil.which("gcc") is None,
                               reason="llvm-mca and gcc are needed for the compiled-code model")

STENCIL_C = """#include <stdio.h>
#define N 40
static double A[N][N], B[N][N];
int main(void) {
    int i, j;
    for (i = 0; i < N * N; i++) A[i / N][i % N] = i;
    for (i = 1; i < N - 1; i++)
        for (j = 1; j < N - 1; j++)
            B[i][j] = 0.25 * (A[i + 1][j] + A[i - 1][j])
                    + 0.25 * (A[i][j + 1] + A[i][j - 1])
                    + A[i][j];
    printf("%g\\n", B[3][4]);
    return 0;
}
"""


@needs_mca
@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_a_statement_over_several_lines_keeps_its_loop_in_the_compiled_code(tmp_path, level):
    # the j loop is on line 8 and its one statement on lines 9-11: the debug line table spreads the
    # statement's instructions over all three, so the loop's extent must reach line 11 (the next
    # statement, printf, is on line 12) for its assembly loop to have most of its instructions inside
    src = tmp_path / "stencil.c"
    src.write_text(STENCIL_C)
    loop = next(lp for lp in source_loops(analyze([str(src)]).program) if lp.line == 8)
    assert (loop.line, loop.last_line) == (8, 11)
    cf = cc.compiled_file(src, f"gcc {level}")
    assert isinstance(cf, cc.CompiledFile)
    assert compiled_loop(loop, cf, str(src.resolve())) is not None
