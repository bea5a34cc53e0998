"""Bad input (issue 13): one clear message per broken file, never a flood, never control bytes; missing
files exit 2; directories stand for the sources in them; params files are checked against their schema."""
from __future__ import annotations

import io
from pathlib import Path

from sad.analysis.inputs import MAX_ERRORS, tidy
from sad.cli.main import run
from sad.ir import Diagnostic, Loc

ROOT = Path(__file__).resolve().parents[2]
TRIANG = ROOT / "corpus" / "kernels" / "triangular.f"


def _sad(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_empty_file_says_so(tmp_path):
    (tmp_path / "e.f").write_text("\n  \n")
    code, _, err = _sad("analyze", str(tmp_path / "e.f"), "-m", "sparc2")
    assert code == 1 and f"{tmp_path / 'e.f'}: error: file is empty" in err


def test_missing_file_is_no_such_file_exit_2(tmp_path):
    code, out, err = _sad("analyze", str(tmp_path / "nope.f"), str(TRIANG), "-m", "sparc2", "-D", "N=5")
    assert code == 2
    assert "nope.f: error: No such file or directory" in err
    assert "T = " in out  # the other file is still analyzed


def test_directory_stands_for_its_sources(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "t.f").write_text(TRIANG.read_text())
    code, out, err = _sad("analyze", str(tmp_path), "-m", "sparc2", "-D", "N=5")
    assert code == 0, err
    assert f"{tmp_path / 'sub' / 't.f'}" in out
    (tmp_path / "empty").mkdir()
    code, _, err = _sad("analyze", str(tmp_path / "empty"), "-m", "sparc2")
    assert code == 1 and "is a directory" in err


def test_free_form_fortran_in_a_fixed_form_file_is_one_message(tmp_path):
    src = tmp_path / "free.f"
    src.write_text("program x\n  integer :: i\n  do i = 1, 10\n    print *, i\n  end do\nend program x\n")
    code, _, err = _sad("analyze", str(src), "-m", "sparc2")
    assert code == 1
    assert err.count("error:") == 2 and "free-form Fortran 90" in err  # + "no file could be analyzed"
    assert "label field" not in err


def test_binary_file_one_message_no_control_bytes(tmp_path):
    src = tmp_path / "bin.f"
    src.write_bytes(bytes(range(256)) * 20)
    code, _, err = _sad("analyze", str(src), "-m", "sparc2")
    assert code == 1 and "binary file, not source text" in err
    assert not any(ord(c) < 32 and c not in "\n\t" for c in err)


def test_many_errors_are_capped_like_fmax_errors(tmp_path):
    src = tmp_path / "junk.f"
    src.write_text("      PROGRAM J\n  \x1b   Y = 1\n" + "".join(f"  $   X{k} = {k}\n" for k in range(60))
                   + "      END\n")
    code, _, err = _sad("analyze", str(src), "-m", "sparc2")
    errors = [ln for ln in err.splitlines() if ": error: " in ln and str(src) in ln]
    assert len(errors) <= MAX_ERRORS + 1 and "too many errors" in err, err
    assert "\x1b" not in err and "\\x1b" in err
    diags = [Diagnostic(Loc("f", k + 1), "error", f"bad\x1b[31m {k}") for k in range(30)]
    tidied = tidy("f", diags)
    assert len(tidied) == MAX_ERRORS + 1 and "\\x1b" in tidied[0].message and "too many" in tidied[-1].message


def test_c_syntax_error_at_gccs_line_and_column(tmp_path):
    src = tmp_path / "bad.c"
    src.write_text("int main(void) {\n  int x = 1\n  return x;\n}\n")
    code, _, err = _sad("analyze", str(src), "-m", "sparc2")
    assert code == 1
    assert f"{src}:3:3: error: syntax error before 'return'" in err  # gcc: bad.c:3:3: expected ';' before 'return'


def test_plain_params_mapping_and_unknown_key(tmp_path):
    plain = tmp_path / "p.yaml"
    plain.write_text("N: 40\n")
    code, out, err = _sad("analyze", str(TRIANG), "-m", "sparc2", "--params", str(plain))
    assert code == 0, err
    assert "(all parameters bound)" in out and "(params)" in out
    typo = tmp_path / "t.yaml"
    typo.write_text("parameters:\n  N:\n    valeu: 40\n")
    code, out, err = _sad("analyze", str(TRIANG), "-m", "sparc2", "--params", str(typo))
    assert code == 2 and out == ""
    assert f"{typo}:3: error: parameters.N.valeu: unknown key 'valeu'" in err


def test_a_subroutine_whose_header_does_not_parse_is_no_main_program(tmp_path):
    """`SUBROUTINE BAD(N` (no closing parenthesis) is reported, and its unit is not taken for a headerless main
    program, which shadowed the main program of the other file: triangular.f still gives its own time."""
    (tmp_path / "bad.f").write_text("      SUBROUTINE BAD(N\n      N = 1\n      END\n")
    code, out, err = _sad("analyze", str(tmp_path / "bad.f"), str(TRIANG), "-m", "sparc2", "-D", "N=5")
    assert code == 1
    assert f"{tmp_path / 'bad.f'}:1: error: syntax error: SUBROUTINE BAD(N" in err
    assert "defined again" not in err
    _, alone, _ = _sad("analyze", str(TRIANG), "-m", "sparc2", "-D", "N=5")
    time_line = next(line for line in alone.splitlines() if "T = " in line and "bound" in line)
    assert time_line in out
