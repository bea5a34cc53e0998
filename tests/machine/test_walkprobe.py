"""The walk probe (sad.machine.walkprobe): a loop's column walks with rows a page or more apart, their pitches and
rows numbers, are timed together on this host where the machine file was calibrated here, and the data term takes
that figure for the walks' lines and pages (sad.predict.reuse.probed_seconds); the figure is cached, so the same
input gives the same output."""
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
from sad.machine.walkprobe import Column
from sad.predict.loopcost import LoopCoverage, _walk_near_reach, _with_walk_probe
from sad.predict.reuse import Walk, data_seconds, probe_columns, probed_seconds, streams_of
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
    ns = _figures(here)["8256,1280,8,0,-1,0"]
    assert ns >= 0 and priced == pytest.approx(ns * 1e-9, rel=1e-5)
    assert coverage.probed == {(Column(8256, 1280),): pytest.approx(ns * 1e-9)}
    assert coverage.summary().endswith("; 1 column walk timed on this host (walk probe)")
    # another process reads the figure instead of timing the walk again: one that could not run has it too
    again = walkprobe.WalkProbe(here, pinned_cpu())
    again._exe = tmp_path / "no-such-probe"
    assert again.extra_seconds((Column(8256, 1280),)) == pytest.approx(ns * 1e-9)
    assert again.extra_seconds((Column(8256, 1290),)) is None          # not in the cache: it would have to run
    assert "status" in again.failed


TWO = """static double a[600][1032], b[600][1100];
int main(void) {
    int i, j, k; double s = 0;
    for (i = 0; i < 1032; i++)
        for (j = 0; j < 1100; j++)
            for (k = 0; k < 600; k++)
                s += a[k][i] * b[k][j];
    return s > 0;
}
"""
"""Two column walks in two arrays (trmm's A[k][i] * B[k][j]): a's column the same over j, b's one element on."""

PAIR = """static double d[700][1032];
int main(void) {
    int i, j, k; double s = 0;
    for (i = 0; i < 1032; i++)
        for (j = i; j < 1032; j++)
            for (k = 0; k < 700; k++)
                s += d[k][i] * d[k][j];
    return s > 0;
}
"""
"""Two columns of one array (covariance's data[k][i] * data[k][j]): their gap j - i changes with the nest."""


def _asking(answer=lambda columns: 2e-9):
    """A hierarchy whose walk probe answers ``answer`` and the list of the columns it was asked for."""
    asked: list[tuple[Column, ...]] = []

    def probe(columns: tuple[Column, ...]) -> float | None:
        asked.append(columns)
        return answer(columns)
    return dataclasses.replace(_fitted(HIER), walk_probe=probe), asked


def test_two_walks_of_a_loop_are_timed_together_and_each_access_charged_once(tmp_path):
    """a[k][i] and b[k][j], 600 rows each (8 256 and 8 800 B apart), one line each an iteration: the probe is
    asked once for both walks interleaved, a's column read again each pass, b's moving one element; the data
    term is the two accesses at the probe's figure, and nothing else (no line, new line or TLB term besides)."""
    host, asked = _asking()
    loop, trips = inner_loop(tmp_path, TWO, 6, "two.c")
    total, shown = data_seconds(loop, trips, host)
    assert asked == [(Column(8256, 600, advance=0), Column(8800, 600, advance=8))]
    assert float(total) == pytest.approx(2 * 2e-9, rel=1e-6)
    assert [label for label, *_ in shown] == [
        "a timed on this host (rows 8256 B apart, with 1 other walk: 2 ns an access)",
        "b timed on this host (rows 8800 B apart, with 1 other walk: 2 ns an access)"]


def test_two_columns_of_one_array_are_timed_in_one_array_at_the_gaps_of_the_nest(tmp_path):
    """d[k][i] and d[k][j]: the second column walks the first one's array and rows, j - i elements to its right,
    taken at the model's four points of j's range (the gap does not depend on i: four points, each four times);
    the figure is the mean of the probe's answers."""
    host, asked = _asking(lambda columns: 1e-9 + columns[1].gap * 1e-13)
    loop, trips = inner_loop(tmp_path, PAIR, 6, "pair.c")
    total, _ = data_seconds(loop, trips, host)
    gaps = sorted({columns[1].gap for columns in asked})
    assert gaps == [515, 1546, 2577, 3608]    # 8 B x (1032 - 1) x (1/8, 3/8, 5/8, 7/8) on average over i
    assert len(asked) == 16 and all(c[0] == Column(8256, 700, advance=0) and c[1].shares == 0 for c in asked)
    assert float(total) == pytest.approx(2 * (1e-9 + sum(gaps) / 4 * 1e-13), rel=1e-5)


