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
from sad.machine import hostspeed, walkprobe
from sad.machine.calibrate import cpu_info
from sad.machine.hierarchy import pinned_cpu
from sad.machine.walkprobe import Column, Timed
from sad.predict.loopcost import LoopCoverage, _chain_waits, _note_slowed_walks, _walk_near_reach, _with_walk_probe
from sad.predict.overlap import loop_seconds, wait_seconds
from sad.predict.reuse import Walk, data_seconds, probe_columns, probed_seconds, streams_of, transfer_seconds
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
    its whole data term is the probe's figures for (8256, 1280), beyond L1 and from L1, as the cache file holds
    them."""
    loop, trips = inner_loop(tmp_path, CROWDED, 5, "crowded.c")
    here = cpu_info()[0]
    coverage = LoopCoverage()
    host = _with_walk_probe(_fitted(HIER), SimpleNamespace(models={"cpu": here}, path="host.yaml"), coverage)
    priced = float(data_seconds(loop, trips, host)[0])
    kept = _figures(here)["8256,1280,8,0,-1,0"]
    ns, l1 = kept["ns"], kept["l1"]
    assert ns >= 0 and l1 > 0 and priced == pytest.approx((ns + l1) * 1e-9, rel=1e-5)
    assert coverage.probed == {(Column(8256, 1280),): pytest.approx(ns * 1e-9)}
    assert len(_figures(here)[walkprobe.SENTINEL]) == len(hostspeed.PARTS)   # the host's fastest sample
    assert coverage.summary().endswith("; 1 column walk timed on this host (walk probe)")
    # another process reads the figure instead of timing the walk again: one that could not run has it too
    again = walkprobe.WalkProbe(here, pinned_cpu())
    again._exe = tmp_path / "no-such-probe"
    assert again.seconds((Column(8256, 1280),))[:2] == pytest.approx((ns * 1e-9, l1 * 1e-9))
    assert again.seconds((Column(8256, 1290),)) is None          # not in the cache: it would have to run
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


def _asking(answer=lambda columns: Timed(2e-9, 0.5e-9)):
    """A hierarchy whose walk probe answers ``answer`` and the list of the columns it was asked for."""
    asked: list[tuple[Column, ...]] = []

    def probe(columns: tuple[Column, ...]) -> float | None:
        asked.append(columns)
        return answer(columns)
    return dataclasses.replace(_fitted(HIER), walk_probe=probe), asked


def test_two_walks_of_a_loop_are_timed_together_and_each_access_charged_once(tmp_path):
    """a[k][i] and b[k][j], 600 rows each (8 256 and 8 800 B apart), one line each an iteration: the probe is
    asked once for both walks interleaved, a's column read again each pass, b's moving one element; the data
    term is the two accesses at the probe's whole figure (2 ns beyond L1 + 0.5 ns of the same passes from L1,
    as a level's figure is a whole loop's), the transfers into L1 the part beyond L1 alone, and nothing else
    (no line, new line or TLB term besides)."""
    host, asked = _asking()
    loop, trips = inner_loop(tmp_path, TWO, 6, "two.c")
    total, shown = data_seconds(loop, trips, host)
    assert asked == [(Column(8256, 600, advance=0), Column(8800, 600, advance=8))]
    assert float(total) == pytest.approx(2 * 2.5e-9, rel=1e-6)
    assert [label for label, *_ in shown] == [
        "a timed on this host (rows 8256 B apart, with 1 other walk: 2.5 ns an access)",
        "b timed on this host (rows 8800 B apart, with 1 other walk: 2.5 ns an access)"]
    transfers = transfer_seconds(loop, trips, host, None, None, streams_of(loop, trips, host))
    assert float(transfers) == pytest.approx(2 * 2e-9, rel=1e-6)


def test_two_columns_of_one_array_are_timed_in_one_array_at_the_gaps_of_the_nest(tmp_path):
    """d[k][i] and d[k][j]: the second column walks the first one's array and rows, j - i elements to its right,
    taken at the model's four points of j's range (the gap does not depend on i: four points, each four times);
    the figure is the mean of the probe's answers."""
    host, asked = _asking(lambda columns: Timed(1e-9 + columns[1].gap * 1e-13, 0.0))
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
    assert probed_seconds(streams, loop, trips, host) == pytest.approx(2.5e-9)   # beyond L1 and from L1
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
        base = probe._run(tuple(c._replace(pitch=8) for c in columns))
        walk = probe._run(columns)
        assert base is not None and walk is not None
        assert 0 < base < 5 and walk > base, columns
    assert Path(probe._built()).exists()


