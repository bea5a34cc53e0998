"""A column walk over about as many pages as the TLBs hold is priced where its cost swings with the rows' pitch
more than the TLB model follows (sad.predict.loopcost.NEAR_REACH): the report says so, in a warning naming the
loop and the rows, and in its loop line."""
from __future__ import annotations

import shutil

import pytest

from tests.predict.loop_nests import column_sum_warnings

PITCHES = "pitches: {8256: {512: 0 ns, 1024: 1.6 ns}}"
FIRST = "first: {pages: 64, miss: 0.2 ns}"


@pytest.mark.skipif(not shutil.which("gcc"), reason="needs gcc")
@pytest.mark.parametrize("row, reach, said", [
    (2008, 640, True),     # 512 rows 16 064 B apart, the TLBs 640 pages: 480 <= 512 <= 720
    (2008, 680, True),     # 510 .. 765
    (2008, 1536, False),   # 1 152 .. 1 728: well within the reach
    (2008, 400, False),    # 300 .. 450: beyond it, where the miss figures hold
    (256, 640, False)])    # rows 2 048 B apart: two a page, no walk a page apart
def test_a_walk_near_the_reach_is_said_to_be_uncertain(tmp_path, row, reach, said):
    tlb = f"  tlb: {{pages: {reach}, miss: 8 ns, {FIRST}, {PITCHES}}}\n"
    warned, summary = column_sum_warnings(tmp_path, "the TLBs hold", row, extra=tlb)
    assert [(d.loc.line, d.severity) for d in warned] == ([(4, "warning")] if said else [])
    if said:
        assert f"a column walk over 512 rows a page or more apart, near the {reach} pages the TLBs hold" \
            in warned[0].message
    assert summary.endswith("; 1 with a column walk near the TLBs' reach (uncertain: see the warnings)") == said
