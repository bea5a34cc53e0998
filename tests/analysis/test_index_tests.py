"""A test of loop indices only is an exact indicator wherever it stands (issue 27 item 6): `if (i < j - 1)` in a C
loop nest and `IF (I .LT. J - 1)` in a Fortran DO nest involve two loop indices; they used to get a named
probability (P_main_IF1) that left the time unbound, though the counts have an exact answer. Counted against gcov
through `sad check-counts` (gcc / gfortran --coverage -O0), and the time is a number once the size is given."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import sympy

from sad.analysis.counting import evaluate_sums, indicator, sum_over_index
from sad.analysis.pipeline import analyze
from sad.cli.main import main

C_SOURCE = """#include <stdio.h>
int main(void) {
  int i, j, k, n;
  double s = 0.0;
  if (scanf("%d", &n) != 1) return 1;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if (i < j - 1)
        s += i * j;
      if (j <= i && i + j > 5)
        s -= 0.5;
      for (k = 0; k < j; k++)
        if (k > i)
          s -= 1.0;
      if ((i + j) % 3 == 0)
        s += 2.0;
      if (j == 2 * i)
        s -= 0.25;
    }
  printf("%f\\n", s);
  return 0;
}
"""

F_SOURCE = """      PROGRAM IDX
      INTEGER N, I, J
      PARAMETER (N = 40)
      DOUBLE PRECISION A(N, N), S
      DO 10 J = 1, N
         DO 10 I = 1, N
            A(I, J) = I + J
   10 CONTINUE
      S = 0.0D0
      DO 20 J = 1, N
         DO 20 I = 1, N
            IF (I .LT. J - 1) THEN
               S = S + A(I, J)
            END IF
   20 CONTINUE
      PRINT *, S
      END
"""


def _gcov_agrees(tmp_path: Path, capsys, name: str, text: str, n: int) -> str:
    """`sad check-counts` of the C program `text` with n bound and given as its input: every line equal to
    gcov's, none unbound. Its output."""
    source = tmp_path / name
    source.write_text(text)
    (tmp_path / "in.txt").write_text(f"{n}\n")
    rc = main(["check-counts", str(source), "-D", f"n={n}", "--require-bound", "--",
               f"./{source.stem} < {tmp_path / 'in.txt'}"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out
    return out


def _probabilities(path: Path) -> list[str]:
    return [p.name for p in analyze([str(path)]).table.unresolved() if p.name.startswith("P_")]


def test_index_tests_are_exact_indicators(tmp_path: Path):
    c = tmp_path / "idx.c"
    c.write_text(C_SOURCE)
    f = tmp_path / "idx.f"
    f.write_text(F_SOURCE)
    assert _probabilities(c) == [] and _probabilities(f) == []      # before: P_main_IF1, P_main_IF2, ...


@pytest.mark.skipif(shutil.which("gcov") is None or shutil.which("gfortran") is None, reason="needs gcc, gcov")
@pytest.mark.parametrize("n", [2, 37])
def test_index_test_counts_equal_gcov_c(tmp_path: Path, capsys, n: int):
    out = _gcov_agrees(tmp_path, capsys, "idx.c", C_SOURCE, n)
    assert "unbound" not in out


@pytest.mark.skipif(shutil.which("gcov") is None or shutil.which("gfortran") is None, reason="needs gfortran, gcov")
def test_index_test_counts_equal_gcov_fortran(tmp_path: Path, capsys):
    source = tmp_path / "idx.f"
    source.write_text(F_SOURCE)
    rc = main(["check-counts", str(source), "--require-bound", "--", "./idx"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out and "unbound" not in out, out
    # J = 1..40, I < J - 1: sum of (J - 2) for J = 3..40 = 741 executions of the arm
    rows = [line.split() for line in out.splitlines() if line.strip()]
    assert any(row[0].endswith("idx.f:13") and row[1:3] == ["741", "741"] for row in rows), out


def test_inner_open_sum_keeps_its_own_index():
    """Σ_i Σ_{j=i}^{n-1} [(i + j) mod 3 = 0]: the inner sum stays open (a Sum over k); summing it over i by
    substituting i = k was captured by the inner k and counted every test as taken (n(n+1)/2)."""
    i, j = sympy.symbols("i j", integer=True)
    n = sympy.Symbol("n", integer=True)
    inner = sum_over_index(indicator(sympy.Eq(sympy.Mod(i + j, 3), 0)), j, i, n - 1, 1)
    total = sum_over_index(inner, i, sympy.Integer(0), n - 1, 1)
    for size in (1, 2, 29):
        expected = sum(1 for a in range(size) for b in range(a, size) if (a + b) % 3 == 0)
        assert evaluate_sums(total.subs(n, size)) == expected        # 145 at n = 29, not 435


def test_index_test_time_is_bound(tmp_path: Path, capsys):
    source = tmp_path / "idx.c"
    source.write_text(C_SOURCE)
    assert main(["analyze", str(source), "-m", "sparc2", "-D", "n=100", "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["unbound"] == [] and result["time_s"] > 0, result["time"]


RESIDUES = """#include <stdio.h>
int main(void) {
  int i, j, n;
  double s = 0.0;
  if (scanf("%d", &n) != 1) return 1;
  for (j = 0; j < n; j++)
    for (i = 1; i < n; i++) {
      if (i % 4 == 1)
        s += i;
      if ((i & 3) == 2)
        s -= 1.0;
      if ((i - 3) % 5 == 2 && i > 4)
        s *= 0.5;
      switch ((j - i) & 3) {
      case 0:
        s += 1.0;
        break;
      case 3:
        s -= 0.25;
        break;
      default:
        s *= 0.75;
      }
    }
  printf("%f\\n", s);
  return 0;
}
"""


def test_residue_tests_are_exact_indicators(tmp_path: Path):
    # `i % 4 == 1`, `(i & 3) == 2` and a switch on `(j - i) & 3`: a residue other than 0, an and with a mask
    # of low bits (C's two's complement: a mod 4 also for j - i < 0) and a switch's later cases (the earlier
    # cases' residues excluded); before, the mask and the switch were probabilities, `% 4 == 1` an open sum
    c = tmp_path / "res.c"
    c.write_text(RESIDUES)
    assert _probabilities(c) == []


@pytest.mark.skipif(shutil.which("gcov") is None, reason="needs gcc, gcov")
@pytest.mark.parametrize("n", [3, 37])
def test_residue_test_counts_equal_gcov(tmp_path: Path, capsys, n: int):
    out = _gcov_agrees(tmp_path, capsys, "res.c", RESIDUES, n)
    source = tmp_path / "res.c"
    rows = {row[0].rsplit(":", 1)[1]: row[1:3] for row in (ln.split() for ln in out.splitlines()) if row
            and row[0].startswith(str(source))}
    # n = 37: i = 1..36 in each of 37 rows; i = 1 mod 4 nine times a row, 2 mod 4 nine times
    if n == 37:
        assert rows["9"] == ["333", "333"] and rows["11"] == ["333", "333"], out


def test_a_residue_count_is_closed_for_a_symbolic_bound():
    i = sympy.Symbol("i", integer=True)
    n = sympy.Symbol("n", integer=True)
    total = sum_over_index(indicator(sympy.Eq(sympy.Mod(i + 2, 4), 3)), i, sympy.Integer(1), n - 1, 1)
    assert not total.has(sympy.Sum)
    for size in (0, 1, 2, 5, 6, 40, 41):
        assert total.subs(n, size) == sum(1 for k in range(1, size) if (k + 2) % 4 == 3)
