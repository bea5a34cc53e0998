"""How a size or count is written in reports, tables and plot labels: a whole number in full.

Below every other layer. `{:g}` writes a million as `1e+06`, which reads as a measurement, not as the size a
user typed (`--sizes N=1000000`); sizes and counts are whole numbers almost always, and are written with all
their digits (as a program's input has them). Other values keep six significant digits.
"""
from __future__ import annotations

import math


def number(value: float) -> str:
    """`1000000` for 1e6 and `9642106.6` for an expected count (not `9.64211e+06`), `2.5` for 2.5; six
    significant digits for small fractions and for values past 1e15 (whose digits are float noise), `inf`
    and `nan` as Python spells them."""
    value = float(value)
    if not math.isfinite(value) or abs(value) >= 1e15:
        return f"{value:.6g}"
    if value.is_integer():
        return str(int(value))
    if abs(value) >= 1e5:
        return f"{value:.1f}"
    return f"{value:.6g}"
