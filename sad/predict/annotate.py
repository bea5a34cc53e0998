"""The annotated source view: each line of the program with how often it runs and the time spent on it, the
static counterpart of gcov's and gcovr's annotated listings.

Data flow: a job's Result (sad.predict.job: the analysis and its prediction on a machine, with the bindings)
→ `annotate` → per file, one `Line` per source line: its execution count (sad.analysis.description.line_counts,
the count gcov would show; bound to a number where the bindings allow, else the formula) and its predicted
seconds. A block's time is split over its events in proportion to each event's own price on the machine, so
the lines of a file add up to the program's time (the machine's start-up once per run is not on any line).
Renderers, one per output format as in gcovr: sad.predict.annotate_text and sad.predict.annotate_html.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import sympy

from sad.analysis.bindings import bind, evaluate
from sad.analysis.description import line_counts
from sad.predict.mapper import price


@dataclass
class Line:
    """One source line: its text, execution count (a number, a formula, or None for a line with no
    statement) and predicted seconds (None when not every parameter it needs is bound)."""
    number: int
    text: str
    count: float | sympy.Expr | None = None
    seconds: float | None = None


@dataclass
class FileLines:
    """The annotated lines of one source file and their total time."""
    path: str
    lines: list[Line] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        """The time of the file's lines together (the lines with a time)."""
        return sum(line.seconds or 0.0 for line in self.lines)


@dataclass
class Annotation:
    """The annotated files of one program on one machine."""
    files: list[FileLines]
    machine: str
    total: float | None  # the program's predicted time (start-up included), None while unbound
    unbound: list[str]


def annotate(result) -> Annotation:
    """Each line of the analyzed files with its count and time (see the module docstring)."""
    bindings = result.bindings
    counts = line_counts(result.analysis.counts)
    seconds = _line_seconds(result)
    files = []
    for path in result.analysis.program.files:
        try:
            text = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            continue  # a file that could not be read has its error among the diagnostics already
        lines = []
        for number, source in enumerate(text, start=1):
            count = counts.get((path, number))
            if count is not None:
                value = evaluate(bind(count, bindings))
                count = value if value is not None else count
            lines.append(Line(number, source, count, seconds.get((path, number))))
        files.append(FileLines(path, lines))
    prediction = result.prediction
    return Annotation(files, result.machine.name, prediction.time_value, list(prediction.unbound))


def _line_seconds(result) -> dict[tuple[str, int], float]:
    """Predicted seconds per (file, line): each bound block's time split over its events by their prices."""
    out: dict[tuple[str, int], float] = defaultdict(float)
    missing: set[str] = set()
    machine = result.machine
    for bt in result.prediction.blocks:
        if bt.time_value is None:
            continue
        weights = []
        for event in bt.block.events:
            each = evaluate(price(Counter(event.cost), machine, missing))
            weights.append((event, each if each is not None and each > 0 else 0.0))
        total = sum(w for _, w in weights)
        if total <= 0:  # nothing priced per event (a message block): the block's first line takes it all
            out[(bt.block.file, bt.block.first_line)] += bt.time_value
            continue
        for event, weight in weights:
            out[(event.loc.file, event.loc.line)] += bt.time_value * weight / total
    return dict(out)