def test_the_probe_program_times_rows_of_runs(tmp_path, probe_on):
    """Rows of runs (``Column.run``): 4 096 rows of 250 doubles 4 000 B apart (a 7.8 MiB footprint, beyond any
    L2 here) cost more an access than the same runs over one run (its 2 000 B in L1), and their reads in one
    serial sum cost an add's latency from L1; a run's key adds RUN to the walk's, a walk's key is unchanged; runs
    are timed alone."""
    probe = walkprobe.WalkProbe("test host R", pinned_cpu())
    rows = Column(4000, 4096, 0, run=250)
    assert rows.spec() == "4000,4096,0,0,-1,0,250" and Column(4000, 4096, 0).spec() == "4000,4096,0,0,-1,0"
    assert rows.base() == Column(0, 4096, 0, run=250)
    base, runs = probe._run((rows.base(),)), probe._run((rows,))
    chain = probe._run((rows.base(),), chained=True)
    assert base is not None and runs is not None and chain is not None
    assert 0 < base < 1 and 2 * base < chain < 5 and runs > base
    assert probe.seconds((rows, Column(4160, 1536))) is None and not probe.failed


def test_the_chained_probe_adds_every_read_into_one_serial_sum(tmp_path, probe_on):
    """With -c the probe's reads go into one sum: its passes from L1 are a chain of adds, an add's latency an
    access (3 to 5 cycles on any x86 core: more than twice the independent sums' fraction of a nanosecond), and
    the walk beyond L1 waits on top of that chain, not below it."""
    probe = walkprobe.WalkProbe("test host E", pinned_cpu())
    walk = (Column(4160, 1536),)
    base = tuple(c._replace(pitch=8) for c in walk)
    free, chained = probe._run(base), probe._run(base, chained=True)
    assert free is not None and chained is not None
    assert chained > 2 * free and chained > 0.5
    assert probe._run(walk, chained=True) > chained


def test_a_chain_waits_on_timed_walks_by_the_chained_probe(tmp_path):
    """CROWDED's s += a[i][j] down a column of 1 280 rows: a register chain. The chain probe is asked for the same
    column as the walk probe, and its figure (the wait beyond the chain's adds, 0.7 ns; not its passes from L1)
    is the chain's wait for the walk's one access an iteration, in place of the levels' figures: a loop of a
    0.3 ns core, a 1 ns chain and 0.5 ns of data takes the chain's 1 ns + 0.7 ns."""
    asked: list[tuple[Column, ...]] = []

    def chain_probe(columns: tuple[Column, ...]) -> Timed:
        asked.append(columns)
        return Timed(0.7e-9, 0.9e-9)
    host = dataclasses.replace(_asking()[0], chain_probe=chain_probe)
    loop, trips = inner_loop(tmp_path, CROWDED, 5, "crowded.c")
    streams, _ = streams_of(loop, trips, host)
    waits = _chain_waits(streams, loop, trips, host, 1e-9)
    assert asked == [(Column(8256, 1280),)] and float(waits) == pytest.approx(0.7e-9)
    wait = wait_seconds(streams, host, False, waits)
    assert float(wait) == pytest.approx(0.7e-9)
    assert float(loop_seconds(0.3e-9, 0.0, sympy.Float(0.5e-9), 1e-9, wait)) == pytest.approx(1.7e-9)
    assert _chain_waits(streams, loop, trips, host, 0.0) is None                  # no chain: nothing waits
    assert _chain_waits(streams, loop, trips, host, 1e-9, 4e-9) is None           # -O0's slot binds: the levels'
    assert _chain_waits(streams, loop, trips, dataclasses.replace(host, chain_probe=None), 1e-9) is None
    assert len(asked) == 1


def test_a_figure_is_the_walks_time_beyond_the_same_passes_from_l1(tmp_path, probe_on):
    """The probe's figures: the walks' best run less that of the same passes over rows 8 bytes apart, the two
    run in turns (both see the host as it is), and the latter's best, kept under the walks' specs."""
    probe = walkprobe.WalkProbe("test host C", None)
    runs: list[tuple[Column, ...]] = []
    times = iter([4.2, 0.3, 4.0, 0.25, 4.1, 0.26, 4.0, 0.28, 4.3, 0.25])

    def run(columns: tuple[Column, ...], accesses: int = walkprobe.ACCESSES, chained: bool = False) -> float:
        runs.append(columns)
        return next(times) + (columns[1].gap / 1000 if columns[0].pitch > 8 else 0)
    probe._run = run  # type: ignore[method-assign]
    probe._guard_of = lambda: None  # type: ignore[method-assign]
    near = (Column(9600, 1400, 0), Column(9600, 1400, 8, False, 0, 1000))
    base = tuple(c._replace(pitch=8, gap=0) for c in near)
    assert probe.seconds(near) == pytest.approx(Timed(4.75e-9, 0.25e-9))
    assert runs == [near, base] * walkprobe.REPEATS
    assert _figures("test host C") == {"9600,1400,0,0,-1,0;9600,1400,8,0,0,1000": {"ns": 4.75, "l1": 0.25}}


