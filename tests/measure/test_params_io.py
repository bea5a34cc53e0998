"""sad params (export) and --params (import): formats, determinism, no overwrite, validation of values."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
import yaml

from sad.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
GOTO = str(ROOT / "corpus" / "kernels" / "gotoloop.f")
ARITHIF = str(ROOT / "corpus" / "kernels" / "arithif.f")


def _export(capsys, *extra) -> tuple[int, str, str]:
    rc = main(["params", GOTO, *extra])
    got = capsys.readouterr()
    return rc, got.out, got.err


def test_export_yaml_is_complete_and_deterministic(capsys):
    rc, first, _ = _export(capsys)
    rc2, second, _ = _export(capsys)
    assert rc == rc2 == 0 and first == second
    data = yaml.safe_load(first)
    entry = data["parameters"]["X_GOTOLP_L70"]
    assert entry["kind"] == "loop_count" and entry["procedure"] == "GOTOLP"
    assert entry["line"] == 57 and "IF (HI - LO .LE. 1) GOTO 80" in entry["code"]
    assert len(entry["fingerprint"]) == 12 and entry["value"] is None
    assert set(entry) >= {"file", "depends_on", "default", "description"}


def test_export_csv_and_json(capsys):
    _, out, _ = _export(capsys, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert any(r["name"] == "X_GOTOLP_L70" and r["value"] == "" for r in rows)
    _, out, _ = _export(capsys, "--format", "json")
    data = json.loads(out)
    assert any(p["name"] == "X_GOTOLP_L70" for p in data["parameters"])


def test_export_excludes_bound_names(capsys):
    _, out, _ = _export(capsys, "-D", "N=1000")
    assert "\n  N:\n" not in out and "X_GOTOLP_L70" in out


def test_output_never_overwritten_without_force(tmp_path, capsys):
    target = tmp_path / "p.yaml"
    target.write_text("keep me\n")
    rc, _, err = _export(capsys, "-o", str(target))
    assert rc == 2 and "not overwritten" in err and target.read_text() == "keep me\n"
    rc, _, _ = _export(capsys, "-o", str(target), "--force")
    assert rc == 0 and "X_GOTOLP_L70" in target.read_text()


def _filled(tmp_path, capsys, values: dict) -> Path:
    rc, out, _ = _export(capsys)
    data = yaml.safe_load(out)
    for name, value in values.items():
        data["parameters"][name]["value"] = value
    path = tmp_path / "filled.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def _analyze(capsys, *extra) -> tuple[int, str, str]:
    rc = main(["analyze", GOTO, "-m", "sparc2", "--format", "json", *extra])
    got = capsys.readouterr()
    return rc, got.out, got.err


GOOD = {"X_GOTOLP_L70": 9, "X_GOTOLP_L50": "0.5 + N/NB", "N": 1000, "NB": 7}


def test_params_bind_everything(tmp_path, capsys):
    path = _filled(tmp_path, capsys, GOOD)
    rc, out, err = _analyze(capsys, "--params", str(path))
    assert rc == 0, err
    result = json.loads(out)
    assert result["unbound"] == [] and result["time_s"] > 0


def test_define_wins_over_params(tmp_path, capsys):
    path = _filled(tmp_path, capsys, GOOD)
    _, out_a, _ = _analyze(capsys, "--params", str(path))
    rc, out_b, err = _analyze(capsys, "--params", str(path), "-D", "N=2000")
    assert rc == 0 and "-D on the command line wins" in err
    assert json.loads(out_b)["time_s"] > json.loads(out_a)["time_s"]


def test_simple_mapping_form(tmp_path, capsys):
    path = tmp_path / "hand.yaml"
    path.write_text("parameters:\n  N: 1000\n  NB: 7\n  X_GOTOLP_L70: 9\n  X_GOTOLP_L50: 142.86\n")
    rc, out, err = _analyze(capsys, "--params", str(path))
    assert rc == 0 and json.loads(out)["unbound"] == []


@pytest.mark.parametrize("text, message", [
    ("parameters:\n  N: [1, 2\n", "not valid YAML"),
    ("parameters:\n  N: [1, 2]\n", "must be a number or an expression"),
    ("parameters:\n  N: {value: true}\n", "must be a number or an expression"),
    ("parameters: 5\n", "must be a mapping"),
    ("- a\n- b\n", "expected a mapping"),
    ("parameters:\n  N: \"__import__('os').system('true')\"\n", "N:"),
    ("parameters:\n  N: \"1 +\"\n", "syntax error"),
])
def test_broken_params_files(tmp_path, capsys, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    rc, out, err = _analyze(capsys, "--params", str(path))
    assert rc == 2 and out == ""
    assert message in err and str(path) in err
    assert path.read_text() == text  # never rewritten


def test_errors_name_the_entry(tmp_path, capsys):
    path = tmp_path / "p.yaml"
    path.write_text("parameters:\n  N: 1000\n  P_X: 0.5\n  X_GOTOLP_L70: -3\n")
    rc, out, err = _analyze(capsys, "--params", str(path))
    assert rc == 2
    assert f"{path}:4: error: X_GOTOLP_L70: loop count -3 is negative" in err
    assert f"{path}:3: warning: P_X: no parameter of that name" in err


def test_probability_out_of_range_and_unknown_names_in_values(tmp_path, capsys):
    rc, out, _ = _export(capsys)
    md = tmp_path / "p.yaml"
    md.write_text("parameters:\n  P_ARITH_AIF1_NEG: 1.5\n")
    rc = main(["analyze", ARITHIF, "-m", "sparc2", "--params", str(md)])
    err = capsys.readouterr().err
    assert rc == 2 and "P_ARITH_AIF1_NEG: probability 1.5 outside [0, 1]" in err
    path = tmp_path / "q.yaml"
    path.write_text("parameters:\n  X_GOTOLP_L70: 2*NOSUCH\n")
    rc, out, err = _analyze(capsys, "--params", str(path))
    assert rc == 2 and "NOSUCH" in err


def test_fingerprint_mismatch_warns(tmp_path, capsys):
    path = _filled(tmp_path, capsys, GOOD)
    data = yaml.safe_load(path.read_text())
    data["parameters"]["X_GOTOLP_L70"]["fingerprint"] = "000000000000"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    rc, out, err = _analyze(capsys, "--params", str(path))
    assert rc == 0
    assert "X_GOTOLP_L70: the code at" in err and "changed since this value was measured" in err


def test_csv_params_file(tmp_path, capsys):
    path = tmp_path / "p.csv"
    path.write_text("name,value\nN,1000\nNB,7\nX_GOTOLP_L70,9\nX_GOTOLP_L50,N/NB\n")
    rc, out, err = _analyze(capsys, "--params", str(path))
    assert rc == 0 and json.loads(out)["unbound"] == []


def test_a_program_with_nothing_to_fill_round_trips(tmp_path, capsys):
    # `sad profile` of a program whose counts need no value wrote `parameters:` with nothing under it, which
    # the reader then refused ("no `parameters:` key"); both the written and the hand-written empty forms read
    from sad.measure.params_io import _render_yaml
    source = tmp_path / "k.c"
    source.write_text("int main(void) { int i; double s = 0; for (i = 0; i < 10; i++) s += i; return (int)s; }\n")
    written = _render_yaml([], {"provenance": {"tool": "test"}})
    assert "parameters: {}" in written
    for text in (written, "parameters:\n"):
        path = tmp_path / "empty.yaml"
        path.write_text(text)
        rc = main(["analyze", str(source), "-m", "sparc2", "--params", str(path), "--format", "json"])
        got = capsys.readouterr()
        assert rc == 0, got.err
        assert json.loads(got.out)["unbound"] == []
