"""`sad tune --validate` shows a progress bar of its runs on a terminal, and none off one or under --quiet
(issue 30: 100 s of runs without a sign of life)."""
from __future__ import annotations

import io

import sympy

from sad.measure.tune_runs import measure_choice
from sad.predict.sweep import parse_range
from sad.predict.tune import Problem, solve

PROGRAM = "#include <stdlib.h>\nint main(int argc, char **argv) { return atoi(argv[1]) > 100; }\n"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _problem():
    ts = sympy.Symbol("ts", integer=True)
    problem = Problem((ts - 3) ** 2 * sympy.Float(1e-3) + sympy.Float(1e-3), [parse_range("ts", "1:4")], {})
    return problem, solve(problem, keep=3)


def test_progress_bar_on_a_terminal_counts_every_run(tmp_path, monkeypatch):
    (tmp_path / "prog.c").write_text(PROGRAM)
    monkeypatch.chdir(tmp_path)
    problem, result = _problem()
    screen = Terminal()
    check = measure_choice([str(tmp_path / "prog.c")], "-O0", "./prog {ts}", problem, result, {}, 2, 8, screen)
    assert len(check.points) == 4 and check.chosen.point == {"ts": 3.0}
    shown = screen.getvalue()
    assert "sad tune --validate:" in shown and "/12 [" in shown  # 4 points x (1 warm-up + 2 timed runs)
    assert shown.endswith("\r")  # cleared when done: the report follows on a clean line


def test_no_progress_bar_off_a_terminal(tmp_path, monkeypatch):
    (tmp_path / "prog.c").write_text(PROGRAM)
    monkeypatch.chdir(tmp_path)
    problem, result = _problem()
    log = io.StringIO()
    measure_choice([str(tmp_path / "prog.c")], "-O0", "./prog {ts}", problem, result, {}, 1, 8, log)
    assert log.getvalue() == ""
