"""The command line behaves like the tools HPC users know (issue 13, "Command line"): --help everywhere,
options in any position, `FILE... -- COMMAND` split in one place, `--flags -O2`, one validation of -D,
did-you-mean for machines and -D names."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from sad.cli.args import (
    ArgumentError,
    check_placeholders,
    did_you_mean,
    parse_command_line,
    parse_define,
    split_command,
)
from sad.cli.main import create_parser, main

ROOT = Path(__file__).resolve().parents[2]
TRIANG = str(ROOT / "corpus" / "kernels" / "triangular.f")
ARITHIF = str(ROOT / "corpus" / "kernels" / "arithif.f")


@pytest.mark.parametrize("command", ["analyze", "ir", "params", "profile", "check-counts", "calibrate",
                                     "validate"])
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_every_subcommand_takes_help(command, flag, capsys):
    assert main([command, flag]) == 0  # an exit status, not SystemExit
    out = capsys.readouterr().out
    assert out.startswith(f"usage: sad {command}")


def test_options_before_between_and_after_files():
    parser = create_parser()
    args = parse_command_line(parser, ["check-counts", "-q", "a.f", "-D", "N=3", "b.f", "--keep", "--",
                                       "./a", "<", "in"])
    assert args.files == ["a.f", "b.f"] and args.mismatches_only and args.keep
    assert args.defines == ["N=3"] and args.command == "./a < in"
    args = parse_command_line(parser, ["validate", "-m", "sparc2", "x.f", "--sizes", "N=1,2", "y.c",
                                       "--runs", "2", "--", "./x {N}"])
    assert args.files == ["x.f", "y.c"] and args.runs == 2 and args.command == "./x {N}"
    args = parse_command_line(parser, ["analyze", "--top", "3", "a.f", "-m", "sparc2", "b.f"])
    assert args.files == ["a.f", "b.f"] and args.top == 3


def test_split_command_only_at_the_first_double_dash():
    assert split_command(["a.f", "--", "./a", "--", "x"]) == (["a.f"], ["./a", "--", "x"])
    assert split_command(["a.f"]) == (["a.f"], None)


def test_missing_command_is_a_usage_error(capsys):
    assert main(["check-counts", TRIANG]) == 2  # an exit status, not SystemExit
    assert "no COMMAND" in capsys.readouterr().err


def test_flags_value_may_start_with_a_dash():
    args = parse_command_line(create_parser(), ["calibrate", "--flags", "-O2", "-o", "m.yaml"])
    assert args.flags == "-O2" and args.output == "m.yaml"
    args = parse_command_line(create_parser(), ["validate", "x.f", "-m", "m", "--sizes", "N=1", "--flags",
                                              "-O3", "--", "./x"])
    assert args.flags == "-O3"


def test_top_must_be_positive(capsys):
    assert main(["analyze", TRIANG, "-m", "sparc2", "--top", "-1"]) == 2  # an exit status, not SystemExit
    assert "--top" in capsys.readouterr().err


def test_define_without_value_means_one_and_overflow_is_refused():
    assert parse_define("LARGE_DATASET")[:2] == ("LARGE_DATASET", "1")
    with pytest.raises(ArgumentError, match="too large"):
        parse_define("N=1e400")


def test_overflowing_define_exits_2(capsys):
    assert main(["analyze", TRIANG, "-m", "sparc2", "-D", "N=1e400"]) == 2
    assert "too large" in capsys.readouterr().err


def test_define_is_validated_like_a_params_file(capsys):
    assert main(["analyze", ARITHIF, "-m", "sparc2", "-D", "P_ARITH_AIF1_NEG=1.5"]) == 2
    assert "P_ARITH_AIF1_NEG: probability 1.5 outside [0, 1]" in capsys.readouterr().err
    assert main(["analyze", ARITHIF, "-m", "sparc2", "-D", "X_ARITH_L60=-3"]) == 2
    assert "X_ARITH_L60: loop count -3 is negative" in capsys.readouterr().err


def test_did_you_mean_machine_without_install_path(capsys):
    assert main(["analyze", TRIANG, "-m", "sparc3", "-D", "N=3"]) == 2
    err = capsys.readouterr().err
    assert "did you mean 'sparc2'?" in err
    assert "machine_db" not in err and str(ROOT) not in err


def test_did_you_mean_define_name_by_case(capsys):
    assert main(["analyze", str(ROOT / "corpus/c/stepped.c"), "-m", "sparc2", "-D", "N=100"]) == 0
    assert "-D N: no parameter of that name in the analysis; did you mean n?" in capsys.readouterr().err
    assert did_you_mean("ncell", ["NCELL", "NPART"]) == "NCELL"
    assert did_you_mean("QQQ", ["NCELL", "NPART"]) is None


def test_unknown_placeholder_named():
    with pytest.raises(ArgumentError, match=r"\{NPRT\} \(did you mean \{NPART\}\?\)"):
        check_placeholders("./md1 < in_{NPRT}", ["NPART", "exe"])


MACRO_SIZED = """#include <stdio.h>
#ifdef LARGE_DATASET
#define N 300
#else
#define N 20
#endif
static double a[N];
int main(void)
{
    int i;
    double s = 0.0;
    for (i = 0; i < N; i++)
        a[i] = i;
    for (i = 0; i < N; i++)
        s += a[i];
    printf("%f\\n", s);
    return 0;
}
"""


def test_macro_sizes_reach_the_compiler(tmp_path, capsys, monkeypatch):
    """-D LARGE_DATASET (no value: 1) sizes the analysis and the profiled build alike: every line agrees."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sized.c").write_text(MACRO_SIZED)
    rc = main(["check-counts", "sized.c", "-D", "LARGE_DATASET", "--", "./sized"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "MISMATCH" not in out and " 300 " in out


def test_a_define_that_sets_a_macro_is_not_called_unknown(tmp_path, capsys):
    """-D N=60 for an `#ifndef N` default (the size set at compile time, no parameter left) did what the user
    meant: the loop runs 60 times and no warning says N is unknown; a -D the source never reads still warns,
    in C (through a header found with -I) and in a .F file."""
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "size.h").write_text("#ifndef N\n#define N 10\n#endif\n")
    src = tmp_path / "k.c"
    src.write_text('#include <stdio.h>\n#include "size.h"\nint main(void) {\n  int i; double s = 0;\n'
                   "  for (i = 0; i < N; i++)\n    s += i;\n  printf(\"%g\\n\", s);\n  return 0;\n}\n")
    assert main(["analyze", str(src), "-I", str(tmp_path / "inc"), "-m", "sparc2", "-D", "N=60", "-D", "QQ=1"]) == 0
    out, err = capsys.readouterr()
    assert "-D N:" not in err and "-D QQ: no parameter of that name in the analysis" in err
    assert re.search(r"^  add\.double +60$", out, re.M)      # s += i, 60 times
    fsrc = tmp_path / "p.F"
    fsrc.write_text("      PROGRAM P\n#ifndef NN\n#define NN 10\n#endif\n      INTEGER I, S\n      S = 0\n"
                    "      DO 10 I = 1, NN\n   10 S = S + I\n      PRINT *, S\n      END\n")
    assert main(["analyze", str(fsrc), "-m", "sparc2", "-D", "NN=5"]) == 0
    assert "-D NN:" not in capsys.readouterr().err
