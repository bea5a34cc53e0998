"""How the suite's tests are spread over the pytest-xdist workers (`--dist loadgroup`, pyproject.toml).

Each test is sent to whichever worker is free, except tests that share work, which run in one worker so that
the work is done once:
- tests that use a module-scoped fixture (one md1 profile, one `sad check` tree) are grouped by their file;
- tests that read one result made once per process (tests.sad_runs: the md1 runs of `sad analyze`;
  tests.corpus_expectations.counts_by_line: a corpus program's analysis) carry an explicit
  `pytest.mark.xdist_group`, the same in every file that reads it.
The two workers finish together when the long tests start first and the many short ones fill the gaps at the
end: units (a group, or a test of its own) holding a test marked `heavy` are queued first
(`--no-loadscope-reorder` keeps this order instead of xdist's largest-group-first).
"""
from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _fresh_cache_home(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The tests' caches ($XDG_CACHE_HOME/sad: `sad check` results, unit and schema answers) start empty, as on a
    fresh machine: a result kept by an earlier run of this user must not decide a test."""
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))
    # the prices the tests derive by hand are the model's: a walk timed on this host (sad.machine.walkprobe, for
    # a machine file calibrated here) would differ run to run; tests/machine/test_walkprobe.py switches it on
    os.environ["SAD_WALK_PROBE"] = "0"


SHARED_SCOPES = ("module", "package")  # not "session": pytest's own (tmp_path_factory) are per worker anyway


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the groups into the test ids
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _group(item) is None and _uses_shared_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))
    if hasattr(config, "workerinput"):  # an xdist worker: this order is the queue's (a plain run keeps its own)
        heavy = {_unit(item) for item in items if item.get_closest_marker("heavy") is not None}
        items.sort(key=lambda item: _unit(item) not in heavy)


def _group(item: pytest.Item) -> str | None:
    """The test's xdist group, named as xdist names it (its groups' names joined), or None."""
    names = {str(m.args[0] if m.args else m.kwargs.get("name", "default")) for m in item.iter_markers("xdist_group")}
    return "_".join(sorted(names)) or None


def _unit(item: pytest.Item) -> str:
    """What xdist sends to one worker at once: the test's group, or the test."""
    return _group(item) or item.nodeid


def _uses_shared_fixture(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(d.scope in SHARED_SCOPES for defs in info.name2fixturedefs.values() for d in defs)
