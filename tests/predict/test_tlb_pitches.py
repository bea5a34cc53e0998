"""Where TLB misses set in depends on a walk's pitch (h27): `sad calibrate` times one-line-per-row walks at pitches
of 2, 4 and 8 pages and a line (``tlb.pitches``) and the machine fits the TLB's sets and ways to them; a column
walk whose pages crowd some sets pays the miss there, before the one-page curve's onset
(sad.predict.reuse.conflict_seconds; benchmarks/tlb_pitch.py measures both models)."""
from __future__ import annotations

import dataclasses

import pytest
import sympy

from sad.machine import hierarchy as hier
from sad.predict.reuse import Walk, conflict_seconds, data_seconds
from tests.predict.loop_nests import inner_loop
from tests.predict.test_block_model import HIER
from tests.predict.test_tlb_ramp import HOST, _m, _written_and_read

# the one-page pitch (4160 B): no extra to 1024 pages, 2.1 ns at 2048, the miss 9.5 ns at 4096, 11 ns at 8192
REFERENCE = dataclasses.replace(HOST, tlb_pages=2048, tlb_miss_s=9.5e-9, tlb_ramp=((8192, 11e-9),),
                                tlb_onset=((1024, 0.0), (2048, 2.1e-9)))


def test_a_pitch_curve_is_each_walk_over_the_one_page_baseline_never_decreasing():
    curve = hier.tlb_pitch_curve({256: _m(0.55), 512: _m(0.6), 1024: _m(2.18), 1536: _m(4.88), 2048: _m(3.5)},
                                 _m(0.58))
    # 256 rows faster than the baseline: 0; 2048 below 1536's: noise, kept at 1536's
    assert {p: round(f.seconds * 1e9, 3) for p, f in curve.items()} == \
        {256: 0.0, 512: 0.02, 1024: 1.6, 1536: 4.3, 2048: 4.3}


def test_a_walk_misses_in_the_sets_holding_more_of_its_pages_than_ways():
    # rows two pages apart, 8 of them: pages 0, 2, ..., 14 in 4 sets: sets 0 and 2 hold 4 each, sets 1 and 3 none
    assert hier.tlb_conflicts(8192, 8, 4, 2, 4096) == 1.0      # 4 > 2 ways in both: every access misses
    assert hier.tlb_conflicts(8192, 8, 4, 4, 4096) == 0.0      # 4 ways hold them
    assert hier.tlb_conflicts(4096, 8, 4, 2, 4096) == 0.0      # a page apart: 2 pages a set
    # 10 rows a page apart in 4 sets of 2: sets 0 and 1 hold 3 pages (0, 4, 8 and 1, 5, 9): 6 of 10 accesses
    assert hier.tlb_conflicts(4096, 10, 4, 2, 4096) == pytest.approx(0.6)


def _walks_of(sets: int, ways: int, miss: float) -> tuple[tuple[int, int, float], ...]:
    """What a TLB of this geometry makes the calibration's walks cost more (the conflicts' share x the miss)."""
    return tuple((pitch, rows, hier.tlb_conflicts(pitch, rows, sets, ways, 4096) * miss)
                 for pitch in (4160, 8256, 16448, 32832) for rows in (256, 512, 1024, 1536, 2048, 3072, 4096))


@pytest.mark.parametrize("sets, ways", [(256, 8), (128, 16), (512, 4)])
def test_the_geometry_fitted_to_the_walks_is_the_one_that_made_them(sets, ways):
    assert hier.fit_tlb_geometry(2048, 4096, 9e-9, _walks_of(sets, ways, 9e-9)) == (sets, ways)


def test_the_machine_fits_its_geometry_to_its_calibrated_walks():
    curves = {pitch: tuple((r, e) for p, r, e in _walks_of(256, 8, 9.5e-9) if p == pitch) for pitch in (8256, 16448)}
    host = dataclasses.replace(REFERENCE, tlb_pitches=tuple(sorted(curves.items())))
    assert host.tlb_geometry() == (256, 8)
    assert REFERENCE.tlb_geometry() is None                    # no pitch walks: nothing to fit


