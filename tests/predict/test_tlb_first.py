"""The first-level TLB: a column walk over more pages than it holds pays a second-level hit at every page change,
also within the second level's reach. `sad calibrate` reads the miss off its one-line-per-page walks
(``tlb.first``: the 256-page walk against the 16 and 64-page ones, all with their lines in L1), and the data part
adds it to the walk's accesses from that reach on, and to the onset's figures beyond it (their baseline walk
pays it already)."""
from __future__ import annotations

import dataclasses

import pytest

from sad.machine import hierarchy as hier
from sad.machine.model import load_machine
from sad.predict.reuse import data_seconds
from tests.predict.loop_nests import column_loop, column_sum_warnings
from tests.predict.test_block_model import HIER
from tests.predict.test_compile_options import _machine
from tests.predict.test_tlb_ramp import _m, _written_and_read

WALKS = {16: _m(0.37), 64: _m(0.36), 256: _m(0.55), 512: _m(0.59), 768: _m(0.77), 1024: _m(0.8),
         1536: _m(0.83), 2048: _m(5.0), 3072: _m(9.0), 4096: _m(9.4)}
"""ns per access of one-line-per-page walks timed on an Emerald Rapids VM (16-96 pages
0.36-0.40, 256 pages 0.55; the walks from 2048 on invented to give a reach)."""


def test_the_first_level_miss_is_the_256_page_walk_less_the_smaller_base():
    reach, miss = hier.tlb_first(WALKS, 48 * 1024, 64)
    # 0.55 - min(0.37, 0.36) = 0.19 ns; the 64-page walk stays under 0.36 + 0.19 / 2: the reach is 64 pages
    assert reach == 64
    assert miss.seconds == pytest.approx(0.19e-9)


def test_a_64_page_walk_already_slowed_puts_the_reach_at_16():
    walks = {**WALKS, 64: _m(0.5)}
    reach, miss = hier.tlb_first(walks, 48 * 1024, 64)
    assert reach == 16 and miss.seconds == pytest.approx(0.18e-9)


def test_no_step_is_no_miss_up_to_the_probe_and_no_probe_or_a_small_l1_no_figure():
    # 0.02 ns: under a tenth of 0.36, written as measured: no miss up to 256 pages
    reach, miss = hier.tlb_first({**WALKS, 256: _m(0.38)}, 48 * 1024, 64)
    assert (reach, miss.seconds) == (256, 0.0)
    assert hier.tlb_first({p: f for p, f in WALKS.items() if p != 256}, 48 * 1024, 64) is None
    assert hier.tlb_first(WALKS, 16 * 1024, 64) is None     # 256 lines (16 KiB) over half a 16 KiB L1


def test_calibrate_writes_it_into_the_tlb_line_and_the_database_reads_it(tmp_path):
    text, hierarchy = _written_and_read(tmp_path, tlb_pages=1536, tlb_miss=_m(8.2), tlb_first=(64, _m(0.19)))
    assert "  tlb: {pages: 1536, miss: 8.2 ns, first: {pages: 64, miss: 0.19 ns}}" in text
    assert hierarchy.tlb_first == (64, pytest.approx(0.19e-9))


def test_a_file_without_it_has_none(tmp_path):
    path = _machine(tmp_path, "gcc -O2")
    path.write_text(path.read_text().replace("  levels:\n", "  tlb: {pages: 1536, miss: 8.2 ns}\n  levels:\n", 1))
    assert load_machine(path).hierarchy.tlb_first == (0, 0.0)


@pytest.mark.parametrize("n, extra", [(48, 0.0), (128, 0.0), (256, 0.095), (512, 0.19), (1536, 0.19),
                                      (1537, 0.19), (4096, 0.19), (4097, 0.0)])
