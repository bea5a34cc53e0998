"""sad.machine.units: figures with units, as written in machine files."""
from fractions import Fraction

import pytest

from sad.machine.units import UnitError, parse_bandwidth, parse_frequency, parse_quantity, parse_time

CLOCK = 40_000_000  # SPARCstation 2


@pytest.mark.parametrize("text, seconds", [
    ("25 ns", Fraction(25, 10**9)),
    ("25ns", Fraction(25, 10**9)),
    ("100 us", Fraction(1, 10**4)),
    ("2 µs", Fraction(2, 10**6)),
    ("2 μs", Fraction(2, 10**6)),          # Greek mu, as typed on most keyboards
    ("1.5 ms", Fraction(3, 2000)),
    ("1e-6", Fraction(1, 10**6)),          # plain number = seconds
    (3, Fraction(3)),
    (0.5, Fraction(1, 2)),
    ("3 cycles", Fraction(3, CLOCK)),
    ("1 cycle", Fraction(1, CLOCK)),
    ("(3 + 1 + 9) cycles", Fraction(13, CLOCK)),
    ("(2 * (3 + 4)) cycles", Fraction(14, CLOCK)),
    ("1/2.36 us", Fraction(1, 2_360_000)),
    ("0", Fraction(0)),
])
def test_times(text, seconds):
    assert parse_time(text, CLOCK) == seconds


def test_bandwidth_uses_decimal_megabytes():
    assert parse_bandwidth("1.67 MB/s") == 1_670_000
    assert parse_bandwidth("40 MB/s") == 40 * 10**6
    assert parse_bandwidth("1 MiB/s") == 2**20
    assert parse_bandwidth("80 Mbit/s") == 10 * 10**6
    assert parse_bandwidth(5000) == 5000


def test_frequency():
    assert parse_frequency("40 MHz") == 40 * 10**6
    assert parse_frequency("1 GHz") == 10**9


@pytest.mark.parametrize("value, kind, message", [
    ("1.67 MB/s", "time", "'1.67 MB/s' is a bandwidth, expected a time"),
    ("25 ns", "bandwidth", "'25 ns' is a time, expected a bandwidth"),
    ("40 MHz", "time", "'40 MHz' is a frequency, expected a time"),
    ("3 cycles", "bandwidth", "is a time, expected a bandwidth"),
    ("3 m", "time", "units of 'meter'"),
    ("3 furlongs", "time", "units of 'meter'"),
    ("3 bogons", "time", "unknown unit"),
    ("-3 ns", "time", "negative time '-3 ns'"),
    ("fast", "time", "unknown name 'fast'"),
    ("__import__('os') ns", "time", "function '__import__' not allowed"),
    (True, "time", "expected a time"),
    (None, "bandwidth", "expected a bandwidth"),
    ([1], "time", "got list"),
    (float("inf"), "time", "finite"),
])
def test_rejected(value, kind, message):
    with pytest.raises(UnitError) as info:
        parse_quantity(value, kind, CLOCK)
    assert message in str(info.value)


def test_cycles_need_a_clock():
    with pytest.raises(UnitError, match="no processor clock"):
        parse_time("3 cycles")


def test_negative_allowed_on_request():
    assert parse_time("-3 ns", allow_negative=True) == Fraction(-3, 10**9)
