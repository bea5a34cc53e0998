"""Shared by the corpus tests: read an expected.yaml of hand-derived counts and compare with the SAD.

The expected counts are strings written by people for tests (sympy syntax); they are parsed here with
sympy's parser because they are this project's own test data, never user input.
"""
from __future__ import annotations

import functools
from pathlib import Path

import sympy
import yaml

from sad.analysis.counting import evaluate_sums
from sad.analysis.description import line_counts
from sad.analysis.pipeline import analyze

ROOT = Path(__file__).resolve().parent.parent


def load_expected(path: Path) -> dict:
    """An expected.yaml, read with libyaml's safe loader when PyYAML has it (at collection, in every worker:
    the pure-Python reader takes ten times as long)."""
    with open(path) as fh:
        return yaml.load(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


@functools.cache
def counts_by_line(source: Path, include_dirs: tuple[str, ...] = ()) -> tuple[dict[int, sympy.Expr], object]:
    """Counts per line of `source` (and its analysis), analyzed once per test session: two tests per corpus
    program read the same analysis and neither changes it."""
    analysis = analyze([str(source)], list(include_dirs))
    errors = [d for d in analysis.diagnostics if d.severity == "error"]
    assert not errors, "\n".join(map(str, errors))
    lines = {line: count for (file, line), count in line_counts(analysis.counts).items()
             if Path(file).resolve() == source.resolve()}
    return lines, analysis


def value_points(params: dict) -> list[dict[str, int]]:
    """The sample input's values and a few others, so a formula right at one point only still fails."""
    points = [dict(params)]
    for scale in (1, 2, 3):
        points.append({name: int(v) * scale + 1 for name, v in params.items()})
    return points


def evaluate(expr: sympy.Expr, point: dict[str, int]) -> sympy.Expr:
    subs = {s: sympy.Integer(point[s.name]) for s in expr.free_symbols if s.name in point}
    value = sympy.sympify(expr).xreplace(subs)
    return evaluate_sums(value) if value.has(sympy.Sum) else value


def iterations_by_line(analysis, source: Path) -> dict[int, sympy.Expr]:
    """Total loop-body executions per loop header line (the `trips` of the expectations)."""
    trips: dict[int, sympy.Expr] = {}
    for event, count in analysis.counts.items():
        if event.role == "loop_iter" and Path(event.loc.file).resolve() == source.resolve():
            trips[event.loc.line] = trips.get(event.loc.line, 0) + count
    return trips


def is_error_exit(ours: sympy.Expr, entry: dict) -> bool:
    """A line behind an error exit (STOP, a non-zero return from main) that sad assumes not taken."""
    return ours == 0 and entry.get("measured") == 0
