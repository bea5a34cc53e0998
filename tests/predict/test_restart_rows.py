"""Row streams that start anew at every entry of their loop (sad.predict.reuse.restart_rows): cholesky's
A[j][k] over k < j reads a prefix of row j, then of row j + 1, a row's pitch further on. The walk probe times
such rows of runs on this host, and the data term and a register chain's wait take its figures for the stream;
a stream that continues where its last run ended (a whole row, a row less its edges) or reads the same run
again keeps its level's figure."""
from __future__ import annotations

import dataclasses

import pytest
import sympy

from sad.machine.walkprobe import Column, Timed
from sad.predict.overlap import wait_seconds
from sad.predict.reuse import data_seconds, restart_rows, streams_of, transfer_seconds
from tests.predict.loop_nests import inner_loop
from tests.predict.test_block_model import HIER

CHOLESKY = """static double A[1000][1000];
int main(void) {
    int i, j, k;
    for (i = 0; i < 1000; i++)
        for (j = 0; j < i; j++) {
            for (k = 0; k < j; k++)
                A[i][j] -= A[i][k] * A[j][k];
            A[i][j] /= A[j][j] + 1.0;
        }
    return A[9][3] > 0;
}
"""
"""Line 6: A[i][k] (row i, the same run again over j) and A[j][k] (row j's first j elements: a new run)."""

ROWS = """static double A[1000][1000], x[1000];
int main(void) {
    int i, j; double s = 0;
    for (i = 0; i < 1000; i++)
        for (j = 0; j < 1000; j++)
            s += A[i][j] * x[j];
    for (i = 1; i < 999; i++)
        for (j = 1; j < 999; j++)
            s += A[i][j];
    return s > 0;
}
"""
"""Line 5: whole rows (each run ends where the next begins) and x read again; line 8: rows less their edges."""

FORTRAN = """      PROGRAM CHOL
      DOUBLE PRECISION A(1000, 1000), S
      INTEGER I, J, K
      S = 0
      DO 20 I = 1, 1000
         DO 20 J = 1, I - 1
            DO 10 K = 1, J - 1
               S = S + A(K, J) * A(K, I)
   10       CONTINUE
   20 CONTINUE
      PRINT *, S
      END
"""
"""Column-major: A(K, J) over K < J reads a prefix of column J, the next entry column J + 1 (8 000 B on)."""


def _asking(answer=lambda columns: Timed(0.4e-9, 0.1e-9)):
    """HIER with a walk probe that answers ``answer`` (its chained runs a tenth of it) and the columns asked."""
    asked: list[tuple[Column, ...]] = []

    def probe(columns: tuple[Column, ...], chained: bool = False) -> Timed | None:
        asked.append(columns)
        timed = answer(columns)
        return timed._replace(ns=timed.ns / 10) if chained and timed is not None else timed
    return dataclasses.replace(HIER, walk_probe=probe, chain_probe=lambda c: probe(c, True)), asked


def _mean_trips(n: int) -> float:
    """k's trips per entry in CHOLESKY: sum over i of sum over j < i of j, over the sum of i: (n - 2) / 3."""
    return sum(i * (i - 1) / 2 for i in range(n)) / sum(range(n))


def test_a_new_run_at_every_entry_is_timed_as_rows_of_runs(tmp_path):
    host, asked = _asking()
    loop, trips = inner_loop(tmp_path, CHOLESKY, 6, "chol.c")
    streams, shown = streams_of(loop, trips, host)
    run = round(_mean_trips(1000))                                   # 333 elements: 2 664 B
    assert run == 333
    by_name = {st[0].indices[0].name: st for st in streams}          # A[i][k] and A[j][k]
    assert by_name["i"][7] is None                                   # the same row again: its reuse, L1
    fp = by_name["j"][2]
    assert by_name["j"][7] == Column(8000, round(fp / (run * 8)), 0, False, run=run)   # rows 1000 doubles apart
    total, shown = data_seconds(loop, trips, host, given=(streams, shown))
    l1_part = by_name["i"][1] * HIER.levels[0].line_s               # A[i][k]: 1/8 line from L1
    assert float(total) == pytest.approx(l1_part + 0.5e-9, rel=1e-6)   # one access at the probe's whole figure
    assert any(label.startswith("A starting anew at each entry, timed on this host (runs of 2664 B, 8000 B apart: "
                                "0.5 ns an access)") for label, *_ in shown)
    # a register chain waits what the chained runs wait; the transfers into L1 take the part beyond L1
    assert float(wait_seconds(streams, host, timed_rows=True)) == pytest.approx(0.04e-9, rel=1e-6)
    assert float(transfer_seconds(loop, trips, host, None, None, (streams, shown))) == pytest.approx(0.4e-9, rel=1e-6)
    assert asked and all(columns == (by_name["j"][7],) for columns in asked)


