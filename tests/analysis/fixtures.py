"""The Fortran fixtures of tests/analysis as the tests read them: `sad check-counts --require-bound` of one, as
its rows (every line's count and gcov's, after asserting that the check passed: exit 0, no line differing),
and the line of a statement by its text."""
from __future__ import annotations

from pathlib import Path

from sad.cli.main import main


def gcov_rows(capsys, fixture: str, program: str, binding: tuple[str, ...] = ()) -> dict[int, list[str]]:
    """{line: [sad's count, gcov's count]} of `fixture`'s statement rows (not the `arm` rows), after
    `check-counts FIXTURE BINDING --require-bound -- PROGRAM` exited 0 with no MISMATCH."""
    rc = main(["check-counts", fixture, *binding, "--require-bound", "--", program])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out
    name = Path(fixture).name
    rows = {}
    for row in out.splitlines():
        fields = row.split()
        where, _, line = fields[0].rpartition(":") if fields else ("", "", "")
        if len(fields) >= 3 and Path(where).name == name and line.isdigit() and fields[1] != "arm":
            rows[int(line)] = fields[1:3]
    return rows


def line_of(fixture: str, text: str) -> int:
    """The number of the first line of `fixture` that holds `text`."""
    return next(k for k, line in enumerate(Path(fixture).read_text().splitlines(), 1) if text in line)
