"""How times and changes are worded in every report format (text, Markdown, SARIF messages)."""
from __future__ import annotations

from sad.common import timetext
from sad.ir import Loc


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


def place(d: dict) -> str:
    """A diagnostic's `file:line[:col]` as `sad analyze` writes it (sad.ir.Loc): a problem of the file as a
    whole (line 0) is the file alone, not `file:0`; a column is kept where the frontend gave one (C)."""
    return str(Loc(d["file"], d["line"], d.get("col", 0)))

