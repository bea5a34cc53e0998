"""The JSON Schemas shipped for the JSON of `sad analyze`, `sad check` and `sad sweep`/`compare`: real outputs
validate against them (jsonschema, draft 2020-12), a broken document does not, `sad schema NAME` prints them."""
from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema
import pytest

from sad.cli.main import run

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "corpus" / "check"


def _json(*argv: str) -> dict:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    assert code in (0, 1), err.getvalue()
    return json.loads(out.getvalue())


def _schema(name: str) -> dict:
    out = io.StringIO()
    assert run(["schema", name], out, io.StringIO()) == 0
    schema = json.loads(out.getvalue())
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def _valid(doc: dict, name: str) -> None:
    jsonschema.Draft202012Validator(_schema(name)).validate(doc)


def test_analyze_json_of_md1_and_of_an_spmd_program_follow_the_schema():
    md1 = _json("analyze", str(ROOT / "corpus/md1/md1.f"), "-m", "sparc2", "--params",
                str(ROOT / "corpus/md1/md1.params.yaml"), "-D", "NPART=500", "--format", "json")
    _valid(md1, "analyze")
    ring = _json("analyze", str(ROOT / "corpus/spmd/ringmm.f"), "-m", "paragon", "-D", "NPROCS=64", "--format", "json")
    assert any(b["kind"] == "message" for b in ring["blocks"])  # the optional message fields are checked too
    assert ring["model"] == "timeline" and ring["timeline"]["critical_path"]  # the simulation's fields too
    _valid(ring, "analyze")
    failed = _json("analyze", str(ROOT / "corpus/spmd/cgsimple.f"), "-m", "sparc2", "-D", "NPROCS=4", "--format",
                   "json")
    assert failed["model"] == "formula" and failed["timeline"]["failure"]  # no LogGP figures on sparc2
    _valid(failed, "analyze")
    unbound = _json("analyze", str(ROOT / "corpus/kernels/triangular.f"), "-m", "sparc2", "--format", "json")
    assert unbound["time_s"] is None
    _valid(unbound, "analyze")


@pytest.mark.parametrize("golden", sorted((ROOT / "tests" / "e2e" / "golden").glob("*.json")), ids=lambda p: p.name)
def test_every_golden_analyze_document_follows_the_schema(golden):
    # the corpus's `sad analyze --format json` outputs, kept byte for byte by tests/e2e/test_golden.py
    _valid(json.loads(golden.read_text()), "analyze")


def test_check_json_with_a_baseline_comparison_follows_the_schema(tmp_path):
    baseline = tmp_path / "baseline.json"
    before = _json("check", str(CHECK / "before"), "--save-baseline", str(baseline), "--format", "json",
                   "--no-cache", "--no-progress")
    _valid(before, "check")
    after = _json("check", str(CHECK / "after"), "--baseline", str(baseline), "--format", "json", "--no-cache",
                  "--no-progress")
    assert after["comparison"]["regressions"]
    _valid(after, "check")


def test_sweep_and_compare_json_follow_the_schema():
    tri = str(ROOT / "corpus/kernels/triangular.f")
    sweep = _json("sweep", tri, "-m", "sparc2", "-m", "paragon", "-D", "N=1:400:x2", "--format", "json")
    _valid(sweep, "sweep")
    compare = _json("compare", str(ROOT / "corpus/tuning/rangesum_direct.c"),
                    str(ROOT / "corpus/tuning/rangesum_prefix.c"), "-m", "sparc2", "-D", "n=4000000",
                    "-D", "len=4000", "-D", "q=64:16384:x2", "--format", "json")
    assert compare["crossovers"]
    _valid(compare, "sweep")


def test_the_schemas_reject_a_broken_document():
    doc = _json("sweep", str(ROOT / "corpus/kernels/triangular.f"), "-m", "sparc2", "-D", "N=1:4", "--format",
                "json")
    doc["swept"][0]["points"] = "four"
    with pytest.raises(jsonschema.ValidationError, match="'four' is not of type 'integer'"):
        _valid(doc, "sweep")
    del doc["rows"]
    with pytest.raises(jsonschema.ValidationError):
        _valid(doc, "sweep")


def test_schema_without_a_name_lists_the_installed_files():
    out = io.StringIO()
    assert run(["schema"], out, io.StringIO()) == 0
    lines = out.getvalue().splitlines()
    assert [line.split()[0] for line in lines] == ["analyze", "check", "sweep"]
    assert all(Path(line.split(maxsplit=1)[1]).is_file() for line in lines)
