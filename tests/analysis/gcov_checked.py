"""A C program's counts checked against gcov by `sad check-counts --require-bound`, for tests: the run must
pass (every line bound and equal to gcov's), and the SAD's count of each line is returned."""
from __future__ import annotations

import io
import os
from pathlib import Path

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
