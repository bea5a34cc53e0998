"""The walk probe (sad.machine.walkprobe): a column walk with rows a page or more apart, its pitch and rows numbers,
is timed on this host where the machine file was calibrated here, and the data term takes that figure for the
walk's lines and pages (sad.predict.reuse.probed_seconds); the figure is cached, so the same input gives the
same output."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
import sympy

from sad.common.cachefiles import cache_home
from sad.machine import walkprobe
from sad.machine.calibrate import cpu_info
from sad.machine.hierarchy import pinned_cpu
from sad.predict.loopcost import LoopCoverage, _walk_near_reach, _with_walk_probe
from sad.predict.reuse import Walk, data_seconds, probed_seconds
from tests.predict.loop_nests import inner_loop
from tests.predict.test_block_model import HIER
from tests.predict.test_tlb_pitches import CROWDED, _fitted


@pytest.fixture
def probe_on(monkeypatch):
    monkeypatch.setenv(walkprobe.ENV, "1")


def _figures(host: str) -> dict:
    return json.loads((cache_home() / walkprobe.CACHE).read_text())[host]


def test_a_walk_in_a_loop_is_priced_at_its_timed_figure_and_the_figure_is_kept(tmp_path, probe_on):
    """CROWDED's column walk: 1280 rows 8256 B apart, the loop's one reference and one line an iteration, so
    its whole data term is the probe's figure for (8256, 1280), as the cache file holds it."""
    loop, trips = inner_loop(tmp_path, CROWDED, 5, "crowded.c")
    here = cpu_info()[0]
    coverage = LoopCoverage()
    host = _with_walk_probe(_fitted(HIER), SimpleNamespace(models={"cpu": here}, path="host.yaml"), coverage)
    priced = float(data_seconds(loop, trips, host)[0])
    ns = _figures(here)["8256,1280"]
    assert ns >= 0 and priced == pytest.approx(ns * 1e-9, rel=1e-5)
    assert coverage.probed == {(8256, 1280): pytest.approx(ns * 1e-9)}
    assert coverage.summary().endswith("; 1 column walk timed on this host (walk probe)")
    # another process reads the figure instead of timing the walk again: one that could not run has it too
    again = walkprobe.WalkProbe(here, pinned_cpu())
    again._exe = tmp_path / "no-such-probe"
    assert again.extra_seconds(8256, 1280) == pytest.approx(ns * 1e-9)
    assert again.extra_seconds(8256, 1290) is None          # not in the cache: it would have to run
    assert "status" in again.failed


def test_the_probe_is_asked_only_for_walks_it_can_time():
    asked: list[tuple[int, int]] = []

    def probe(pitch: int, rows: int) -> float:
        asked.append((pitch, rows))
        return 2e-9

    host = dataclasses.replace(_fitted(HIER), walk_probe=probe)
    rows = 1280 * 64
    walk = Walk(sympy.Integer(8256), sympy.Integer(rows))
    alone = [(None, 1, rows, walk)]
    assert probed_seconds(alone, walk, sympy.Integer(rows), host) == pytest.approx(2e-9)
    # rows 2 000 B apart (under a page: the caches' model), rows not a number, bytes beyond the last cache
    largest = host.caches()[-1].fit_bytes()
    assert probed_seconds([], Walk(sympy.Integer(2000), sympy.Integer(rows)), sympy.Integer(rows), host) is None
    assert probed_seconds([], Walk(sympy.Integer(8256), sympy.Symbol("n") * 64), sympy.Integer(rows), host) is None
    assert probed_seconds(alone, walk, sympy.Integer(largest + 1), host) is None
    assert probed_seconds(alone, walk, sympy.Integer(rows), dataclasses.replace(host, walk_probe=None)) is None
    # another column walked in the same loop: two interleaved walks are not the probe's one
    other = Walk(sympy.Integer(8256), sympy.Integer(rows))
    assert probed_seconds([*alone, (None, 1, rows, other)], walk, sympy.Integer(rows), host) is None
    assert asked == [(8256, 1280)]


def test_the_probe_is_this_hosts_only(monkeypatch):
    monkeypatch.setenv(walkprobe.ENV, "1")
    here = cpu_info()[0]
    assert isinstance(walkprobe.for_machine({"cpu": here}), walkprobe.WalkProbe)
    assert walkprobe.for_machine({"cpu": "SPARCstation 2"}) is None       # another machine's file
    assert walkprobe.for_machine({}) is None                              # a file written by hand
    monkeypatch.setenv(walkprobe.ENV, "0")
    assert walkprobe.for_machine({"cpu": here}) is None                   # switched off


def test_the_probe_program_times_a_walk(tmp_path, probe_on):
    """The baseline walk (16 rows) costs a fraction of a nanosecond an access; a walk over 1 536 rows a page and
    a line apart (96 KiB of lines, more than any L1 here) costs more than it."""
    probe = walkprobe.WalkProbe("test host B", pinned_cpu())
    base = probe._best(4160, walkprobe.BASE_ROWS)
    walk = probe._best(4160, 1536)
    assert base is not None and walk is not None
    assert 0 < base < 5 and walk > base
    assert Path(probe._built()).exists()


def test_a_loop_whose_walk_is_timed_is_not_called_uncertain_one_with_two_walks_is():
    """The near-reach warning (sad.predict.loopcost.NEAR_REACH) stays for loops the model prices: a probe times
    a loop's one walk, not two (1 800 rows 8 256 B apart, within 3/4 to 9/8 of 2 048 pages)."""
    host = dataclasses.replace(_fitted(HIER), walk_probe=lambda pitch, rows: 1e-9)
    walk = (None, Walk(sympy.Integer(8256), sympy.Integer(1800 * 64)))
    assert _walk_near_reach([walk], host) == 0
    assert _walk_near_reach([walk, walk], host) == 1800
    assert _walk_near_reach([walk], dataclasses.replace(host, walk_probe=None)) == 1800
