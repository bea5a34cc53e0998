"""sad check past --timeout: the file analyzed again alone, its calls into other files priced by name.

TOP calls MID from a triangular nest of three loops whose indices MID's tests depend on, and MID calls LEAF:
expanding MID and LEAF at every call takes seconds (6 CPU s on the forty-fifth session's host, 152 before its
nests of sums were walked as ragged arrays), while TOP alone, MID with LEAF and LEAF alone each take a
fraction of a second. With a limit of one CPU second, TOP is reported with MID priced by name, and MID and
LEAF in full.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.codebase.test_check import sad_check, summary

TOP = """\
      SUBROUTINE TOP(N, A)
      INTEGER N, I, J, K
      DOUBLE PRECISION A(*)
      DO 30 I = 1, N
         DO 20 J = 1, I
            DO 10 K = J, I
               CALL MID(I, K, N - J, A)
   10       CONTINUE
   20    CONTINUE
   30 CONTINUE
      END
"""
MID = """\
      SUBROUTINE MID(K, L, M, A)
      INTEGER K, L, M, J
      DOUBLE PRECISION A(*)
      IF (M .LE. L) RETURN
      DO 10 J = L, M
         A(J) = A(J) * 2.0D0
         IF (J .GT. K) CALL LEAF(J, M - J, A)
   10 CONTINUE
      END
"""
LEAF = """\
      SUBROUTINE LEAF(K, M, A)
      INTEGER K, M, J
      DOUBLE PRECISION A(*)
      IF (M .LE. 0) RETURN
      DO 10 J = 1, M
         A(J) = A(J) + A(K)
   10 CONTINUE
      END
"""
LIMIT = "1"
# TOP's calls at N = 100: sum over I of sum over J <= I of (I - J + 1) = N (N + 1) (N + 2) / 6
CALLS = 100 * 101 * 102 // 6


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for name, text in (("top.f", TOP), ("mid.f", MID), ("leaf.f", LEAF)):
        (tmp_path / "src" / name).parent.mkdir(exist_ok=True)
        (tmp_path / "src" / name).write_text(text)
    return tmp_path


def check_json(cwd: Path, *args: str) -> tuple[dict, str]:
    code, out, err = sad_check(cwd, "src", "--format", "json", "-j", "1", *args)
    assert code == 0, err
    return json.loads(out), err


def test_a_file_past_the_limit_is_reported_with_its_callees_priced_by_name(tree):
    # two points that differ in MID's named cost only: their difference is the number of calls
    report, err = check_json(tree, "--timeout", LIMIT, "--no-cache", "--at", "one:N=100,C_MID=1",
                             "--at", "zero:N=100,C_MID=0")
    routines = {r["name"]: r for r in report["routines"]}
    assert routines["TOP"]["named_calls"] == ["MID"]
    assert routines["TOP"]["parameters"]["C_MID"] == "call_cost"
    assert routines["MID"]["named_calls"] == [] and routines["LEAF"]["named_calls"] == []
    assert "C_LEAF" not in routines["MID"]["parameters"]  # MID's own unit expands LEAF
    top = routines["TOP"]["points"]
    assert top["one"] - top["zero"] == pytest.approx(CALLS, rel=1e-9)
    warnings = [d for d in report["diagnostics"] if d["severity"] == "warning"]
    assert [(d["file"], d["line"]) for d in warnings] == [("src/top.f", 1)]
    assert warnings[0]["message"] == ("TOP: expanding its calls into other files passed --timeout 1 CPU s; 1 callee "
                                      "(MID) priced by name (C_<callee>, the call_cost default at the reference "
                                      "points) instead")
    assert "src/top.f:1: warning: TOP: expanding its calls" in err
    assert report["summary"]["errors"] == 0


def test_the_result_priced_by_name_is_cached_for_its_limit_only(tree):
    cache = str(tree / "cache")
    first, err = check_json(tree, "--timeout", LIMIT, "--cache-dir", cache)
    assert summary(err) == (0, 3)
    again, err = check_json(tree, "--timeout", LIMIT, "--cache-dir", cache)
    assert summary(err) == (3, 0) and again == first
    # another limit: the whole analysis is tried again for TOP, the other two are whole results
    _, err = check_json(tree, "--timeout", "1.5", "--cache-dir", cache)
    assert summary(err) == (2, 1)


def test_a_routine_priced_by_name_in_one_run_only_is_not_compared(tree):
    baseline = tree / "base.json"
    # TOP checked alone: MID is outside what was checked, an unseen call in both runs but named in neither
    code, _, err = sad_check(tree, "src/top.f", "--no-cache", "--save-baseline", str(baseline))
    assert code == 0, err
    report, _ = check_json(tree, "--timeout", LIMIT, "--no-cache", "--baseline", str(baseline), "--fail-over", "1%")
    comparison = report["comparison"]
    assert comparison["not_compared"] == ["TOP"]
    assert comparison["regressions"] == [] and comparison["improvements"] == []
    assert comparison["new"] == ["LEAF", "MID"]
    code, out, _ = sad_check(tree, "src", "-j", "1", "--timeout", LIMIT, "--no-cache", "--baseline", str(baseline))
    assert code == 0
    assert "not compared (calls into other files priced by name in one of the two runs, past --timeout): TOP" in out


def test_a_file_past_the_limit_alone_too_is_an_error_and_not_cached(tree):
    cache = str(tree / "cache")
    args = ("src", "--timeout", "0.001", "--cache-dir", cache, "-j", "1")
    code, out, err = sad_check(tree, *args)
    assert code == 1
    assert ("src/top.f:1: error: analysis stopped after 0.001 CPU s (--timeout), and again alone with its calls "
            "into other files priced by name; no routine of this file is reported") in err
    # LEAF calls no other file: there is nothing to price by name
    assert "src/leaf.f:1: error: analysis stopped after 0.001 CPU s (--timeout); no routine of this file" in err
    assert "0 routines" in out
    _, _, err = sad_check(tree, *args)
    assert summary(err) == (0, 3)