def test_the_probe_is_asked_only_for_walks_it_can_time(tmp_path):
    host, asked = _asking()
    loop, trips = inner_loop(tmp_path, CROWDED, 5, "crowded.c")
    streams, _ = streams_of(loop, trips, host)
    assert probed_seconds(streams, loop, trips, host) == pytest.approx(2e-9)
    assert asked == [(Column(8256, 1280),)]
    assert probed_seconds(streams, loop, trips, dataclasses.replace(host, walk_probe=None)) is None

    def changed(**fields) -> list:
        ref, lines, fp, walk, *rest = streams[0]
        return [(ref, lines, fields.get("fp", fp), Walk(fields.get("pitch", walk.pitch),
                                                         fields.get("bytes", walk.bytes)), *rest)]
    largest = host.caches()[-1].fit_bytes()
    assert probe_columns([], loop, trips, host) == ()
    # rows 2 000 B apart (under a page: the caches' model), rows not a number, bytes beyond the last cache
    for fields in ({"pitch": sympy.Integer(2000)}, {"bytes": sympy.Symbol("n") * 64},
                   {"fp": sympy.Integer(largest + 1)}):
        assert probed_seconds(changed(**fields), loop, trips, host) is None
    # more walks than the probe times together: the model prices them
    assert probed_seconds(streams * (walkprobe.MAX_COLUMNS + 1), loop, trips, host) is None
    assert len(asked) == 1


def test_the_probe_is_this_hosts_only(monkeypatch):
    monkeypatch.setenv(walkprobe.ENV, "1")
    here = cpu_info()[0]
    assert isinstance(walkprobe.for_machine({"cpu": here}), walkprobe.WalkProbe)
    assert walkprobe.for_machine({"cpu": "SPARCstation 2"}) is None       # another machine's file
    assert walkprobe.for_machine({}) is None                              # a file written by hand
    monkeypatch.setenv(walkprobe.ENV, "0")
    assert walkprobe.for_machine({"cpu": here}) is None                   # switched off


def test_the_probe_program_times_walks(tmp_path, probe_on):
    """The same passes over rows 8 bytes apart (all in L1) cost a fraction of a nanosecond an access; a walk over
    1 536 rows a page and a line apart (96 KiB of lines, more than any L1 here) costs more; so do two such walks,
    in two arrays or in one (the second 2 KiB to the right), and one of them written."""
    probe = walkprobe.WalkProbe("test host B", pinned_cpu())
    still = Column(4160, 1536, 0)
    for columns in ((Column(4160, 1536),), (still, Column(4160, 1536)),
                    (still, Column(4160, 1536, 8, False, 0, 2048)), (still, Column(4160, 1536, 8, True))):
        base = probe._best(tuple(c._replace(pitch=8) for c in columns))
        walk = probe._best(columns)
        assert base is not None and walk is not None
        assert 0 < base < 5 and walk > base, columns
    assert Path(probe._built()).exists()


def test_a_figure_is_the_walks_time_beyond_the_same_passes_from_l1(tmp_path, probe_on):
    """The probe's figure: the walks' best run less that of the same passes over rows 8 bytes apart (one such
    run per shape: the gap points share it), kept under the walks' specs."""
    probe = walkprobe.WalkProbe("test host C", None)
    runs: list[tuple[Column, ...]] = []

    def best(columns: tuple[Column, ...], repeats: int = walkprobe.REPEATS) -> float:
        runs.append(columns)
        return 0.25 if columns[0].pitch == 8 else 4.0 + columns[1].gap / 1000
    probe._best = best  # type: ignore[method-assign]
    near = (Column(9600, 1400, 0), Column(9600, 1400, 8, False, 0, 1000))
    far = (near[0], near[1]._replace(gap=3000))
    assert probe.extra_seconds(near) == pytest.approx(4.75e-9)
    assert probe.extra_seconds(far) == pytest.approx(6.75e-9)
    assert runs == [near, tuple(c._replace(pitch=8, gap=0) for c in near), far]
    assert _figures("test host C") == {"9600,1400,0,0,-1,0;9600,1400,8,0,0,1000": 4.75,
                                       "9600,1400,0,0,-1,0;9600,1400,8,0,0,3000": 6.75}


def test_a_loop_whose_walks_are_timed_is_not_called_uncertain_one_with_more_walks_is():
    """The near-reach warning (sad.predict.loopcost.NEAR_REACH) stays for loops the model prices: a probe times
    up to ``MAX_COLUMNS`` walks of a loop together, not more (1 800 rows 8 256 B apart, within 3/4 to 9/8 of
    2 048 pages)."""
    host = dataclasses.replace(_fitted(HIER), walk_probe=lambda columns: 1e-9)
    walk = (None, Walk(sympy.Integer(8256), sympy.Integer(1800 * 64)))
    assert _walk_near_reach([walk], host) == 0
    assert _walk_near_reach([walk] * walkprobe.MAX_COLUMNS, host) == 0
    assert _walk_near_reach([walk] * (walkprobe.MAX_COLUMNS + 1), host) == 1800
    assert _walk_near_reach([walk], dataclasses.replace(host, walk_probe=None)) == 1800
