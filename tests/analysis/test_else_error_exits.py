"""An IF whose ELSE is the error exit: C's assert(x) (`if (x) ; else abort();` after preprocessing) and
`if (ok) {...} else { fprintf(stderr, ...); exit(1); }`. The one open arm is taken, the error exit assumed not,
with a note, as an arm that is an error exit already was (sad.analysis.branches). Before, each was a named
probability: 9 of 14 lines unbound without a profile. Counts cross-checked against gcov."""
from __future__ import annotations

import contextlib
import io
from pathlib import Path

from sad.cli.main import run

ASSERTS = """\
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#define N 1000
double a[N];
int main(void) {
    int i;
    double s = 0.0;
    for (i = 0; i < N; i++) a[i] = i * 0.001;
    for (i = 0; i < N; i++) s += a[i];
    assert(s <= 1000.0);
    if (s > 0) {
        printf("%g\\n", s);
    } else {
        fprintf(stderr, "bad sum\\n");
        exit(1);
    }
    for (i = 0; i < N; i++) {
        assert(a[i] >= 0.0);
        s -= a[i];
    }
    printf("%g\\n", s);
    return 0;
}
"""


def test_asserts_and_else_exits_leave_every_line_bound(tmp_path: Path) -> None:
    (tmp_path / "asserts.c").write_text(ASSERTS)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(tmp_path):
        rc = run(["check-counts", "asserts.c", "--require-bound", "--verbose", "--", "./asserts"], out, err)
    rows = {line.split()[0]: line.split()[1] for line in out.getvalue().splitlines()
            if line.startswith("asserts.c:") and line.split()[1] != "arm"}
    assert rc == 0, out.getvalue() + err.getvalue()
    assert rows["asserts.c:13"] == "1" and rows["asserts.c:16"] == "0" and rows["asserts.c:20"] == "1000"
    assert "else branch to an error exit" in err.getvalue()
