"""sad check's plain-data results (sad.codebase.results): a routine as JSON is dataclasses.asdict's form,
independent of the object it came from, and reads back as the same routine."""
from __future__ import annotations

from dataclasses import asdict

from sad.codebase.results import Routine, UnitResult


def test_a_routine_as_json_is_asdicts_form_and_a_copy():
    routine = Routine("DOT", "lib/dot.f", 1, "fortran", "function", "2.5e-7*Max(0, DOT.N)",
                      {"DOT.N": "value"}, {"default": 2.5e-5, "small": None}, "n", ["XERBLA"])
    data = routine.to_jsonable()
    assert data == asdict(routine)
    data["parameters"]["DOT.M"] = "value"
    data["unseen_calls"].append("LSAME")
    data["points"]["default"] = 0.0
    assert routine.parameters == {"DOT.N": "value"} and routine.unseen_calls == ["XERBLA"]
    assert routine.points["default"] == 2.5e-5
    unit = UnitResult("lib/dot.f", 9, [routine], [])
    assert UnitResult.from_jsonable(unit.to_jsonable()).routines == [routine]
