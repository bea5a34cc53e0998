"""Issue 30, item 12 (Low): the small defects a new user meets, each fixed with a test that failed before.

Notes once per statement, `sad check`'s places as `sad analyze` prints them, `error:` on an unreadable params
file, constraints in the user's words, reversed ranges, overflowing and non-integer -D values, one spelling
of microseconds, paths cut in the middle."""
from __future__ import annotations

import io
from pathlib import Path

from sad.cli.main import run

ROOT = Path(__file__).resolve().parents[2]
TRIANG = str(ROOT / "corpus" / "kernels" / "triangular.f")

# an error exit under a condition of four parts: the C frontend lowers `a || b || c || d` to four branches
GUARDED = """\
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
    int n, bz, i;
    double s = 0.0;
    if (scanf("%d %d", &n, &bz) != 2 || n < 1 || bz < 1 || n % bz != 0)
        exit(1);
    for (i = 0; i < n; i += bz)
        s += i;
    printf("%f\\n", s);
    return 0;
}
"""


def _sad(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_a_note_on_an_or_condition_is_printed_once(tmp_path):
    src = tmp_path / "guarded.c"
    src.write_text(GUARDED)
    code, _, err = _sad("analyze", str(src), "-m", "sparc2")
    assert code == 0, err
    notes = [line for line in err.splitlines() if "assumed not taken" in line]
    assert notes == [f"{src}:7: note: branch to an error exit (STOP, exit, non-zero return from main) assumed "
                     "not taken"]


def test_check_prints_whole_file_problems_without_line_0_and_keeps_c_columns(tmp_path):
    (tmp_path / "empty.f").write_text("")
    (tmp_path / "bad.c").write_text("int f(int n) { int s = 0; for (int i = 0; i < n; i++) s += i return s; }\n")
    code, _, err = _sad("check", str(tmp_path), "--no-cache", "--no-progress", "-j", "1")
    assert code == 1
    assert f"{tmp_path / 'empty.f'}: error: file is empty" in err.splitlines()
    assert ":0:" not in err
    assert f"{tmp_path / 'bad.c'}:1:62: error: syntax error before 'return'" in err.splitlines()


def test_unreadable_params_file_is_an_error_line():
    code, _, err = _sad("analyze", TRIANG, "-m", "sparc2", "--params", "nosuch.yaml")
    assert code == 2
    assert err.strip() == "nosuch.yaml: error: cannot read: No such file or directory"


def test_constraint_naming_nothing_is_shown_as_written(tmp_path):
    src = tmp_path / "guarded.c"
    src.write_text(GUARDED)
    code, _, err = _sad("tune", str(src), "-m", "sparc2", "--vary", "bz=1:8", "--fix", "n=64",
                        "--constraint", "n % bk == 0")
    assert code == 2
    assert "sad: error: constraint n % bk == 0: bk is neither varied nor bound" in err
    assert "Eq(" not in err and "Mod(" not in err


def test_reversed_kerncraft_range_is_an_error_not_a_difference():
    code, out, err = _sad("sweep", TRIANG, "-m", "sparc2", "-D", "N=100-10")
    assert code == 2 and out == ""
    assert "sad: error: -D N=100-10: reversed range (100 > 10); write the smaller end first" in err
    code, _, err = _sad("sweep", TRIANG, "-m", "sparc2", "-D", "N=10-100")
    assert code == 2 and "-D N=10-100: a range start-stop needs its number of points: 10-100:10" in err


def test_overflowing_time_is_an_error_naming_the_value():
    code, out, err = _sad("analyze", TRIANG, "-m", "sparc2", "-D", "N=2**1000")
    assert code == 2
    assert "inf s" not in out and "T = " not in out
    assert "the predicted time overflows" in err and "N=2**1000 (1.07e+301)" in err


def test_fractional_value_of_an_integer_variable_is_an_error():
    code, out, err = _sad("analyze", TRIANG, "-m", "sparc2", "-D", "N=0.5")
    assert code == 2 and out == ""
    assert "sad: error: -D N=0.5: N is an integer variable in the source; 0.5 is not an integer" in err
    code, _, err = _sad("analyze", TRIANG, "-m", "sparc2", "-D", "N=5.0")  # a whole number written as a float
    assert code == 0, err


def test_check_and_analyze_spell_microseconds_alike(tmp_path):
    src = tmp_path / "bump.f"
    src.write_text("      SUBROUTINE BUMP(X)\n      REAL X(100)\n      DO 10 I = 1, 100\n"
                   "   10 X(I) = X(I) + 1.0\n      END\n")
    code, out, err = _sad("check", str(src), "--no-cache", "--no-progress", "-j", "1")
    assert code == 0, err
    row = next(line for line in out.splitlines() if line.startswith("BUMP"))
    assert row.endswith(" µs") and " us" not in out
    code, out, _ = _sad("analyze", TRIANG, "-m", "sparc2", "-D", "N=5")
    assert " µs" in out and " us" not in out


def test_long_paths_in_the_parameter_table_keep_their_file_name(tmp_path):
    deep = tmp_path / ("d" * 60) / "sub"
    deep.mkdir(parents=True)
    (deep / "triangular.f").write_text(Path(TRIANG).read_text())
    code, out, err = _sad("analyze", str(deep / "triangular.f"), "-m", "sparc2")
    assert code == 0, err
    row = next(line for line in out.splitlines() if line.lstrip().startswith("N ") and "unresolved" in line)
    where = row.split()[3]
    assert where.endswith("/triangular.f:7") and where.startswith(str(tmp_path)[:10]) and "…" in where
    assert len(where) == 48


def test_short_middle_keeps_the_file_name_whole():
    from sad.predict.report import _short_middle
    assert _short_middle("corpus/md1/md1.f:162", 28) == "corpus/md1/md1.f:162"
    assert _short_middle("/a/very/long/directory/name/of/the/project/md1.f:162", 28) == "/a/very/long/dire…/md1.f:162"
    assert _short_middle("/x/" + "f" * 40 + ".f:1", 28) == "…/" + "f" * 40 + ".f:1"


def test_sizes_are_written_in_full_in_the_validate_table():
    from sad.measure.validate import SizeResult, table
    text = table([SizeResult(1_000_000.0, [2.0, 2.2, 2.1], 2.31, ["P_X"])], "N")
    assert text.splitlines()[1].split()[0] == "1000000"
    assert "N=1000000: still unbound: P_X" in text
    assert "e+06" not in text


def test_validate_header_names_each_model_field(tmp_path):
    src = tmp_path / "broken.c"
    src.write_text("int main(void) { return 0 }\n")  # does not compile: validate stops after its header
    code, _, err = _sad("validate", str(src), "-m", "sparc2", "--sizes", "N=10,20", "--plot",
                        str(tmp_path / "v.png"), "--", "./{exe}")
    assert code == 2
    header = err.splitlines()[0]
    assert header == (f"sad validate: {src} on sparc2 (compiler GNU C 2.7 / f77 (Solaris 2.5), optimization -O0, "
                      "os Solaris 2.5), compiled with -O0")


def test_svg_plots_keep_their_text_as_text(tmp_path):
    from sad.measure.validate import SizeResult, plot
    results = [SizeResult(n, [n * 1e-6], n * 1.1e-6) for n in (100.0, 1000.0, 10000.0)]
    plot(results, "NPART", tmp_path / "v.svg", "md1 on sparc2")
    svg = (tmp_path / "v.svg").read_text()
    assert "<text " in svg and "md1 on sparc2" in svg  # the title is searchable text
    assert 'id="DejaVuSans' not in svg  # no glyph outlines


def test_check_markdown_lists_whole_file_problems_without_line_0(tmp_path):
    (tmp_path / "empty.f").write_text("")
    (tmp_path / "bad.c").write_text("int f(int n) { return n + ; }\n")
    code, out, _ = _sad("check", str(tmp_path), "--no-cache", "--no-progress", "-j", "1", "--format", "markdown")
    assert code == 1
    assert f"- `{tmp_path / 'empty.f'}`: file is empty" in out.splitlines()
    assert f"- `{tmp_path / 'bad.c'}:1`: syntax error: Invalid expression" in out.splitlines()


def test_sweep_overflow_is_an_error_naming_the_point():
    code, out, err = _sad("sweep", str(ROOT / "corpus" / "kernels" / "matmul.f"), "-m", "sparc2",
                          "-D", "N=1e100,1e200,1e300")
    assert code == 2
    assert out.splitlines()[-3:] == ["1e+100  2.375e+294", "1e+200         inf", "1e+300         inf"]
    assert "sad: error: the predicted time overflows (inf s) at N=1e+200 and 1 more point" in err


def test_sweep_and_tune_refuse_fractions_of_integer_variables():
    matmul = str(ROOT / "corpus" / "kernels" / "matmul.f")
    code, out, err = _sad("sweep", matmul, "-m", "sparc2", "-D", "N=0.5,1.5")
    assert code == 2 and out == ""
    assert "sad: error: -D N=0.5,1.5: N is an integer variable in the source; 0.5 is not an integer" in err
    tiled = str(ROOT / "corpus" / "tuning" / "matmul_tiled.c")
    code, _, err = _sad("tune", tiled, "-m", "sparc2", "--vary", "ts=1:4", "--fix", "n=0.5")
    assert code == 2 and "-D n=0.5: n is an integer variable in the source; 0.5 is not an integer" in err


def test_check_counts_prints_large_counts_in_full(tmp_path):
    (tmp_path / "n.in").write_text("1500\n")
    code, out, err = _sad("check-counts", TRIANG, "-D", "N=1500", "--", f"./triangular < {tmp_path / 'n.in'}")
    assert code == 0, err
    row = next(line for line in out.splitlines() if line.split()[0].endswith("triangular.f:11"))
    assert row.split()[1:4] == ["1125750", "1125750", "ok"]  # N(N+1)/2 from sad and from gcov, written alike


def test_dominant_block_counts_are_written_in_full():
    code, out, err = _sad("analyze", TRIANG, "-m", "sparc2", "-D", "N=3000")
    assert code == 0, err
    row = next(line for line in out.splitlines() if line.rstrip().endswith("triangular.f:11 TRIANG (code)"))
    assert row.split()[3] == "4501500"  # N(N+1)/2, not 4.5015e+06
    from sad.common.numbertext import number
    assert [number(v) for v in (9642106.55, 2.5, 1e6, 0.000123456789, 1e300)] == \
        ["9642106.6", "2.5", "1000000", "0.000123457", "1e+300"]
