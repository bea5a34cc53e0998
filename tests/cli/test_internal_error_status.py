"""A procedure the analysis itself fails on (a defect of sad) makes `check-counts`, `params` and `profile` exit 3,
as `sad analyze` does (README, exit status): check-counts after its table (the failed routine's lines have no
count), params and profile before writing or running anything. The defect is simulated by making the builder
raise for one routine; the compiler, gcov and the program run for real."""
from __future__ import annotations

import io
import os

import pytest

from sad.analysis.builder import ProcedureBuilder
from sad.cli.main import run

SOURCE = """#include <stdio.h>
static double twice(double x) { return 2.0 * x; }
int main(void) {
    double s = 0.0;
    for (int i = 0; i < 10; i++) s += twice(i);
    printf("%g\\n", s);
    return 0;
}
"""


@pytest.fixture
def broken_twice(monkeypatch):
    real = ProcedureBuilder.build

    def build(self):
        if self.proc.name == "twice":
            raise ValueError("simulated defect")
        return real(self)
    monkeypatch.setattr(ProcedureBuilder, "build", build)


def _run(tmp_path, argv: list[str]) -> tuple[int, str, str]:
    (tmp_path / "k.c").write_text(SOURCE)
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        rc = run(argv, out, err)
    finally:
        os.chdir(cwd)
    return rc, out.getvalue(), err.getvalue()


def test_check_counts_prints_the_table_and_exits_3(tmp_path, broken_twice):
    rc, out, err = _run(tmp_path, ["check-counts", "k.c", "--", "./k"])
    assert rc == 3, out + err
    assert "k.c:5" in out                                    # main's loop line is still compared
    assert "internal error while analyzing twice" in err
    assert "counts incomplete: twice could not be analyzed" in err


def test_check_counts_without_the_defect_passes(tmp_path):
    rc, out, err = _run(tmp_path, ["check-counts", "k.c", "--require-bound", "--", "./k"])
    assert rc == 0, out + err


def test_params_writes_nothing_and_exits_3(tmp_path, broken_twice):
    rc, _, err = _run(tmp_path, ["params", "k.c", "-o", "k.params"])
    assert rc == 3
    assert "no params file: twice could not be analyzed" in err
    assert not (tmp_path / "k.params").exists()


def test_profile_runs_nothing_and_exits_3(tmp_path, broken_twice):
    rc, _, err = _run(tmp_path, ["profile", "k.c", "-o", "k.params", "--", "./k"])
    assert rc == 3
    assert "not profiled: twice could not be analyzed" in err
    assert not (tmp_path / "k.params").exists()
