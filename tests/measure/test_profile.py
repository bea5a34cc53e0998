"""sad profile on the real toolchain: md1 at three particle counts binds every unresolved parameter and the
predicted line counts then match gcov's; a profile read back with --params reproduces gcov; plots, Extra-P
export, fits; failures leave files untouched."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from sad.cli.main import main
from sad.measure.fit import fit
from sad.measure.params_io import load

ROOT = Path(__file__).resolve().parents[2]
MD1 = ROOT / "corpus" / "md1" / "md1.f"
INPUTS = ROOT / "corpus" / "md1" / "inputs"
KERNELS = ROOT / "corpus" / "kernels"


@pytest.fixture(scope="module")
def md1_profile(tmp_path_factory):
    out = tmp_path_factory.mktemp("md1")
    params = out / "md1.params.yaml"
    argv = ["profile", str(MD1), "-o", str(params)]
    for n in (500, 864, 1372):
        argv += ["--size", f"NPART={n},RCUT=2.5,RHO=0.8442"]  # the inputs' cut-off and density
    argv += ["--", f"./md1 < {INPUTS}/md1_{{NPART}}.in"]
    return out, main(argv)


@pytest.mark.heavy
def test_md1_profile_binds_everything(md1_profile, capsys):
    out, rc = md1_profile
    assert rc == 0
    data = yaml.safe_load((out / "md1.params.yaml").read_text())
    params = data["parameters"]
    assert "X_FORCE_L22" in params and "P_FORCE_IF7" in params
    assert "M" not in params and "NCELL" not in params  # exact now: Min(40, floor(BOXL/RCUT)), M**3
    # RCUT is seen only inside floor(BOXL/Min(RCUT, BOXL/2)): not solved from counts, so it is given with
    # --size; a size given the same value at every run is written to the file, so that the file binds it
    assert params["RCUT"]["value"] == 2.5 and params["RHO"]["value"] == 0.8442
    assert params["RCUT"]["derived_from"] == "given with --size, the same at every run"
    for name, entry in params.items():
        assert entry["value"] is not None, name
        if name not in ("RCUT", "RHO"):
            assert len(entry["measured"]) == 3, name
    assert data["provenance"]["compilers"] and data["provenance"]["gcov"]
    assert [r["mismatched_lines"] for r in data["provenance"]["runs"]] == [0, 0, 0]
    # the chain walk of a cell visits every particle once: X_FORCE_L10 * NCELL = NPART
    for point in params["X_FORCE_L10"]["measured"]:
        m = min(40, int((point["NPART"] / 0.8442) ** (1 / 3) / 2.5))  # the inputs' RHO and RCUT
        ncell = m ** 3
        assert point["value"] * ncell == pytest.approx(point["NPART"])
    assert load(str(out / "md1.params.yaml")).entries  # the file reads back


def test_plots_and_extrap_over_four_sizes(tmp_path, capsys):
    """A plot per fitted parameter and an Extra-P file with one value per size and region; the values are
    gotoloop's bisection passes at N = 1000 .. 8000 (each halves an interval of N + 1: 9 to 13 of them, as the
    square root's bits decide; counted by hand)."""
    template = tmp_path / "gotoloop.tmpl"
    template.write_text("{N} {NB}\n")
    out = tmp_path / "g.yaml"
    argv = ["profile", str(KERNELS / "gotoloop.f"), "-o", str(out), "--input-template", str(template),
            "--plot", str(tmp_path / "plots"), "--extrap", str(tmp_path / "g.extrap")]
    for n in (1000, 2000, 4000, 8000):
        argv += ["--size", f"N={n},NB=7"]
    assert main(argv + ["--", "./gotoloop"]) == 0, capsys.readouterr().err
    measured = yaml.safe_load(out.read_text())["parameters"]["X_GOTOLP_L70"]["measured"]
    assert [(p["N"], p["value"]) for p in measured] == [(1000, 9), (2000, 11), (4000, 12), (8000, 13)]
    for name in ("X_GOTOLP_L70", "X_GOTOLP_L50"):
        assert (tmp_path / "plots" / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = (tmp_path / "g.extrap").read_text()
    assert text.startswith("PARAMETER N\n\nPOINTS 1000 2000 4000 8000\n")
    assert "REGION GOTOLP@gotoloop.f:" in text and "METRIC visits" in text
    assert text.count("DATA ") == 4 * text.count("REGION ")


def test_profiled_values_read_back_reproduce_gcov(tmp_path, capsys):
    """One size: the profile's values, written and read back with --params, bind every line and make it
    agree with gcov. arithif.f has all three profiled kinds; at N = 20 its states cycle 1, 2, 3 (7, 7 and 6
    times) and the countdown from 20 in steps of 3 runs 7 times. md1's derived values agreeing with gcov at
    every size is test_md1_profile_binds_everything's (0 mismatched lines per run); that a bound file gives
    `sad analyze` a time is test_report_values's, on the shipped profile."""
    params = tmp_path / "p20.yaml"
    cmd = f"./arithif < {KERNELS / 'arithif.in'}"
    assert main(["profile", str(KERNELS / "arithif.f"), "--size", "N=20", "-o", str(params), "--", cmd]) == 0
    capsys.readouterr()
    values = {name: entry["value"] for name, entry in yaml.safe_load(params.read_text())["parameters"].items()}
    assert values == {"N": 20, "P_ARITH_AIF1_NEG": 7 / 20, "P_ARITH_AIF1_ZERO": 7 / 20, "X_ARITH_L60": 7}
    rc = main(["check-counts", str(KERNELS / "arithif.f"), "--params", str(params), "--require-bound", "--", cmd])
    out = capsys.readouterr().out
    assert rc == 0, out
    summary = out.strip().splitlines()
    assert "MISMATCH" not in out and not any(ln.startswith("(unbound") for ln in summary)
    assert "summary: 25 lines: 23 ok, 2 gcov-only" in out  # every statement line is compared, and agrees


def test_gotoloop_profile_values(tmp_path, capsys):
    rc = main(["profile", str(KERNELS / "gotoloop.f"), "--size", "N=1000,NB=7", "--format", "json", "--",
               f"./gotoloop < {KERNELS / 'gotoloop.in'}"])
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    values = {p["name"]: p["value"] for p in data["parameters"]}
    assert "X_GOTOLP_L10" not in values  # the halving loop is counted from N: floor(log2 1000) = 9 halvings
    assert values["X_GOTOLP_L70"] == 9  # bisection of [0, 1001) for the square root of 1000: 9 halvings
    assert values["X_GOTOLP_L50"] == pytest.approx(1000 / 7)  # mean chain length per walk


def test_input_template(tmp_path, capsys):
    template = tmp_path / "matmul.tmpl"
    template.write_text("{N}\n")
    out = tmp_path / "m.yaml"
    rc = main(["profile", str(KERNELS / "matmul.f"), "--size", "N=5", "--size", "N=9",
               "--input-template", str(template), "-o", str(out), "--", "./matmul"])
    assert rc == 0
    assert "runs:" in out.read_text()


def test_fit_recovers_models():
    n = [100, 200, 400, 800, 1600]
    assert fit("N", n, [3.0] * 5).expression == "3"
    linear = fit("N", n, [2 + 0.5 * x for x in n])
    assert linear.expression == "2 + 0.5*N" and linear.fit_error < 1e-9
    cube = fit("N", n, [1 + 4 * x ** (1 / 3) for x in n])
    assert cube.expression == "1 + 4*N**(1/3)"


# ------------------------------------------------------------------------------------------ failures
def test_failing_command_leaves_no_file(tmp_path, capsys):
    out = tmp_path / "p.yaml"
    rc = main(["profile", str(KERNELS / "matmul.f"), "--size", "N=4", "-o", str(out), "--",
               "./matmul < /nonexistent/input"])
    err = capsys.readouterr().err
    assert rc == 2 and "command failed" in err
    assert not out.exists()


def test_program_that_does_not_compile(tmp_path, capsys):
    src = tmp_path / "broken.f"
    src.write_text("      PROGRAM BROKEN\n      X = (1 + \n      END\n")
    rc = main(["profile", str(src), "--", "./broken"])
    err = capsys.readouterr().err
    assert rc in (1, 2)
    assert "error" in err


def test_compile_error_reported(tmp_path, capsys, monkeypatch):
    """Parses for sad (a call to a routine nobody defines) but does not link: a clear build error, and the
    build directory sad made is gone."""
    import tempfile
    src = tmp_path / "nolink.f"
    src.write_text("      PROGRAM NOLINK\n      CALL NOWHERE(1)\n      END\n")
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    rc = main(["profile", str(src), "--", "./nolink"])
    err = capsys.readouterr().err
    assert rc == 2 and "linking failed" in err
    assert list((tmp_path / "tmp").iterdir()) == []


def test_existing_output_untouched(tmp_path, capsys):
    out = tmp_path / "p.yaml"
    out.write_text("precious\n")
    rc = main(["profile", str(KERNELS / "matmul.f"), "--size", "N=4", "-o", str(out), "--",
               f"./matmul < {KERNELS / 'matmul.in'}"])
    assert rc == 2 and "not overwritten" in capsys.readouterr().err
    assert out.read_text() == "precious\n"


def test_missing_command(capsys):
    assert main(["profile", str(KERNELS / "matmul.f")]) == 2  # an exit status, not SystemExit
    assert "COMMAND" in capsys.readouterr().err


def test_provenance_records_the_command_as_given(tmp_path, capsys, monkeypatch):
    """The run is made with absolute paths (it runs in a build directory), but the params file records the
    command the user wrote, so that it does not carry the profiling machine's paths."""
    monkeypatch.chdir(ROOT)
    out = tmp_path / "g.yaml"
    assert main(["profile", "corpus/kernels/gotoloop.f", "--size", "N=1000,NB=7", "-o", str(out), "--",
                 "./gotoloop < corpus/kernels/gotoloop.in"]) == 0, capsys.readouterr().err
    runs = yaml.safe_load(out.read_text())["provenance"]["runs"]
    assert [r["command"] for r in runs] == ["./gotoloop < corpus/kernels/gotoloop.in"]
