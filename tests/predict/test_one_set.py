"""Column walks that crowd a few L1 sets: when the core keeps more of a walk's accesses in flight than the s L1
sets its rows map to have ways, a level beyond L1 serves each access at its column cost + (its calibrated
one-L1-set cost - the column cost) / s² (``one_set_shares``). Hand-derived from the set-mapping rule; no
timing."""
from __future__ import annotations

import pytest
import sympy

from sad.analysis.bindings import bind, evaluate
from sad.machine import hierarchy as hier
from sad.predict.loopcost import Walk, data_seconds, one_set_shares, serving_level
from tests.predict.loop_nests import column_loop, inner_loop, matmul_c

ZEN = hier.Hierarchy(clock_hz=3.2e9, line_bytes=64, levels=(
    hier.Level("L1", 32 * 1024, 0.3e-9, 0.4e-9, 0.4e-9, 0.45e-9, ways=8, sets=64, line_bytes=64),
    hier.Level("L2", 512 * 1024, 0.8e-9, 0.9e-9, 0.8e-9, 0.9e-9, ways=8, sets=1024, line_bytes=64,
               one_set_s=4e-9, one_set_store_s=8e-9),
    hier.Level("L3", 8 * 1024 ** 2, 1.1e-9, 1.4e-9, 1.3e-9, 1.5e-9, ways=16, sets=8192, line_bytes=64,
               one_set_s=9e-9, one_set_store_s=26e-9),
    hier.Level("memory", None, 6.0e-9, 8.0e-9, 12e-9, 14e-9)))

WINDOW = 38.0   # a 5-instruction column sum in a 192-entry reorder buffer

# Column sum a[i*n+j] over i: n lines between two uses of a line (64 n bytes), rows 8 n bytes apart.
#   n = 64:   pitch 512 B, 4096 / 512 = 8 L1 sets x 8 ways = 64 >= 38 in flight: not crowded. 4 KiB of lines,
#             L1 keeps 8 x 8 x 64 B = 4 KiB of the walk (half: 2 KiB) -> L2 column read, 0.8 ns
#   n = 128:  pitch 1024 B, 4 sets x 8 ways = 32 < 38: crowded, share 1/4; L2 keeps 64 sets of it (32 KiB,
#             half 16 KiB >= 8 KiB) -> L2: 0.8 + (4 - 0.8) / 16 = 1.0 ns
#   n = 256:  pitch 2048 B, 2 sets, share 1/2; L2 keeps 32 sets (16 KiB, half 8 KiB < 16 KiB of lines),
#             L3 256 sets (256 KiB) -> L3: 1.3 + (9 - 1.3) / 4 = 3.225 ns
#   n = 264:  pitch 2112 B = 33 lines, every set: not crowded; 16.5 KiB > half of L1 -> L2, 0.8 ns
#   n = 512:  pitch 4096 B, one set, share 1; L2 16 sets (8 KiB) < 32 KiB of lines; L3 128 sets, 128 KiB,
#             half 64 KiB >= 32 KiB -> L3: 1.3 + (9 - 1.3) = 9 ns
#   n = 520:  pitch 65 lines: every set; 32.5 KiB -> L2, 0.8 ns
#   n = 1024: pitch 8192 B, one set; L3 (physically indexed: its 512 KiB span is 128 page colours, each
#             reached at the walk's one offset within a page) keeps 128 sets = 128 KiB, half >= 64 KiB of
#             lines -> L3: 9 ns (by the program's addresses alone it kept 64 sets: memory, 12 ns)
# Every 8th access reads a line new to the walk (j's next iteration moves along the line), last used in the
# previous run of the nest, 8 n^2 bytes ago (reuse.fresh_lines): where that level is farther than the walk's
# own, its column cost more for 1/8 of the accesses. n = 264 and 520: 557 KB and 2.2 MB, L3 -> +(1.3 - 0.8) / 8;
# n = 1024: 8 MiB, more than half of L3 -> memory, +(12 - 1.3) / 8; the others' matrices fit the walk's level.
EXPECTED = {64: 0.8e-9, 128: 1.0e-9, 256: 3.225e-9, 264: 0.8625e-9, 512: 9e-9, 520: 0.8625e-9,
            1024: 10.3375e-9}


def _at(data, n):
    return float(data.xreplace({s: n for s in data.free_symbols if s.name == "n"}))


def test_crowded_walks_cost_the_one_set_excess_over_the_square_of_the_sets_they_reach(tmp_path):
    loop, trips = column_loop(tmp_path)
    data = data_seconds(loop, trips, ZEN, None, WINDOW)[0]
    assert {n: _at(data, n) for n in EXPECTED} == pytest.approx(EXPECTED)


def test_a_pitch_the_bindings_fix_gives_the_same_figures_without_divisor_tests(tmp_path):
    loop, trips = column_loop(tmp_path)
    for n, expected in EXPECTED.items():
        values = {"n": sympy.Integer(n)}
        data = data_seconds(loop, trips, ZEN, values, WINDOW)[0]
        assert not data.has(sympy.Mod)
        assert evaluate(bind(data, values)) == pytest.approx(expected)


