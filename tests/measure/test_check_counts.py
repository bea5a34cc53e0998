"""The honesty check: for every corpus program whose counts are all resolved statically, the SAD's count of
every line equals gcov's on a real run (gfortran/gcc --coverage -O0), at the sample size and at another."""
from __future__ import annotations

from pathlib import Path

import pytest

from sad.cli.main import main
from tests.corpus_expectations import load_expected

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "corpus" / "kernels"
CKERNELS = ROOT / "corpus" / "c"
FORTRAN = ["matmul.f", "triangular.f", "trisolve.f", "stepped.f", "sharedlabel.f", "commoncall.f",
           "paramdirect.f"]
C_PROGRAMS = ["matmul_ijk.c", "matmul_kji.c", "lu.c", "trisolve.c", "jacobi.c", "stepped.c"]


def _fortran_cases():
    expected = load_expected(KERNELS / "expected.yaml")
    for name in FORTRAN:
        entry = expected[name]
        params = entry.get("params") or {}
        sets = [params] + ([entry["alt_params"][-1]] if entry.get("alt_params") else [])
        for values in sets:
            yield pytest.param(name, values, entry.get("input") or [], id=f"{name}-{values}")


def _c_cases():
    expected = load_expected(CKERNELS / "expected.yaml")
    for name in C_PROGRAMS:
        entry = expected[name]
        params = entry["params"]
        alt = {k: (v // 3 + 1 if isinstance(v, int) else v) for k, v in params.items()}
        for values in (params, alt):
            yield pytest.param(name, values, entry["stdin"], id=f"{name}-{values}")


def _check(capsys, source: Path, values: dict, input_file: Path) -> str:
    defines = [x for k, v in values.items() for x in ("-D", f"{k}={v}")]
    rc = main(["check-counts", str(source), *defines, "--", f"./{source.stem} < {input_file}"])
    out = capsys.readouterr().out
    assert rc == 0, out
    summary = out.strip().splitlines()[-1] if "unbound lines" not in out else out
    assert "MISMATCH" not in out and "unbound" not in summary, out
    return out


@pytest.mark.parametrize("name, values, order", list(_fortran_cases()))
def test_fortran_kernel_counts_equal_gcov(capsys, tmp_path, name, values, order):
    if values:
        input_file = tmp_path / "in.txt"
        input_file.write_text(" ".join(str(values[k]) for k in order) + "\n")
    else:
        input_file = KERNELS / name.replace(".f", ".in")
    out = _check(capsys, KERNELS / name, values, input_file)
    assert " ok " in out


@pytest.mark.parametrize("name, values, stdin", list(_c_cases()))
def test_c_kernel_counts_equal_gcov(capsys, tmp_path, name, values, stdin):
    input_file = tmp_path / "in.txt"
    input_file.write_text(stdin.format(**values))
    _check(capsys, CKERNELS / name, values, input_file)


def test_check_counts_reports_a_mismatch(capsys, tmp_path):
    """A wrong binding must show as MISMATCH with exit status 1 (the check can fail)."""
    rc = main(["check-counts", str(KERNELS / "matmul.f"), "-D", "N=39", "--",
               f"./matmul < {KERNELS / 'matmul.in'}"])
    out = capsys.readouterr().out
    assert rc == 1
    assert "MISMATCH" in out and "summary:" in out


def test_check_counts_command_failure(capsys):
    rc = main(["check-counts", str(KERNELS / "matmul.f"), "-D", "N=40", "--", "./matmul < /nonexistent/x"])
    err = capsys.readouterr().err
    assert rc == 2
    assert "command failed" in err
