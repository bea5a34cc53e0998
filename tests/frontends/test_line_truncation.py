"""Fixed form reads columns 7-72: text past column 72 is dropped, as gfortran drops it, and now said so once
per line like gfortran's -Wline-truncation (issue 30, item 10)."""
from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

from sad.cli.main import run

TERMS = 33  # "+X" terms written on the line; the last four sit in columns 73-80


def _terms_program() -> str:
    body = "         S = S" + "+X" * TERMS
    assert len(body) == 80
    lines = ["      PROGRAM TERMS", "      DOUBLE PRECISION S, X", "      INTEGER I, N", "      READ (*, *) N, X",
             "      S = 0.0D0", "      DO 10 I = 1, N", body,
             "     &  +X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X+X",
             "   10 CONTINUE", "      WRITE (*, *) S", "      END"]
    return "\n".join(lines) + "\n"


def test_truncated_terms_are_counted_as_gfortran_compiles_them_and_warned(tmp_path: Path):
    source = tmp_path / "terms.f"
    source.write_text(_terms_program())
    out, err = io.StringIO(), io.StringIO()
    assert run(["analyze", str(source), "-m", "sparc2", "--format", "json"], out, err) == 0
    doc = json.loads(out.getvalue())
    # columns 7-72 of line 7 (80 columns) hold 29 of its 33 terms; of line 8 (74 columns) 32 of its 33
    assert doc["operations"]["add.double"] == "61*Max(0, N)"
    warned = [d for d in doc["diagnostics"] if "truncated" in d["message"]]
    assert [(d["line"], d["col"], d["severity"]) for d in warned] == [(7, 73, "warning"), (8, 73, "warning")]
    assert f"{source}:7:73: warning: line truncated at column 72: '+X+X+X+X' is ignored" in err.getvalue()
    assert err.getvalue().count(":7:73:") == 1
    # gfortran drops the same columns: with N = 1 and X = 1 the program prints the 61 terms it kept
    exe = tmp_path / "terms"
    subprocess.run(["gfortran", "-std=legacy", "-w", str(source), "-o", str(exe)], check=True)
    printed = subprocess.run([str(exe)], input="1 1.0\n", capture_output=True, text=True, check=True).stdout
    assert float(printed.split()[0]) == 61.0


def test_syntax_error_of_a_truncated_line_says_so(tmp_path: Path):
    source = tmp_path / "bad.f"
    line = "      X = 1.0 + 2.0 + 3.0 + 4.0 + 5.0 + 6.0 + 7.0 + 8.0 + 9.0 + 10.0 + (3)"
    assert len(line) == 74  # "3)" past column 72: "(" left open
    source.write_text("      PROGRAM P\n" + line + "\n      END\n")
    err = io.StringIO()
    run(["analyze", str(source), "-m", "sparc2"], io.StringIO(), err)
    assert f"{source}:2: error: syntax error: " in err.getvalue()
    assert "(line 2 truncated at column 72: fixed form ignores the text past it)" in err.getvalue()


def test_text_after_an_inline_comment_or_blank_columns_is_no_truncation(tmp_path: Path):
    source = tmp_path / "fine.f"
    comment = "      X = 1.0   ! a comment that runs on past column seventy-two, as comments may"
    source.write_text("      PROGRAM P\n" + comment + "\n      Y = 2.0" + " " * 70 + "\n      END\n")
    err = io.StringIO()
    run(["analyze", str(source), "-m", "sparc2"], io.StringIO(), err)
    assert "truncated" not in err.getvalue()
