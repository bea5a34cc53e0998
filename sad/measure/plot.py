"""Plots of profiled parameters against problem size (PNG, SVG or PDF; matplotlib's Agg backend, no display).

Data flow: sad.measure.profile's derived values at each --size point and sad.measure.fit's model → one file per
parameter: the measured points, the fitted curve over the measured range (solid) and beyond it, where a
prediction would extrapolate (dashed), the measured range shaded, log axes when the sizes span a decade and
the legend in mathematical notation (matplotlib's mathtext),
like the original study's plot of the link-cell chain length against the number of particles.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from sad.common.numbertext import number
from sad.measure.fit import Fit

# SVG text as <text> elements, searchable and editable (matplotlib's default draws each glyph as a path), and
# element ids from a fixed salt (the default is random per process): the same plot, the same bytes
SVG_TEXT: Any = {"svg.fonttype": "none", "svg.hashsalt": "sad"}  # Any: rc_context types its keys as literals

EXTEND = 8.0  # the curve continues to EXTEND × the largest measured size: where predictions go


def math_label(model: Fit) -> str:
    """The fitted model c0 + c1·n^i·log2(n)^j (or its logistic for a probability) in mathtext notation."""
    n = _tex(model.parameter)
    factors = []
    if model.exponent != 0:
        i = model.exponent
        power = str(i.numerator) if i.denominator == 1 else f"{i.numerator}/{i.denominator}"
        factors.append(n if i == 1 else f"{n}^{{{power}}}")
    if model.log_power:
        factors.append(r"\log_2" + (f"^{{{model.log_power}}}" if model.log_power > 1 else "") + f"({n})")
    linear = _number(model.c0) if model.c0 or not model.c1 else ""
    if model.c1:
        coefficient = "" if _number(abs(model.c1)) == "1" else _number(abs(model.c1)) + r"\,"
        term = coefficient + r"\,".join(factors)
        linear = (f"{linear} {'-' if model.c1 < 0 else '+'} {term}" if linear else
                  (f"-{term}" if model.c1 < 0 else term))
    text = rf"1 / (1 + e^{{-({linear})}})" if model.logit and model.c1 else linear
    return f"${text}$"


def _number(x: float) -> str:
    mantissa, _, exponent = f"{x:.4g}".partition("e")
    return mantissa + (rf"\cdot 10^{{{int(exponent)}}}" if exponent else "")


def plot_parameter(directory: Path, name: str, size_name: str, sizes: list[float], values: list[float],
                   model: Fit | None, fmt: str = "png", extend_to: float | None = None) -> Path:
    """One parameter's measured values and model against the size; returns the file written."""
    directory.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(7.0, 4.6), dpi=150)
    lo, hi = min(sizes), max(sizes)
    ax.axvspan(lo, hi, color="0.92", zorder=0, label=f"measured range ({number(lo)} to {number(hi)})")
    if model is not None and len(sizes) > 1:
        top = max(extend_to or hi * EXTEND, hi)
        log = lo > 0 and top >= 10 * lo
        inside = np.geomspace(lo, hi, 200) if log else np.linspace(lo, hi, 200)
        beyond = np.geomspace(hi, top, 200) if log else np.linspace(hi, top, 200)
        error = "" if np.isnan(model.cv_error) else f"  (leave-one-out error {model.cv_error:.1%})"
        ax.plot(inside, [model(n) for n in inside], "-", color="tab:orange", lw=2,
                label="fit: " + math_label(model) + error)
        ax.plot(beyond, [model(n) for n in beyond], "--", color="tab:orange", lw=1.5,
                label=f"extrapolation to {size_name} = {number(top)}")
        if log:
            ax.set_xscale("log")
    ax.plot(sizes, values, "o", color="tab:blue", ms=7, zorder=3, label="measured (gcov)")
    ax.set_xlabel(f"${_tex(size_name)}$")
    ax.set_ylabel(f"${_tex(name)}$")
    ax.set_title(f"{name} against {size_name}", fontsize=10)
    ax.grid(True, alpha=0.3, which="both")
    # the legend goes below the axes so that it never hides a point
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=1, frameon=False)
    fig.tight_layout()
    path = directory / f"{name}.{fmt}"
    with plt.rc_context(SVG_TEXT):
        fig.savefig(path, format=fmt, metadata=_metadata(fmt))  # fixed metadata: same data, same bytes
    plt.close(fig)
    return path


def _tex(name: str) -> str:
    return r"\mathrm{" + name.replace("_", r"\_") + "}"


def _metadata(fmt: str) -> dict:
    if fmt == "svg":
        return {"Date": None, "Creator": None}
    if fmt == "pdf":
        return {"CreationDate": None, "Producer": None, "Creator": None}
    return {"Software": None}
