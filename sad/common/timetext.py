"""How a time in seconds is written in every report (analyze, check, sweep, validate): one unit spelling.

Below every other layer: the predict reports and the codebase reports both word times through `seconds`, so
`sad check` and `sad analyze` print the same `µs` (not `us` in one and `µs` in the other).
"""
from __future__ import annotations

UNITS = (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9))


def seconds(value: float | None, missing: str = "?") -> str:
    """A time with a readable unit (s, ms, µs, ns) and four significant digits; `missing` for None."""
    if value is None:
        return missing
    for unit, scale in UNITS:
        if abs(value) >= scale or unit == "ns":
            return f"{value / scale:.4g} {unit}"
    return f"{value:g} s"  # not reached: ns takes everything below a microsecond