def test_a_walk_pays_it_from_the_first_levels_reach_on(tmp_path, n, extra):
    # the walk of test_column_walk_beyond_the_tlb_reach_steps_up_where_pages_exceed_it: a[i*n+j] over i, n rows
    # 8n bytes apart, a page change every min(1, 8n / 4096) accesses: n x that many pages between two uses of a
    # line (the next j), 2 at n = 48, 32 at 128, 128 at 256, n from 512 on. Beyond 64 pages the walk pays
    # 0.19 ns x that share more than without the first level (0.095 at 256, 0.19 from 512), beyond 1536 on top
    # of the 11 ns miss (the onset's baseline pays it); at 4097 the lines leave half of L2, and memory's column
    # cost, which contains its misses, stands alone
    loop, trips = column_loop(tmp_path)
    base = dataclasses.replace(HIER, tlb_pages=1536, tlb_miss_s=11e-9, page_bytes=4096)
    first = dataclasses.replace(base, tlb_first=(64, 0.19e-9))
    values = []
    for machine in (base, first):
        data, _ = data_seconds(loop, trips, machine)
        values.append(float(data.xreplace({s: n for s in data.free_symbols if s.name == "n"})))
    assert values[1] - values[0] == pytest.approx(extra * 1e-9, abs=1e-15)


PITCHES = "pitches: {8256: {512: 0 ns, 1024: 1.6 ns}}"
"""A walk at another pitch, so that the TLB's geometry is known (tests/predict/test_tlb_pitches.py)."""


def _first_warnings(tmp_path, tlb_line: str) -> tuple[list, str]:
    """The warnings naming tlb.first and the report's loop line of a column sum (512 rows 16 064 B apart) on the
    test host with ``tlb_line`` in its hierarchy."""
    return column_sum_warnings(tmp_path, "tlb.first", 2008, extra=tlb_line)


@pytest.mark.skipif(not __import__("shutil").which("gcc"), reason="needs gcc")
def test_a_file_calibrated_before_the_first_level_tlb_says_so_where_a_column_is_walked(tmp_path):
    """The TLBs' reach measured but no ``tlb.first``: the column sum's loop (line 4) is said to leave the
    first-level misses out, once, and the report's line says to recalibrate; a file with the figure (also one
    that measured no miss) or without any TLB figure says nothing."""
    said, summary = _first_warnings(tmp_path, f"  tlb: {{pages: 1536, miss: 8 ns, {PITCHES}}}\n")
    assert [(d.loc.line, d.severity) for d in said] == [(4, "warning")]
    assert "pays no miss below the second level's onset" in said[0].message
    assert summary.endswith("; recalibrate: first-level TLB misses not measured")
    for line in (f"  tlb: {{pages: 1536, miss: 8 ns, first: {{pages: 64, miss: 0.2 ns}}, {PITCHES}}}\n",
                 f"  tlb: {{pages: 1536, miss: 8 ns, first: {{pages: 256, miss: 0 ns}}, {PITCHES}}}\n", ""):
        assert _first_warnings(tmp_path, line) == ([], "1 of 1 innermost loops priced from the compiled code "
                                                       "(gcc -O2)")


@pytest.mark.skipif(not __import__("shutil").which("gcc"), reason="needs gcc")
@pytest.mark.parametrize("row, tlb_line, said", [
    (2008, "  tlb: {pages: 1536, miss: 8 ns, first: {pages: 64, miss: 0.2 ns}}\n", True),
    (2008, f"  tlb: {{pages: 1536, miss: 8 ns, first: {{pages: 64, miss: 0.2 ns}}, {PITCHES}}}\n", False),
    (256, "  tlb: {pages: 1536, miss: 8 ns, first: {pages: 64, miss: 0.2 ns}}\n", False)])
def test_a_file_without_pitch_walks_says_so_where_rows_are_a_page_apart(tmp_path, row, tlb_line, said):
    """Rows of 2008 doubles (16 064 B) on a file without ``tlb.pitches``: the TLB's sets are not known, said once
    with the loop's line; with the walks, or rows of 2 048 B (less than a page apart), nothing is said."""
    warned, summary = column_sum_warnings(tmp_path, "tlb.pitches", row, extra=tlb_line)
    assert [(d.loc.line, d.severity) for d in warned] == ([(4, "warning")] if said else [])
    assert summary.endswith("; recalibrate: TLB set conflicts not measured") == said
