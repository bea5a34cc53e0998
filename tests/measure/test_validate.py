"""sad validate: the table comes from real compilations and runs (a small kernel at two sizes)."""
from __future__ import annotations

from pathlib import Path

from sad.cli.main import main
from sad.machine.model import load_machine
from sad.measure.validate import validate

ROOT = Path(__file__).resolve().parents[2]


def test_validate_two_sizes_real_runs(tmp_path: Path):
    results = validate(ROOT / "corpus/c/matmul_ikj.c", load_machine("sparc2"), ["-O0"], "n", ["60", "120"],
                       "echo {n} | ./matmul_ikj", {}, {}, runs=2, cwd=ROOT)
    assert [r.size for r in results] == [60, 120]
    for r in results:
        assert len(r.runs) == 2 and all(t > 0 for t in r.runs)
        assert r.predicted is not None and r.predicted > 0 and not r.unbound
    assert results[1].measured > results[0].measured            # n^3 work: the bigger run takes longer
    assert results[1].predicted / results[0].predicted > 6


def test_validate_command_prints_table_and_plot(tmp_path: Path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    png = tmp_path / "v.png"
    code = main(["validate", "corpus/kernels/triangular.f", "--machine", "sparc2", "--sizes", "N=100,200",
                 "--runs", "2", "--plot", str(png), "--", "echo {N} | ./triangular"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "measured" in out and "predicted" in out and "median |error|" in out
    assert png.stat().st_size > 1000 and png.read_bytes()[:4] == b"\x89PNG"


def test_validate_refuses_bad_arguments_before_compiling(tmp_path: Path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # nothing may be written here
    src = str(ROOT / "corpus/kernels/triangular.f")
    assert main(["validate", src, "-m", "sparc2", "--sizes", "N=abc", "--", "echo {N} | ./triangular"]) == 2
    assert "--sizes N=abc" in capsys.readouterr().err
    assert main(["validate", src, "-m", "sparc2", "--sizes", "N=10", "--", "echo {NN} | ./triangular"]) == 2
    assert "unknown placeholder {NN}" in capsys.readouterr().err
    png = tmp_path / "old.png"
    png.write_bytes(b"mine")
    assert main(["validate", src, "-m", "sparc2", "--sizes", "N=10", "--plot", str(png), "--",
                 "echo {N} | ./triangular"]) == 2
    assert "exists; not overwritten (use --force" in capsys.readouterr().err
    assert png.read_bytes() == b"mine" and sorted(p.name for p in tmp_path.iterdir()) == ["old.png"]


def test_validate_several_files_svg_with_error_panel(tmp_path: Path, capsys, monkeypatch):
    """Fortran main program and C routine compiled and linked together; SVG output with two panels."""
    from tests.analysis.test_mixed_language import C_AXPY, FORTRAN_MAIN
    monkeypatch.chdir(tmp_path)
    (tmp_path / "main.f").write_text(FORTRAN_MAIN)
    (tmp_path / "axpy.c").write_text(C_AXPY)
    svg = tmp_path / "v.svg"
    code = main(["validate", "main.f", "axpy.c", "--machine", "sparc2", "--sizes", "N=10,1000", "--runs", "1",
                 "--plot", str(svg), "--", "echo {N} | ./main"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    text = svg.read_text()
    assert text.lstrip().startswith("<?xml") and "error (%)" in text and "<dc:date>" not in text


HEADER_KERNEL = """#include <stdio.h>
#include "kinds.h"
int main(void) {
    int i, j, n;
    real_t s = 0;
    if (scanf("%d", &n) != 1) return 1;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            s += (real_t)(i * j) * SCALE;
    printf("%g\\n", (double)s);
    return 0;
}
"""


def test_validate_reads_and_compiles_with_the_users_include_dirs(tmp_path: Path, capsys, monkeypatch):
    """A program whose header is found only with -I is analyzed, compiled and run with it (issue 27: compile
    what the user's build compiles, in validate as in analyze); without -I it cannot be read, and says so."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "kinds.h").write_text("typedef double real_t;\n#define SCALE 0.5\n")
    (tmp_path / "k.c").write_text(HEADER_KERNEL)
    argv = ["validate", "k.c", "-m", "sparc2", "--sizes", "n=50,100", "--runs", "1", "--plot", "v.svg"]
    code = main([*argv, "-I", "inc", "--", "echo {n} | ./k"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    rows = [line.split() for line in captured.out.splitlines() if line.split()[:1] in (["50"], ["100"])]
    assert [r[0] for r in rows] == ["50", "100"] and all(r[2] != "unbound" for r in rows), captured.out
    assert main([*argv, "--force", "--", "echo {n} | ./k"]) == 2
    assert "kinds.h" in capsys.readouterr().err
