"""The installed third-party packages lie in the ranges pyproject.toml declares as tested: a fresh
`pip install` gets a tested combination, and a stale range shows here (not in a user's traceback)."""
from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent


def test_installed_versions_are_in_the_declared_ranges():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    outside = []
    for text in project["dependencies"]:
        req = Requirement(text)
        version = metadata.version(req.name)
        if not req.specifier.contains(version, prereleases=True):
            outside.append(f"{req.name} {version} not in {req.specifier}")
    assert not outside, outside


def test_every_dependency_has_an_upper_bound():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    unbounded = [d for d in project["dependencies"] if not re.search(r"<", d)]
    assert not unbounded, unbounded
