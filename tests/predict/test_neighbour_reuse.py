"""Reuse between two innermost loops inside the same enclosing loop (sad.predict.reuse.neighbour_footprint): atax's
second loop reads the row of A the first one has just read, in the same iteration of i. Its reuse distance is what
the two loops touch in that iteration, not the whole nest's (A from memory). Hand-derived footprints; no timing."""
from __future__ import annotations

import sympy

from sad.machine.hierarchy import Hierarchy, Level
from sad.predict.reuse import neighbour_footprint, reuse_footprint, streams_of
from tests.predict.loop_nests import inner_loop

ATAX_C = """#include <stdio.h>
static double A[400][2000], x[2000], y[2000], tmp[400];
int main(void) {
    int i, j;
    for (i = 0; i < 400; i++) {
        tmp[i] = 0;
        for (j = 0; j < 2000; j++)
            tmp[i] = tmp[i] + A[i][j] * x[j];
        for (j = 0; j < 2000; j++)
            y[j] = y[j] + A[i][j] * tmp[i];
    }
    printf("%g\\n", y[0]);
    return 0;
}
"""

HIER = Hierarchy(3e9, 64, (Level("L1", 32768, 0.2e-9, 0.3e-9), Level("L2", 524288, 0.6e-9, 0.7e-9),
                           Level("memory", None, 6e-9, 7e-9)))


def _ref(loop, array: str):
    return next(ref for ref in loop.refs if ref.array == array and not ref.write)


def test_the_second_loop_reads_the_row_the_first_just_read(tmp_path):
    # each loop over its own j: A's row and x (or y) 8 x 2000 = 16000 bytes each, tmp[i] a line (64): 32064 a
    # loop, 64128 the two; the nest's answer was A's 400 rows + y + tmp's 400 elements, 6419200
    second, trips = inner_loop(tmp_path, ATAX_C, 9)
    assert sympy.nsimplify(reuse_footprint(_ref(second, "A"), second, trips, 64)) == 400 * 16000 + 16000 + 3200
    assert neighbour_footprint(_ref(second, "A"), second, trips, 64) == 64128
    streams, shown = streams_of(second, trips, HIER)
    assert next(fp for ref, _, fp, *_ in streams if ref.array == "A") == 64128
    assert [label for label, *_ in shown] == ["y(w)", "A (after line 7)"]     # --explain names the loop


def test_the_first_loop_reads_a_row_nothing_touched_in_this_iteration(tmp_path):
    # the second loop reads A[i][j] after the first: the first's row comes from the last iteration of the nest
    first, trips = inner_loop(tmp_path, ATAX_C, 7)
    assert neighbour_footprint(_ref(first, "A"), first, trips, 64) is None
    streams, _ = streams_of(first, trips, HIER)
    assert next(fp for ref, _, fp, *_ in streams if ref.array == "A") == 400 * 16000 + 16000 + 3200


def test_another_row_of_the_same_array_is_not_reused(tmp_path):
    # the second loop reads row i + 1, which the first does not touch in this iteration
    source = ATAX_C.replace("y[j] = y[j] + A[i][j] * tmp[i]", "y[j] = y[j] + A[i + 1][j] * tmp[i]")
    second, trips = inner_loop(tmp_path, source, 9)
    assert neighbour_footprint(_ref(second, "A"), second, trips, 64) is None
