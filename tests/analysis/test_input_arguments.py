"""A size the program reads from its command line (`int n = atoi(argv[1])`) and passes to its kernels: each
call's loops count in the caller's n, which `-D n=...` binds. Before, an argument set by a library call was
no value at the call, so each callee's loop counted in a formal of its own (`scale.n`), one symbol for calls
with n and n / 2, and `-D n=100` warned "no parameter of that name". A timer read before and after (`t0 =
clock()`) stays out of the tests it feeds (sad/predict/test_sparc2_whetstone.py)."""
from __future__ import annotations

import io
import json
import shutil

import pytest

from sad.cli.main import main, run

SOURCE = """#include <stdio.h>
#include <stdlib.h>
static double v[500];
static double scale(double *a, int n, double f) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += a[i] * f;
    return s;
}
int main(int argc, char **argv) {
    int n = atoi(argv[1]);
    double s = scale(v, n, 0.5);
    s += scale(v, n / 2, 2.0);
    printf("%f\\n", s);
    return 0;
}
"""


def test_a_size_from_atoi_binds_each_calls_loops(tmp_path):
    source = tmp_path / "kern.c"
    source.write_text(SOURCE)
    out, err = io.StringIO(), io.StringIO()
    assert run(["analyze", str(source), "-m", "sparc2", "-D", "n=100", "--format", "json"], out, err) == 0
    doc = json.loads(out.getvalue())
    assert "no parameter of that name" not in err.getvalue(), err.getvalue()
    assert doc["unbound"] == [] and doc["time_s"] is not None
    assert doc["operations"]["loop_iter"] == "Max(0, n) + Max(0, floor(n/2))"


@pytest.mark.skipif(shutil.which("gcov") is None, reason="needs gcc, gcov")
@pytest.mark.parametrize("n", [1, 100])
def test_the_calls_counts_equal_gcov(tmp_path, capsys, n):
    source = tmp_path / "kern.c"
    source.write_text(SOURCE)
    rc = main(["check-counts", str(source), "-D", f"n={n}", "--require-bound", "--", f"./kern {n}"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out
