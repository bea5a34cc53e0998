"""References that trail another of their array (a stencil's A[i-1][j], A[i][j] behind A[i+1][j]; a column
walk's A[j-1][i] behind A[j][i]) read data that reference brought k iterations of a loop ago: their reuse
distance is what the nest touches in those iterations (Kerncraft's layer conditions), not the whole nest. And a
last cache shared with other cores holds only what its calibration measured (``Level.holds_bytes``).
Hand-derived from the machine's figures; no timing."""
from __future__ import annotations

import pytest
import sympy

from sad.machine import hierarchy as hier
from sad.predict.reuse import data_seconds, trailing
from tests.predict.loop_nests import inner_loop

JACOBI = """static double A[1000][1000], B[1000][1000];
int main(void) {
    int t, i, j;
    for (t = 0; t < 10; t++)
        for (i = 1; i < 999; i++)
            for (j = 1; j < 999; j++)
                B[i][j] = A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1];
    return B[5][5] > 0;
}
"""

COLUMN_PAIR = """static double A[1200][1200], d[1200];
int main(void) {
    int i, j;
    for (i = 0; i < 1200; i++)
        for (j = 1; j < 1200; j++)
            d[i] = d[i] + A[j][i] * A[j - 1][i];
    return d[5] > 0;
}
"""


def _host(holds: int = 0) -> hier.Hierarchy:
    return hier.Hierarchy(clock_hz=3.4e9, line_bytes=64, levels=(
        hier.Level("L1", 32 * 1024, 0.2e-9, 0.3e-9, 0.25e-9, 0.22e-9, ways=8, sets=64, line_bytes=64),
        hier.Level("L2", 1024 * 1024, 0.56e-9, 0.64e-9, 0.57e-9, 0.57e-9, ways=8, sets=2048, line_bytes=64),
        hier.Level("L3", 32 * 1024 ** 2, 0.64e-9, 0.69e-9, 0.8e-9, 0.77e-9, ways=16, sets=32768, line_bytes=64,
                   holds_bytes=holds),
        hier.Level("memory", None, 4.7e-9, 3.7e-9, 13e-9, 12.5e-9)))


def test_stencil_rows_behind_the_leading_one_come_from_the_level_holding_a_few_rows(tmp_path):
    loop, trips = inner_loop(tmp_path, JACOBI, 6, "jac.c")
    refs = {f"{r.array}{[repr(e) for e in r.indices]}": r for r in loop.refs}
    lead = next(r for r in loop.refs if r.array == "A" and "add" in repr(r.indices[0]))
    behind = [r for r in loop.refs if r.array == "A" and r is not lead and getattr(r.indices[1], "name", "") == "j"]
    assert trailing(lead, loop) is None
    assert sorted(trailing(r, loop) for r in behind) == [(1, 1), (1, 1)]
    assert len(refs) == 6
    # Per iteration (8 B of a 64 B line per stream): B(w) and the leading A[i + 1][j] touch both grids between
    # reuses (2 x 998 x 998 x 8 B = 15.2 MiB); A[i][j] (with A[i][j -/+ 1]: one stream) and A[i - 1][j] trail
    # by one iteration of i: four rows of 998 doubles (A's i - 1, i, i + 1 and B's i) = 31.2 KiB: more than
    # half the L1, L2 -> 2 x 0.56 / 8 = 0.14 ns.
    #   L3 holding half its size (16 MiB): B 0.69 / 8 + A 0.64 / 8 = 0.16625 ns -> 0.30625 ns
    #   L3 measured to hold 8 MiB: memory, B 3.7 / 8 + A 4.7 / 8 = 1.05 ns -> 1.19 ns
    assert float(data_seconds(loop, trips, _host(), None, None)[0]) == pytest.approx(0.30625e-9)
    assert float(data_seconds(loop, trips, _host(8 * 1024 ** 2), None, None)[0]) == pytest.approx(1.19e-9)


def test_a_column_walk_reads_the_row_before_from_l1(tmp_path):
    loop, trips = inner_loop(tmp_path, COLUMN_PAIR, 5, "cp.c")
    back = next(r for r in loop.refs if r.array == "A" and "sub" in repr(r.indices[0]))
    ahead = next(r for r in loop.refs if r.array == "A" and r is not back)
    assert trailing(back, loop) == (0, 1) and trailing(ahead, loop) is None
    # A[j][i] walks rows 9600 B apart (75 lines: every L1 set): 1199 lines + d's 8 B + A[j - 1][i]'s element
    # between reuses of a line (75 KiB: L2, column 0.57 ns); A[j - 1][i] is the line A[j][i] read one iteration
    # before: L1, a line at 0.2 ns -> 0.77 ns (no window given: no one-set excess; no TLB figures). Every 8th
    # iteration of j reads a line of A new to the walk, last used a run of the nest (A's 11.5 MB) ago: L3's
    # column 0.8 ns instead of L2's 0.57 for those (reuse.fresh_lines): + 0.23 / 8 ns
    assert float(data_seconds(loop, trips, _host(), None, None)[0]) == pytest.approx(0.77e-9 + 0.23e-9 / 8)


