"""The chain waits `sad calibrate` measures (sad.machine.chainwait): a serial sum's time beyond its adds, per
line streaming and per access down a column, and the line of the machine database that carries them.
Hand-derived figures; the timing itself is not tested (it is the host's)."""
from __future__ import annotations

import pytest

from sad.machine import chainwait
from sad.machine import hierarchy as hier

NS = 1e-9


def test_the_waits_are_the_serial_sums_time_beyond_its_adds():
    # a stream of 8 elements a line: 10.0 ns a line against 8 adds of 1.1 ns: 1.2 ns; a column access 4.0 ns
    # against one add: 2.9 ns
    assert chainwait.waits_of(10.0 * NS, 4.0 * NS, 1.1 * NS, 8) == pytest.approx((1.2 * NS, 2.9 * NS))
    # a level the chain hides (faster than the adds, or within 1 % of them: 8.85 ns against 8.8): no wait
    assert chainwait.waits_of(8.0 * NS, 1.0 * NS, 1.1 * NS, 8) == (0.0, 0.0)
    assert chainwait.waits_of(8.85 * NS, 1.105 * NS, 1.1 * NS, 8) == (0.0, 0.0)


def test_the_waits_are_written_per_level_in_the_hierarchy_section():
    cal = hier.HierarchyCalibration(hier.Measured(3.4e9, 0.01, 5), [hier.CacheInfo(1, 48 * 1024, 64)])
    assert chainwait.render_yaml(cal) == []
    cal.chain_wait = {"L1": (hier.Measured(0.0, 0.02, 5), hier.Measured(0.0, 0.03, 5)),
                      "memory": (hier.Measured(1.8 * NS, 0.04, 5), hier.Measured(11.77 * NS, 0.2, 5, reliable=False))}
    assert chainwait.render_yaml(cal) == [
        "  chain_wait: {L1: [0 ns, 0 ns], memory: [1.8 ns, 11.77 ns]}   # per level: a serial sum's wait beyond "
        "its adds, per line streaming, per access down a column; spread 20.0%  UNRELIABLE"]
