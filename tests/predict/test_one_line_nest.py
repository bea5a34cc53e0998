"""A nest written on one line (``for (...) for (...) for (...)``): the loop model keys trips by line, so a
warning says the nest's trips are mixed rather than pricing it silently from their sum."""
from __future__ import annotations

import io
import shutil

import pytest

from sad.cli.main import run
from tests.predict.loop_nests import host_machine

ONE_LINE = """#include <stdio.h>
static double a[100][100], s;
int main(void) {
    int i, j;
    for (i = 0; i < 100; i++) for (j = 0; j < 100; j++) s += a[j][i];
    for (i = 0; i < 100; i++)
        for (j = 0; j < 100; j++)
            s += a[i][j];
    printf("%g\\n", s);
    return 0;
}
"""


@pytest.mark.skipif(shutil.which("llvm-mca") is None or shutil.which("gcc") is None,
                    reason="llvm-mca and gcc are needed for the compiled-code model")
def test_a_nest_on_one_line_is_named_in_a_warning(tmp_path):
    src = tmp_path / "k.c"
    src.write_text(ONE_LINE)
    out, err = io.StringIO(), io.StringIO()
    assert run(["analyze", str(src), "-m", str(host_machine(tmp_path))], out, err) == 0
    warnings = [line for line in err.getvalue().splitlines() if "share line" in line]
    assert warnings == [f"{src}:5: warning: loops of one nest share line 5: the loop model reads a loop's trips "
                        "and first touch by its line, so their trips are mixed (the counts are exact); write each "
                        "loop on a line of its own for a priced nest"]
