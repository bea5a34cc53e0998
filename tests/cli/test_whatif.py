"""`sad sweep`, `sad compare` and `sad tune` from the command line, in process: tables against single analyses,
several machines, crossovers, plot files, and bad input (exit 2 with a clear message)."""
from __future__ import annotations

import csv
import io
import json
import re

import pytest

from sad.cli.main import main

TRI = "corpus/kernels/triangular.f"
MATMUL = "corpus/kernels/matmul.f"


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def analyzed(path, machine, defines, capsys):
    argv = ["analyze", path, "-m", machine, "--format", "json"]
    for d in defines:
        argv += ["-D", d]
    code, out, _ = run(argv, capsys)
    assert code == 0
    return json.loads(out)["time_s"]


def test_sweep_json_equals_analyze_at_every_point(capsys):
    code, out, _ = run(["sweep", TRI, "-m", "sparc2", "-D", "N=64:512:x2", "--format", "json"], capsys)
    assert code == 0
    doc = json.loads(out)
    assert doc["columns"] == ["N", "TOTAL"]
    assert [r["N"] for r in doc["rows"]] == [64, 128, 256, 512]
    assert doc["swept"] == [{"name": "N", "range": "64:512:x2", "log": True, "points": 4}]
    for row in doc["rows"]:
        assert row["TOTAL"] == pytest.approx(analyzed(TRI, "sparc2", [f"N={row['N']}"], capsys), rel=1e-12)


def test_kerncraft_two_word_define_and_csv(capsys):
    code, out, _ = run(["sweep", "-D", "N", "10-1000:3log", TRI, "-m", "sparc2", "--format", "csv"], capsys)
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["N"] for r in rows] == ["10", "100", "1000"]
    # the closed form of triangular.f's count: N(N+1)/2 + N(N+3)/2 ... priced on sparc2 (README example: 1.042 s)
    assert float(rows[2]["TOTAL"]) == pytest.approx(1.042, rel=1e-3)


def test_several_machines_give_one_column_each(capsys):
    code, out, _ = run(["sweep", MATMUL, "-m", "sparc2", "-m", "paragon", "-D", "N=10,100"], capsys)
    assert code == 0
    header = next(line for line in out.splitlines() if line.lstrip().startswith("N "))
    assert header.split() == ["N", "TOTAL[sparc2]", "TOTAL[paragon]", "best"]
    row = next(line for line in out.splitlines() if line.split()[:1] == ["100"]).split()
    assert float(row[1]) == pytest.approx(analyzed(MATMUL, "sparc2", ["N=100"], capsys), rel=1e-5)
    assert float(row[2]) == pytest.approx(analyzed(MATMUL, "paragon", ["N=100"], capsys), rel=1e-5)


def test_compare_reports_the_crossover_single_analyses_confirm(capsys):
    code, out, _ = run(["compare", TRI, MATMUL, "-m", "sparc2", "-D", "N=1:12", "--format", "json"], capsys)
    assert code == 0
    doc = json.loads(out)
    assert doc["columns"] == ["N", "TOTAL[triangular]", "TOTAL[matmul]", "best"]
    (cross,) = doc["crossovers"]
    assert cross["before"] == "matmul" and cross["after"] == "triangular"
    first = int(cross["value"])
    tri = {n: analyzed(TRI, "sparc2", [f"N={n}"], capsys) for n in (first - 1, first)}
    mat = {n: analyzed(MATMUL, "sparc2", [f"N={n}"], capsys) for n in (first - 1, first)}
    assert mat[first - 1] < tri[first - 1] and tri[first] < mat[first]


def test_compare_text_names_the_winner_and_crossover(capsys):
    code, out, _ = run(["compare", TRI, MATMUL, "-m", "sparc2", "-D", "N=1:12:4"], capsys)
    assert code == 0
    assert re.search(r"crossover: triangular overtakes matmul between N=1 and 5 from N=2", out)


@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_plot_files_are_valid_and_labelled(tmp_path, capsys, suffix):
    path = tmp_path / ("plot" + suffix)
    code, _, _ = run(["sweep", MATMUL, "-m", "sparc2", "-m", "paragon", "-D", "N=10-1000:5log",
                      "--plot", str(path)], capsys)
    assert code == 0
    data = path.read_bytes()
    if suffix == ".png":
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        from matplotlib.image import imread
        assert imread(path).shape[2] in (3, 4)
        assert b"x: N; y: predicted time (s)" in data          # tEXt Description
    elif suffix == ".svg":
        text = data.decode()
        labels = re.findall(r"<text[^>]*>([^<]+)</text>", text)
        assert "predicted time (s)" in labels
        assert "sparc2" in labels and "paragon" in labels
        assert "oblique" in text and ">N</tspan>" in text       # the x label, N in math italics
        assert "**" not in text
    else:
        assert data.startswith(b"%PDF-")
        assert rb"/Subject (x: N; y: predicted time \(s\))" in data  # document information
    again = tmp_path / ("again" + suffix)
    run(["sweep", MATMUL, "-m", "sparc2", "-m", "paragon", "-D", "N=10-1000:5log", "--plot", str(again)], capsys)
    assert again.read_bytes() == data                              # no dates: same table, same bytes


def test_an_existing_file_is_not_overwritten(tmp_path, capsys):
    out = tmp_path / "t.csv"
    out.write_text("mine")
    code, _, err = run(["sweep", TRI, "-m", "sparc2", "-D", "N=1:3", "-o", str(out)], capsys)
    assert code == 2 and "exists; use --force" in err and out.read_text() == "mine"


