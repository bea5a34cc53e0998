"""An ELSE IF chain whose first tests are of loop indices and a later one of data: the first arms are taken
exactly, the executions that reach the data test share its named probability (sad.analysis.branches
``_exact_prefix``). Before, one data test in a chain made every arm a probability. Counts cross-checked
against gcov, the probability from a profile of the same run."""
from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
import yaml

from sad.cli.main import run

CHAIN = """\
#include <stdio.h>
#define N 100
double a[N];
int main(void) {
    int i;
    double s = 0;
    for (i = 0; i < N; i++) a[i] = (i * 7) % 5 - 2;
    for (i = 0; i < N; i++) {
        if (i == 0) s += 1;
        else if (i > 90) s += 2;
        else if (a[i] > 0) s += a[i];
        else s -= 1;
    }
    printf("%g\\n", s);
    return 0;
}
"""


def test_the_index_arms_of_a_mixed_chain_are_exact(tmp_path: Path) -> None:
    (tmp_path / "chain.c").write_text(CHAIN)
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        rc = run(["check-counts", "chain.c", "--", "./chain"], out, err)
    finally:
        os.chdir(cwd)
    rows = {line.split()[0]: line.split()[1] for line in out.getvalue().splitlines()
            if line.startswith("chain.c:") and line.split()[1] != "arm"}
    assert rc == 0, out.getvalue() + err.getvalue()
    # i == 0 once; i > 90 for 91 .. 99; the data test reached by the other 90, its arms unbound without a profile
    assert rows["chain.c:9"] == "100" and rows["chain.c:10"] == "99" and rows["chain.c:11"] == "90"
    assert rows["chain.c:12"].startswith("(P_main_IF1")


def test_a_profile_binds_the_data_arm(tmp_path: Path) -> None:
    # the probability is of the executions that reach the data test: 36 of the 90 with a[i] > 0
    params = tmp_path / "p.yaml"
    (tmp_path / "chain.c").write_text(CHAIN)
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert run(["profile", "chain.c", "-o", str(params), "--", "./chain"], io.StringIO(), io.StringIO()) == 0
    finally:
        os.chdir(cwd)
    entry = yaml.safe_load(params.read_text())["parameters"]["P_main_IF1"]
    taken = sum(1 for i in range(1, 91) if (i * 7) % 5 - 2 > 0)
    assert taken == 36 and float(entry["value"]) == pytest.approx(taken / 90)
