"""A TLB miss costs more the more pages a walk covers (h27): `sad calibrate` times one-line-per-page walks beyond
the TLBs' reach whose lines stay in L2 (``tlb.ramp``), and the data part prices a walk's misses by its pages
between reuses, linear between the figures measured."""
from __future__ import annotations

import dataclasses

import pytest
import sympy

from sad.machine import hierarchy as hier
from sad.machine.model import load_machine
from sad.predict.reuse import miss_seconds
from tests.predict.test_compile_options import _machine

HOST = hier.Hierarchy(clock_hz=4e9, line_bytes=64, levels=(hier.Level("memory", None, 1.6e-9, 1.9e-9),),
                      tlb_pages=3072, tlb_miss_s=0.3e-9, tlb_ramp=((6144, 1.1e-9), (8192, 1.6e-9)))


def _m(ns: float) -> hier.Measured:
    return hier.Measured(ns * 1e-9, 0.02, 5)


def test_the_ramp_is_each_larger_walk_against_the_quarter_walk():
    walks = {1024: _m(0.37), 2048: _m(0.45), 3072: _m(0.5), 4096: _m(0.68)}
    ramp = hier.tlb_ramp(walks, {6144: _m(1.49), 8192: _m(2.04), 12288: _m(1.9)})
    assert {p: round(f.seconds * 1e9, 3) for p, f in ramp.items()} == {6144: 1.12, 8192: 1.67}   # 12288: noise


def test_only_walks_whose_lines_fit_the_second_level_are_timed():
    l1, l2 = hier.CacheInfo(1, 48 * 1024, 64), hier.CacheInfo(2, 1024 * 1024, 64)
    assert hier.ramp_pages([l1, l2], 64) == [6144, 8192]        # 512 KiB of lines at most
    assert hier.ramp_pages([l1], 64) == []


@pytest.mark.parametrize("pages, ns", [(3500, 0.3), (4096, 0.3), (5120, 0.7), (6144, 1.1), (7168, 1.35),
                                       (8192, 1.6), (20000, 1.6)])
def test_a_miss_is_priced_by_the_pages_of_its_walk(pages, ns):
    # 4096 pages (the reach walk's largest): the miss figure; then linear to 1.1 ns at 6144 and 1.6 at 8192
    assert float(miss_seconds(sympy.Integer(pages), HOST)) == pytest.approx(ns * 1e-9)


def test_without_a_ramp_every_walk_pays_the_one_miss_figure():
    assert float(miss_seconds(sympy.Integer(20000), dataclasses.replace(HOST, tlb_ramp=()))) == pytest.approx(0.3e-9)


def test_the_ramp_loads_from_the_machine_file(tmp_path):
    path = _machine(tmp_path, "gcc -O2")
    path.write_text(path.read_text().replace("  levels:\n", "  tlb: {pages: 3072, miss: 0.3 ns, ramp: {8192: 1.6 ns, "
                                             "6144: 1.1 ns}}\n  levels:\n", 1))
    hierarchy = load_machine(path).hierarchy
    assert hierarchy.tlb_ramp == ((6144, pytest.approx(1.1e-9)), (8192, pytest.approx(1.6e-9)))


def test_calibrate_writes_the_ramp_into_the_tlb_line(tmp_path):
    figures = {"L1": _m(0.12), "memory": _m(1.6)}
    cal = hier.HierarchyCalibration(_m(0.25), [hier.CacheInfo(1, 48 * 1024, 64)], read=figures, write=figures,
                                    column=figures, column_write=figures, tlb_pages=3072, tlb_miss=_m(0.3),
                                    tlb_ramp={6144: _m(1.12), 8192: _m(1.67)})
    lines = hier.render_yaml(cal)
    assert "  tlb: {pages: 3072, miss: 0.3 ns, ramp: {6144: 1.12 ns, 8192: 1.67 ns}}" in "\n".join(lines)
    path = _machine(tmp_path, "gcc -O2")
    text = path.read_text()
    path.write_text(text[:text.index("hierarchy:")] + "\n".join(lines) + "\n")
    assert load_machine(path).hierarchy.tlb_ramp == ((6144, pytest.approx(1.12e-9)), (8192, pytest.approx(1.67e-9)))
