"""The annotated source view as text (sad.predict.annotate → this handler), laid out as gcov's listings:
count, time and share of the program's time in front of each line; `-` for a line with no statement and
`#####` for one that never runs (count 0), as gcov marks them."""
from __future__ import annotations

import sympy

from sad.common.numbertext import number
from sad.common.strprinter import QuickStrPrinter
from sad.common.timetext import seconds
from sad.predict.annotate import Annotation, Line

_PRINTER = QuickStrPrinter()


def count_text(line: Line) -> str:
    """The count column: `-`, `#####`, the whole number, or the formula (shortened)."""
    if line.count is None:
        return "-"
    if isinstance(line.count, sympy.Basic):
        text = _PRINTER.doprint(line.count)
        return text if len(text) <= 14 else text[:13] + "…"
    return "#####" if line.count == 0 else number(line.count)


def render(annotation: Annotation) -> str:
    """Every annotated file, one after the other."""
    out = []
    total = annotation.total
    for f in annotation.files:
        out.append(f"{'count':>14} {'time':>10} {'share':>6} {'line':>5}  {f.path} on {annotation.machine}")
        for line in f.lines:
            time = seconds(line.seconds) if line.seconds is not None else "-"
            share = f"{100 * line.seconds / total:5.1f}%" if line.seconds is not None and total else "-"
            out.append(f"{count_text(line):>14} {time:>10} {share:>6} {line.number:>5}: {line.text}")
        out.append(f"{'':>14} {seconds(f.seconds):>10} {'':>6} {'':>5}  total of {f.path}")
        out.append("")
    if total is None:
        out.append("times are given where the counts are bound; unbound: " + ", ".join(annotation.unbound))
    else:
        out.append(f"predicted time {seconds(total)} (the machine's start-up of a run included)")
    return "\n".join(out) + "\n"
