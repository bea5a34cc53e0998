"""Plots of profiled parameters against problem size (PNG, matplotlib's Agg backend, no display needed).

Data flow: sad.measure.profile's derived values at each --size point and sad.measure.fit's model → one PNG per
parameter, measured points and the fitted curve, like the original study's plot of the link-cell chain length
against the number of particles.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from sad.measure.fit import Fit


def plot_parameter(directory: Path, name: str, size_name: str, sizes: list[float], values: list[float],
                   model: Fit | None) -> Path:
    """Plot one parameter's measured values against the size, with the fitted model: the PNG's path."""
    directory.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    ax.plot(sizes, values, "o", color="tab:blue", label="measured (gcov)")
    if model is not None and len(sizes) > 1:
        grid = np.linspace(min(sizes), max(sizes), 200)
        ax.plot(grid, [model(n) for n in grid], "-", color="tab:orange",
                label=f"fit: {model.expression}" + ("" if np.isnan(model.cv_error)
                                                   else f"  (LOO error {model.cv_error:.1%})"))
    ax.set_xlabel(size_name)
    ax.set_ylabel(name)
    ax.set_title(f"{name} against {size_name}")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    path = directory / f"{name}.png"
    # fixed metadata: the same data give the same bytes
    fig.savefig(path, format="png", metadata={"Software": None})
    plt.close(fig)
    return path
