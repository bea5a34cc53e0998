"""The chain waits `sad calibrate` measures (sad.machine.chainwait): a serial sum's time beyond its adds, per
line streaming and per access down a column, and the line of the machine database that carries them.
Hand-derived figures; the timing itself is not tested (it is the host's)."""
from __future__ import annotations

from pathlib import Path

import pytest

from sad.machine import chainwait, hostspeed
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


class _Scripted(hostspeed.Sentinel):
    """A sentinel whose samples are given: ``far`` (the last cache and memory) slowed by each ratio in turn, the
    core's parts never."""
    def __init__(self, ratios: list[float]) -> None:
        super().__init__(Path("no-sentinel"), None)
        self._ratios = iter(ratios)

    def sample(self) -> float:
        far = next(self._ratios)
        self.samples.append((1.0, 4.0, 100.0 * far, 1.7))
        return self.ratio(self.samples[-1])


def _timed(ratios: list[float], memory_stream_ns: list[float]) -> tuple[hier.HierarchyCalibration, list[str]]:
    """The waits of L1 and memory timed by a scripted benchmark (adds 1.0 ns, L1's sums at their adds, memory's
    serial stream ``memory_stream_ns`` a line in turn, its column 5.0 ns an access) under a scripted sentinel."""
    cal = hier.HierarchyCalibration(hier.Measured(3e9, 0.01, 5), [hier.CacheInfo(1, 32 * 1024, 64)],
                                    guard=hostspeed.Guard(_Scripted(ratios)))
    streams = iter(memory_stream_ns)
    asked: list[str] = []

    def run(mode: str, nbytes: int) -> list[float]:
        asked.append(f"{mode}{nbytes}")
        if mode == "z" or nbytes <= 16384:
            return [(8.0 if mode == "s" else 1.0) * NS] * 5
        return [(next(streams, memory_stream_ns[-1]) if mode == "s" else 5.0) * NS] * 5
    chainwait.timed_waits(cal, run, [("L1", 16384, 8192), ("memory", 1 << 26, 1 << 26)], 64, 0.01)
    return cal, asked


def test_a_wait_timed_while_memory_was_slowed_is_timed_again_and_the_fastest_kept():
    # the add and L1's sums judged on the core's parts (never slowed); memory's stream timed while far ran 1.6x
    # after it (12 ns a line: 4 ns beyond 8 adds), again from that sample (11 ns), and a third time between two
    # samples at 1.0x (10 ns: 2 ns beyond): the third is kept
    cal, asked = _timed([1.0, 1.0, 1.0, 1.0, 1.6, 1.0, 1.0, 1.0], [12.0, 11.0, 10.0])
    assert asked == ["z16384", "s16384", "c8192"] + [f"s{1 << 26}"] * 3 + [f"c{1 << 26}"]
    stream, column = cal.chain_wait["memory"]
    assert stream.seconds == pytest.approx(2.0 * NS) and stream.reliable and not stream.slow_host
    assert column.seconds == pytest.approx(4.0 * NS)
    assert cal.chain_wait["L1"][0].seconds == 0.0


def test_a_wait_the_host_slowed_every_time_is_unreliable_with_its_slowdown():
    cal, _ = _timed([1.0, 1.0, 1.0, 1.0] + [1.5] * 20, [12.0])
    stream, _column = cal.chain_wait["memory"]
    assert not stream.reliable and stream.host_ratio == pytest.approx(1.5)
    assert stream.seconds == pytest.approx(4.0 * NS)
