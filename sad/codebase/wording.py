"""How times and changes are worded in every report format (text, Markdown, SARIF messages)."""
from __future__ import annotations

from sad.common import timetext


def seconds(value: float | None) -> str:
    """A time in engineering units with four significant digits, as `sad analyze` words it ('-' if unknown)."""
    return timetext.seconds(value, "-")


def change_message(c: dict) -> str:
    """`DGEMM: predicted time at default grew 1.2 ms → 2.4 ms (×2.000); complexity n^2 → n^3`."""
    parts = []
    if c["point"] is not None:
        verb = "grew" if c["level"] != "note" else "fell"
        ratio = f" (×{c['ratio']:.3f})" if c["ratio"] is not None else ""
        parts.append(f"predicted time at {c['point']} {verb} {seconds(c['old'])} → {seconds(c['new'])}{ratio}")
    if c["old_class"] != c["new_class"]:
        parts.append(f"complexity {c['old_class']} → {c['new_class']}")
    return f"{c['routine']}: " + "; ".join(parts)
