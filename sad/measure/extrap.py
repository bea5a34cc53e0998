"""Export of measured per-block counts to Extra-P's text input format.

Data flow: sad.measure.profile's runs (one per --size point, each with gcov's line counts) and the SAD's blocks
(sad.analysis.description.group_blocks) → for every block, its measured execution count at each point (gcov's count of
the block's first statement line) → Extra-P text: PARAMETER / POINTS / then per block REGION, METRIC and
one DATA line per point, in the order of POINTS. Extra-P then models each block's count itself.
"""
from __future__ import annotations

from sad.analysis.description import Block

Key = tuple[str, int]


def region_name(block: Block) -> str:
    """A region per block: procedure and place, free of spaces (Extra-P reads names as one token)."""
    return f"{block.procedure}@{block.file.rsplit('/', 1)[-1]}:{block.first_line}-{block.last_line}"


def render(parameters: list[str], points: list[dict[str, float]], blocks: list[Block],
           runs: list[dict[Key, int]], metric: str = "visits") -> str:
    """The Extra-P text input: parameters, points, and per block one metric value per run."""
    lines = [f"PARAMETER {p}" for p in parameters]
    lines.append("")
    lines.append("POINTS " + " ".join(
        "(" + " ".join(_fmt(pt[p]) for p in parameters) + ")" if len(parameters) > 1 else _fmt(pt[parameters[0]])
        for pt in points))
    lines.append("")
    seen: set[str] = set()
    for block in blocks:
        counts = [_measured(block, run) for run in runs]
        name = region_name(block)
        if name in seen or any(c is None for c in counts):
            continue  # no gcov line for it (a jump target with no code) or a second block on the line
        seen.add(name)
        lines.append(f"REGION {name}")
        lines.append(f"METRIC {metric}")
        for c in counts:
            lines.append(f"DATA {c}")
        lines.append("")
    return "\n".join(lines)


def _measured(block: Block, run: dict[Key, int]) -> int | None:
    # the first statement line: for a loop block that is the DO line, whose gcov count is in gcov's
    # convention; the ordinary statements of the block carry its execution count exactly
    for event in block.events:
        key = (event.loc.file, event.loc.line)
        if event.role in ("stmt", "goto") and key in run:
            return run[key]
    key = (block.file, block.first_line)
    return run.get(key)


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))
