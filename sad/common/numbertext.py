"""How a size or count is written in reports, tables and plot labels: a whole number in full.

Below every other layer. `{:g}` writes a million as `1e+06`, which reads as a measurement, not as the size a
user typed (`--sizes N=1000000`); sizes and counts are whole numbers almost always, and are written with all
their digits (as a program's input has them). Other values keep six significant digits.
"""
from __future__ import annotations

import math


def number(value: float) -> str:
    """`1000000` for 1e6, `2.5` for 2.5, `inf`/`nan` as Python spells them; six significant digits otherwise."""
    value = float(value)
    if math.isfinite(value) and value.is_integer() and abs(value) < 1e18:  # beyond, digits are float noise
        return str(int(value))
    return f"{value:.6g}"
