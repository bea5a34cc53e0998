"""Calibration at -O2 and on a busy machine (issues 27 and 30): the optimizer cannot delete a kernel's work or
overflow its trip count, a failing kernel's own error line is kept, and a figure below the resolution is derived
from the hierarchy (rule named in the file and in a warning), never written as 0 ns; the file says how long the
calibration took and the load it saw."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from sad.machine import hierarchy as hier
from sad.machine import microbench as mb
from sad.machine import unmeasured as um
from sad.machine.calibrate import (
    CalibrationError,
    Settings,
    _run,
    calibrate,
    derive_unmeasured,
    render_yaml,
    warnings_of,
)
from sad.machine.model import load_machine
from tests.machine.test_calibrate import chosen_calibration

NS = 1e-9


def _measured(seconds: float) -> hier.Measured:
    return hier.Measured(seconds, 0.01, 5)


def hand_hierarchy() -> hier.HierarchyCalibration:
    """A hierarchy with chosen figures: 2 GHz, 32 KiB L1 / 1 MiB L2, add.integer throughput 0.125 ns, L2 read
    2 ns per 64-byte line, memory 8 ns read / 10 ns write per line."""
    h = hier.HierarchyCalibration(_measured(2e9), [hier.CacheInfo(1, 32 * 1024, 64), hier.CacheInfo(2, 1024 ** 2, 64)])
    h.ops = {"add.integer": (_measured(0.5 * NS), _measured(0.125 * NS)),
             "add.double": (_measured(1.5 * NS), _measured(0.25 * NS)),
             "select.double": (_measured(0.5 * NS), _measured(0.3 * NS))}
    h.read = {"L1": _measured(0.5 * NS), "L2": _measured(2 * NS), "memory": _measured(8 * NS)}
    h.write = {"L1": _measured(0.6 * NS), "L2": _measured(3 * NS), "memory": _measured(10 * NS)}
    h.column, h.column_write = dict(h.read), dict(h.write)
    return h


@pytest.mark.parametrize("name, seconds, rule", [
    ("ops.integer.add", 0.125 * NS, "throughput of add.integer"),
    ("ops.real.neg", 0.25 * NS, "throughput of add.double"),
    ("intrinsics.MAX.double", 0.3 * NS, "throughput of select.double"),
    # 256 KB fits half of the 1 MiB L2: 2 ns per line, 8 doubles per line
    (f"memory.load.double@{mb.MEM_MODEL_KB}", 2 * NS / 8, "read per line from L2"),
    (f"memory.store.double@{mb.MEM_MODEL_KB}", 3 * NS / 8, "write per line from L2"),
    ("memory.load.integer", 2 * NS * 4 / 64, "read per line from L2"),       # 4-byte elements, 128 KB
    ("memory.load_strided.double", 8 * NS, "read per line from memory"),       # one element per line
    ("control.goto", 0.5 * NS, "one clock cycle"),                            # no rule: a cycle, said so
])
def test_figure_below_resolution_is_derived(name: str, seconds: float, rule: str):
    cal = chosen_calibration("c")
    cal.hierarchy = hand_hierarchy()
    cal.figures[name].raw, cal.figures[name].seconds = -0.07 * NS, 0.0       # a busy core: negative difference
    derive_unmeasured(cal)
    f = cal.figures[name]
    assert f.seconds == pytest.approx(seconds) and rule in f.derived and not f.reliable
    assert any(w.startswith(f"{name}: measured -0.07 ns") and rule in w for w in cal.warnings)
    assert any("derived from the hierarchy" in w and name in w for w in warnings_of(cal))


def test_derived_figure_is_written_with_its_rule(tmp_path: Path):
    cal = chosen_calibration("c")
    cal.hierarchy = hand_hierarchy()
    cal.figures["ops.integer.add"].raw = 0.001 * NS          # positive, but 0.2 % of a cycle: not a measurement
    cal.load_before, cal.load_after = (3.5, 2.0, 1.0), (4.25, 2.5, 1.5)
    derive_unmeasured(cal)
    text = render_yaml(cal, "here")
    assert re.search(r"^      add: 0\.125 ns .*# derived: throughput of add\.integer", text, re.M)
    assert "load average (1, 5, 15 min) 3.50 2.00 1.00 before, 4.25 2.50 1.50 after" in text
    assert "1 below the resolution and derived (ops.integer.add)" in text
    path = tmp_path / "m.yaml"
    path.write_text(text)
    assert float(load_machine(path).op_cost("add.integer")) == pytest.approx(0.125 * NS)


def test_zero_figure_is_never_written():
    cal = chosen_calibration("c")
    cal.figures["ops.integer.add"].raw, cal.figures["ops.integer.add"].seconds = -1 * NS, 0.0
    with pytest.raises(CalibrationError, match="never 0 ns"):
        render_yaml(cal, "here")                 # not derived (hand-made): refused, not written as 0


def test_failed_kernel_keeps_its_error_line(tmp_path: Path):
    """A run-time error's own line survives a long backtrace (the message was cut to 'ding item 1')."""
    exe = tmp_path / "fails"
    exe.write_text("#!/bin/sh\necho 'At line 36 of file bench.F90' >&2\n"
                   "echo 'Fortran runtime error: Bad integer for item 1 in list input' >&2\n"
                   "i=0; while [ $i -lt 60 ]; do echo \"#$i  0x7fc12ec218c2 in ???\" >&2; i=$((i+1)); done\nexit 2\n")
    exe.chmod(0o755)
    with pytest.raises(CalibrationError) as err:
        _run(exe, 0, 10, 1, 1)
    text = str(err.value)
    assert "Fortran runtime error: Bad integer for item 1 in list input" in text and "At line 36" in text
    assert "#59  0x7fc12ec218c2" in text                    # and the end of what it said


def test_resolution_is_a_fraction_of_a_cycle():
    assert um.resolution_s(2e9) == pytest.approx(um.RESOLUTION_CYCLES * 0.5 * NS)


@pytest.mark.parametrize("compiler", ["gfortran", "gcc"])
def test_calibrate_at_O2_measures_and_never_writes_zero(compiler: str):
    """`sad calibrate --compiler gfortran --flags -O2` failed: the empty loop was deleted, the trip count grew
    past 2^31 and the Fortran READ of it overflowed. A subset of kernels at -O2: each runs, and each figure is
    either measured above the resolution or derived (never 0)."""
    only = ("control.loop_iter", "ops.integer.add", "ops.double.add", "intrinsics.SQRT.double",
            f"memory.load.double@{mb.MEM_MODEL_KB}")
    settings = Settings(target_s=0.002, reps=3, sizes_kb=(mb.MEM_MODEL_KB,), startup_runs=2,
                        hierarchy_budget_s=0.5, spread_target=0.5, max_rounds=2, budget_s=30.0, only=only,
                        watch_host=False)   # the sentinel's samples around ~130 figures: tests/machine/test_hostspeed
    cal = calibrate(compiler, ["-O2"], settings)
    assert set(only) <= set(cal.figures)
    floor = um.resolution_s(um.clock_hz(cal.hierarchy, cal.clock_hz))
    for name, f in cal.figures.items():
        assert f.seconds >= floor or f.derived and f.seconds > 0, (name, f)
    # the square-root chain cannot be folded or deleted: measured, several cycles
    sqrt = cal.figures["intrinsics.SQRT.double"]
    assert not sqrt.derived and sqrt.seconds > 2 / um.clock_hz(cal.hierarchy, cal.clock_hz)
    assert cal.load_before is not None and cal.load_after is not None
