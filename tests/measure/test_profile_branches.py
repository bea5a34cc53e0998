"""sad profile on a Jacobi iteration (issue 30, item 5): an IF whose arm is on its test's line (`IF (D .GT.
DIFF) DIFF = D`, a C select `x = c ? a : b`) gets its probability from gcov's branch counts, not "code not
executed" and 0.5; an index test `IF (J .LE. KB)` pins KB down. The expected probabilities come from the same
sweeps done here in Python (IEEE doubles, the same order of operations), counting the arm's runs."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from sad.cli.main import main

HERE = Path(__file__).resolve().parent / "jacobi"
N, MAXIT, KB = 16, 20, 5


def _updates(n: int, maxit: int, hot: int) -> tuple[int, int]:
    """Sweeps done and the times `D > DIFF` held, by the programs' own arithmetic (Fortran's U(I, J) is
    u[j][i] here; the C program's grid is hot in every row: hot = n)."""
    u = [[1.0 if i == 0 and j < hot else 0.0 for i in range(n)] for j in range(n)]
    v = [row[:] for row in u]
    updates = 0
    for _ in range(maxit):
        diff = 0.0
        for j in range(1, n - 1):
            for i in range(1, n - 1):
                v[j][i] = 0.25 * (u[j][i - 1] + u[j][i + 1] + u[j - 1][i] + u[j + 1][i])
                d = abs(v[j][i] - u[j][i])
                if d > diff:
                    diff = d
                    updates += 1
        for j in range(1, n - 1):
            u[j][1:n - 1] = v[j][1:n - 1]
        if diff < 1e-6:
            break
    return maxit, updates


def _profile(tmp_path, source: str, size: str, capsys) -> dict:
    out = tmp_path / "p.yaml"
    rc = main(["profile", str(HERE / source), "--size", size, "-o", str(out), "--",
               f"echo {N} {MAXIT} {KB} | ./jacobi"])
    err = capsys.readouterr().err
    assert rc == 0, err
    assert "not exercised" not in err.replace("0 not exercised", "")
    return yaml.safe_load(out.read_text())["parameters"]


def test_fortran_one_line_if_and_index_test(tmp_path, capsys):
    params = _profile(tmp_path, "jacobi.f", f"N={N},MAXIT={MAXIT}", capsys)
    sweeps, updates = _updates(N, MAXIT, KB)
    tests = sweeps * (N - 2) ** 2
    assert updates == 105  # 105 of 3920 tests take the arm
    assert params["P_JACOBI_IF2"]["value"] == pytest.approx(updates / tests, rel=1e-9)
    assert "branch counts" in params["P_JACOBI_IF2"]["derived_from"]
    assert params["P_JACOBI_IF3"]["value"] == 0.0  # never converged within 20 sweeps
    assert params["X_JACOBI_DO3"]["value"] == sweeps
    # the index test: IF (J .LE. KB) runs its arm Max(0, Min(KB, N)) times, which gives KB
    assert params["KB"]["value"] == KB and params["KB"]["derived_from"].endswith("jacobi.f:15")
    rc = main(["check-counts", str(HERE / "jacobi.f"), "--params", str(tmp_path / "p.yaml"), "--require-bound",
               "--", f"echo {N} {MAXIT} {KB} | ./jacobi"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out


def test_c_selects(tmp_path, capsys):
    """The three selects of the C sweep: |d| never negates (the grid only warms), the largest change is
    kept `updates` times, the floor below -1 is never taken: 0, updates/tests, 0 (not 0.5)."""
    params = _profile(tmp_path, "jacobi.c", f"n={N},maxit={MAXIT}", capsys)
    sweeps, updates = _updates(N, MAXIT, N)
    tests = sweeps * (N - 2) ** 2
    assert params["P_main_IF2"]["value"] == 0.0
    assert params["P_main_IF3"]["value"] == pytest.approx(updates / tests, rel=1e-9)
    assert params["P_main_IF4"]["value"] == 0.0


def test_check_counts_compares_arms_with_branch_counts(capsys):
    """check-counts now sees a wrong probability of a one-line IF: the line's count is the test's either way,
    the arm's row (gcov's branch count, 105 at these sizes) is a MISMATCH at the old default of 0.5."""
    argv = ["check-counts", str(HERE / "jacobi.f"), "-D", f"N={N}", "-D", f"KB={KB}", "-D", f"X_JACOBI_DO3={MAXIT}",
            "-D", "P_JACOBI_IF3=0"]
    command = ["--", f"echo {N} {MAXIT} {KB} | ./jacobi"]
    assert main(argv + ["-D", "P_JACOBI_IF2=0.5"] + command) == 1
    out = capsys.readouterr().out
    assert "jacobi.f:26 arm           1960          105  MISMATCH" in out
    assert main(argv + ["-D", f"P_JACOBI_IF2={105 / 3920!r}"] + command) == 0
    out = capsys.readouterr().out
    assert "2 arms on their test's line (gcov's branch counts): 2 ok" in out