@pytest.mark.parametrize("argv, message", [
    (["sweep", TRI, "-m", "sparc2", "-D", "N=10-100:0"], "-D N=10-100:0: empty range"),
    (["sweep", TRI, "-m", "sparc2", "-D", "N=100-10:5"], "reversed range (100 > 10)"),
    (["sweep", TRI, "-m", "sparc2", "-D", "NN=1:5"], "NN is not a parameter of corpus/kernels/triangular.f; "
                                                      "did you mean N?"),
    (["sweep", TRI, "-m", "sparc2", "-D", "N=5"], "nothing to sweep"),
    (["sweep", TRI, "-m", "sparc2", "-D", "N=1:3", "--plot", "x.gif"], "must end in .png, .svg or .pdf"),
    (["compare", TRI, "-m", "sparc2", "-D", "N=1:3"], "at least two variants"),
    (["tune", "corpus/c/jacobi.c", "-m", "sparc2", "--vary", "n=10:40", "--fix", "nsweeps=5", "--constraint",
      "n > 100"], "no grid point satisfies the constraints"),
    (["tune", "corpus/c/jacobi.c", "-m", "sparc2", "--vary", "n=40:10", "--fix", "nsweeps=5"],
     "--vary n=40:10: reversed range"),
    (["tune", "corpus/c/jacobi.c", "-m", "sparc2", "--vary", "n=10:40"], "unbound parameters nsweeps"),
    (["tune", "corpus/c/jacobi.c", "-m", "sparc2", "--vary", "n=10:40", "--fix", "nsweeps=5",
      "--constraint", "n >"], "--constraint n >: col"),
    (["tune", "corpus/c/jacobi.c", "-m", "sparc2", "--vary", "q=1:4", "--fix", "nsweeps=5"],
     "q is not a parameter"),
])
def test_bad_input_exits_2_with_a_message(argv, message, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2
    assert message in err
    assert "Traceback" not in err and out == ""


def test_tune_prints_optimum_runners_up_and_flatness(capsys):
    code, out, _ = run(["tune", "corpus/c/jacobi.c", "-m", "sparc2", "--vary", "n=10:40", "--fix", "nsweeps=5",
                        "--constraint", "n % 2 == 0", "--format", "json"], capsys)
    assert code == 0
    doc = json.loads(out)
    assert doc["best"] == {"n": 10} and doc["method"] == "exhaustive"
    assert [r["point"]["n"] for r in doc["ranked"]] == [10, 12, 14, 16, 18]
    assert doc["time_s"] == pytest.approx(analyzed("corpus/c/jacobi.c", "sparc2", ["n=10", "nsweeps=5"], capsys),
                                          rel=1e-12)
    assert doc["near"] == {"0.01": 1, "0.05": 1}


# Brehm 1999, Tab. 6.2: the ring matrix multiply ("version 2") on the Paragon at N = 256, COMM column (s).
TAB_6_2_COMM = {1: 0.0, 2: 0.011936, 4: 0.018115, 8: 0.021624, 16: 0.024218, 32: 0.027196, 64: 0.032044,
                128: 0.041189, 256: 0.059201}


def test_sweep_over_nprocs_prints_the_columns_of_brehm_tab_6_2(capsys):
    code, out, _ = run(["sweep", "corpus/spmd/ringmm.f", "-m", "paragon", "-D", "NPROCS=1:256:x2", "--format",
                        "json"], capsys)
    assert code == 0
    doc = json.loads(out)
    assert doc["columns"] == ["NPROCS", "COMM", "COMP", "TOTAL", "SP", "EFF", "SIM"]
    rows = {r["NPROCS"]: r for r in doc["rows"]}
    assert sorted(rows) == sorted(TAB_6_2_COMM)
    for p, comm in TAB_6_2_COMM.items():
        assert rows[p]["COMM"] == pytest.approx(comm, rel=5e-5, abs=1e-12)
        assert rows[p]["TOTAL"] == pytest.approx(rows[p]["COMM"] + rows[p]["COMP"], rel=1e-12)
        assert rows[p]["SP"] == pytest.approx(rows[1]["TOTAL"] / rows[p]["TOTAL"], rel=1e-12)
        assert rows[p]["EFF"] == pytest.approx(rows[p]["SP"] / p, rel=1e-12)
    for p in (1, 16, 256):   # the same numbers as `sad analyze` at that point
        code, out, _ = run(["analyze", "corpus/spmd/ringmm.f", "-m", "paragon", "-D", f"NPROCS={p}", "--format",
                            "json"], capsys)
        whole = json.loads(out)
        assert rows[p]["SIM"] == pytest.approx(whole["time_s"], rel=1e-12)  # the ranks simulated together
        single = whole["per_rank"]  # TOTAL, COMP, COMM: the per-rank formula (the sweep says so)
        assert rows[p]["TOTAL"] == pytest.approx(single["time_s"], rel=1e-12)
        assert rows[p]["COMP"] == pytest.approx(single["computation_s"], rel=1e-12)
        assert rows[p]["COMM"] == pytest.approx(single["communication_s"], rel=1e-12, abs=1e-15)


def test_sweep_text_table_of_tab_6_2(capsys):
    code, out, _ = run(["sweep", "corpus/spmd/ringmm.f", "-m", "paragon", "-D", "NPROCS=2,256"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[-3].split() == ["NPROCS", "COMM", "COMP", "TOTAL", "SP", "EFF", "SIM"]
    assert lines[-1].split()[:2] == ["256", "0.0592008"]
