"""Helpers every command module shares after its arguments are parsed: printing diagnostics and binding the
values of a `--params` file.

Data flow: a command's Namespace → `load_params` (sad.measure.params_io reads and type-checks the file; its
values go under the -D values) → the command's analysis → `check_params` (the entries against that
analysis; problems printed) ; diagnostics of any stage → `print_diagnostics` on stderr, sorted.
"""
from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TextIO

import sympy

from sad import ir
from sad.analysis.description import Analysis
from sad.measure.params_io import ParamsError, ParamsFile, check, check_defines, load


def print_diagnostics(diagnostics: Iterable[ir.Diagnostic], stream: TextIO | None = None) -> None:
    """`file:line: severity: message`, sorted by place, one a line (stderr unless told)."""
    out = stream if stream is not None else sys.stderr
    for d in sorted(diagnostics, key=lambda d: (d.loc.file, d.loc.line, d.loc.col, d.severity, d.message)):
        print(str(d), file=out)


@dataclass
class ParamsBinding:
    """The values a command binds: a params file's (when one was given) under the -D values."""
    values: dict[str, sympy.Expr]
    params: ParamsFile | None = None


def load_params(path: str | None, defined: dict[str, sympy.Expr]) -> ParamsBinding | None:
    """The --params file's values merged under the -D values; None (after printing why) when the file is
    unusable."""
    if not path:
        return ParamsBinding(dict(defined))
    try:
        params = load(path)
    except ParamsError as exc:
        print(f"sad: {exc}" if not str(exc).startswith(path) else str(exc), file=sys.stderr)
        return None
    merged = params.values()
    merged.update(defined)
    return ParamsBinding(merged, params)


def check_params(binding: ParamsBinding, analysis: Analysis, defined: dict[str, sympy.Expr],
                 raw: dict[str, str]) -> bool:
    """Print the problems of the params file and of the -D values (`raw`: as written) against the analysis;
    False when one of them is an error."""
    problems = check(binding.params, analysis, binding.values, set(defined)) if binding.params else []
    problems += check_defines(analysis, raw, defined, binding.values)
    for p in problems:
        print(str(p), file=sys.stderr)
    return not any(p.severity == "error" for p in problems)


def respell_binding(binding: ParamsBinding, defined: dict[str, sympy.Expr], analysis: Analysis
                    ) -> tuple[ParamsBinding, dict[str, sympy.Expr]]:
    """The binding and the -D values with each name as the analysis spells it (a Fortran name given in
    another case, `-D n=100` for N: sad.analysis.spelling), the params file's entries included."""
    from dataclasses import replace

    from sad.analysis.spelling import respelled, respellings
    params = binding.params
    if params is not None:
        renames = respellings([e.name for e in params.entries], analysis.program, analysis.table)
        params = replace(params, entries=[replace(e, name=renames.get(e.name, e.name)) for e in params.entries])
    return (ParamsBinding(respelled(binding.values, analysis.program, analysis.table), params),
            respelled(defined, analysis.program, analysis.table))
def overflow_message(time_value: float | None, values: dict[str, sympy.Expr], raw: dict[str, str]) -> str | None:
    """`sad: error: ...` when a bound prediction is not a finite number (`-D N=2**1000`: N**2 is beyond double
    precision), naming the bound value of largest magnitude, the likely cause; None when the time is finite
    or unbound."""
    import math
    if time_value is None or math.isfinite(time_value):
        return None
    sizes = {}
    for name, value in values.items():
        try:
            sizes[name] = abs(float(value))
        except (TypeError, ValueError, OverflowError):
            continue  # an expression of other names, or a value too large even for a float
    culprit = max(sorted(sizes), key=lambda n: sizes[n], default=None)
    shown = (f"; the largest bound value is {culprit}={raw.get(culprit, values[culprit])} ({sizes[culprit]:.3g})"
             if culprit is not None else "")
    return (f"sad: error: the predicted time overflows ({time_value} s): the values bound are beyond what double "
            f"precision can price{shown}")

