"""--quiet and --verbose on every command, before or after the command's name (issue 30, conveniences)."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from sad.cli.args import _subparsers
from sad.cli.main import create_parser, run

ROOT = Path(__file__).resolve().parents[2]
TRIANG = str(ROOT / "corpus" / "kernels" / "triangular.f")
GUARDED = ("#include <stdio.h>\nint main(void)\n{\n    int n;\n    if (scanf(\"%d\", &n) != 1 || n < 0)\n"
           "        return 1;\n    return 0;\n}\n")


def _sad(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_every_command_has_both_options():
    commands = _subparsers(create_parser()).choices
    assert len(commands) >= 11
    for name, parser in commands.items():
        assert {"--quiet", "--verbose"} <= set(parser._option_string_actions), name


@pytest.mark.parametrize("where", ["after", "before"])
def test_quiet_keeps_warnings_and_errors_only(tmp_path, where):
    src = tmp_path / "g.c"
    src.write_text(GUARDED)
    argv = ["analyze", str(src), "-m", "sparc2", "-D", "NOSUCH=1"]
    code, normal_out, normal_err = _sad(*argv)
    assert code == 0 and ": note: " in normal_err and "warning: -D NOSUCH" in normal_err
    quiet = [*argv, "--quiet"] if where == "after" else ["--quiet", *argv]
    code, out, err = _sad(*quiet)
    assert code == 0 and out == normal_out
    assert err.splitlines() == [line for line in normal_err.splitlines() if ": warning: " in line]


def test_quiet_check_drops_its_summary_line(tmp_path):
    code, out, err = _sad("check", TRIANG, "--no-cache", "-j", "1", "--quiet")
    assert code == 0 and "TRIANG" in out and err == ""
    code, _, err = _sad("check", TRIANG, "--no-cache", "-j", "1", "--no-progress")
    assert err.startswith("sad check: 1 file")


def test_verbose_adds_the_wall_time_and_excludes_quiet(tmp_path):
    code, _, err = _sad("--verbose", "analyze", TRIANG, "-m", "sparc2", "-D", "N=5")
    assert code == 0 and err.splitlines()[-1].startswith("sad analyze: ") and err.endswith(" s\n")
    code, _, err = _sad("analyze", TRIANG, "-m", "sparc2", "--quiet", "--verbose")
    assert code == 2 and "not allowed with argument --quiet" in err
