"""sad check's plain-data results (sad.codebase.results): a routine as JSON is dataclasses.asdict's form,
independent of the object it came from, and reads back as the same routine."""
from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

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


def test_the_plan_marks_the_files_other_units_load(tmp_path):
    """A callee's file is loaded by its callers' units too (its parse is kept for them); a file whose
    routines nobody calls is loaded by its own unit only (its parse is not kept)."""
    from sad.codebase.points import point_set
    from sad.codebase.results import Options
    from sad.codebase.runner import plan
    from sad.machine.files import resolve_path
    (tmp_path / "axpy.f").write_text("      SUBROUTINE AXPY(N, A, X, Y)\n      INTEGER N, I\n"
                                     "      DOUBLE PRECISION A, X(*), Y(*)\n      DO 10 I = 1, N\n"
                                     "         Y(I) = Y(I) + A*X(I)\n   10 CONTINUE\n      END\n")
    (tmp_path / "user.f").write_text("      SUBROUTINE USER(N, X, Y)\n      INTEGER N\n"
                                     "      DOUBLE PRECISION X(*), Y(*)\n      CALL AXPY(N, 2.0D0, X, Y)\n      END\n")
    options = Options(str(resolve_path("sparc2").resolve()), point_set([], None, [str(tmp_path)]), (), ())
    units, missing = plan([str(tmp_path)], [], options)
    by_name = {Path(u.path).name: u for u in units}
    assert not missing and set(by_name) == {"axpy.f", "user.f"}
    assert [Path(d).name for d in by_name["user.f"].deps] == ["axpy.f"] and not by_name["axpy.f"].deps
    assert by_name["axpy.f"].loaded_by_others and not by_name["user.f"].loaded_by_others


def test_a_kept_parse_that_cannot_be_read_back_is_parsed_again(tmp_path, monkeypatch):
    """The memo of parses must never fail a unit: a kept parse that does not unpickle (a Dask worker once
    raised EOFError in a unit, from a source not found) is dropped and the file parsed again, with the same
    result."""
    from sad.codebase import routines
    from sad.codebase.points import point_set
    from sad.codebase.results import Options
    from sad.codebase.runner import plan
    from sad.machine.files import resolve_path
    (tmp_path / "axpy.f").write_text("      SUBROUTINE AXPY(N, A, X, Y)\n      INTEGER N, I\n"
                                     "      DOUBLE PRECISION A, X(*), Y(*)\n      DO 10 I = 1, N\n"
                                     "         Y(I) = Y(I) + A*X(I)\n   10 CONTINUE\n      END\n")
    options = Options(str(resolve_path("sparc2").resolve()), point_set([], None, [str(tmp_path)]), (), ())
    units, _ = plan([str(tmp_path)], [], options)
    path = str(tmp_path / "axpy.f")
    monkeypatch.setattr(routines, "_PARSED", {})
    first = routines._parsed(path, [], {})
    (key,) = routines._PARSED
    routines._PARSED[key] = routines._PARSED[key][:10]          # truncated: pickle raises EOFError
    again = routines._parsed(path, [], {})
    assert [p.name for p in again.procedures] == [p.name for p in first.procedures] == ["AXPY"]
    assert key not in routines._PARSED
    result = routines.analyze_unit(units[0], options)
    assert [r.name for r in result.routines] == ["AXPY"] and not result.diagnostics


def test_a_unit_that_fails_once_is_analyzed_again_and_a_bug_is_located(tmp_path, monkeypatch):
    """An exception in a unit's analysis is retried once: a passing failure of the worker (an EOFError seen
    twice on a Dask worker, never reproduced) leaves no trace, while a failure that repeats is reported as an
    internal error at the file, with the place it was raised in sad's code."""
    from sad.codebase import routines, runner
    from sad.codebase.points import point_set
    from sad.codebase.results import Options
    from sad.machine.files import resolve_path
    (tmp_path / "axpy.f").write_text("      SUBROUTINE AXPY(N, A, X, Y)\n      INTEGER N, I\n"
                                     "      DOUBLE PRECISION A, X(*), Y(*)\n      DO 10 I = 1, N\n"
                                     "         Y(I) = Y(I) + A*X(I)\n   10 CONTINUE\n      END\n")
    options = Options(str(resolve_path("sparc2").resolve()), point_set([], None, [str(tmp_path)]), (), ())
    (unit,), _ = runner.plan([str(tmp_path)], [], options)
    real = routines.analyze_unit
    calls = []

    def once(unit, options):
        calls.append(unit.path)
        if len(calls) == 1:
            raise EOFError("Ran out of input")
        return real(unit, options)

    monkeypatch.setattr(routines, "analyze_unit", once)
    data = runner.check_unit(unit, options, None)
    assert len(calls) == 2 and [r["name"] for r in data["routines"]] == ["AXPY"] and not data["diagnostics"]

    def always(unit, options):  # a defect inside sad's code: the expression parser given a broken formula
        from sad.common.exprparse import parse_expr
        calls.append(unit.path)
        return parse_expr("1 +")

    monkeypatch.setattr(routines, "analyze_unit", always)
    data = runner.check_unit(unit, options, None)
    (diag,) = data["diagnostics"]
    assert len(calls) == 4 and diag["severity"] == "error" and not data["routines"]
    assert diag["message"].startswith("internal error: ")
    assert "(at sad/common/exprparse.py:" in diag["message"], diag["message"]
