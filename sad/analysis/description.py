"""The SAD itself: events and their counts, the blocks they group into, and a program's analysis.

A symbolic application description is SAD = Σ blocks ∏X ∏P S[block]. Data flow: the builder
(sad.analysis.builder) counts *events* (a statement run, a condition evaluated, a loop entered or iterated,
each with its cost vector S) per entry into a procedure (`ProcedureSAD`); the pipeline (sad.analysis.pipeline)
sums the roots' counts into an `Analysis`; `group_blocks` turns those counts into blocks S[i] with their
counts ∏X ∏P (what the report and the mapper show) and `line_counts` into the execution count of each
source line (what gcov measures). Consecutive simple statements of one statement list that run equally
often form one block; a jump target starts a new block and a jump ends one; conditions, loop overheads and
message-passing calls are blocks of their own.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property

import sympy

from sad import ir
from sad.analysis.params import ParameterTable
from sad.analysis.spmd import MessageCost


@dataclass(eq=False)
class Event:
    """Something that happens a countable number of times: a statement, a condition, a loop entry or
    iteration. Identity-hashed: the same event reached through two call sites is one event."""
    procedure: str
    loc: ir.Loc
    role: str  # stmt | cond | loop_entry | loop_iter | goto | library (sad.analysis.libcalls) | recurse
    # (recurse: calls into recursion not yet unrolled, no cost: sad.analysis.recursion)
    cost: Counter
    region: int
    seq: int
    groupable: bool = False
    last_line: int = 0
    text: str = ""
    terminal: bool = False  # control leaves after it (GOTO, RETURN, STOP): it ends a block
    starts_block: bool = False  # a labelled statement: a jump may land here
    message: MessageCost | None = None  # a message-passing call: what the mapper prices (sad.analysis.spmd)


@dataclass
class ProcedureSAD:
    """One procedure's SAD: each event's count per entry into the procedure, callees expanded."""
    procedure: ir.Procedure
    counts: dict[Event, sympy.Expr]


@dataclass
class Analysis:
    """A program's SAD (the roots' event counts, callees expanded) with its parameter table and all
    diagnostics of loading and analysis."""
    program: ir.Program
    counts: dict[Event, sympy.Expr]
    table: ParameterTable
    diagnostics: list[ir.Diagnostic]
    roots: list[str]
    failed_files: list[str] = field(default_factory=list)
    internal_errors: list[str] = field(default_factory=list)  # procedures the analysis itself failed on
    # the build options the sources were read with (-I, -D as written): a compile of the same sources uses them
    include_dirs: list[str] = field(default_factory=list)
    defines: dict[str, str] = field(default_factory=dict)
    # tests of data decided by the generic-data assumption (sad.analysis.genericdata): where, the comparison,
    # the value taken (None: a callee's test reduced to one on the other arguments)
    generic_decisions: list[tuple[ir.Loc, str, bool | None]] = field(default_factory=list)

    @property
    def errors(self) -> list[ir.Diagnostic]:
        """The error diagnostics of the analysis."""
        return [d for d in self.diagnostics if d.severity == "error"]

    @cached_property
    def blocks(self) -> list[Block]:
        """The SAD's blocks (group_blocks of the counts), computed once."""
        return group_blocks(self.counts)


@dataclass
class Block:
    """A block of the SAD: consecutive statements of one procedure with one count and one cost vector."""
    procedure: str
    file: str
    first_line: int
    last_line: int
    kind: str  # code | branch | loop_entry | loop_iter | message | library
    count: sympy.Expr
    cost: Counter = field(default_factory=Counter)
    events: list[Event] = field(default_factory=list)
    message: MessageCost | None = None  # kind message: the call the mapper prices by its size

    @property
    def where(self) -> str:
        """The block's place as FILE:LINE or FILE:FIRST-LAST."""
        span = f"{self.first_line}" if self.first_line == self.last_line else \
            f"{self.first_line}-{self.last_line}"
        return f"{self.file}:{span}"


_KIND = {"stmt": "code", "goto": "code", "cond": "branch", "loop_entry": "loop_entry",
         "loop_iter": "loop_iter", "library": "library"}


def group_blocks(counts: dict[Event, sympy.Expr]) -> list[Block]:
    """The blocks of a SAD, sorted by file, first line and event order."""
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
        kind = "message" if event.message is not None else _KIND[event.role]
        current = Block(event.procedure, event.loc.file, event.loc.line, event.last_line, kind,
                        count, Counter(event.cost), [event], event.message)
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
    line's statement wins: the loop entry, then the first condition, then the first statement. A line
    whose statements sit in several regions (the copies of `either++` in the arms a C `a || b` condition
    is lowered to) runs as often as all of them together: the first statement of each region counts."""
    chosen: dict[tuple[str, int], tuple[tuple[int, int], sympy.Expr]] = {}
    by_region: dict[tuple[str, int], dict[int, tuple[int, sympy.Expr]]] = {}
    for event, count in counts.items():
        if event.role in ("loop_iter", "library"):  # a loop's trips, a library routine's work: not lines
            continue
        key = (event.loc.file, event.loc.line)
        rank = (_LINE_PRIORITY[event.role], event.seq)
        if key not in chosen or rank < chosen[key][0]:
            chosen[key] = (rank, count)
        if event.role in ("stmt", "goto"):
            regions = by_region.setdefault(key, {})
            if event.region not in regions or event.seq < regions[event.region][0]:
                regions[event.region] = (event.seq, count)
    result = {}
    for key, (rank, value) in sorted(chosen.items()):
        regions = by_region.get(key, {})
        if rank[0] == _LINE_PRIORITY["stmt"] and len(regions) > 1:
            value = sympy.Add(*(c for _, (_, c) in sorted(regions.items())))
        result[key] = value
    return result