def test_a_short_window_or_no_figures_leave_the_column_costs(tmp_path):
    loop, trips = column_loop(tmp_path)
    # -O0: 27 instructions per iteration, 7 in the window, fewer than the 8 ways of even one set
    short = data_seconds(loop, trips, ZEN, None, 7.0)[0]
    assert {n: _at(short, n) for n in (128, 256, 512)} == pytest.approx({128: 0.8e-9, 256: 1.3e-9, 512: 1.3e-9})
    # the window not known (no llvm-mca model): the rule is off, the formula is the one without it
    assert data_seconds(loop, trips, ZEN, None, None)[0] == data_seconds(loop, trips, ZEN)[0]
    plain = hier.Hierarchy(ZEN.clock_hz, 64, tuple(
        hier.Level(lv.name, lv.size_bytes, lv.line_s, lv.store_line_s, lv.column_s, lv.column_store_s,
                   lv.ways, lv.sets, lv.line_bytes) for lv in ZEN.levels))
    assert data_seconds(loop, trips, plain, None, WINDOW)[0] == data_seconds(loop, trips, plain)[0]


def test_shares_of_a_symbolic_pitch_are_one_per_divisor_that_crowds():
    n = sympy.Symbol("n", integer=True, positive=True)
    shares = one_set_shares(8 * n, ZEN, WINDOW)
    # divisors of the L1 span 4096 that leave fewer than 38 / 8 sets: 4096 (1 set), 2048 (2), 1024 (4)
    assert [s for s, _ in shares] == [1, sympy.Rational(1, 2), sympy.Rational(1, 4), 0]
    assert shares[-1][1] is sympy.true
    for size in (128, 130, 256, 384, 512, 520, 768, 1024):
        first = next(s for s, cond in shares if cond.subs(n, size) == sympy.true)
        assert first == one_set_shares(sympy.Integer(8 * size), ZEN, WINDOW)[0][0]
    # a pitch of one line or less is a stream of consecutive lines: never crowded
    assert one_set_shares(sympy.Integer(64), ZEN, WINDOW) == [(0, sympy.true)]


def test_a_crowded_update_costs_the_one_set_update_figure():
    walk = Walk(sympy.Integer(2048), sympy.Integer(256 * 64))
    # n = 256 update walk: L3 as above, 1.5 + (26 - 1.5) / 4 = 7.625 ns; the read: 3.225 ns
    assert float(serving_level(sympy.Integer(256 * 64), ZEN, True, True, walk, sympy.Rational(1, 2))) == \
        pytest.approx(7.625e-9)
    assert float(serving_level(sympy.Integer(256 * 64), ZEN, False, True, walk, sympy.Rational(1, 2))) == \
        pytest.approx(3.225e-9)
    # a unit-stride reference is never crowded, whatever share it is given: 16 KiB fit half of L1, 0.3 ns
    assert float(serving_level(sympy.Integer(256 * 64), ZEN, False, False, None, 1)) == pytest.approx(0.3e-9)


JKI_C = matmul_c("jki")


def test_crowded_walks_of_one_iteration_wait_together(tmp_path):
    from dataclasses import replace

    loop, trips = inner_loop(tmp_path, JKI_C, 11, "jki.c")
    # c[i*n+j] (updated) and a[i*n+k] (read) walk over i, rows 8 n bytes apart; b[k*n+j] is invariant. Both
    # lines come back at the next k: 2 n lines between reuses, each walk n of them.
    #   n = 512: one L1 set each; L3 keeps 128 KiB of a 4096 B pitch, half >= 32 KiB of a walk -> L3. The
    #            update's one-set cost adds 26 - 1.5 = 24.5 ns, the read's 9 - 1.3 = 7.7: the written walk's
    #            counts, data = 1.5 + 1.3 + 24.5 = 27.3 ns (the sum would be 35 ns)
    #   n = 256: two sets: (26 - 1.5) / 4 = 6.125 and (9 - 1.3) / 4 = 1.925 -> 1.5 + 1.3 + 6.125 = 8.925 ns
    for n, expected in ((512, 27.3e-9), (256, 8.925e-9)):
        values = {"n": sympy.Integer(n)}
        assert evaluate(bind(data_seconds(loop, trips, ZEN, values, 24.0)[0], values)) == pytest.approx(expected)
    # TLBs of 512 pages, 18 ns a miss: at n = 512 the 1024 lines between reuses are on 1024 pages, 18 ns per
    # walk, but both walks are crowded: their page walks proceed while the fills wait, 27.3 ns still. With
    # the walks not crowded (a window of 8 iterations, not more than the 8 ways of one set): 2.8 + 36 ns
    tlb = replace(ZEN, tlb_pages=512, tlb_miss_s=18e-9, page_bytes=4096)
    values = {"n": sympy.Integer(512)}
    assert evaluate(bind(data_seconds(loop, trips, tlb, values, 24.0)[0], values)) == pytest.approx(27.3e-9)
    assert evaluate(bind(data_seconds(loop, trips, tlb, values, 8.0)[0], values)) == pytest.approx(38.8e-9)
