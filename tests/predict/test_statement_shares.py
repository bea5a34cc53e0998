"""References in the arms of an if in an innermost loop move data only in the iterations that run their arm
(sad.predict.loopcost.statement_shares, issue 27): a test of the loop indices has an exact count, so the data
part charges each reference its share of the iterations; the same reference in both arms, every iteration.
Hand-derived from the machine's figures; no timing."""
from __future__ import annotations

import pytest

from sad.analysis.description import group_blocks
from sad.analysis.pipeline import analyze
from sad.machine.hierarchy import Hierarchy, Level
from sad.predict.loopcost import loop_trips, source_loops, statement_shares
from sad.predict.reuse import data_seconds

ARMS = """static double x[1000], y[1000];
int main(void) {
    int j;
    double s = 0;
    for (j = 0; j < 1000; j++) {
        if (j < 250)
            s += x[j] * y[j];
        else
            s += x[j];
    }
    return s > 0;
}
"""


def test_a_reference_in_one_arm_moves_its_share_of_the_lines(tmp_path):
    src = tmp_path / "arms.c"
    src.write_text(ARMS)
    analysis = analyze([str(src)])
    blocks = group_blocks(analysis.counts)
    loop = source_loops(analysis.program)[0]
    statement_shares(loop, blocks, None)
    assert sorted((r.array, r.line, r.share) for r in loop.refs) == \
        [("x", 7, 0.25), ("x", 9, 0.75), ("y", 7, 0.25)]
    trips = {id(lp): loop_trips(blocks)[(str(src.resolve()), lp.loc.line)] for lp in loop.nest}
    host = Hierarchy(3e9, 64, (Level("L1", 32 * 1024, 0.2e-9, 0.3e-9), Level("memory", None, 2e-9, 3e-9)))
    # x and y: 16000 B between runs of the loop, within half the L1: 0.2 ns a line, 8 of 64 bytes an iteration;
    # x read in every iteration (0.25 + 0.75), y in a quarter: 0.2 / 8 x 1.25 = 0.03125 ns
    assert float(data_seconds(loop, trips, host)[0]) == pytest.approx(0.03125e-9)
