"""A size the program takes from a routine with no source here (C's ``n = atoi(argv[1])``) is a run-time value
the user binds, as a READ's is (sad.analysis.values, ``_source_call``), not an anonymous loop count."""
from __future__ import annotations

from pathlib import Path

import sympy

from sad.analysis.description import line_counts
from sad.analysis.pipeline import analyze
from sad.cli.main import main

SIZES = """\
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    int n = atoi(argv[1]), s = (int)strtol(argv[2], NULL, 10), i, r, m, t = 0;
    for (i = 0; i < n; i += s)
        t += i;
    i = 0;
    while (i < n) {
        t += 1;
        i += s;
    }
    for (r = 0; r < 3; r++) {
        m = atoi(argv[3 + r]);
        for (i = 0; i < m; i++)
            t += i;
    }
    printf("%d\\n", t);
    return 0;
}
"""


def _counts(tmp_path: Path) -> tuple[dict[int, sympy.Expr], object]:
    source = tmp_path / "sizes.c"
    source.write_text(SIZES)
    analysis = analyze([str(source)], [])
    assert not [d for d in analysis.diagnostics if d.severity == "error"]
    return {line: sympy.sympify(count) for (file, line), count in line_counts(analysis.counts).items()
            if Path(file) == source}, analysis


def test_a_size_from_a_library_call_is_a_value_the_user_binds(tmp_path):
    counts, analysis = _counts(tmp_path)
    names = {s.name for s in counts[6].free_symbols} | {s.name for s in counts[9].free_symbols}
    assert names == {"n", "s"}, (counts[6], counts[9])
    for n, s in ((100, 7), (1, 1), (0, 3), (64, 8)):
        want = max(0, (n + s - 1) // s)
        values = {"n": n, "s": s}
        for line in (6, 9):   # the for's body and the while's
            assert counts[line].subs({x: values[x.name] for x in counts[line].free_symbols}) == want, (line, n, s)
    assert analysis.table.get("n").kind == "value" and "atoi" in analysis.table.get("n").description
    # a size set anew on each pass of a loop is not one value: that loop keeps its named count
    assert any(s.name.startswith("X_") for s in counts[15].free_symbols), counts[15]


def test_its_counts_equal_gcov_once_bound(capsys, tmp_path):
    source = tmp_path / "sizes2.c"
    source.write_text(SIZES)
    rc = main(["check-counts", str(source), "-D", "n=100", "-D", "s=7", "--",
               f"./{source.stem} 100 7 5 6 7"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out
    for line in (5, 6, 8, 9, 10):   # 16 tests, 15 passes of each loop, as gcov counts them
        row = out.split(f"sizes2.c:{line} ")[1].splitlines()[0].split()
        assert row[:3] == (["16", "16", "ok"] if line in (5, 8) else ["15", "15", "ok"]), (line, row)
