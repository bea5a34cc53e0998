"""Profiled values carry the sizes they were measured at (issue 30, item 6), and fitted counts are held
non-negative and show their error (item 7). The Jacobi program of test_profile_branches, profiled at N = 16,
is then used at N = 512: analyze, sweep, compare and tune each say that this is an extrapolation."""
from __future__ import annotations

import math
import shutil

import pytest
import yaml

from sad.cli.main import main
from sad.measure.fit import fit
from sad.measure.params_io import load
from tests.measure.test_profile import KERNELS
from tests.measure.test_profile_branches import HERE

WARNING = "X_JACOBI_DO3: measured at N=16 only, {used}: an extrapolation"


@pytest.fixture(scope="module")
def jacobi16(tmp_path_factory):
    out = tmp_path_factory.mktemp("jacobi16")
    params = out / "j16.yaml"
    rc = main(["profile", str(HERE / "jacobi.f"), "--size", "N=16,MAXIT=20", "-o", str(params), "--",
               "echo {N} {MAXIT} 5 | ./jacobi"])
    assert rc == 0
    return out, params


def test_every_profiled_value_records_its_sizes(jacobi16):
    _, params = jacobi16
    entries = yaml.safe_load(params.read_text())["parameters"]
    for name in ("X_JACOBI_DO3", "P_JACOBI_IF2", "KB"):
        assert entries[name]["sizes"] == {"N": [16, 16], "MAXIT": [20, 20]}, name
    loaded = {e.name: e for e in load(str(params)).entries}  # the schema takes the new key
    assert loaded["X_JACOBI_DO3"].measured_ranges() == {"N": (16.0, 16.0), "MAXIT": (20.0, 20.0)}


def test_analyze_warns_outside_the_sizes_and_not_inside(jacobi16, capsys):
    _, params = jacobi16
    source = str(HERE / "jacobi.f")
    assert main(["analyze", source, "--params", str(params), "-m", "sparc2"]) == 0
    assert "extrapolation" not in capsys.readouterr().err  # N = 16 from the file: where it was measured
    assert main(["analyze", source, "--params", str(params), "-m", "sparc2", "-D", "N=512"]) == 0
    assert WARNING.format(used="evaluated at N=512") in capsys.readouterr().err


def test_sweep_compare_and_tune_warn_too(jacobi16, capsys):
    out, params = jacobi16
    source = str(HERE / "jacobi.f")
    copy = out / "jacobi_copy.f"
    shutil.copy(source, copy)
    swept = WARNING.format(used="swept over N 16..512")
    assert main(["sweep", source, "-m", "sparc2", "--params", str(params), "-D", "N=16-512:2log"]) == 0
    assert swept in capsys.readouterr().err
    assert main(["compare", source, str(copy), "-m", "sparc2", "--params", str(params),
                 "-D", "N=16-512:2log"]) == 0
    assert swept in capsys.readouterr().err
    assert main(["tune", source, "-m", "sparc2", "--params", str(params), "--vary", "N=16:512:x2"]) == 0
    assert swept in capsys.readouterr().err
    # at the measured sizes (N = 16 from the file), swept over something else: no word
    assert main(["sweep", source, "-m", "sparc2", "--params", str(params), "-D", "KB=1:5:1"]) == 0
    assert "extrapolation" not in capsys.readouterr().err


# ------------------------------------------------------------------------------------------ item 7
def test_a_fitted_count_stays_non_negative_over_the_declared_range():
    """The counts of a log2 model with a negative intercept (the issue's -8823.67 + 1981*log2(N)): the free
    fit is negative below N = 22 ('loop count -81.7 is negative' at N = 2); held >= 0 from N = 1 the fit
    takes another hypothesis that fits the four sizes within 0.1 %."""
    sizes = [6000.0, 8000.0, 12000.0, 16000.0]
    counts = [-8823.67 + 1981 * math.log2(n) for n in sizes]
    free = fit("N", sizes, counts)
    assert free.expression == "-8823.67 + 1981*log2(N)" and free(2) < 0
    held = fit("N", sizes, counts, lower=0.0, domain=(1.0, 128000.0))
    assert held.bounded == (1.0, 128000.0)
    assert all(held(n) >= 0 for n in (1, 2, 3, 22, 1000, 128000))
    assert held.rms_error < 1e-3 and held.fit_error < 1e-3
    # a hypothesis the data alone put below the bound is bent to it: a line through 0 at N = 1
    falling = fit("N", [10.0, 20.0, 40.0], [1.0, 2.0, 4.0], lower=0.0, domain=(1.0, 320.0))
    assert falling(1) >= -1e-9 and falling.rms_error < 0.05


def test_profile_shows_each_fit_error_and_writes_it(tmp_path, capsys):
    """gotoloop's bisection halves an interval of N + 1: 9, 11, 12, 13 passes at N = 1000 .. 8000 (counted by
    hand). The free fit -3.66 + 1.3*log2(N) is negative at N = 1; the profile's fit (0.984*log2(N), 4.8 % RMS
    off) is not, and its error is printed and written."""
    template = tmp_path / "gotoloop.tmpl"
    template.write_text("{N} {NB}\n")
    out = tmp_path / "g.yaml"
    argv = ["profile", str(KERNELS / "gotoloop.f"), "-o", str(out), "--input-template", str(template)]
    for n in (1000, 2000, 4000, 8000):
        argv += ["--size", f"N={n},NB=7"]
    assert main(argv + ["--", "./gotoloop"]) == 0
    err = capsys.readouterr().err
    entry = yaml.safe_load(out.read_text())["parameters"]["X_GOTOLP_L70"]
    assert entry["fit"]["nonnegative_over"] == [1, 64000]  # 8x the largest size, the default --plot-to
    assert 0.04 < entry["fit"]["rms_error"] < 0.06
    assert f"sad: fit X_GOTOLP_L70 = {entry['value']} over N 1000..8000 (4 points): relative RMS error " in err
    model = fit("N", [1000.0, 2000.0, 4000.0, 8000.0], [9.0, 11.0, 12.0, 13.0], lower=0.0, domain=(1.0, 64000.0))
    assert model.expression == entry["value"] and model(1) >= 0
    assert fit("N", [1000.0, 2000.0, 4000.0, 8000.0], [9.0, 11.0, 12.0, 13.0])(1) < 0  # the free fit


def test_a_fit_does_not_grow_past_what_the_data_allow():
    """md1's measured probabilities (corpus/md1/md1.params.yaml, NPART = 500 .. 4000): a zig-zag and a single
    step were fitted -2.32 - 1.34e-11*NPART**(11/4) and -2.45 + 1.44e-14*NPART**3*log2(NPART)**2 in logit
    space, 0 and 1 at NPART = 100000. The data move no way twice: constants, within [min, max] of the data."""
    sizes = [500.0, 864.0, 1372.0, 2048.0, 4000.0]
    zigzag = [0.08134321918, 0.1189812061, 0.06963114318, 0.09361231701, 0.08134747749]
    step = [0.08, 0.08, 0.08, 0.08, 0.09]
    for values in (zigzag, step):
        model = fit("NPART", sizes, values, probability=True)
        assert "NPART" not in model.expression
        assert min(values) <= model(100000.0) <= max(values)
    # a trend with a small step back is still a trend: 2 + 0.5*N with one value 0.1 % low
    trend = [2 + 0.5 * n for n in sizes]
    trend[2] *= 0.999
    assert fit("N", sizes, trend).expression.endswith("*N")