def test_runs_are_asked_at_the_trip_points_of_a_triangular_nest(tmp_path):
    """Each point of k's trips (sad.predict.tripspread) is its own run length: the probe is asked at each."""
    host, asked = _asking()
    loop, trips = inner_loop(tmp_path, CHOLESKY, 6, "chol.c")
    for t in (100, 900):
        streams, _ = streams_of(loop, {**trips, id(loop.nest[-1]): sympy.Integer(t)}, host)
        assert [st[7].run for st in streams if st[7] is not None] == [t]


def test_whole_rows_edges_and_a_vector_read_again_keep_their_levels(tmp_path):
    host, asked = _asking()
    for line in (5, 8):
        loop, trips = inner_loop(tmp_path, ROWS, line, "rows.c")
        streams, _ = streams_of(loop, trips, host)
        assert streams and all(st[7] is None for st in streams), line
    assert asked == []


def test_a_stream_in_l1_or_without_a_probe_is_not_timed(tmp_path):
    loop, trips = inner_loop(tmp_path, CHOLESKY.replace("1000", "40"), 6, "small.c")
    host, asked = _asking()
    assert all(st[7] is None for st in streams_of(loop, trips, host)[0])   # 40 rows: the triangle fits L1
    loop, trips = inner_loop(tmp_path, CHOLESKY, 6, "chol.c")
    assert all(st[7] is None for st in streams_of(loop, trips, HIER)[0])   # no probe: the level's figure
    ref = next(st for st in streams_of(loop, trips, host)[0] if st[7] is not None)
    assert restart_rows(ref[0], loop, trips, ref[2], HIER) is None


SEARCH = """static double a[2000][2000];
static int first[2000];
int main(void) {
    int i, j;
    for (i = 0; i < 2000; i++) {
        first[i] = 2000;
        for (j = 0; j < 2000; j++)
            if (a[i][j] > 0.999) { first[i] = j; break; }
    }
    return first[3];
}
"""
"""Line 7: a search that breaks out of its row: its trips per entry only a run tells (X_main_DO2)."""


def test_a_row_stream_whose_length_a_run_tells_is_timed_once_it_is_bound(tmp_path):
    """Before, the loop was priced on the formula of its trips and the value bound after: a row stream's length
    was no number, so the probe was never asked, and each row's 130 lines were priced as one long stream
    (devkernels12's early_exit at -O2: -40 %, now +25 % on the same measured time)."""
    host, asked = _asking()
    loop, trips = inner_loop(tmp_path, SEARCH, 7, "search.c")
    assert {str(s) for s in trips[id(loop.nest[-1])].free_symbols} == {"X_main_DO2"}
    assert all(st[7] is None for st in streams_of(loop, trips, host)[0]) and asked == []
    loop, trips = inner_loop(tmp_path, SEARCH, 7, "search.c", {"X_main_DO2": sympy.Integer(1040)})
    assert trips[id(loop.nest[-1])] == 1040
    rows = [st[7] for st in streams_of(loop, trips, host)[0] if st[7] is not None]
    assert [(r.pitch, r.run) for r in rows] == [(16000, 1040)] and asked == []   # asked when priced
    total, shown = data_seconds(loop, trips, host)
    assert float(total) == pytest.approx(0.5e-9, rel=1e-6) and len(asked) == 1


def test_column_major_runs_move_a_column_per_entry(tmp_path):
    host, _ = _asking()
    loop, trips = inner_loop(tmp_path, FORTRAN, 7, "chol.f")
    rows = [st[7] for st in streams_of(loop, trips, host)[0] if st[7] is not None]
    assert len(rows) == 1 and rows[0].pitch == 8000 and rows[0].run == round(_mean_trips(1000))
