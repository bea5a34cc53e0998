"""The README's CI recipes and its Python API example (issue 30): the GitHub Actions job has the permission
SARIF upload needs, a GitLab CI job stands next to it and runs the same check, and the API example runs."""
from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", README, flags=re.S | re.M)


def test_github_job_may_upload_sarif():
    jobs = [doc["jobs"] for doc in map(yaml.safe_load, _blocks("yaml")) if isinstance(doc, dict) and "jobs" in doc]
    job = jobs[0]["performance"]
    uses = [step.get("uses", "") for step in job["steps"]]
    assert any(u.startswith("github/codeql-action/upload-sarif") for u in uses)
    assert job["permissions"]["security-events"] == "write"


def test_gitlab_job_runs_the_same_check_and_keeps_its_reports():
    docs = [yaml.safe_load(b) for b in _blocks("yaml")]
    gitlab = next(d["performance"] for d in docs if isinstance(d, dict) and "script" in d.get("performance", {}))
    github = next(d["jobs"]["performance"] for d in docs if isinstance(d, dict) and "jobs" in d)
    runs = [s["run"] for s in github["steps"] if "run" in s]
    failing = next(r for r in runs if "--fail-over" in r)
    assert any(line.startswith(failing) for line in gitlab["script"])
    assert gitlab["artifacts"]["when"] == "always" and "sad.sarif" in gitlab["artifacts"]["paths"]
    assert gitlab["variables"]["XDG_CACHE_HOME"].startswith("$CI_PROJECT_DIR")
    assert gitlab["cache"]["paths"] == [".cache/sad"]


def test_python_api_example_runs(monkeypatch):
    block = next(b for b in _blocks("python") if "sad.analyze(" in b)
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "README.md", "exec"), {})  # the README's own example, not user input
    seconds, procedure, line = out.getvalue().split()
    assert (procedure, line) == ("FORCE", "697") and float(seconds) > 0