class _Scripted(hostspeed.Sentinel):
    """A sentinel whose samples are given: each a ratio to the first (all parts alike)."""
    def __init__(self, ratios: list[float]) -> None:
        super().__init__(Path("no-sentinel"), None)
        self._ratios = iter(ratios)

    def sample(self) -> float:
        ratio = next(self._ratios)
        self.samples.append(tuple(v * ratio for v in (1.0, 4.0, 100.0, 1.7)))
        return self.ratio(self.samples[-1])


def test_a_figure_timed_on_a_slowed_host_is_kept_flagged_and_timed_again_on_a_quiet_one(tmp_path, probe_on):
    """Timed three times, each between two sentinel samples (the host 1.8x, 1.8x and 1.3x its fastest, the larger
    of a try's two samples), the figure of the try on the fastest host (1.3x) is kept with that slowdown; another
    process that finds the host quiet times it again and keeps the new figure, unflagged; a third reads it and
    times nothing."""
    walks = (Column(9600, 1001, 0), Column(9600, 1001, 8))
    key = ";".join(c.spec() for c in walks)

    def probe_with(ratios: list[float], walk_ns: list[float]) -> walkprobe.WalkProbe:
        probe = walkprobe.WalkProbe("test host D", None)
        figures = iter(walk_ns)
        probe._run = lambda columns, accesses=walkprobe.ACCESSES, chained=False: \
            0.25 if columns[0].pitch == 8 else next(figures)  # type: ignore[method-assign]
        probe._guard = hostspeed.Guard(_Scripted(ratios))
        return probe
    # the guard's reference: the first sample (1.0); the sample after a try is the one before the next
    slow = probe_with([1.0, 1.8, 1.3, 1.3], [0.9] * 5 + [1.0] * 5 + [0.8] * 5)
    assert slow.seconds(walks) == pytest.approx(Timed(0.55e-9, 0.25e-9, 1.3))
    assert _figures("test host D")[key] == {"ns": 0.55, "l1": 0.25, "slowed": 1.3}
    quiet = probe_with([1.0, 1.02, 1.03], [0.69] * 5)
    assert quiet.seconds(walks) == pytest.approx(Timed(0.44e-9, 0.25e-9, 0.0))
    assert _figures("test host D")[key] == {"ns": 0.44, "l1": 0.25}
    later = probe_with([], [])                       # no run, no sample: the figure is read
    assert later.seconds(walks) == pytest.approx(Timed(0.44e-9, 0.25e-9, 0.0))


def test_walks_timed_on_a_slowed_host_are_said_in_a_warning():
    coverage = LoopCoverage(slowed={(Column(9600, 1001, 0), Column(9600, 1001, 8)): 1.4})
    _note_slowed_walks(coverage, SimpleNamespace(path="host.yaml"))
    assert [str(d) for d in coverage.warnings] == [
        "host.yaml: warning: 2 column walks were timed while this host ran up to 1.40x slower than its fastest "
        "(host-speed sentinel): their figures may be high; they are timed again when the host is quiet (or "
        "delete walkprobe4.json in the cache directory)"]


def test_a_loop_whose_walks_are_timed_is_not_called_uncertain_one_with_more_walks_is():
    """The near-reach warning (sad.predict.loopcost.NEAR_REACH) stays for loops the model prices: a probe times
    up to ``MAX_COLUMNS`` walks of a loop together, not more (1 800 rows 8 256 B apart, within 3/4 to 9/8 of
    2 048 pages)."""
    host = dataclasses.replace(_fitted(HIER), walk_probe=lambda columns: Timed(1e-9, 0.0))
    walk = (None, Walk(sympy.Integer(8256), sympy.Integer(1800 * 64)))
    assert _walk_near_reach([walk], host) == 0
    assert _walk_near_reach([walk] * walkprobe.MAX_COLUMNS, host) == 0
    assert _walk_near_reach([walk] * (walkprobe.MAX_COLUMNS + 1), host) == 1800
    assert _walk_near_reach([walk], dataclasses.replace(host, walk_probe=None)) == 1800
