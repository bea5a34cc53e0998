"""sad validate: the table comes from real compilations and runs (a small kernel at two sizes)."""
from __future__ import annotations

from pathlib import Path

from sad.cli.main import main
from sad.machine.model import load_machine
from sad.measure.validate import validate

ROOT = Path(__file__).resolve().parents[1]


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
