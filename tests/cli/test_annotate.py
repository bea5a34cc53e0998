"""`sad annotate`: the source with each line's predicted count and time, text and HTML (issue 30, conveniences).
Counts against the closed forms of triangular.f (N(N+1)/2 and N(N+3)/2 inner trips), times adding up to the
time `sad analyze` predicts, gcov's marks for lines without statements and lines never run."""
from __future__ import annotations

import html
import io
import json
from pathlib import Path

import pytest

from sad.cli.main import run

ROOT = Path(__file__).resolve().parents[2]
TRIANG = str(ROOT / "corpus" / "kernels" / "triangular.f")

GUARD = """\
      PROGRAM GUARD
      INTEGER N, I, K
      READ (5, *) N
      K = 0
      IF (N .LT. 0) THEN
         K = -1
      END IF
      DO 10 I = 1, N
         K = K + I
   10 CONTINUE
      WRITE (6, *) K
      END
"""


def _sad(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def _rows(text: str) -> dict[int, list[str]]:
    """line number → [count, time, share] of the text listing."""
    rows = {}
    for line in text.splitlines():
        head, sep, _ = line.partition(": ")
        fields = head.split()
        if sep and len(fields) >= 4 and fields[-1].isdigit():
            rows[int(fields[-1])] = [fields[0], " ".join(fields[1:-2]), fields[-2]]
    return rows


def test_text_counts_are_the_closed_forms_and_times_add_up():
    n = 100
    code, out, err = _sad("annotate", TRIANG, "-m", "sparc2", "-D", f"N={n}")
    assert code == 0, err
    rows = _rows(out)
    assert rows[11][0] == str(n * (n + 1) // 2) and rows[20][0] == str(n * (n + 3) // 2)
    assert rows[10][0] == rows[19][0] == str(n) and rows[7][0] == "1"
    assert rows[1] == ["-", "-", "-"] and rows[25] == ["-", "-", "-"]  # a comment, END: no statement
    code, doc, _ = _sad("analyze", TRIANG, "-m", "sparc2", "-D", f"N={n}", "--format", "json")
    total = json.loads(doc)["time_s"]
    assert f"predicted time {total * 1e3:.4g} ms" in out
    # the shares of the lines add up to the whole (start-up is 0 on sparc2), within their rounding
    assert sum(float(r[2].rstrip("%")) for r in rows.values() if r[2] != "-") == pytest.approx(100.0, abs=0.5)


def test_never_run_lines_are_marked_as_gcov_does(tmp_path):
    src = tmp_path / "guard.f"
    src.write_text(GUARD)
    code, out, err = _sad("annotate", str(src), "-m", "sparc2", "-D", "N=10")
    assert code == 0, err
    rows = _rows(out)
    assert rows[6][0] == "#####" and rows[9][0] == "10" and rows[5][0] == "1"


def test_unbound_counts_are_formulas_without_times():
    code, out, _ = _sad("annotate", TRIANG, "-m", "sparc2")
    assert code == 0
    line = next(t for t in out.splitlines() if t.endswith("   10:          DO 10 J = I, N"))
    assert line.split()[:4] == ["Max(0,", "N)", "-", "-"]  # the count's formula, no time, no share
    assert "unbound: N" in out


def test_html_page_one_row_per_line_escaped(tmp_path):
    page = tmp_path / "triang.html"
    code, out, err = _sad("annotate", TRIANG, "-m", "sparc2", "-D", "N=100", "-o", str(page))
    assert code == 0 and out == "", err
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and text.count("<tr class=") == 25
    assert f'id="{TRIANG}:11">11</td>' in text and ">5050</td>" in text
    assert html.escape("      WRITE (6, 9000) ISUM, JSUM") in text and "<script" not in text
    code, _, err = _sad("annotate", TRIANG, "-m", "sparc2", "-o", str(page))
    assert code == 2 and "exists; use --force" in err