def test_calibrate_writes_the_pitches_and_the_database_reads_them(tmp_path):
    text, hierarchy = _written_and_read(tmp_path, tlb_pages=2048, tlb_miss=_m(9.5),
                                        tlb_pitches={8256: {512: _m(0.0), 1024: _m(1.6)}})
    assert "  tlb: {pages: 2048, miss: 9.5 ns, pitches: {8256: {512: 0 ns, 1024: 1.6 ns}}}" in text
    assert hierarchy.tlb_pitches == ((8256, ((512, 0.0), (1024, pytest.approx(1.6e-9)))),)


def _fitted(base: hier.Hierarchy) -> hier.Hierarchy:
    """``base`` with calibrated pitch walks a TLB of 256 sets of 8 ways makes (the miss 9.5 ns)."""
    curves = {pitch: tuple((r, e) for p, r, e in _walks_of(256, 8, 9.5e-9) if p == pitch) for pitch in (8256, 16448)}
    return dataclasses.replace(base, tlb_pages=2048, tlb_miss_s=9.5e-9, tlb_onset=((1024, 0.0), (2048, 2.1e-9)),
                               page_bytes=4096, tlb_pitches=tuple(sorted(curves.items())))


def test_a_walk_two_pages_apart_pays_the_miss_in_its_crowded_sets():
    host = _fitted(REFERENCE)
    # 1280 rows 8256 B apart: row k on page 129 b + 2 r (k = 64 b + r), blocks of 64 rows; the ten even blocks
    # fill the even sets b .. b + 126, so sets 18 .. 126 hold 10 pages and sets 16 and 128 hold 9, more than 8
    # ways: 9 + 55 x 10 + 9 = 568 pages, as many in the odd sets: 1136 of 1280 accesses miss
    walk = Walk(sympy.Integer(8256), sympy.Integer(1280 * 64))
    assert float(conflict_seconds(sympy.Integer(8256), walk, host)) == pytest.approx(1136 / 1280 * 9.5e-9, rel=1e-5)
    # a page and a line apart, pages 0 .. 1299: at most 6 a set
    assert conflict_seconds(sympy.Integer(4160), Walk(sympy.Integer(4160), sympy.Integer(1280 * 64)), host) == 0
    # the rows not a number: the one-page curve alone; no geometry without pitch walks
    assert conflict_seconds(sympy.Integer(8256), Walk(sympy.Integer(8256), sympy.Symbol("n") * 64), host) == 0
    assert conflict_seconds(sympy.Integer(8256), walk, dataclasses.replace(host, tlb_pitches=())) == 0


CROWDED = """static double a[1280][1032];
int main(void) {
    int i, j; double s = 0;
    for (j = 0; j < 1032; j++)
        for (i = 0; i < 1280; i++)
            s += a[i][j];
    return s > 0;
}
"""


def test_the_column_walk_of_a_loop_pays_the_conflicts_where_the_curve_says_less(tmp_path):
    """The walk above in a loop: 1280 pages between reuses, where the one-page curve's onset would charge
    (1280 - 1024) / 1024 x 2.1 = 0.525 ns an access; the crowded sets charge 1136 / 1280 x 9.5 ns."""
    loop, trips = inner_loop(tmp_path, CROWDED, 5, "crowded.c")
    host = _fitted(HIER)
    with_tlb = float(data_seconds(loop, trips, host)[0])
    curve_only = float(data_seconds(loop, trips, dataclasses.replace(host, tlb_pitches=()))[0])
    without = float(data_seconds(loop, trips, dataclasses.replace(HIER, page_bytes=4096))[0])
    assert curve_only - without == pytest.approx(256 / 1024 * 2.1e-9, rel=1e-4)
    assert with_tlb - without == pytest.approx(1136 / 1280 * 9.5e-9, rel=1e-4)
