"""`sad` commands run once per test process and shared by the tests that read them (mostly md1's analyses,
5 to 8 s each): the golden output test and the tests that check properties of the same output read one run.

A run is `sad.cli.main.run` in this process from the repository root, its exit status and output captured.
Only commands that write no file belong here (`sad analyze` of repository files): the same argv gives the
same bytes (the golden test asserts that), so a repeated run would only repeat the work. Tests that share a
run in different files carry `pytest.mark.xdist_group("md1")` so that they run in one worker
(tests/conftest.py).
"""
from __future__ import annotations

import contextlib
import functools
import io
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MD1 = "corpus/md1/md1.f"
MD1_PARAMS = "corpus/md1/md1.params.yaml"


@dataclass(frozen=True)
class Ran:
    """A finished `sad` command: exit status and what it printed."""
    returncode: int
    stdout: str
    stderr: str


@functools.cache
def sad_run(*argv: str) -> Ran:
    """`sad ARGV...` run in this process from the repository root (paths relative to it), made once."""
    from sad.cli.main import run
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(ROOT):
        code = run(list(argv), out, err)
    return Ran(code, out.getvalue(), err.getvalue())


def md1_json() -> Ran:
    """`sad analyze corpus/md1/md1.f -m sparc2 --format json`: no parameter bound (the golden case)."""
    return sad_run("analyze", MD1, "-m", "sparc2", "--format", "json")


def md1_params_json(npart: int) -> Ran:
    """md1 with the shipped profile and NPART given, as JSON: every parameter bound inside the fitted range."""
    return sad_run("analyze", MD1, "-m", "sparc2", "--params", MD1_PARAMS, "-D", f"NPART={npart}",
                   "--format", "json")
