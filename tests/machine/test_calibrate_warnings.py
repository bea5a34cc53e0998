"""A calibration on a busy machine says so: figures with a large spread and negative figures clamped to 0
are named in warnings (issue 13); `--flags -O2` is read as the flags' value."""
from __future__ import annotations

from sad.cli.args import parse_command_line
from sad.cli.main import create_parser
from sad.machine.calibrate import MAX_SPREAD, Calibration, Figure, warnings_of


def _cal(figures: dict[str, Figure]) -> Calibration:
    cal = Calibration(compiler="gcc", compiler_version="gcc 12", language="c", flags=["-O0"], cpu="x",
                      clock_hz=None, date="2026-01-01T00:00:00+00:00")
    cal.figures.update(figures)
    return cal


def test_spread_and_clamped_figures_are_named():
    cal = _cal({"double.add": Figure(1e-9, 29.0, 1e-9, 7), "integer.add": Figure(0.0, 0.1, -2e-10, 7),
                "double.mul": Figure(2e-9, MAX_SPREAD / 2, 2e-9, 7)})
    warnings = warnings_of(cal)
    assert len(warnings) == 2
    assert "double.add (2900 %)" in warnings[0] and "double.mul" not in warnings[0]
    assert "integer.add (-0.2 ns)" in warnings[1] and "not derived" in warnings[1]


def test_quiet_calibration_has_no_warnings():
    assert warnings_of(_cal({"double.add": Figure(1e-9, 0.02, 1e-9, 7)})) == []


def test_flags_may_start_with_a_dash():
    args = parse_command_line(create_parser(), ["calibrate", "--flags", "-O2", "-o", "m.yaml", "--quick"])
    assert args.flags == "-O2" and args.quick and args.output == "m.yaml"
