"""A C program's counts checked against gcov by `sad check-counts --require-bound`, for tests: the run must
pass (every line bound and equal to gcov's), and the SAD's count of each line is returned; and the loops the C
frontend made of a program's first function (counted Do or While)."""
from __future__ import annotations

import io
import os
from pathlib import Path

from sad import ir
from sad.analysis.pipeline import analyze
from sad.cli.main import run


def sad_counts(directory: Path, name: str, source: str) -> dict[int, str]:
    """Write `name`.c into `directory`, run check-counts on it there; line number → the SAD's count as printed
    (the run's output in the assertion's message where it fails)."""
    (directory / f"{name}.c").write_text(source)
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(directory)
    try:
        rc = run(["check-counts", f"{name}.c", "--require-bound", "--", f"./{name}"], out, err)
    finally:
        os.chdir(cwd)
    assert rc == 0, out.getvalue() + err.getvalue()
    prefix = f"{name}.c:"
    return {int(line.split()[0][len(prefix):]): line.split()[1]
            for line in out.getvalue().splitlines() if line.startswith(prefix)}


def c_loops(directory: Path, source: str) -> list[ir.Stmt]:
    """The Do and While loops of the first function of a C program written to `directory`/k.c."""
    path = directory / "k.c"
    path.write_text(source)
    analysis = analyze([str(path)])
    return [s for s in ir.walk_stmts(analysis.program.procedures[0].body) if isinstance(s, (ir.Do, ir.While))]
