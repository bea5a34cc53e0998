"""Plots of a sweep or comparison table (PNG, SVG or PDF by the file's suffix; matplotlib's Agg backend).

Data flow: a Table (sad.predict.compare) → one figure: predicted time against the first swept name, one curve
per series (machine or variant) and per value of a second swept name; COMP and COMM of SPMD programs as dashed
and dotted curves of the same colour; log axes where the swept range is logarithmic; crossovers marked.
Legends and labels are parameter names and machine/variant names in mathematical notation (mathtext), never
Python syntax. Text in SVG files stays text (svg.fonttype none) so that the labels can be searched; metadata
carries no date, so the same table gives the same bytes.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy

from sad.predict.compare import Table, column

FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
MAX_CURVES_PER_SERIES = 8
STYLES = {"TOTAL": "-", "COMP": "--", "COMM": ":"}
NAMES = {"TOTAL": "total", "COMP": "computation", "COMM": "communication"}


def math_name(name: str) -> str:
    """A parameter name in mathtext: NPROCS → $P$, N_X → $N_{X}$ style subscripts, others upright."""
    if name == "NPROCS":
        return "$P$"
    head, _, tail = name.partition("_")
    head = head.replace("$", "")
    if tail:
        return f"${head}_{{\\mathrm{{{tail.replace('_', ' ')}}}}}$"
    return f"${head}$" if len(head) == 1 else f"$\\mathrm{{{head}}}$"


def _value(v: float) -> str:
    return f"{int(v)}" if float(v).is_integer() else f"{v:g}"


def plot_table(table: Table, path: Path, title: str, metric: str = "time") -> Path:
    """Draw the table to `path` (suffix .png, .svg or .pdf). Returns the path."""
    fmt = FORMATS[path.suffix.lower()]
    grid = table.grid
    x_axis = grid.axes[0]
    second = grid.axes[1] if len(grid.axes) > 1 else None
    many = len(table.series) > 1
    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "sad", "font.size": 10}):
        fig, ax = plt.subplots(figsize=(7.5, 4.8), dpi=120)
        colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        shape = grid.shape
        k = 0
        for s in table.series:
            curves = list(numpy.ndindex(*shape[1:]))[:MAX_CURVES_PER_SERIES]
            for rest in curves:
                colour = colours[k % len(colours)]
                k += 1
                suffix = ""
                if second is not None:
                    suffix = ", " + ", ".join(f"{math_name(a.name)} = {_value(a.values[i])}"
                                              for a, i in zip(grid.axes[1:], rest))
                for name in ("TOTAL", "COMP", "COMM"):
                    key = column(name, s, many)
                    if key not in table.columns:
                        continue
                    y = table.columns[key].reshape(shape)[(slice(None), *rest)]
                    split = "COMM" in s.formulas
                    label = (s.label if many else ("" if split else "predicted")) + \
                        ((": " if many else "") + NAMES[name] if split else "") + suffix
                    ax.plot(x_axis.values, y, STYLES[name], color=colour, marker="o" if len(y) <= 30 else None,
                            markersize=3, label=label)
        for c in table.crossovers[:10]:
            ax.axvline(c.value if c.value is not None else (c.low + c.high) / 2, color="0.5", lw=0.8, ls="-.")
        if x_axis.log:
            ax.set_xscale("log")
        ys = numpy.concatenate([v for key, v in table.columns.items() if table.kinds.get(key) == "seconds"])
        ys = ys[numpy.isfinite(ys) & (ys > 0)]
        if len(ys) and (x_axis.log or ys.max() / ys.min() > 100):
            ax.set_yscale("log")
        ax.set_xlabel(math_name(x_axis.name))
        ax.set_ylabel("predicted time (s)")
        ax.set_title(title, fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8, loc="best")
        fig.tight_layout()
        metadata = {"png": {"Software": None, "Title": title,
                            "Description": f"x: {x_axis.name}; y: predicted time (s)"},
                    "svg": {"Date": None, "Title": title, "Description": f"x: {x_axis.name}; y: predicted time (s)"},
                    "pdf": {"CreationDate": None, "Title": title, "Subject": f"x: {x_axis.name}; y: predicted "
                            f"time (s)", "Creator": "sad", "Producer": "sad"}}[fmt]
        fig.savefig(path, format=fmt, metadata=metadata)
        plt.close(fig)
    return path
