"""sad.common.cachefiles.built_directory: programs sad builds for itself (the walk probe and its host-speed
sentinel) are built once per source into the cache directory, never into a temporary directory a worker
process would leave behind."""
from __future__ import annotations

import tempfile
from pathlib import Path

from sad.common.cachefiles import built_directory, cache_home


def test_a_directory_is_built_once_per_key_and_a_failed_build_leaves_nothing(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    calls: list[Path] = []

    def build(work: Path) -> str:
        calls.append(work)
        (work / "prog").write_text("built", encoding="utf-8")
        return ""

    first, why = built_directory("probe", "source v1", build)
    assert why == "" and first is not None and (first / "prog").read_text(encoding="utf-8") == "built"
    assert built_directory("probe", "source v1", build) == (first, "")
    assert len(calls) == 1                                      # the second asker finds it built
    other, _ = built_directory("probe", "source v2", build)      # another source: another directory
    assert other != first and len(calls) == 2
    assert built_directory("probe", "source v3", lambda work: "no compiler") == (None, "no compiler")
    assert sorted(p.name for p in (tmp_path / "sad").iterdir()) == sorted([first.name, other.name])


def test_the_walk_probe_is_built_in_the_cache_and_nothing_is_left_in_the_temporary_directory(monkeypatch,
                                                                                            tmp_path):
    from sad.machine import hostspeed, walkprobe
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", None)              # TMPDIR read anew
    exes = [walkprobe.WalkProbe("host", None)._built() for _ in range(2)]
    assert exes[0] is not None and exes[0] == exes[1]
    assert exes[0].parent.parent == cache_home() and (exes[0].parent / hostspeed.EXE).is_file()
    assert list((tmp_path / "tmp").iterdir()) == []
