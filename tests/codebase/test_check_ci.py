"""`sad check` as a CI job runs it (issue 30, item 9): the repository's .sad-check.yaml found from `sad check
src`, a typo in --at refused, SARIF rule SAD002 for a grown complexity class, and an exit status that agrees
with the severity printed."""
from __future__ import annotations

import json

import pytest

from tests.codebase.test_check import sad_check

DAXPY = """      SUBROUTINE DAXPY(N, A, X, Y)
      INTEGER N, I, J
      DOUBLE PRECISION A, X(N), Y(N)
      DO 10 I = 1, N
{inner}         Y(I) = Y(I) + A * X(I)
{end}   10 CONTINUE
      END
"""


def _daxpy(quadratic: bool) -> str:
    if quadratic:  # the same update once per J: n^2
        return DAXPY.format(inner="      DO 20 J = 1, N\n", end="   20 CONTINUE\n")
    return DAXPY.format(inner="", end="")


@pytest.fixture()
def repo(tmp_path):
    """A repository: .git, .sad-check.yaml at its root, DAXPY under src/, a baseline of the linear DAXPY,
    then DAXPY made quadratic."""
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "src").mkdir()
    (root / ".sad-check.yaml").write_text("points:\n  small: {N: 10}\n  large: {N: 1000}\n")
    (root / "src" / "daxpy.f").write_text(_daxpy(False))
    code, _, err = sad_check(root, "src", "--save-baseline", "baseline.json", "--no-cache", "-j", "1")
    assert code == 0, err
    (root / "src" / "daxpy.f").write_text(_daxpy(True))
    return root


def test_config_at_the_repository_root_is_read_for_a_subdirectory(repo):
    code, out, err = sad_check(repo, "src", "--format", "json", "--no-cache", "-j", "1")
    assert sorted(json.loads(out)["points"]["points"]) == ["large", "small"]
    assert "reference points from .sad-check.yaml" in err
    # from a directory below the root, for a file: the same config (outside the working directory: in full)
    code, out, err = sad_check(repo / "src", "daxpy.f", "--format", "json", "--no-cache", "-j", "1")
    assert sorted(json.loads(out)["points"]["points"]) == ["large", "small"]
    assert f"reference points from {repo / '.sad-check.yaml'}" in err


def test_search_stops_at_the_repository_root(repo, tmp_path):
    (tmp_path / ".sad-check.yaml").write_text("points:\n  outside: {N: 5}\n")  # above the repository
    (repo / ".sad-check.yaml").unlink()
    code, out, _ = sad_check(repo, "src", "--format", "json", "--no-cache", "-j", "1")
    assert list(json.loads(out)["points"]["points"]) == ["default"]


def test_a_name_in_at_that_binds_nothing_is_an_error(repo, tmp_path):
    code, out, err = sad_check(repo, "src", "--at", "NNN=5", "--no-cache", "-j", "1")
    assert code == 2 and out == ""
    assert "sad: error: --at: NNN binds no parameter of any routine's time (did you mean N?)" in err
    # a file that could not be analyzed may hold the routine: then a warning, and the file's error fails
    (repo / "src" / "broken.f").write_text("      SUBROUTINE BROKEN(NNN)\n      X = (1 +\n      END\n")
    code, out, err = sad_check(repo, "src", "--at", "NNN=5", "--no-cache", "-j", "1")
    assert code == 1 and "sad: warning: --at: NNN binds no parameter" in err
    (repo / "src" / "broken.f").unlink()
    # a config file's point naming something absent is a warning: one file serves several trees
    (repo / ".sad-check.yaml").write_text("points:\n  small: {N: 10, LDA: 10}\n")
    code, out, err = sad_check(repo, "src", "--no-cache", "-j", "1", "--format", "json")
    assert code == 0 and "sad: warning: .sad-check.yaml: points.small: LDA binds no parameter" in err


def test_a_grown_class_is_sad002_and_fails_without_fail_over(repo):
    code, out, err = sad_check(repo, "src", "--baseline", "baseline.json", "--format", "sarif", "--no-cache",
                               "-j", "1")
    assert code == 1, err  # the regression is an error: the exit status says so
    results = json.loads(out)["runs"][0]["results"]
    assert {(r["ruleId"], r["level"], r["properties"]["point"]) for r in results} == \
        {("SAD002", "error", "large"), ("SAD002", "error", "small")}
    code, out, _ = sad_check(repo, "src", "--baseline", "baseline.json", "--no-cache", "-j", "1")
    assert code == 1 and "src/daxpy.f:1: error: DAXPY: predicted time at large grew" in out
    assert "complexity n → n^2" in out
    # --warn-only: printed as warnings, and the exit status is 0
    code, out, _ = sad_check(repo, "src", "--baseline", "baseline.json", "--warn-only", "--no-cache", "-j", "1")
    assert code == 0 and "src/daxpy.f:1: warning: DAXPY: predicted time at large grew" in out
    assert ": error:" not in out
    code, out, _ = sad_check(repo, "src", "--baseline", "baseline.json", "--warn-only", "--format", "markdown",
                             "--no-cache", "-j", "1")
    assert "✅ passing" in out and "| ⚠️ | `DAXPY` |" in out


def test_time_growth_under_no_threshold_is_a_warning_and_exit_zero(repo):
    (repo / "src" / "daxpy.f").write_text(_daxpy(False).replace("Y(I) + A * X(I)", "Y(I) + A * X(I) * A"))
    code, out, _ = sad_check(repo, "src", "--baseline", "baseline.json", "--no-cache", "-j", "1")
    assert code == 0 and "src/daxpy.f:1: warning: DAXPY: predicted time at large grew" in out
    code, out, _ = sad_check(repo, "src", "--baseline", "baseline.json", "--fail-over", "1%", "--no-cache",
                             "-j", "1")
    assert code == 1 and "src/daxpy.f:1: error: DAXPY" in out
