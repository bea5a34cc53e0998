"""Results that do not mislead (issue 13): every number that can be computed is given; values say where
they came from; the text table keeps file:line; plurals are English."""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from sad.cli.main import main
from tests.sad_runs import md1_json, md1_params_json

ROOT = Path(__file__).resolve().parents[2]


def _run(*argv: str, stderr: bool = False):
    """(exit status, stdout), and stderr too with `stderr`."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(ROOT), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return (code, out.getvalue(), err.getvalue()) if stderr else (code, out.getvalue())


@pytest.mark.heavy
@pytest.mark.xdist_group("md1")  # the golden test's md1 run
def test_plain_counts_and_bound_procedures_have_numbers_while_others_are_unbound():
    ran = md1_json()
    doc = json.loads(ran.stdout)
    assert ran.returncode == 0 and doc["time_s"] is None and "NPART" in doc["unbound"]
    plain = [b for b in doc["blocks"] if b["count"].isdigit()]
    assert plain and all(b["count_value"] == int(b["count"]) for b in plain)
    assert all(b["time_s"] is not None for b in plain if not any(k.startswith("cost:") for k in b["cost"]))
    procs = {p["name"]: p for p in doc["procedures"]}
    # RDINP runs once, its statements have no parameter: its time is a number; FORCE's is not
    rdinp = [b for b in doc["blocks"] if b["procedure"] == "RDINP"]
    assert procs["RDINP"]["time_s"] == sum(b["time_s"] for b in rdinp) > 0
    assert procs["FORCE"]["time_s"] is None


@pytest.mark.heavy
def test_values_name_their_origin_and_fits_show_their_number():
    """Far outside the profiled sizes: fitted values are still numbers, each says where it came from, and
    the extrapolation is warned (test_fit_ranges has the run inside the range, without the warning)."""
    code, out, err = _run("analyze", "corpus/md1/md1.f", "-m", "sparc2", "--params", "corpus/md1/md1.params.yaml",
                          "-D", "NPART=100000", stderr=True)
    assert code == 0, err  # no "probability outside [0, 1]" either
    assert "X_FCCLAT_DO1: fitted over NPART 500..4000, evaluated at NPART=100000: an extrapolation" in err
    assert "(all parameters bound)" in out
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ") and len(line.split()) > 4}
    assert rows["NPART"].rstrip().endswith("100000  (-D)")
    assert rows["NSTEP"].rstrip().endswith("(params)")
    assert "/NPART" not in out.split("Parameters:")[1].split("Predicted time:")[0]  # fits show numbers
    assert "branch probabilities" in out and "probabilitys" not in out


def test_where_column_keeps_the_line_number():
    code, out = _run("analyze", "corpus/kernels/triangular.f", "-m", "sparc2", "-D", "N=10")
    row = next(line for line in out.splitlines() if line.startswith("  N "))
    assert "triangular.f:" in row and "…" not in row.split("triangular.f:")[1][:4]


@pytest.mark.heavy
@pytest.mark.xdist_group("md1")  # one run with test_fit_ranges's
def test_json_gives_the_fitted_expression_and_its_value():
    ran = md1_params_json(1000)
    params = {p["name"]: p for p in json.loads(ran.stdout)["parameters"]}
    fitted = [p for p in params.values() if p["bound_by"] == "params" and p["expression"]
              and "NPART" in p["expression"]]
    assert fitted and all(isinstance(p["value"], (int, float)) for p in fitted)
    assert params["NPART"]["bound_by"] == "-D" and params["NPART"]["expression"] is None
    assert params["NPART"]["value"] == 1000
