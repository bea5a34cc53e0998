"""`sad check` of a routine whose blocked loop's block size is chosen in several places (LAPACK's DGETRI:
NB from a function, cut to LWORK / N where the workspace is short). Library mode keeps the choice as a named
value, NB_INV_DO2 (sad.analysis.standins): writing it out into every count made a library run of LAPACK
minutes slower. A reference point values it from the formals it gives, as the formula with the choice
written out is valued: the same seconds, where "valued as a size" would give every workspace one NB."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import sympy

from sad.analysis import pipeline
from sad.codebase import routines
from tests.codebase.test_check import sad_check

BLOCKED = Path(__file__).resolve().parents[1] / "analysis" / "blocked"
POINTS = ["--at=wide:N=50,LWORK=400", "--at=short:N=50,LWORK=100", "--at=small:N=5,LWORK=5"]


def _inv(cwd: Path) -> dict:
    tree = cwd / "lib"
    tree.mkdir(parents=True)
    shutil.copy(BLOCKED / "inv.f", tree / "inv.f")
    code, out, err = sad_check(cwd, "lib", "--format", "json", "-j", "1", "--no-cache", *POINTS)
    assert code == 0, err
    return next(r for r in json.loads(out)["routines"] if r["name"] == "INV")


def test_a_named_block_size_is_valued_from_its_choice_at_each_point(tmp_path, monkeypatch):
    named = _inv(tmp_path / "named")
    assert named["parameters"]["NB_INV_DO2"] == "value" and named["parameters"]["INV.LWORK"] == "value"
    # NB = 8 with LWORK = 8N, 2 with LWORK = 2N: four times the blocks, a different time
    assert named["points"]["wide"] != named["points"]["short"]
    # the same routine with the choices written out into its counts (as `sad analyze` shows it)
    monkeypatch.setattr(routines, "root_counts",
                        lambda ctx, built: pipeline.root_counts(ctx, built, pipeline.ROOT_PUT_BACK))
    written = _inv(tmp_path / "written")
    assert "NB_INV_DO2" not in written["parameters"]
    for point in ("wide", "short", "small"):
        assert named["points"][point] == pytest.approx(written["points"][point], rel=1e-12), point
    assert named["complexity"] == written["complexity"] != "?"


def test_a_prediction_binds_a_named_block_size_from_the_formals(monkeypatch):
    """`sad analyze` of INV alone, with its counts too large to write out with the choices in them (the limit
    lowered here): the time holds NB_INV_DO2 and NN_INV_DO2, and binding N and LWORK decides them; the
    seconds equal those of the formula with the choices written out (NB = 8 at LWORK = 8N, 2 at 2N)."""
    from sad.machine.files import resolve_path
    from sad.machine.model import load_machine
    from sad.predict.job import predict_analysis
    machine = load_machine(str(resolve_path("sparc2")))
    written = pipeline.analyze([str(BLOCKED / "inv.f")])
    monkeypatch.setattr(pipeline, "ROOT_PUT_BACK", 20)
    named = pipeline.analyze([str(BLOCKED / "inv.f")])
    assert {"NB_INV_DO2", "NN_INV_DO2"} <= {s.name for c in named.counts.values() for s in c.free_symbols}
    seconds = []
    for lwork in (400, 100):
        values = {"INV.N": sympy.Integer(50), "INV.LWORK": sympy.Integer(lwork)}
        mine, theirs = (predict_analysis(a, machine, values).prediction for a in (named, written))
        assert mine.unbound == [] and theirs.unbound == []
        assert mine.time_value == pytest.approx(theirs.time_value, rel=1e-12)
        seconds.append(mine.time_value)
    assert seconds[0] != seconds[1]
