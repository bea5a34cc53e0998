"""Set conflicts of strided walks: a column walk whose row pitch maps its lines onto few sets of a level is
served from the first level whose usable capacity (ways x the sets it reaches x line) holds them, not from the
first level whose nominal size would. Hand-derived from the set-mapping rule; no timing."""
from __future__ import annotations

import pytest
import sympy

from sad.analysis.bindings import bind, evaluate
from sad.machine import hierarchy as hier
from sad.predict.loopcost import data_seconds, usable_bytes
from tests.predict.loop_nests import column_loop, inner_loop, matmul_c

GEOMETRY = hier.Hierarchy(clock_hz=2.5e9, line_bytes=64, levels=(
    hier.Level("L1", 32 * 1024, 0.3e-9, 0.4e-9, 0.3e-9, 0.4e-9, ways=8, sets=64, line_bytes=64),
    hier.Level("L2", 512 * 1024, 0.8e-9, 0.9e-9, 0.8e-9, 0.9e-9, ways=8, sets=1024, line_bytes=64),
    hier.Level("memory", None, 6.0e-9, 8.0e-9, 12e-9, 14e-9)))



def _column_data(tmp_path, hierarchy):
    loop, trips = column_loop(tmp_path)
    return data_seconds(loop, trips, hierarchy)[0]


# a[i*n+j] over i: one line per row (64 n bytes between two uses of a line, at the next j), rows 8 n bytes
# apart. Nominally half of L1 (16 KiB) holds n <= 256 and half of L2 (256 KiB) n <= 4096.
#   n = 128: pitch 1024 B; L1 span 64 sets x 64 B = 4096, gcd(1024, 4096) = 1024: 4 sets x 8 ways x 64 B =
#            2 KiB usable, half of it < 8 KiB of lines -> not L1; L2: 65536 / 1024 = 64 sets, 32 KiB, half
#            16 KiB >= 8 KiB -> L2 (0.8 ns per line)
#   n = 120, 136: pitches 960 and 1088 B (15 and 17 lines, odd): every set -> L1 (0.3 ns)
#   n = 1024: pitch 8192 B; L2: 65536 / 8192 = 8 sets, 4 KiB usable < 64 KiB of lines -> memory (12 ns)
#   n = 1032: pitch 8256 B (129 lines): every set of L2 -> L2 (0.8 ns)
# Every 8th access reads a line new to the walk, last used a run of the nest (8 n^2 bytes) ago: n = 120 to 136
# from L2 (115 to 148 KB), n = 1024 and 1032 from memory (8 MiB and more), their column cost more than the
# walk's own level for 1/8 of the accesses (reuse.fresh_lines): 120, 136 +(0.8 - 0.3) / 8, 1032 +(12 - 0.8) / 8.
FRESH_L2, FRESH_MEMORY = (0.8e-9 - 0.3e-9) / 8, (12e-9 - 0.8e-9) / 8
EXPECTED = {120: 0.3e-9 + FRESH_L2, 128: 0.8e-9, 136: 0.3e-9 + FRESH_L2, 1024: 12e-9, 1032: 0.8e-9 + FRESH_MEMORY}


def test_column_walk_steps_up_at_the_usable_capacity_not_the_nominal_size(tmp_path):
    data = _column_data(tmp_path, GEOMETRY)
    at = {n: float(data.xreplace({s: n for s in data.free_symbols if s.name == "n"})) for n in EXPECTED}
    assert at == pytest.approx(EXPECTED)


def test_bound_as_the_predictor_binds_it(tmp_path):
    data = _column_data(tmp_path, GEOMETRY)
    for n in (128, 1024, 1032):
        assert evaluate(bind(data, {"n": sympy.Integer(n)})) == pytest.approx(EXPECTED[n])


def test_a_pitch_the_bindings_fix_is_priced_as_that_number(tmp_path):
    loop, trips = column_loop(tmp_path)
    for n in (128, 1024, 1032):
        values = {"n": sympy.Integer(n)}
        data = data_seconds(loop, trips, GEOMETRY, values)[0]
        # one condition per level on a numeric pitch: no divisor tests left in the formula
        assert not data.has(sympy.Mod)
        assert evaluate(bind(data, values)) == pytest.approx(EXPECTED[n])


def test_without_geometry_only_the_nominal_sizes_count(tmp_path):
    plain = hier.Hierarchy(clock_hz=2.5e9, line_bytes=64, levels=tuple(
        hier.Level(lv.name, lv.size_bytes, lv.line_s, lv.store_line_s, lv.column_s, lv.column_store_s)
        for lv in GEOMETRY.levels))
    data = _column_data(tmp_path, plain)
    at = {n: float(data.xreplace({s: n for s in data.free_symbols if s.name == "n"})) for n in EXPECTED}
    nominal = {n: 0.3e-9 + FRESH_L2 for n in (120, 128, 136)} | {n: 0.8e-9 + FRESH_MEMORY for n in (1024, 1032)}
    assert at == pytest.approx(nominal)


def test_symbolic_pitch_piecewise_equals_the_gcd_rule():
    n = sympy.Symbol("n", integer=True, positive=True)
    l2 = GEOMETRY.levels[1]
    formula = usable_bytes(l2, 8 * n, 64)
    assert isinstance(formula, sympy.Piecewise)
    for size in (100, 125, 128, 250, 256, 1000, 1024, 2000, 2048, 4096, 8192, 12288):
        assert int(formula.subs(n, size)) == l2.effective_bytes(8 * size, 64) == int(usable_bytes(l2, 8 * size, 64))


IJK_C = matmul_c("ijk")


def test_pages_between_reuses_count_a_row_read_along_in_pages_not_lines(tmp_path):
    from dataclasses import replace

    loop, trips = inner_loop(tmp_path, IJK_C, 11, "ijk.c")
    machine = replace(GEOMETRY, tlb_pages=1024, tlb_miss_s=11e-9, page_bytes=4096)
    # b[k*n+j] over k: rows 8 n bytes apart (a page or more for n >= 512), its line back at the next j: between
    # two uses the k loop touches b's n lines (n pages), a's row (8 n bytes, element by element) and c's one
    # line: 72 n + 64 bytes (70.4 KiB at n = 1000, all in L2: a 8 / 64 x 0.8 ns, b's column 0.8 ns).
    # Pages: n + (8 n + 64) / 4096: 1001.97 at n = 1000, 1023.01 at n = 1021, 1024.01 at n = 1022: beyond the
    # 1024 pages the TLBs hold from n = 1022 on (the footprint's lines, 72 n / 64 + 1 = 1126 at n = 1000, are
    # not its pages), 11 ns more per access there. Every 8th access reads a line of b new to the walk, last
    # used at i's previous iteration (b's 8 n^2 bytes ago): memory, +(12 - 0.8) / 8 (reuse.fresh_lines)
    for n, expected in ((1000, 0.9e-9 + FRESH_MEMORY), (1021, 0.9e-9 + FRESH_MEMORY), (1022, 11.9e-9 + FRESH_MEMORY)):
        values = {"n": sympy.Integer(n)}
        assert evaluate(bind(data_seconds(loop, trips, machine, values)[0], values)) == pytest.approx(expected)
