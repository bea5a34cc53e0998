"""Fortran names are case-insensitive (issue 30, item 8): a file written in lower case has its N bound by
`-D n=...`, a params file's `n:`, sweep/compare/tune `-D` and validate's `--sizes n=...`; C names stay
case-sensitive."""
from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from sad.cli.main import run

LOWER = """      program lower
      integer n, i
      double precision s
      read(*,*) n
      s = 0.0d0
      do 10 i = 1, n
         s = s + dble(i)
   10 continue
      write(*,*) s
      end
"""

C_PROGRAM = """#include <stdio.h>
int main(void)
{
    int n, i;
    double s = 0.0;
    if (scanf("%d", &n) != 1) return 1;
    for (i = 0; i < n; i++) s += i;
    printf("%g\\n", s);
    return 0;
}
"""


def _sad(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture()
def lower(tmp_path: Path) -> Path:
    path = tmp_path / "lower.f"
    path.write_text(LOWER)
    return path


def _time(out: str) -> float:
    return json.loads(out)["time_s"]


def test_define_in_lower_case_binds_the_fortran_name(lower: Path):
    code, upper, _ = _sad("analyze", str(lower), "-m", "sparc2", "-D", "N=100", "--format", "json")
    assert code == 0 and _time(upper) is not None
    code, out, err = _sad("analyze", str(lower), "-m", "sparc2", "-D", "n=100", "--format", "json")
    assert code == 0 and "did you mean" not in err, err
    assert _time(out) == _time(upper)
    # 100 trips of one statement on sparc2: the time grows by the same 99 trips as from N=1 to N=100
    assert _time(out) > _time(_sad("analyze", str(lower), "-m", "sparc2", "-D", "n=1", "--format", "json")[1])


def test_params_file_with_lower_case_keys(lower: Path, tmp_path: Path):
    params = tmp_path / "p.yaml"
    params.write_text("sad_params: 1\nparameters:\n  - name: n\n    value: 100\n")
    code, out, err = _sad("analyze", str(lower), "-m", "sparc2", "--params", str(params), "--format", "json")
    assert code == 0 and "no parameter of that name" not in err, err
    assert _time(out) == _time(_sad("analyze", str(lower), "-m", "sparc2", "-D", "N=100", "--format", "json")[1])


def test_sweep_compare_and_tune_bind_and_sweep_lower_case_names(lower: Path, tmp_path: Path):
    at_100 = _time(_sad("analyze", str(lower), "-m", "sparc2", "-D", "N=100", "--format", "json")[1])
    code, out, err = _sad("sweep", str(lower), "-m", "sparc2", "-D", "n=10,100", "--format", "json")
    assert code == 0, err
    rows = json.loads(out)["rows"]
    assert [r["n"] for r in rows] == [10, 100] and rows[1]["TOTAL"] == pytest.approx(at_100, rel=1e-12)
    other = tmp_path / "other.f"
    other.write_text(LOWER.replace("s = s + dble(i)", "s = s + dble(i) * dble(i)"))
    code, out, err = _sad("compare", str(lower), str(other), "-m", "sparc2", "-D", "n=100", "-D", "k=1,2",
                          "--format", "json")
    assert code != 0 and "k is not a parameter" in err  # a name no routine has is still refused
    code, out, err = _sad("compare", str(lower), str(other), "-m", "sparc2", "-D", "n=10,100", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["rows"][1]["TOTAL[lower]"] == pytest.approx(at_100, rel=1e-12)
    code, out, err = _sad("tune", str(lower), "-m", "sparc2", "--vary", "n=10:100")
    assert code == 0, err
    assert re.search(r"optimum: n=10 ", out)


def test_c_names_stay_case_sensitive(tmp_path: Path):
    source = tmp_path / "sum.c"
    source.write_text(C_PROGRAM)
    code, out, err = _sad("analyze", str(source), "-m", "sparc2", "-D", "N=100", "--format", "json")
    assert "-D N: no parameter of that name in the analysis; did you mean n?" in err
    assert _time(out) is None and json.loads(out)["unbound"] == ["n"]


def test_validate_sizes_in_lower_case(lower: Path, tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = _sad("validate", str(lower), "-m", "sparc2", "--sizes", "n=1000,2000", "--runs", "1",
                          "--", "echo {n} | ./lower")
    assert code == 0, err
    rows = [line for line in out.splitlines() if re.match(r"\s+\d+ ", line)]
    assert len(rows) == 2 and "unbound" not in out


def test_a_define_of_a_procedures_variable_is_no_macro(tmp_path: Path):
    # `-D sweep.n=500` binds sweep's n (PROC.VAR); passed to cpp it defined the macro `sweep` as `.n=500`,
    # which turned `static void sweep(int n)` into a syntax error and left nothing analyzed
    src = tmp_path / "proc.c"
    src.write_text("#include <stdio.h>\nstatic double s;\nstatic void sweep(void)\n{\n    int n, i;\n"
                   "    scanf(\"%d\", &n);\n    for (i = 0; i < n; i++) s += i;\n}\n"
                   "int main(void)\n{\n    sweep();\n    printf(\"%g\\n\", s);\n    return 0;\n}\n")
    code, out, err = _sad("analyze", str(src), "-m", "sparc2", "-D", "sweep.n=500", "--format", "json")
    assert code == 0 and "error:" not in err and "no parameter" not in err, err
    doc = json.loads(out)
    assert doc["time_s"] is not None and "sweep.n" in doc["time"]     # the formula keeps it, bound to 500


def test_a_variable_read_in_a_macro_body_is_no_macro(tmp_path: Path):
    # `#define A(i, j) a[(long)(i) * n + (j)]` reads the variable n; the name in a #define's replacement text
    # made `-D n=1500` a macro, and `int n = ...` became `int 1500 = ...`: a syntax error, nothing analyzed
    src = tmp_path / "macro.c"
    src.write_text("#include <stdio.h>\n#include <stdlib.h>\n#define A(i, j) a[(long)(i) * n + (j)]\n"
                   "#ifndef R\n#define R 2\n#endif\n"
                   "int main(int argc, char **argv)\n{\n    int n = atoi(argv[1]);\n"
                   "    double *a = malloc(sizeof(double) * n * n), s = 0.0;\n"
                   "    for (int r = 0; r < R; r++)\n        for (int i = 0; i < n; i++)\n"
                   "            for (int j = 0; j < n; j++)\n                s += A(i, j) + A(j, i);\n"
                   "    printf(\"%g\\n\", s);\n    return 0;\n}\n")
    code, out, err = _sad("analyze", str(src), "-m", "sparc2", "-D", "n=100", "-D", "R=3", "--format", "json")
    assert code == 0 and "error:" not in err, err
    doc = json.loads(out)
    # R = 3 (a macro: #ifndef tests it) x (n x n + n) + 3 iterations, n bound where the time is priced
    assert doc["operations"]["loop_iter"] == "3*Max(0, n)**2 + 3*Max(0, n) + 3"
    assert doc["unbound"] == [] and "n" in doc["time"]
