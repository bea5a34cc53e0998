"""Fits do not extrapolate silently (issue 13): probabilities stay in [0, 1] far outside the measured sizes
(logit space), numerical-noise coefficients are dropped, the measured range is recorded and a prediction
outside it is warned about; plots show the extrapolation and the model in mathematical notation."""
from __future__ import annotations

import json

import pytest

from sad.measure.fit import fit
from sad.measure.plot import math_label, plot_parameter
from tests.sad_runs import md1_params_json

SIZES = [500.0, 864.0, 1372.0, 2048.0]


def test_probability_fit_stays_in_unit_interval():
    falling = [0.0909, 0.0905, 0.0903, 0.0898]
    model = fit("NPART", SIZES, falling, probability=True)
    assert model.logit and model.expression.startswith("1/(1 + exp(-(")
    for n in (1.0, 15000.0, 1e5, 1e7):
        assert 0.0 <= model(n) <= 1.0
    assert abs(model(500.0) - 0.0909) < 5e-4
    plain = fit("NPART", SIZES, falling)
    assert plain(1e7) < 0  # the linear-space model leaves [0, 1]: why logit space is used


def test_noise_coefficients_are_dropped_and_range_recorded():
    model = fit("NPART", SIZES, [0.629961 * n ** (1 / 3) + 2.1e-15 for n in SIZES])
    assert model.expression == "0.629961*NPART**(1/3)"
    assert (model.low, model.high) == (500.0, 2048.0)
    assert fit("N", [10.0, 20.0, 40.0, 80.0], [1e-15, 2e-15, 1e-15, 0.0]).expression == "0"
    constant = fit("NPART", SIZES, [0.5, 0.5, 0.5, 0.5], probability=True)
    assert constant.expression == "0.5"


@pytest.mark.heavy
@pytest.mark.xdist_group("md1")  # one run with test_report_values's JSON test
def test_shipped_md1_params_inside_their_range_are_not_an_extrapolation():
    """The shipped profile's fits, evaluated inside the measured NPART range, bind everything without the
    extrapolation warning (far outside it the warning is given: test_report_values, NPART=100000)."""
    ran = md1_params_json(1000)
    assert ran.returncode == 0, ran.stderr
    assert "extrapolation" not in ran.stderr
    doc = json.loads(ran.stdout)
    assert doc["unbound"] == [] and doc["time_s"] is not None and doc["time_s"] > 0  # all bound: a time


def test_plot_shows_extrapolation_in_math_notation(tmp_path):
    model = fit("NPART", SIZES, [4.3, 5.2, 6.0, 6.9])
    assert math_label(model) == r"$0.01 + 0.5418\,\mathrm{NPART}^{1/3}$"
    path = plot_parameter(tmp_path, "M", "NPART", SIZES, [4.3, 5.2, 6.0, 6.9], model, "svg", 15000)
    text = path.read_text()
    assert path.suffix == ".svg" and "extrapolation to NPART = 15000" in text and "measured range" in text
    assert "**" not in text  # no Python syntax in the legend
