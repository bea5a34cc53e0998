"""The text of a simulated timeline: classes of ranks with the same split and the critical path.

Data flow: sad.predict.timeline.Result → lines of text for `sad timeline` and for `sad analyze --explain`
(sad.cli.timeline, sad.predict.report), so that both show a simulation alike.
"""
from __future__ import annotations

from collections import defaultdict

from sad.predict.timeline import Result

CLASSES_SHOWN = 8


def classes(result: Result) -> list[tuple[list[int], float, float, float, float]]:
    """Ranks with the same end, compute, communicate and wait (to the nanosecond): one class each, the
    slowest first."""
    groups: dict[tuple, list[int]] = defaultdict(list)
    for r in range(len(result.end)):
        key = tuple(round(x[r], 9) for x in (result.end, result.compute, result.communicate, result.wait))
        groups[key].append(r)
    return sorted(((ranks, *key) for key, ranks in groups.items()), key=lambda c: (-c[1], c[0][0]))


def ranks_text(ranks: list[int]) -> str:
    """'rank 3' or 'ranks 0-3, 8 (5)'."""
    parts: list[str] = []
    start = ranks[0]
    for i, a in enumerate(ranks):
        if i + 1 == len(ranks) or ranks[i + 1] != a + 1:
            parts.append(f"{start}" if start == a else f"{start}-{a}")
            start = ranks[i + 1] if i + 1 < len(ranks) else a
    text = ", ".join(parts[:4]) + (", ..." if len(parts) > 4 else "")
    return f"rank {text}" if len(ranks) == 1 else f"ranks {text} ({len(ranks)})"


def ms(seconds: float) -> str:
    """Milliseconds to the microsecond."""
    return f"{seconds * 1e3:.3f} ms"


def class_lines(result: Result, indent: str = "  ") -> list[str]:
    """A table of the classes of ranks (CLASSES_SHOWN of them) and their split."""
    lines = [f"{indent}{'ranks':<36} {'rep.':>5} {'end':>12} {'compute':>12} {'communicate':>12} {'wait':>12}"]
    found = classes(result)
    for ranks, end, comp, comm, wait in found[:CLASSES_SHOWN]:
        lines.append(f"{indent}{ranks_text(ranks):<36} {ranks[0]:>5} {ms(end):>12} {ms(comp):>12} {ms(comm):>12} "
                     f"{ms(wait):>12}")
    if len(found) > CLASSES_SHOWN:
        lines.append(f"{indent}... {len(found) - CLASSES_SHOWN} more classes")
    return lines


def path_lines(result: Result, indent: str = "  ") -> list[str]:
    """The critical path, one step a line: start, duration, rank, kind, partner, statement."""
    lines = []
    for step in result.path:
        if step.end - step.start < 1e-9:
            continue
        peer = f" {'to' if step.kind in ('send', 'link') else 'from'} rank {step.peer}" if step.peer >= 0 else ""
        lines.append(f"{indent}{ms(step.start):>12} {ms(step.end - step.start):>12}  rank {step.rank:<5} "
                     f"{step.kind:<9}{peer:<14} {step.where}")
    return lines


def classes_json(result: Result) -> list[dict]:
    """The classes of ranks as JSON objects."""
    return [{"ranks": ranks, "representative": ranks[0], "end": end, "compute": comp, "communicate": comm,
             "wait": wait} for ranks, end, comp, comm, wait in classes(result)]


def path_json(result: Result) -> list[dict]:
    """The critical path as JSON objects."""
    return [{"rank": s.rank, "kind": s.kind, "start": s.start, "end": s.end, "where": s.where, "peer": s.peer}
            for s in result.path]
