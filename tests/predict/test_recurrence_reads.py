"""A read of what the loop itself wrote a few iterations before (a recurrence: adi's p[i][j - 1] after
p[i][j] = ...) moves no line: the write's stream brought it (sad.predict.reuse._written_before). Hand-derived
streams; no timing."""
from __future__ import annotations

from sad.machine.hierarchy import Hierarchy, Level
from sad.predict.reuse import streams_of
from tests.predict.loop_nests import inner_loop

ADI_C = """#include <stdio.h>
static double p[600][600], q[600][600], u[600][600];
int main(void) {
    int i, j;
    for (i = 1; i < 599; i++)
        for (j = 1; j < 599; j++) {
            p[i][j] = -1.0 / (2.0 * p[i][j - 1] + 3.0);
            q[i][j] = (u[i][j] - 2.0 * q[i][j - 1]) / (2.0 * p[i][j - 1] + 3.0);
        }
    printf("%g\\\\n", p[5][5] + q[5][5]);
    return 0;
}
"""

HIER = Hierarchy(3e9, 64, (Level("L1", 32768, 0.2e-9, 0.3e-9), Level("L2", 524288, 0.6e-9, 0.7e-9),
                           Level("memory", None, 6e-9, 7e-9)))


def test_a_recurrence_reads_no_line_of_its_own(tmp_path):
    # p and q written along j, each read one element back: three streams (the writes and u's row), not five
    loop, trips = inner_loop(tmp_path, ADI_C, 6)
    _, shown = streams_of(loop, trips, HIER)
    assert sorted(label for label, *_ in shown) == ["p(w)", "q(w)", "u"]


def test_the_row_before_is_a_stream_behind_the_write(tmp_path):
    # q[i - 1][j - 1]: the row the previous iteration of i wrote, 4 792 bytes back (more than WRITTEN_AHEAD):
    # a stream of its own, reusing what the write brought an iteration of i before (``trailing``)
    source = ADI_C.replace("2.0 * q[i][j - 1]", "2.0 * q[i - 1][j - 1]")
    loop, trips = inner_loop(tmp_path, source, 6)
    _, shown = streams_of(loop, trips, HIER)
    assert sorted(label for label, *_ in shown) == ["p(w)", "q (after q[i][j])", "q(w)", "u"]
