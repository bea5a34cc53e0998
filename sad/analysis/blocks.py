"""Blocks: the SAD's straight-line pieces, grouped from the builder's events, and per-line counts.

Data flow: the program's event counts (sad.analysis.pipeline) → blocks S[i] with their counts ∏X ∏P (what the
report and the mapper show) and the execution count of each source line (what gcov measures).
Consecutive simple statements of one statement list that run equally often form one block; a jump target
starts a new block and a jump ends one; conditions and loop overheads are blocks of their own.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import sympy

from sad.analysis.builder import Event


@dataclass
class Block:
    procedure: str
    file: str
    first_line: int
    last_line: int
    kind: str  # code | branch | loop_entry | loop_iter
    count: sympy.Expr
    cost: Counter = field(default_factory=Counter)
    events: list[Event] = field(default_factory=list)

    @property
    def where(self) -> str:
        span = f"{self.first_line}" if self.first_line == self.last_line else \
            f"{self.first_line}-{self.last_line}"
        return f"{self.file}:{span}"


_KIND = {"stmt": "code", "goto": "code", "cond": "branch", "loop_entry": "loop_entry",
         "loop_iter": "loop_iter"}


def group_blocks(counts: dict[Event, sympy.Expr]) -> list[Block]:
    blocks: list[Block] = []
    current: Block | None = None
    for event in sorted(counts, key=lambda e: e.seq):
        count = counts[event]
        if count == 0:
            continue
        if current is not None and _continues(current, event, count):
            current.events.append(event)
            current.cost.update(event.cost)
            current.last_line = max(current.last_line, event.last_line)
            continue
        current = Block(event.procedure, event.loc.file, event.loc.line, event.last_line, _KIND[event.role],
                        count, Counter(event.cost), [event])
        blocks.append(current)
        if not event.groupable:
            current = None
    return sorted(blocks, key=lambda b: (b.file, b.first_line, b.events[0].seq))


def _continues(block: Block, event: Event, count: sympy.Expr) -> bool:
    last = block.events[-1]
    return (event.groupable and last.groupable and not last.terminal and not event.starts_block
            and event.region == last.region and event.procedure == last.procedure
            and event.loc.file == last.loc.file and count == block.count)


_LINE_PRIORITY = {"loop_entry": 0, "cond": 1, "goto": 2, "stmt": 2}


def line_counts(counts: dict[Event, sympy.Expr]) -> dict[tuple[str, int], sympy.Expr]:
    """How often each statement line executes: a statement's runs, a condition's evaluations (IF lines),
    a loop's entries (DO and for lines). Where several events share a line, the one that stands for the
    line's statement wins: the loop entry, then the first condition, then the first statement."""
    chosen: dict[tuple[str, int], tuple[tuple[int, int], sympy.Expr]] = {}
    for event, count in counts.items():
        if event.role == "loop_iter":
            continue
        key = (event.loc.file, event.loc.line)
        rank = (_LINE_PRIORITY[event.role], event.seq)
        if key not in chosen or rank < chosen[key][0]:
            chosen[key] = (rank, count)
    return {key: value for key, (_, value) in sorted(chosen.items())}
