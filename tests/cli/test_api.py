"""The Python API (`import sad`): sad.run, sad.analyze and sad.load_machine on the md1 example, against the
command line's own JSON, and `import sad` without the analysis's heavy imports."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import sad

ROOT = Path(__file__).resolve().parents[2]
MD1 = str(ROOT / "corpus" / "md1" / "md1.f")
PARAMS = str(ROOT / "corpus" / "md1" / "md1.params.yaml")


def test_import_sad_is_cheap_and_documents_its_api():
    code = "import sys, sad; print(sorted(m for m in ('sympy', 'numpy', 'sad.cli', 'fparser') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT).stdout
    assert out.strip() == "[]"
    for name in ("run", "analyze", "load_machine"):
        assert f"sad.{name}(" in sad.__doc__
        assert getattr(sad, name).__doc__


def test_analyze_md1_equals_the_command_line():
    result = sad.analyze(MD1, machine="sparc2", defines={"NPART": 4000}, params=PARAMS)
    out = io.StringIO()
    assert sad.run(["analyze", MD1, "-m", "sparc2", "--params", PARAMS, "-D", "NPART=4000", "--format", "json"],
                   stdout=out, stderr=io.StringIO()) == 0
    doc = json.loads(out.getvalue())
    assert result.unbound == [] and result.seconds == pytest.approx(doc["time_s"], rel=1e-12)
    assert result.to_json() == out.getvalue()
    # the table: one row per block, slowest first, the shares adding up to the whole
    assert len(result.table) == len(doc["blocks"])
    assert [r["seconds"] for r in result.table] == sorted((r["seconds"] for r in result.table), reverse=True)
    top = result.table[0]
    assert (top["procedure"], top["first_line"]) == ("FORCE", 697) and top["share"] > 0.5
    assert sum(r["share"] for r in result.table) == pytest.approx(1.0 - doc["startup_s"] / doc["time_s"], rel=1e-9)
    npart = next(p for p in result.parameters if p["name"] == "NPART")
    assert (npart["value"], npart["bound_by"]) == (4000, "-D")


def test_analyze_unbound_names_what_to_bind_and_bad_input_raises():
    result = sad.analyze([Path(MD1)], machine=sad.load_machine("sparc2"), defines=["NPART=500"])
    assert result.seconds is None and "NSTEP" in result.unbound
    with pytest.raises(sad.AnalysisError, match="unknown machine 'nosuch'"):
        sad.analyze(MD1, machine="nosuch")
    with pytest.raises(sad.AnalysisError, match="'1x' is not"):
        sad.analyze(MD1, machine="sparc2", defines={"1x": 2})


def test_load_machine_bundled_and_unknown():
    assert sad.load_machine("sparc2").name == "sparc2"
    from sad.machine.model import MachineError
    with pytest.raises(MachineError, match="unknown machine 'nosuch'"):
        sad.load_machine("nosuch")
