"""`sad check` of a routine whose callee is deferred to where a caller binds its arguments (sad.analysis.calls)
and that no caller binds: the callee's cost per call is its named call cost, priced at the call-cost
default, not at a size's (LAPACK's CTPMLQT over CTPRFB showed "50 s": C_CTPRFB read as a value of 100)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from sad.analysis import calls
from sad.codebase.points import DEFAULTS
from tests.codebase.test_check import sad_check

DEFERRED = Path(__file__).resolve().parents[1] / "analysis" / "deferred"


def test_a_deferred_callee_left_at_the_root_is_priced_as_a_call_cost(tmp_path, monkeypatch):
    """ROUT calls LEAF(M - I + 1) for I = 1, 3, ..., M; with LEAF past the bind limit and M unbound, each of
    those (M + 1) // 2 calls costs C_LEAF: 50 calls at the default point M = 100, 1e-6 s each."""
    monkeypatch.setattr(calls, "BIND_LIMIT", 200)
    tree = tmp_path / "lib"
    tree.mkdir()
    shutil.copy(DEFERRED / "rout.f", tree / "rout.f")
    code, out, err = sad_check(tmp_path, "lib", "--format", "json", "-j", "1", "--no-cache")
    assert code == 0, err
    rout = next(r for r in json.loads(out)["routines"] if r["name"] == "ROUT")
    assert rout["parameters"]["C_LEAF"] == "call_cost"
    assert "LEAF" in rout["unseen_calls"]
    calls_of_leaf = 50 * DEFAULTS["call_cost"]
    assert calls_of_leaf < rout["points"]["default"] < calls_of_leaf + 1e-3, rout["points"]


def test_a_symbol_no_table_knows_is_a_warning(tmp_path, monkeypatch):
    """The class of bug above, from the other side: a symbol of a routine's time that the parameter tables
    lack (here C_LEAF, its entry taken out of the tables as the bug lost it) is valued as a size (100 at the
    default point: 50 calls of 100 s), and the report says so in a warning naming the routine and symbol."""
    from sad.codebase import routines
    monkeypatch.setattr(calls, "BIND_LIMIT", 200)
    kinds = routines._kinds
    monkeypatch.setattr(routines, "_kinds", lambda ctx: {k: v for k, v in kinds(ctx).items() if k != "C_LEAF"})
    tree = tmp_path / "lib"
    tree.mkdir()
    shutil.copy(DEFERRED / "rout.f", tree / "rout.f")
    code, out, err = sad_check(tmp_path, "lib", "--format", "json", "-j", "1", "--no-cache")
    assert code == 0, err
    report = json.loads(out)
    rout = next(r for r in report["routines"] if r["name"] == "ROUT")
    assert rout["parameters"]["C_LEAF"] == "value"
    assert 5000 <= rout["points"]["default"] < 5000 + 1e-3, rout["points"]
    warned = [d["message"] for d in report["diagnostics"] if d["message"].startswith("ROUT: symbol")]
    assert warned == ["ROUT: symbol C_LEAF of its time is no known parameter; valued as a size at the reference "
                      "points"], report["diagnostics"]
