"""A benchmark harness's dump guarded by the program's arguments (`if (argc > 42 && !strcmp(argv[0], ""))`,
kept so the compiler cannot drop the results): `sad profile` binds C's argc to the command's argument count
(sad.measure.gcov.argument_count), so the guard is decided and the time bound. Before, argc stayed unbound
after profiling and the program had no predicted time."""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
import yaml

from sad.cli.main import run
from sad.measure.gcov import argument_count

GUARDED = """\
#include <stdio.h>
#include <string.h>
#define N 200
double a[N];
static void dump(int n) {
    int i;
    for (i = 0; i < n; i++) fprintf(stderr, "%g ", a[i]);
}
int main(int argc, char **argv) {
    int i;
    for (i = 0; i < N; i++) a[i] = i * 0.5;
    if (argc > 42 && !strcmp(argv[0], "")) dump(N);
    printf("%g\\n", a[N - 1]);
    return 0;
}
"""


@pytest.mark.parametrize("command, count", [
    ("./prog", 1), ("./prog 4000 100", 3), ("./prog < in.txt", 1), ("./prog a 2> err", 2),
    ("./prog 2> err a", 2), ("./prog a > out b", 3), ("./prog x | head", 2), ("mpirun -n 2 ./prog 5", 2),
    ("./prog 'a b'", 2), ("./prog 2>&1", 1), ("{exe} 7", 2),
    ("./prog $N", None), ("./prog *.dat", None), ("prog a ; ./prog b", None), ("./other 1", None),
])
def test_the_argument_count_of_a_command(command: str, count: int | None) -> None:
    assert argument_count(command, "prog") == count


def _profile(tmp_path: Path, *command: str) -> dict:
    (tmp_path / "guard.c").write_text(GUARDED)
    params = tmp_path / "p.yaml"
    err = io.StringIO()
    with contextlib.chdir(tmp_path):
        rc = run(["profile", "guard.c", "-o", str(params), "--force", "--", "./guard", *command], io.StringIO(),
                 err)
    assert rc == 0, err.getvalue()
    return yaml.safe_load(params.read_text())["parameters"]


def test_profile_binds_argc_from_the_command(tmp_path: Path) -> None:
    assert _profile(tmp_path)["argc"]["value"] == 1
    assert _profile(tmp_path, "x", "y")["argc"]["value"] == 3


def test_the_guarded_dump_leaves_the_time_bound(tmp_path: Path) -> None:
    _profile(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(tmp_path):
        rc = run(["analyze", "guard.c", "-m", "sparc2", "--params", "p.yaml", "--format", "json"], out, err)
    assert rc == 0, err.getvalue()
    report = json.loads(out.getvalue())
    assert report["unbound"] == [] and isinstance(report["time_s"], float), report["time"]


SIZED = """\
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
    int n, i;
    double s = 0, *a;
    if (scanf("%d", &n) != 1) return 1;
    a = malloc(n * sizeof(double));
    for (i = 0; i < n; i++) a[i] = i * 0.5;
    for (i = 0; i < n; i++) s += a[i];
    if (argc > 42 && !strcmp(argv[0], "")) for (i = 0; i < n; i++) fprintf(stderr, "%g ", a[i]);
    printf("%g\\n", s);
    free(a);
    return 0;
}
"""


def test_validate_binds_argc_from_its_command(tmp_path: Path) -> None:
    from sad.machine.model import load_machine
    from sad.measure.validate import validate
    source = tmp_path / "sized.c"
    source.write_text(SIZED)
    results = validate(source, load_machine("sparc2"), ["-O0"], "n", ["1000", "2000"], "echo {n} | ./sized",
                       {}, {}, runs=1, cwd=tmp_path, profile=True)
    for r in results:
        assert r.predicted is not None and not r.unbound and r.profiled["argc"] == 1