def test_a_shared_l3_prices_footprints_beyond_what_it_holds_whole_by_its_measured_ramp(tmp_path):
    loop, trips = inner_loop(tmp_path, JACOBI, 6, "jac.c")
    mib = 1024 ** 2
    # read passes over 8, 10, 12, 14, 16 MiB at 0.66, 0.91, 1.04, 2.0, 3.27 ns (L3 0.64, memory 4.7): shares
    # of lines from memory (c - 0.64) / 4.06 = 0.0049, 0.0665, 0.0985, 0.335, 0.6478
    ramp = hier.ramp_of(0.64e-9, 4.7e-9, {8 * mib: 0.66e-9, 10 * mib: 0.91e-9, 12 * mib: 1.04e-9,
                                          14 * mib: 2.0e-9, 16 * mib: 3.27e-9})
    assert [share for _, share in ramp] == pytest.approx([0.0049, 0.0665, 0.0985, 0.335, 0.6478], abs=1e-4)
    host = _host()
    levels = list(host.levels)
    levels[2] = hier.Level("L3", 32 * mib, 0.64e-9, 0.69e-9, 0.8e-9, 0.77e-9, ways=16, sets=32768, line_bytes=64,
                           ramp=ramp)
    host = hier.Hierarchy(clock_hz=3.4e9, line_bytes=64, levels=tuple(levels))
    # the grids' 2 x 998 x 998 x 8 = 15 936 064 B lie between the 14 and 16 MiB passes: the share of lines from
    # memory linear between theirs, 0.335 + (0.6478 - 0.335) x (15 936 064 - 14 MiB) / 2 MiB = 0.5223; B(w)
    # 0.69 + share x (3.7 - 0.69), A[i + 1][j] 0.64 + share x (4.7 - 0.64), each / 8; the two trailing streams
    # from L2 as before (0.14 ns)
    share = 0.335 + (0.6478 - 0.335) * (15_936_064 - 14 * mib) / (2 * mib)
    expected = (0.69 + share * (3.7 - 0.69)) / 8 + (0.64 + share * (4.7 - 0.64)) / 8 + 0.14
    assert float(data_seconds(loop, trips, host, None, None)[0]) == pytest.approx(expected * 1e-9, rel=1e-4)


def test_a_footprint_well_within_a_shared_l3_takes_its_own_figure(tmp_path):
    """The ramp starts at the footprint the level's figure was timed over (half the first pass, share 0): a
    footprint of 2 MiB between reuses (L3) is not priced at the first pass's share. symvlow of
    benchmarks/devkernels4 at -O2 on an Ice Lake VM whose 11 MiB pass cost 39 % of memory's: +548 % before."""
    loop, trips = inner_loop(tmp_path, JACOBI, 6, "jac.c")
    mib = 1024 ** 2
    host = _host()
    levels = list(host.levels)
    # L3 timed over 4 MiB (0.64 ns), passes over 8 MiB at 2.2 ns and 16 MiB at 4.7 ns (memory 4.7): from the
    # database ``ramp: {8192 KiB: 2.2 ns, 16384 KiB: 4.7 ns}`` (sad.machine.hierarchy._with_ramp)
    ramp = ((4 * mib, 0.0), *hier.ramp_of(0.64e-9, 4.7e-9, {8 * mib: 2.2e-9, 16 * mib: 4.7e-9}))
    assert ramp == ((4 * mib, 0.0), (8 * mib, 0.3842), (16 * mib, 1.0))
    levels[2] = hier.Level("L3", 32 * mib, 0.64e-9, 0.69e-9, 0.8e-9, 0.77e-9, ways=16, sets=32768, line_bytes=64,
                           ramp=ramp)
    host = hier.Hierarchy(clock_hz=3.4e9, line_bytes=64, levels=tuple(levels))
    from sad.predict.reuse import serving_level
    assert float(serving_level(sympy.Integer(2 * mib), host, False)) == pytest.approx(0.64e-9)
    # 6 MiB: half way from 4 to 8 MiB, share 0.1921: 0.64 + 0.1921 x 4.06 = 1.42 ns
    assert float(serving_level(sympy.Integer(6 * mib), host, False)) == pytest.approx((0.64 + 0.1921 * 4.06) * 1e-9)


JACOBI_F = """      PROGRAM JAC
      INTEGER I, J
      DOUBLE PRECISION U(500, 500), V(500, 500)
      DO 20 J = 2, 499
         DO 10 I = 2, 499
            V(I, J) = U(I - 1, J) + U(I + 1, J)
     &              + U(I, J - 1) + U(I, J + 1)
   10    CONTINUE
   20 CONTINUE
      END
"""

DIAGONAL = """static double A[500][500], B[500][500];
int main(void) {
    int i, j;
    for (i = 1; i < 499; i++)
        for (j = 1; j < 499; j++)
            B[i][j] = A[i - 1][j - 1] + A[i + 1][j + 1];
    return B[7][7] > 0;
}
"""


def test_a_neighbour_in_the_swept_subscript_trails_the_leading_column(tmp_path):
    # Fortran, I innermost: U(I - 1, J) and U(I + 1, J) read column J, which U(I, J + 1) read whole one iteration
    # of J before (I sweeps the column in one iteration of J: the constant offset in I does not matter);
    # U(I, J - 1) is one iteration of J behind U(I - 1, J) and U(I + 1, J) (and two behind U(I, J + 1))
    loop, _ = inner_loop(tmp_path, JACOBI_F, 5, "jac.f")
    found = sorted(t for t in (trailing(r, loop) for r in loop.refs if r.array == "U") if t is not None)
    assert found == [(1, 1), (1, 1), (1, 1)]


def test_a_diagonal_stencils_back_row_trails_its_front_row(tmp_path):
    # A[i-1][j-1] reads row i - 1, which A[i+1][j+1] read two iterations of i before: j sweeps the row in one
    # iteration of i, so the offset of j does not matter
    loop, _ = inner_loop(tmp_path, DIAGONAL, 5, "nine.c")
    back = [r for r in loop.refs if r.array == "A" and "sub" in repr(r.indices[0]).lower()]
    assert len(back) == 1 and trailing(back[0], loop) == (1, 2)
