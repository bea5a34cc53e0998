"""Block cost of innermost loops on a calibrated host: the composition of an in-core and a data part.

Data flow: the analysis (IR + blocks with their counts) and a machine database with a ``hierarchy`` section
and the compile command it was calibrated with (models.compile) → for every innermost counted loop of the
source (sad.predict.sourceloops), compiled with that command and the -I / -D the analysis read it with:
    in-core   sad.predict.incore: llvm-mca on the compiled loop body (cycles per iteration / source
              iterations per pass / clock) and the loop-carried chains through memory; the calibrated
              operation classes where no compiled loop prices it (no compiler, no llvm-mca, a failed compile:
              a warning says so)
    data      sad.predict.reuse: per array reference the level that serves it from the footprint between two
              reuses (layer conditions, set conflicts of a walk's pitch, TLB reach), lines per iteration ×
              seconds per line of that level; references on one line share it
→ seconds per iteration = ``loop_seconds`` (sad.predict.overlap): max(core, chain, data, the loop-carried chain +
what it waits for on the read streams: ``wait_seconds``, the levels' calibrated chain waits, the load ports'
cycles + the lines' transfers into L1: ``transfer_seconds``), one rule at -O0 and -O2,
plus, once per run of the program, the first touch of every array the loop is the first to touch (in source
order; formal arguments are someone else's arrays): its footprint over the whole nest in pages × the calibrated
seconds per page (fault, zeroing, unmapping at exit), spread over the loop's iterations.
The mapper puts this price on the loop's iteration block and nothing on the statement blocks of its body
(their counts stay in the SAD; the loop's price covers them). Every other block keeps the per-operation price.
Where the machine has no hierarchy, nothing changes.
"""
from __future__ import annotations

import dataclasses
import functools
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import sympy

from sad import ir
from sad.analysis.bindings import bind, evaluate
from sad.analysis.counting import evaluate_sums
from sad.ir.languages import resolve_name
from sad.ir.walk import walk_stmts
from sad.machine import walkprobe
from sad.machine.hierarchy import Hierarchy
from sad.predict import compiled as cc
from sad.predict import tripspread
from sad.predict.incore import InCore, LibraryFigure, compiled_bounds, operation_bounds
from sad.predict.incore import opt_level_keeps_memory as opt_level_keeps_memory
from sad.predict.overlap import CHAIN_SHARE, WALK_SHARE, chain_share, chained, wait_seconds, walk_share
from sad.predict.overlap import loop_seconds as loop_seconds
from sad.predict.reuse import (
    Stream,
    Walk,
    data_seconds,
    even_lines,
    first_touch_bytes,
    into_l1,
    l1_in_core,
    level_name,
    one_set_shares,
    probed_seconds,
    streams_of,
    transfer_seconds,
)
from sad.predict.reuse import constant_step as constant_step
from sad.predict.reuse import declared_pitch as declared_pitch
from sad.predict.reuse import footprint as footprint
from sad.predict.reuse import pages_between_reuses as pages_between_reuses
from sad.predict.reuse import reuse_footprint as reuse_footprint
from sad.predict.reuse import row_pitch as row_pitch
from sad.predict.reuse import serving_level as serving_level
from sad.predict.reuse import tlb_seconds as tlb_seconds
from sad.predict.reuse import usable_bytes as usable_bytes
from sad.predict.sourceloops import ELEM_BYTES as ELEM_BYTES
from sad.predict.sourceloops import Ref as Ref
from sad.predict.sourceloops import SourceLoop, leaf_calls, leaf_routines, resolved_path, source_loops


@dataclass
class LoopPrice:
    """Why an innermost loop costs what it costs (for --explain), and the price per iteration."""
    loop: SourceLoop
    seconds: sympy.Expr            # per iteration of the source loop
    core_s: float
    chain_s: float
    data_s: sympy.Expr
    bound: str                     # which bound the evaluated figures say limits it (set by explain)
    vector: int = 1
    asm_instructions: int = 0
    levels: list[tuple[str, sympy.Expr, float, Walk | None]] = field(default_factory=list)
    """(reference, footprint between reuses, lines per iteration, its walk if strided)"""
    touch_s: sympy.Expr = sympy.Integer(0)   # first touch of fresh pages, seconds per run of the program
    touch_bytes: sympy.Expr = sympy.Integer(0)
    read_bytes: sympy.Expr = sympy.Integer(0)  # of them, the bytes only read (the zero page's faults)
    source: str = "compiled code"  # or "operation classes" (sad.predict.opmodel: no compiled loop to price)
    window: float | None = None    # iterations the core keeps in flight (reorder buffer / instructions per iteration)
    outer: bool = False            # vectorized along the enclosing loop (the data per iteration divided by vector)
    scaled: str = ""               # llvm-mca's cycles scaled to this core (sad.machine.corescale), or why not
    between: frozenset[int] = frozenset()   # lines of the code between entries its core figure includes
    latency_s: float = 0.0         # the loop-carried register chain the waits add to (sad.predict.overlap)
    wait_s: sympy.Expr = sympy.Integer(0)   # what that chain waits on the read streams per iteration
    loads_s: float = 0.0           # the load ports' busy time (ECM's non-overlapping in-core part, sad.predict.overlap)
    transfers_s: sympy.Expr | int = 0   # the lines' transfers into L1 through the caches that add to it
    walk_fills_s: sympy.Expr | int = 0  # the column walks' share of them, which a chain through memory waits for
    guessed: tuple[str, ...] = ()  # operations the operation classes priced without a figure (a warning says which)
    calls: tuple[tuple[str, float | None], ...] = ()  # library routines a compiled iteration calls, their seconds
    call_s: float = 0.0            # what those calls cost as calls (InCore.call_s)
    unmeasured: tuple[str, ...] = ()  # figures the machine lacks for this loop (the nearest stood in, a warning)
    arms: tuple[tuple[sympy.Expr, float, float], ...] = ()   # arms with a free branch probability (InCore.arms)
    trip_points: int = 0           # points its trips per entry were taken at (sad.predict.tripspread; 0: the mean)
    removed: bool = False          # no instruction comes from its lines: priced as none (sad.predict.incore)
    near_reach: int = 0            # rows of a column walk near what the TLBs hold (_walk_near_reach; 0: none)
    index_s: float = 0.0           # the chain through its index kept in memory (InCore.index_s; 0: none)


def _timed_text(probed: dict[tuple[walkprobe.Column, ...], float]) -> str:
    """"3 column walks", "1 row stream starting anew at each entry" or both, of the probe's figures."""
    walks = sum(1 for columns in probed for c in columns if c.run == 1)
    rows = sum(1 for columns in probed for c in columns if c.run > 1)
    parts = ([f"{walks} column walk{'s' if walks > 1 else ''}"] if walks else []) + \
        ([f"{rows} row stream{'s' if rows > 1 else ''} starting anew at each entry"] if rows else [])
    return " and ".join(parts)


# ------------------------------------------------------------------------------------------- matching


def loop_trips(blocks, bindings: dict[str, sympy.Expr] | None = None) -> dict[tuple[str, int], sympy.Expr]:
    """Trips per entry of every loop, by (resolved file, header line): iterations / entries from the SAD, with
    the ``bindings`` the user fixed (-D, --params, a profile's values) put in. A loop's price at the trips of
    the run it predicts, not a formula in them: what its data cost depends on the numbers (the rows a walk
    covers, a row stream's length timed by the walk probe), and a name swept by `sad sweep` is not bound."""
    iters: dict[tuple[str, int], sympy.Expr] = defaultdict(lambda: sympy.Integer(0))
    entries: dict[tuple[str, int], sympy.Expr] = defaultdict(lambda: sympy.Integer(0))
    for b in blocks:
        key = (resolved_path(b.file), b.first_line)
        if b.kind == "loop_iter":
            iters[key] += b.count
        elif b.kind == "loop_entry":
            entries[key] += b.count
    # Max(entries, 1): a loop whose entry count is 0 for the bound values (a branch never taken) has 0
    # iterations too; 0/0 would be NaN and poison the cache-level comparisons.
    # Sums with numbers for bounds are added up exactly here: sympy's own evaluation of one whose terms hold a
    # Mod (red-black sweeps, ``for (j = 1 + (i + c) % 2; ...; j += 2)``) fails when the footprints are compared
    trips = {k: iters[k] / sympy.Max(entries[k], 1) if entries[k] != 0 else iters[k] for k in iters}
    return {k: _exact_sums(bind(v, bindings) if bindings else v) for k, v in trips.items()}


def _exact_sums(expr: sympy.Expr) -> sympy.Expr:
    return evaluate_sums(expr) if expr.has(sympy.Sum) else expr


@dataclass
class LoopCoverage:
    """How the innermost loops of a program were priced: the report's "12 of 14 innermost loops priced from the
    compiled code" and one warning per file where the compile or the matching of its loops failed."""
    total: int = 0
    compiled: int = 0
    operation_classes: int = 0
    command: str = ""                       # the machine's compile spec (gcc -O2)
    warnings: list[ir.Diagnostic] = field(default_factory=list)
    model: str = ""                         # llvm-mca's -mcpu where it is not the host's own model
    scaled: bool = False                    # its cycles scaled to this core (the machine's mca_scale)
    unmeasured: list[str] = field(default_factory=list)  # hierarchy figures the machine file lacks ("chain waits")
    guessed: int = 0                        # loops of the operation classes with an operation no figure prices
    near_reach: int = 0                     # loops with a column walk near the TLBs' reach (uncertain, warned)
    variable_step: int = 0                  # loops whose step is not a constant (stride unknown, warned)
    probed: dict[tuple[walkprobe.Column, ...], float] = field(default_factory=dict)  # walks timed here → s
    slowed: dict[tuple[walkprobe.Column, ...], float] = field(default_factory=dict)  # of them, timed slowed → ratio
    removed: int = 0                        # of the compiled ones, loops the compiler removed (priced as none)

    def summary(self) -> str:
        """One line for the report."""
        text = f"{self.compiled} of {self.total} innermost loops priced from the compiled code" + \
            (f" ({self.command}{'; llvm-mca -mcpu=' + self.model if self.model else ''}"
             f"{' scaled to this core per resource class (mca_scale)' if self.scaled else ''})" if self.command else "")
        if self.removed:
            text += f", {self.removed} of them removed by the compiler (no time)"
        if self.operation_classes:
            text += f", {self.operation_classes} from the calibrated operation classes"
            if self.guessed:
                text += f" ({self.guessed} with operations no figure prices: see the warnings)"
        rest = self.total - self.compiled - self.operation_classes
        if rest:
            text += f", {rest} per operation"
        if self.near_reach:
            text += f"; {self.near_reach} with a column walk near the TLBs' reach (uncertain: see the warnings)"
        if self.variable_step:
            text += f"; {self.variable_step} with a step that is not a constant (stride unknown: see the warnings)"
        if self.probed:
            text += f"; {_timed_text(self.probed)} timed on this host (walk probe)"
        if self.unmeasured:
            text += f"; recalibrate: {', '.join(self.unmeasured)} not measured"
        return text


def price_loops(analysis, blocks, machine, bindings: dict[str, sympy.Expr] | None = None,
                coverage: LoopCoverage | None = None) -> tuple[dict[int, sympy.Expr], list[LoopPrice]]:
    """Per-block prices (id(block) → seconds per execution) replacing the per-operation ones for the blocks of
    innermost loops the compiled-code model prices, and the explanation of each. ``bindings``: the bound
    parameters (a column walk's pitch they fix is priced as that number, see ``data_seconds``). Each source
    is compiled with the machine's compile command and the -I / -D the analysis read it with. ``coverage``,
    if given, is filled: loops per source of their price, one warning per file that did not compile or whose
    loops were not all found in its compiled code."""
    hierarchy: Hierarchy | None = getattr(machine, "hierarchy", None)
    spec = machine.models.get("compile") if machine.models else None
    coverage = coverage if coverage is not None else LoopCoverage()
    if hierarchy is None:
        return {}, []
    compiling = bool(spec) and cc.available() is None
    if not compiling and not hierarchy.ops:
        return {}, []
    coverage.command = str(spec) if compiling else ""
    hierarchy = _with_walk_probe(hierarchy, machine, coverage)
    trips_by_line = loop_trips(blocks, bindings)
    overrides: dict[int, sympy.Expr] = {}
    explained: list[LoopPrice] = []
    compiled_files: dict[str, cc.CompiledFile | str] = {}
    unmatched: dict[str, list[SourceLoop]] = defaultdict(list)
    failed: dict[str, tuple[str, list[SourceLoop]]] = {}       # file → why it did not compile, its loops
    guessed: dict[str, list[LoopPrice]] = defaultdict(list)    # file → loops priced with guessed figures
    unpriced: dict[str, list[LoopPrice]] = defaultdict(list)   # file → compiled loops calling unpriced routines
    removed: dict[str, list[LoopPrice]] = defaultdict(list)    # file → loops no instruction comes from
    include_dirs = tuple(getattr(analysis, "include_dirs", ()) or ())
    defines = dict(getattr(analysis, "defines", {}) or {})
    skipped: list[tuple[ir.Loc, str]] = []
    leaves = leaf_routines(analysis.program)
    for loop in source_loops(analysis.program, skipped, leaves):
        coverage.total += 1
        file = resolved_path(loop.file)
        if file not in compiled_files:
            compiled_files[file] = _compile(loop.file, str(spec), include_dirs, defines) if compiling else \
                "no compile command in the machine database or no llvm-mca here"
        cf = compiled_files[file]
        if isinstance(cf, str) and compiling:
            failed.setdefault(loop.file, (cf, []))[1].append(loop)
        statement_shares(loop, blocks, bindings)
        priced = price_loop(loop, trips_by_line, hierarchy, machine, spec, cf, bindings, leaves=leaves)
        if isinstance(cf, cc.CompiledFile) and (priced is None or priced.source != "compiled code"):
            unmatched[loop.file].append(loop)
        if priced is None:
            continue
        if priced.source == "compiled code":
            coverage.compiled += 1
            if priced.removed:
                coverage.removed += 1
                removed[loop.file].append(priced)
            if any(seconds is None for _, seconds in priced.calls):
                unpriced[loop.file].append(priced)
        else:
            coverage.operation_classes += 1
            if priced.guessed:
                coverage.guessed += 1
                guessed[loop.file].append(priced)
        explained.append(priced)
        for b in blocks:
            if resolved_path(b.file) != file:
                continue
            if runs_between_entries(b, priced):
                overrides[id(b)] = sympy.Integer(0)
                continue
            if not loop.line <= b.first_line <= loop.last_line:
                continue
            if b.kind == "loop_iter" and b.first_line == loop.line:
                # the first touch is paid once per program run: spread over the iterations of the block
                overrides[id(b)] = priced.seconds + priced.touch_s / sympy.Max(b.count, 1) \
                    if priced.touch_s != 0 else priced.seconds
            elif b.kind in ("code", "branch") and not any(k.startswith("cost:") for k in b.cost):
                overrides[id(b)] = sympy.Integer(0)
    _inlined_leaves(analysis.program, blocks, explained, overrides, coverage)
    how = "the calibrated operation classes" if hierarchy.ops else "per-operation prices"
    _note_unmodeled(coverage, skipped)
    _note_model(coverage, explained)
    _note_unmeasured(coverage, explained, hierarchy)
    _note_near_reach(coverage, explained, hierarchy)
    _note_variable_steps(coverage, explained)
    _note_slowed_walks(coverage, machine)
    for name, (why, loops) in failed.items():
        coverage.warnings.append(ir.Diagnostic(ir.Loc(name, 0), "warning", (
            f"{_loops_text(loops)} not priced from the compiled code, priced from {how}: {why}")))
    for name, prices in guessed.items():
        what = sorted({g for lp in prices for g in lp.guessed})
        coverage.warnings.append(ir.Diagnostic(ir.Loc(name, prices[0].loop.line), "warning", (
            f"{_loops_text([lp.loop for lp in prices])} priced from the operation classes with operations neither "
            f"a calibrated class nor the machine prices: {'; '.join(what)}")))
    for name, lines in _shared_lines(explained).items():
        coverage.warnings.append(ir.Diagnostic(ir.Loc(name, lines[0]), "warning", (
            f"loops of one nest share line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))}: the loop "
            f"model reads a loop's trips and first touch by its line, so their trips are mixed (the counts are "
            f"exact); write each loop on a line of its own for a priced nest")))
    for name, prices in unpriced.items():
        what = sorted({routine for lp in prices for routine, seconds in lp.calls if seconds is None})
        coverage.warnings.append(ir.Diagnostic(ir.Loc(name, prices[0].loop.line), "warning", (
            f"{_loops_text([lp.loop for lp in prices])} call{'s' if len(prices) == 1 else ''} "
            f"{', '.join(what)} in the compiled code, which the machine does not price "
            f"(processor.library.<name>.call; `sad calibrate` measures the math library): the core figure "
            f"counts each call as one instruction")))
    for name, prices in removed.items():
        coverage.warnings.append(ir.Diagnostic(ir.Loc(name, prices[0].loop.line), "warning", (
            f"{_loops_text([lp.loop for lp in prices])} not in the code `{spec}` generates (no instruction comes "
            f"from {'its' if len(prices) == 1 else 'their'} lines): removed by the compiler, priced as none")))
    for name, loops in unmatched.items():
        coverage.warnings.append(ir.Diagnostic(ir.Loc(name, loops[0].line), "warning", (
            f"{_loops_text(loops)} not found in the code `{spec}` generates (no loop of the assembly has most of its "
            f"instructions on those lines, or llvm-mca cannot read it): priced from {how}")))
    return overrides, explained


def _shared_lines(explained: list[LoopPrice]) -> dict[str, list[int]]:
    """By file, the lines on which a priced loop's nest has more than one loop (``for (...) for (...)``)."""
    shared: dict[str, set[int]] = defaultdict(set)
    for lp in explained:
        lines = [stmt.loc.line for stmt in lp.loop.nest]
        shared[lp.loop.file] |= {line for line in lines if lines.count(line) > 1}
    return {name: sorted(lines) for name, lines in shared.items() if lines}


def statement_shares(loop: SourceLoop, blocks, bindings: dict[str, sympy.Expr] | None) -> None:
    """Set each reference's ``share``: the executions of the block that holds its statement over the loop's
    iterations, where both are numbers (a statement in an arm of an ``if``; a test of the loop indices has an
    exact count: symvlow's ``if (j <= i) s += S[i][j] * x[j]; else s += S[j][i] * x[j]`` reads the row in
    half the iterations and the column in the other half, not both in each). A statement on a line that
    several blocks share, or counts the bound values leave symbolic: 1, every iteration."""
    file = resolved_path(loop.file)
    mine = [b for b in blocks if resolved_path(b.file) == file and loop.line <= b.first_line <= loop.last_line]
    iterations = [b.count for b in mine if b.kind == "loop_iter" and b.first_line == loop.line]
    total = _number(sympy.Add(*iterations), bindings) if iterations else None
    for ref in loop.refs:
        ref.share = _line_share(mine, ref.line, total, bindings)
    lines = {line for b in mine if b.kind == "code" for line in range(b.first_line, b.last_line + 1)}
    shares = {line: _line_share(mine, line, total, bindings, arm=True) for line in sorted(lines)}
    loop.line_shares = {line: share for line, share in shares.items() if share < 1.0}
    if iterations:
        loop.share_exprs = {line: expr for line in sorted(lines) if line not in loop.line_shares
                            and (expr := _share_expr(mine, line, sympy.Add(*iterations), bindings)) is not None}
    loop.data_lines = set(loop.share_exprs) | {line for line in loop.line_shares
                                               if (holder := _holder(mine, line, arm=True)) is not None
                                               and _probability_in(holder.count)}


def _share_expr(mine: list, line: int, iterations: sympy.Expr, bindings: dict[str, sympy.Expr] | None
                ) -> sympy.Expr | None:
    """The share of the iterations that run ``line`` as a formula in a branch probability the bindings leave
    free (None where the line's count is no such formula)."""
    holder = _holder(mine, line, arm=True)
    if holder is None:
        return None
    count = bind(holder.count, bindings) if bindings else holder.count
    if not _probability_in(count):
        return None
    total = bind(iterations, bindings) if bindings else iterations
    return sympy.Min(1, sympy.cancel(count / total))


def _line_share(mine: list, line: int, total: float | None, bindings: dict[str, sympy.Expr] | None,
                arm: bool = False) -> float:
    """The executions of the one code block on ``line`` over the loop's ``total`` iterations, else 1 (``arm``:
    see ``_holder``)."""
    holder = _holder(mine, line, arm)
    count = _number(holder.count, bindings) if holder is not None else None
    return min(1.0, count / total) if count is not None and total else 1.0


def _holder(mine: list, line: int, arm: bool = False):
    """The one code block that holds ``line`` among the loop's blocks, None where another block shares it.
    ``arm``: the line's instructions that a forward jump skips are asked about (an arm of an IF), so the test
    that jumps may share the line: ``if (up > h) h = up;`` written on one line is a branch block and the arm's
    code block, and the skipped instructions are the arm's (the test's references, run in every iteration,
    keep asking without ``arm``)."""
    holders = [b for b in mine if b.first_line <= line <= b.last_line and b.kind != "loop_iter"]
    if arm and sum(b.kind == "code" for b in holders) == 1:
        holders = [b for b in holders if b.kind != "branch"]
    return holders[0] if len(holders) == 1 and holders[0].kind == "code" else None


def _probability_in(count: sympy.Expr) -> bool:
    """A count that holds a branch probability (a test of data, P_...), not only loop trips."""
    return any(sym.name.startswith("P_") for sym in count.free_symbols)


def _number(expr: sympy.Expr, bindings: dict[str, sympy.Expr] | None) -> float | None:
    value = evaluate(bind(_exact_sums(expr), bindings or {}))
    return float(value) if value is not None else None


def runs_between_entries(block, priced: LoopPrice) -> bool:
    """True for a block the loop's core figure already prices: where llvm-mca ran the loop's entries with the code
    between them (``LoopPrice.between``, sad.predict.incore.entries_cycles), the statements on those lines in the
    enclosing loop's body, the loop's own entry and the enclosing loop's iteration. Priced again per operation they
    counted twice: cholesky at n = 100, -O2 (``A[i][j] /= A[j][j]`` between the k loop's entries, its A[j][j] at
    the strided load's price of a pass over memory) 18 ms of 134 ms predicted, 111 ms measured."""
    loop = priced.loop
    if not priced.between or _not_between(block, priced) or \
            len({lp.loc.line for lp in loop.nest}) < len(loop.nest):
        return False      # loops of the nest on one line: their blocks cannot be told apart by line
    if block.kind == "loop_entry":
        return block.first_line == loop.line
    if block.kind == "loop_iter":
        return len(loop.nest) > 1 and block.first_line == loop.nest[-2].loc.line
    enclosing = loop.nest[-2] if len(loop.nest) > 1 else None
    return block.kind in ("code", "branch") and not any(k.startswith("cost:") for k in block.cost) \
        and not loop.line <= block.first_line <= loop.last_line and enclosing is not None \
        and enclosing.loc.line <= block.first_line <= max(s.loc.line for s in walk_stmts([enclosing]))


def _not_between(block, priced: LoopPrice) -> bool:
    """True when none of the block's lines holds an instruction of the code between the loop's entries."""
    return not any(line in priced.between for line in range(block.first_line, block.last_line + 1))


def _note_model(coverage: LoopCoverage, explained: list[LoopPrice]) -> None:
    """Where llvm-mca does not know this host's core, the model that stands in for it: in the report's line
    and one warning at the first loop priced from the compiled code."""
    first = next((lp.loop for lp in explained if lp.source == "compiled code"), None)
    model = cc.host_model()
    if first is None or not model.note:
        return
    coverage.model = model.mcpu
    coverage.scaled = any(lp.scaled.startswith("llvm-mca") for lp in explained)
    coverage.warnings.append(ir.Diagnostic(ir.Loc(first.file, first.line), "warning", model.note))


_MISSING = (
    ("hierarchy.mispredict", "branch mispredictions", "a branch on data in the compiled code, and the machine "
     "database has no hierarchy.mispredict: its mispredictions are left out"),
    ("hierarchy.forward_folded", "folded-load forwarding", "a chain through memory whose load is folded into an "
     "operation, and the machine database has no hierarchy.forward_folded: the plain forwarding figure stands in "
     "(Zen renames a plain load, not a folded one: the chain may be under-priced)"),
    ("hierarchy.forward_rmw", "read-modify-write forwarding", "a chain through memory closed by a read-modify-write "
     "of a register's value (addq %rax, -24(%rbp)), and the machine database has no hierarchy.forward_rmw: the "
     "plain forwarding figure stands in (Intel's Golden Cove renames a plain load, not this form: the chain may be "
     "under-priced)"),
    ("hierarchy.column_read_even", "column walks an even number of lines apart", "a column walk whose rows are "
     "an even number of lines apart, and the machine database has no column_read_even (calibrated before such "
     "walks were timed apart): the column read figure stands in (on an Emerald Rapids VM such walks served "
     "from L2 and beyond took about twice as long: the loop may be under-priced)"),
    ("hierarchy.tlb.first", "first-level TLB misses", "a column walk, and the machine database has no "
     "hierarchy.tlb.first (calibrated before the first-level TLB was timed): a walk over more pages than that TLB "
     "holds pays no miss below the second level's onset (0.2 ns an access on an Emerald Rapids VM: the loop may "
     "be under-priced)"),
    ("hierarchy.tlb.pitches", "TLB set conflicts", "a column walk with rows a page or more apart, and the machine "
     "database has no hierarchy.tlb.pitches (calibrated before walks at several pitches were timed): the TLB's sets "
     "and ways are not known, so a walk whose pages crowd some sets pays no miss before the one-page walk's onset "
     "(two pages and a line apart, such a walk missed from about 1 100 rows on a Sapphire Rapids-class VM, the "
     "one-page walk from 2 048: the loop may be under-priced)"),
    ("hierarchy.chain_share", "the overlap of core and chain", "a loop whose iterations are linked through memory "
     "(a variable on the stack at -O0, or kept there across a call), and the machine database has no "
     "hierarchy.chain_share (`sad calibrate` fits it at every level; a file calibrated before may take the "
     "figure of this host's -O0 calibration; a format version 7 file's, fitted by an earlier rule, is not read): "
     "the share of the shorter of the loop's core and chain added to the "
     f"longer is {CHAIN_SHARE:g}, an Emerald Rapids VM's (0 to 0.25 on an AMD Zen 3 VM: the loop may be over-priced "
     "there)"),
    ("hierarchy.walk_share", "the column walks' fills behind a chain", "a loop whose iterations are linked through "
     "memory and that walks down a column, and the machine database has no hierarchy.walk_share (`sad calibrate` "
     "fits it at every level; a file calibrated before may take the figure of this host's -O0 calibration; a "
     "format version 7 file's, fitted by an earlier rule, is not read): the "
     f"walks' transfers into L1 wait behind the chain {WALK_SHARE:g} times, an Emerald Rapids VM's rule (0.15 to "
     "0.55 of them on an AMD Zen 3 VM: the loop may be over-priced there)"),
    ("processor.library.same", "the cost of a call", "a loop calling library routines, and the machine database "
     "has no processor.library.same (the cost of a call itself): each call is priced at its routine's work "
     "alone"),
    *((f"processor.library.{name}.byte", f"{name} per byte", f"a loop the compiler replaced by a call of {name}, "
       f"and the machine database has no processor.library.{name}.byte: it is priced as a 16-byte SSE copy loop, "
       f"which the C library's copies outrun (the loop may be over-priced)")
      for name in ("memcpy", "memmove", "memset")))
"""(figure a loop's bounds would use, its name in the report's line, what a loop without it leaves out)."""


def _share_unmeasured(core_s: float, chain_s: float, hierarchy: Hierarchy) -> tuple[str, ...]:
    """("hierarchy.chain_share",) where a loop's core and chain through memory overlap by the default share."""
    return ("hierarchy.chain_share",) if core_s > 0 and chain_s > 0 and hierarchy.chain_share is None else ()


def _walk_share_unmeasured(walk_fills: sympy.Expr | int, hierarchy: Hierarchy) -> tuple[str, ...]:
    """("hierarchy.walk_share",) where a chain through memory waits for column walks' fills by the default share."""
    return ("hierarchy.walk_share",) if walk_fills != 0 and hierarchy.walk_share is None else ()


def _note_unmeasured(coverage: LoopCoverage, explained: list[LoopPrice], hierarchy: Hierarchy) -> None:
    """A machine file calibrated before chain waits were measured (no ``hierarchy.chain_wait``): its loops are
    composed by the fully overlapping rule alone (sad.predict.overlap), which hides what a loop-carried chain
    waits for on L3 and memory. Said once, at the first loop priced, and in the report's line. Likewise a
    loop's chain through a load folded into an operation on a machine without ``forward_folded``, or closed by a
    read-modify-write of a register's value on one without ``forward_rmw``."""
    for figure, name, what in _MISSING:
        loops = [lp for lp in explained if figure in lp.unmeasured]
        if loops:
            coverage.unmeasured.append(name)
            coverage.warnings.append(ir.Diagnostic(ir.Loc(loops[0].loop.file, loops[0].loop.line), "warning", (
                f"{_loops_text([lp.loop for lp in loops])}: {what}; recalibrate with `sad calibrate`")))
    if not explained or hierarchy.chain_wait_measured:
        return
    coverage.unmeasured.append("chain waits")
    first = explained[0].loop
    coverage.warnings.append(ir.Diagnostic(ir.Loc(first.file, first.line), "warning", (
        "the machine database has no hierarchy.chain_wait (calibrated before chain waits were measured): a "
        "loop-carried chain is taken to hide every transfer, max(core, chain, data), which under-prices a chain "
        "waiting on L3 or memory; recalibrate with `sad calibrate`")))


NEAR_REACH = (0.75, 1.125)
"""Rows of a column walk, as shares of the pages the TLBs hold (``Hierarchy.tlb_pages``), between which its cost
per access swings with the row pitch more than the TLB model follows. benchmarks/tlb_pitch.py on a Sapphire
Rapids-class VM (2 048 entries), 22 pitches of 4 160-24 640 B: at 1 536 rows 0.1-2.8 ns more an access than in the
first-level TLB, at 2 048 rows 1.5-5.4 (the model 1.6-4.3), at 2 560 rows 5.8-8.6 (the model 5.3-6.0); the
development suite's mvt (a column walk over 2 000 rows 16 000 B apart) ran 2.2x its prediction, at n = 1 544
1.1x."""


def _near_reach_applies(hierarchy: Hierarchy) -> bool:
    return hierarchy.tlb_pages > 0 and hierarchy.tlb_miss_s > 0 and bool(hierarchy.page_bytes)


def _with_walk_probe(hierarchy: Hierarchy, machine, coverage: LoopCoverage) -> Hierarchy:
    """The hierarchy with this host's walk probe (sad.machine.walkprobe) where the machine file was calibrated on
    this host and has TLB figures; the walks it times are noted in ``coverage.probed``. A probe that cannot run
    here is said in a warning, and the TLB model prices the walks."""
    if not (hierarchy.tlb_pages and hierarchy.page_bytes):
        return hierarchy
    probe = walkprobe.for_machine(getattr(machine, "models", None))
    if probe is None:
        return hierarchy
    if not probe.ready():
        coverage.warnings.append(ir.Diagnostic(ir.Loc(str(getattr(machine, "path", "machine")), 0), "warning", (
            f"column walks and row streams that start anew at each entry priced by the model, not timed on this "
            f"host: {probe.failed}")))
        return hierarchy

    def timed(columns: tuple[walkprobe.Column, ...], chained: bool = False) -> walkprobe.Timed | None:
        figures = probe.seconds(columns, chained)
        if figures is not None:
            if not chained:
                coverage.probed[columns] = figures.ns
            if figures.slowed:
                coverage.slowed[columns] = max(figures.slowed, coverage.slowed.get(columns, 0.0))
        return figures
    return dataclasses.replace(hierarchy, walk_probe=timed, chain_probe=functools.partial(timed, chained=True))


def _note_slowed_walks(coverage: LoopCoverage, machine) -> None:
    """One warning where a column walk's timed figure was timed while the host ran slowed (the walk probe keeps
    it until a quiet host times it again): such a figure is high."""
    if not coverage.slowed:
        return
    n = sum(len(columns) for columns in coverage.slowed)
    coverage.warnings.append(ir.Diagnostic(ir.Loc(str(getattr(machine, "path", "machine")), 0), "warning", (
        f"{_timed_text(coverage.slowed)} {'were' if n > 1 else 'was'} timed while this host ran up to "
        f"{max(coverage.slowed.values()):.2f}x slower than its fastest (host-speed sentinel): "
        f"their figures may be high; they are timed again when the host is quiet "
        f"(or delete {walkprobe.CACHE} in the cache directory)")))


def _walk_near_reach(walks: list[tuple[Ref, Walk]], hierarchy: Hierarchy) -> int:
    """The rows of the first of a loop's ``walks`` (rows a page or more apart, their number known) that lies within
    ``NEAR_REACH`` of the TLBs' reach; 0 where none does, the machine has no TLB figures, or a walk probe times
    the loop's walks (no more than ``walkprobe.MAX_COLUMNS``, sad.predict.reuse.probed_seconds: the model's
    figure is not used there)."""
    if not _near_reach_applies(hierarchy) or (
            hierarchy.walk_probe is not None and len(walks) <= walkprobe.MAX_COLUMNS):
        return 0
    low, high = (share * hierarchy.tlb_pages for share in NEAR_REACH)
    for _, walk in walks:
        rows = walk.bytes / hierarchy.line_bytes
        if rows.is_Integer and walk.pitch.is_Integer and walk.pitch >= hierarchy.page_bytes and low <= rows <= high:
            return int(rows)
    return 0


def _note_near_reach(coverage: LoopCoverage, explained: list[LoopPrice], hierarchy: Hierarchy) -> None:
    """One warning per file naming its loops whose column walk lies near the TLBs' reach (``NEAR_REACH``), and
    their number in the report's line: there the model's figure may be off by up to 2x, either way."""
    by_file: dict[str, list[LoopPrice]] = defaultdict(list)
    for lp in explained:
        if lp.near_reach:
            by_file[lp.loop.file].append(lp)
    for loops in by_file.values():
        coverage.near_reach += len(loops)
        rows = ", ".join(str(lp.near_reach) for lp in loops)
        coverage.warnings.append(ir.Diagnostic(ir.Loc(loops[0].loop.file, loops[0].loop.line), "warning", (
            f"{_loops_text([lp.loop for lp in loops])}: a column walk over {rows} rows a page or more apart, near "
            f"the {hierarchy.tlb_pages} pages the TLBs hold: there the cost of an access swings with the rows' "
            "pitch more than the model follows (on a Sapphire Rapids-class VM 1.5-5.4 ns more at 2 048 rows over 22 "
            "pitches, 0.1-2.8 at 1 536), and the loop's time may be off by up to 2x")))


def _inlined_leaves(program: ir.Program, blocks, explained: list[LoopPrice], overrides: dict[int, sympy.Expr],
                    coverage: LoopCoverage) -> None:
    """The leaf routines the compiler inlined into loops priced from their compiled code (a call in the source,
    no call instruction in the loop: ``static inline double sq(double)``): their work is in the loop's core, so
    their own blocks are priced as none where every call of them comes from such loops; where another call
    keeps them, a warning says that those loops count their work twice."""
    inlined: Counter[str] = Counter()
    where: dict[str, SourceLoop] = {}
    for lp in explained:
        if lp.source != "compiled code":
            continue
        kept = {linkage(name) for name, _ in lp.calls}
        for name in leaf_calls(lp.loop):
            if name not in kept:
                inlined[name] += 1
                where.setdefault(name, lp.loop)
    if not inlined:
        return
    sites = Counter(resolve_name(c.name) for p in program.procedures for c in ir.calls_in(p)
                    if not (isinstance(c, ir.FuncCall) and c.intrinsic))
    for name, calls in sorted(inlined.items()):
        if calls >= sites[name]:
            for b in blocks:
                if resolve_name(b.procedure) == name:
                    overrides[id(b)] = sympy.Integer(0)
            continue
        loop = where[name]
        coverage.warnings.append(ir.Diagnostic(ir.Loc(loop.file, loop.line), "warning", (
            f"{name} is inlined into loops priced from the compiled code (line {loop.line}) and also called "
            "elsewhere: its blocks keep their price, so those loops count its work twice")))


def _note_variable_steps(coverage: LoopCoverage, explained: list[LoopPrice]) -> None:
    """One warning per file naming its loops whose step is a variable (the sieve's `j += i`): the data part
    knows no stride for them and prices each reference a step of one element (sad.predict.reuse.do_step). A
    step of a line or more moves a line an iteration, 64 times what a byte array's unit step moves."""
    by_file: dict[str, list[LoopPrice]] = defaultdict(list)
    for lp in explained:
        if not constant_step(lp.loop.nest[-1]):
            by_file[lp.loop.file].append(lp)
    for loops in by_file.values():
        coverage.variable_step += len(loops)
        coverage.warnings.append(ir.Diagnostic(ir.Loc(loops[0].loop.file, loops[0].loop.line), "warning", (
            f"{_loops_text([lp.loop for lp in loops])}: the step is not a constant, so the data part prices "
            "each reference a step of one element; where the step reaches a cache line or more, every iteration "
            "moves a line and the loop may run many times longer than priced")))


def _note_unmodeled(coverage: LoopCoverage, skipped: list[tuple[ir.Loc, str]]) -> None:
    """Innermost loops the compiled-code model does not take (sourceloops.source_loops' `skipped`): counted in the
    report's line among those priced per operation, and named in one warning per file with why."""
    coverage.total += len(skipped)
    by_file: dict[str, list[tuple[ir.Loc, str]]] = defaultdict(list)
    for loc, why in skipped:
        by_file[loc.file].append((loc, why))
    for loops in by_file.values():
        many = len(loops) > 1
        coverage.warnings.append(ir.Diagnostic(loops[0][0], "warning", (
            f"{len(loops)} innermost loop{'s' if many else ''} not priced from the compiled code, priced per "
            f"operation (the machine database's prices): " + "; ".join(f"line {loc.line}, {why}" for loc, why in loops)
            + " (the loop model prices counted loops without calls)")))


def _loops_text(loops: list[SourceLoop]) -> str:
    many = len(loops) > 1
    return f"{len(loops)} innermost loop{'s' if many else ''} (line{'s' if many else ''} " + \
        ", ".join(str(lp.line) for lp in loops) + ")"


def _compile(file: str, spec: str, include_dirs: tuple[str, ...], defines: dict[str, str]) -> cc.CompiledFile | str:
    """The source compiled as the user's build compiles it: the machine's command, the analysis's -I, and
    its -D where they are macros (not values of the program's variables), as sad profile and validate do."""
    from sad.analysis.pipeline import preprocessor_defines
    macros = tuple(f"-D{k}={v}" for k, v in sorted(preprocessor_defines(file, defines).items()))
    return cc.compiled_file(Path(file), spec, include_dirs, macros)


def _price_one(loop: SourceLoop, cf: cc.CompiledFile, file: str, trips_by_line, hierarchy: Hierarchy,
               spec: str | None = None, bindings: dict[str, sympy.Expr] | None = None,
               library: LibraryFigure | None = None, spread: bool = True, control_s: float = 0.0
               ) -> LoopPrice | None:
    """A loop priced from its compiled code (None where the assembly has no loop that is this one);
    ``control_s``: the machine's measured empty counted loop (sad.predict.incore.index_chain)."""
    trips = _trips(loop, trips_by_line)
    own = trips[id(loop.nest[-1])]
    own_value = evaluate(bind(own, bindings) if bindings else own)
    core = compiled_bounds(loop, cf, file, hierarchy, spec, own_value, library, control_s)
    if core is None:
        return None
    if core.removed:   # nothing runs: no core, no data (its references are the source's, not the program's)
        return LoopPrice(loop, sympy.Integer(0), 0.0, 0.0, sympy.Integer(0), "", scaled=core.scaled, removed=True)
    (seconds, data, wait, transfers, walk_fills), shown, points = _spread(
        loop, trips, bindings, lambda at: _memory_side(loop, at, hierarchy, bindings, core), spread)
    price = LoopPrice(loop, seconds, core.core_s, core.chain_s, data, "", core.width, core.instructions, shown)
    price.latency_s, price.wait_s, price.index_s = core.latency_s, wait, core.index_s
    price.loads_s, price.transfers_s, price.walk_fills_s = core.loads_s, transfers, walk_fills
    price.window = core.window
    price.outer = core.outer
    price.scaled = core.scaled
    price.between = core.between
    price.calls, price.call_s = core.calls, core.call_s
    price.unmeasured = (core.unmeasured + _share_unmeasured(core.core_s, core.chain_s, hierarchy)
                        + _walk_share_unmeasured(walk_fills, hierarchy))
    price.arms = core.arms
    price.trip_points = points
    _add_first_touch(price, loop, trips, hierarchy)
    return price


Side = tuple[sympy.Expr, sympy.Expr, sympy.Expr, sympy.Expr | int, sympy.Expr | int]
"""Per iteration: seconds, data, the chain's wait, the transfers into L1 and the column walks' part of those."""
Shown = list[tuple[str, sympy.Expr, float, Walk | None]]               # the streams --explain lists


def _memory_side(loop: SourceLoop, trips: dict[int, sympy.Expr], hierarchy: Hierarchy,
                 bindings: dict[str, sympy.Expr] | None, core: InCore) -> tuple[Side, Shown]:
    """A compiled loop's seconds per iteration at the given trips per entry, with the data, the chain's waits and
    the transfers into L1 that go into them (each per source iteration: divided by the vector where gcc
    vectorized the enclosing loop), and the streams --explain shows."""
    streams = streams_of(loop, trips, hierarchy, bindings, core.window, core.width if core.outer else 1)
    # a library copy's figure holds its loads and stores in L1: only the transfers beyond L1 are data then
    data, shown = data_seconds(loop, trips, into_l1(hierarchy) if core.l1_included else l1_in_core(hierarchy),
                               bindings, core.window, streams)
    # a chain through memory also waits for a column walk's new lines (sad.predict.overlap)
    timed_waits = _chain_waits(streams[0], loop, trips, hierarchy, core.latency_s, core.chain_s)
    register_chain = core.latency_s > 0 and core.chain_s <= core.latency_s
    wait = wait_seconds(streams[0], hierarchy, core.chain_s > core.latency_s, timed_waits, register_chain)
    if timed_waits is not None:   # every walk of the loop was timed: the data term shows each one timed
        shown = [(f"{label}, the chain waits {float(timed_waits) * 1e9:.3g} ns an access"
                  if walk is not None else label, *rest, walk) for label, *rest, walk in shown]
    transfers = transfer_seconds(loop, trips, hierarchy, bindings, core.window, streams) if core.loads_s else 0
    walk_fills = _walk_fills(loop, trips, hierarchy, bindings, core, streams)
    if core.outer:
        data, wait, transfers, walk_fills = (outer_vectorized_data(x, core.width)
                                             for x in (data, wait, transfers, walk_fills))
    seconds = loop_seconds(core_with_arms(core), core.chain_s, data, core.latency_s, wait, core.loads_s, transfers,
                           walk_fills, chain_share(hierarchy), walk_share(hierarchy), core.index_s)
    return (seconds, data, wait, transfers, walk_fills), shown


def _chain_waits(streams: list[Stream], loop: SourceLoop, trips: dict[int, sympy.Expr], hierarchy: Hierarchy,
                 latency: float, chain: float = 0.0) -> sympy.Expr | None:
    """Seconds per access a loop-carried register chain (``latency`` seconds a link, 0: none) waits on the loop's
    column walks, timed on this host with a serial sum in a register (sad.predict.reuse.probed_seconds,
    ``chained``); None where the loop has no such chain, a longer ``chain`` through memory binds it (-O0's stack
    slots: each link a store and a load of the L1, priced with the walks' fills, sad.predict.overlap), or the
    walks are not timed: the levels' chain waits then."""
    if latency <= 0 or chain > latency or hierarchy.chain_probe is None:
        return None
    return probed_seconds(streams, loop, trips, hierarchy, chained=True)


def _walk_fills(loop: SourceLoop, trips: dict[int, sympy.Expr], hierarchy: Hierarchy,
                bindings: dict[str, sympy.Expr] | None, core: InCore,
                streams: tuple[list[Stream], list[tuple]]) -> sympy.Expr | int:
    """The transfers into L1 of the loop's column walks (``transfer_seconds`` of the streams with a walk), which a
    chain through memory does not overlap (sad.predict.overlap); 0 with no such chain or no walk."""
    if core.chain_s <= 0 or not core.loads_s:
        return 0
    walks = [stream for stream in streams[0] if stream[3] is not None]
    return transfer_seconds(loop, trips, hierarchy, bindings, core.window, (walks, streams[1])) if walks else 0


def _spread(loop: SourceLoop, trips: dict[int, sympy.Expr], bindings: dict[str, sympy.Expr] | None,
            side: Callable[[dict[int, sympy.Expr]], tuple[Side, Shown]], spread: bool = True
            ) -> tuple[Side, Shown, int]:
    """``side`` at the mean trips per entry, or, where the innermost loop's trips differ between entries
    (sad.predict.tripspread), its mean over ``nest_points`` weighed by the iterations each stands for (the
    cost of an iteration is convex in the rows a walk covers: its value at the mean trips is too low); with the
    streams at the mean trips and the number of points (0: the mean alone)."""
    mean, shown = side(trips)
    points = tripspread.nest_points(loop, bindings, trips) if spread else []
    if not points:
        return mean, shown, 0
    parts = [(point.share, side(_at_point(trips, point, id(loop.nest[-1])))[0]) for point in points]
    seconds, data, wait, transfers, walk_fills = (
        sympy.Add(*(sympy.Float(share, 6) * part[k] for share, part in parts)) for k in range(5))
    return (seconds, data, wait, transfers, walk_fills), shown, len(points)


def _at_point(trips: dict[int, sympy.Expr], point: tripspread.TripPoint, inner: int) -> dict[int, sympy.Expr]:
    """The nest's trips per entry at one of its points: the innermost loop's and each enclosing loop's there
    (what an iteration reuses between its rows' visits grows with them), the others' means as given."""
    at = {**trips, **{loop: sympy.Integer(max(1, round(mean))) for loop, mean in point.outer if loop in trips}}
    at[inner] = sympy.Integer(point.trips)
    return at


def core_with_arms(core: InCore) -> sympy.Expr | float:
    """The core figure with the arms whose share is a branch probability no run has told: each paid in that
    share (less its cycles where it does not run) and, for a test of data, its mispredictions in the minority
    share; a formula in the probability, so the time stays unbound until a profile binds it."""
    if not core.arms:
        return core.core_s
    value = sympy.Float(core.core_s, 6)
    for share, adds, flip in core.arms:
        value -= (1 - share) * sympy.Float(adds, 6)
        if flip:
            value += sympy.Min(share, 1 - share) * sympy.Float(flip, 6)
    return value


def price_loop(loop: SourceLoop, trips_by_line, hierarchy: Hierarchy, machine, spec: str | None,
               compiled: cc.CompiledFile | str | None = None, bindings: dict[str, sympy.Expr] | None = None,
               spread: bool = True, leaves: frozenset[str] = frozenset()) -> LoopPrice | None:
    """One innermost loop's price as `price_loops` gives it: from its compiled code where `compiled` is the
    file's compile and holds the loop, else from the operation classes where the hierarchy has them; None
    where neither can price it. `trips_by_line`: trips per entry of the nest's loops, by (file, line), the
    mean over the entries; ``spread``: a loop whose trips differ between entries is priced at points of them
    (``_spread``); False where the trips given are one entry's own (sad.predict.traceloops). A call of one of
    the program's `leaves` (sad.predict.sourceloops.leaf_routines) costs the call itself here: the routine's
    own blocks price its work."""
    priced = None
    if isinstance(compiled, cc.CompiledFile):
        def library(name: str) -> float | None:
            return 0.0 if linkage(name) in leaves else machine.op_cost(f"lib.{name}")
        priced = _price_one(loop, compiled, resolved_path(loop.file), trips_by_line, hierarchy, spec, bindings,
                            library, spread, machine.op_cost("loop_iter") or 0.0)
    if priced is None and hierarchy.ops:
        priced = _price_from_ops(loop, trips_by_line, hierarchy, machine, spec, bindings, spread)
    if priced is not None:
        walks = _column_walks(loop, trips_by_line, hierarchy, bindings)
        priced.unmeasured += _walk_figures_unmeasured(walks, hierarchy)
        priced.near_reach = _walk_near_reach(walks, hierarchy)
    return priced


def linkage(symbol: str) -> str:
    """The routine an assembly call names (``sq.constprop.0``, ``weight``, ``force_``) by its linkage name."""
    return resolve_name(symbol.split(".")[0])


def _column_walks(loop: SourceLoop, trips_by_line, hierarchy: Hierarchy,
                  bindings: dict[str, sympy.Expr] | None) -> list[tuple[Ref, Walk]]:
    """The loop's strided references with their walks, for the checks below; found only where one of them
    can say something (a machine with TLB figures, or a file lacking a column-walk figure)."""
    if not (any(_walk_checks(hierarchy)) or _near_reach_applies(hierarchy)):
        return []
    streams, _ = streams_of(loop, _trips(loop, trips_by_line), hierarchy, bindings)
    return [(ref, walk) for ref, _, _, walk, *_ in streams if walk is not None]


def _walk_checks(hierarchy: Hierarchy) -> tuple[bool, bool, bool]:
    """Whether the file lacks each column-walk figure: (``column_read_even``, ``tlb.first``, ``tlb.pitches``)."""
    even = hierarchy.column_walks_measured and not any(lv.column_even_s for lv in hierarchy.levels)
    first = hierarchy.tlb_pages > 0 and not hierarchy.tlb_first[0]
    pitches = hierarchy.tlb_pages > 0 and hierarchy.tlb_miss_s > 0 and not hierarchy.tlb_pitches
    return even, first, pitches


def _walk_figures_unmeasured(walks: list[tuple[Ref, Walk]], hierarchy: Hierarchy) -> tuple[str, ...]:
    """The column-walk figures a machine file calibrated before they were timed lacks for the loop of ``walks``:
    ``hierarchy.column_read_even`` where it reads a walk whose rows may be an even number of lines apart and the
    file has column walks (``Hierarchy.column_walks_measured``) but no level's ``column_read_even`` (the odd
    figure stands in); ``hierarchy.tlb.first`` where it walks a column and the file has the TLBs' reach but no
    first-level figure (no miss below the onset); ``hierarchy.tlb.pitches`` where a walk's rows may be a page or more
    apart and the file has the TLBs' reach but no walks at other pitches (no set conflicts: the one-page curve)."""
    even, first, pitches = _walk_checks(hierarchy)
    missing: tuple[str, ...] = ()
    if even and any(not ref.write and even_lines(walk.pitch, hierarchy.line_bytes, sympy.true, sympy.false)
                    is not sympy.false for ref, walk in walks):
        missing += ("hierarchy.column_read_even",)
    if first and walks:
        missing += ("hierarchy.tlb.first",)
    if pitches and any(sympy.Ge(walk.pitch, hierarchy.page_bytes) is not sympy.false for _, walk in walks):
        missing += ("hierarchy.tlb.pitches",)
    return missing


def outer_vectorized_data(data: sympy.Expr, width: int) -> sympy.Expr:
    """Seconds of data per source iteration where gcc vectorized the enclosing loop by ``width``: each access
    of the compiled loop serves ``width`` source iterations (a reference along the outer index reads their
    elements from one line, one that does not move with it reads one element for all of them), so every
    transfer ``data_seconds`` prices per iteration is paid once per ``width`` iterations. gemver at n = 1024,
    -O2 (``x[i] += A[j][i] * y[j]``, i vectorized by 2, A's rows 8 KiB apart): 3.4 ns per compiled iteration
    here, 1.7 ns per source iteration; the same walk with i not vectorized (a scalar accumulator) 3.4 ns."""
    return data / width if width > 1 else data


def _trips(loop: SourceLoop, trips_by_line) -> dict[int, sympy.Expr]:
    """Trips per entry of every loop of the nest and of its neighbours' own loops (sad.predict.reuse's
    ``neighbour_footprint``), by id of its statement."""
    loops = [*loop.nest, *(other.nest[-1] for other in loop.neighbours)]
    return {id(lp): trips_by_line.get((resolved_path(lp.loc.file), lp.loc.line), sympy.Integer(1)) for lp in loops}


def _price_from_ops(loop: SourceLoop, trips_by_line, hierarchy: Hierarchy, machine, spec: str | None,
                    bindings: dict[str, sympy.Expr] | None = None, spread: bool = True) -> LoopPrice:
    """A loop the compiled-code model cannot price: the operation classes (sad.predict.incore.operation_bounds)
    composed with the same data part by the same rule."""
    core = operation_bounds(loop, hierarchy, machine, spec)
    trips = _trips(loop, trips_by_line)

    def side(at: dict[int, sympy.Expr]) -> tuple[Side, Shown]:
        streams = streams_of(loop, at, hierarchy, bindings)
        data, shown = data_seconds(loop, at, hierarchy, bindings, given=streams)
        wait = wait_seconds(streams[0], hierarchy, core.chain_s > 0)
        return (loop_seconds(core.core_s, core.chain_s, data, 0.0, wait, share=chain_share(hierarchy)), data, wait,
                0, 0), shown

    (seconds, data, wait, _, _), shown, points = _spread(loop, trips, bindings, side, spread)
    price = LoopPrice(loop, seconds, core.core_s, core.chain_s, data, "", 1, 0, shown, source="operation classes")
    price.unmeasured = _share_unmeasured(core.core_s, core.chain_s, hierarchy)
    price.wait_s = wait
    price.trip_points = points
    price.guessed = core.guessed
    _add_first_touch(price, loop, trips, hierarchy)
    return price


def _add_first_touch(price: LoopPrice, loop: SourceLoop, trips: dict[int, sympy.Expr], hierarchy: Hierarchy) -> None:
    """The faults of the pages this loop is the first to touch: a page written first is allocated and zeroed
    (``first_touch``); a page only read (calloc's memory summed, a never-written array) maps the kernel's
    zero page, about a third of that on Zen 4 / Linux 6 (``first_read``)."""
    if loop.first_touch and hierarchy.first_touch_s > 0:
        price.touch_bytes = first_touch_bytes(loop, trips, hierarchy.line_bytes)
        read = loop.read_first
        price.read_bytes = first_touch_bytes(loop, trips, hierarchy.line_bytes, read) if read else sympy.Integer(0)
        price.touch_s = ((price.touch_bytes - price.read_bytes) * sympy.Float(hierarchy.first_touch_s, 6)
                         + price.read_bytes * sympy.Float(hierarchy.read_fault_s, 6)) / hierarchy.page_bytes


# ------------------------------------------------------------------------------------------- explaining


def _first_touch_lines(lp: LoopPrice, hierarchy: Hierarchy, bindings) -> list[str]:
    """--explain's lines on the pages a loop touches first: written (allocated, zeroed) and only read."""
    def pages(nbytes: sympy.Expr) -> str:
        value = evaluate(bind(nbytes, bindings))
        return f"{value / hierarchy.page_bytes:.4g} pages" if value is not None else "pages unbound"
    read = lp.loop.read_first
    written = [a for a in lp.loop.first_touch if a not in read]
    out = []
    if written:
        out.append(f"      first touch of {', '.join(written)}: {pages(lp.touch_bytes - lp.read_bytes)} x "
                   f"{hierarchy.first_touch_s * 1e6:.3g} us once per run")
    if read:
        how = "the zero page mapped" if hierarchy.first_read_s else \
            "no first_read figure in the machine file: priced as a write's"
        out.append(f"      first read of {', '.join(read)} ({how}): {pages(lp.read_bytes)} x "
                   f"{hierarchy.read_fault_s * 1e6:.3g} us once per run")
    return out


def _chained_label(lp: LoopPrice, part: float, how: str) -> str:
    """--explain's name of the core-and-chain bound (sad.predict.overlap.chained): through the index kept in
    memory (beside a longer chain, if any), or the one chain."""
    rule = f"(the longer + {part:g} x the shorter{how})"
    if lp.index_s <= 0:
        return f"core and chain {rule}"
    return f"core and index chain {rule}" + (", or the longer chain" if lp.chain_s > lp.index_s else "")


def explain(explained: list[LoopPrice], prediction, bindings: dict[str, sympy.Expr], hierarchy: Hierarchy | None,
            top: int = 5) -> str:
    """Text: for the innermost loops that take the most time, which bound limits them and why."""
    if not explained or hierarchy is None:
        return "explain: no innermost loop priced from compiled code (the machine has no hierarchy section, " \
               "no compile command, or llvm-mca/the compiler is missing): per-operation prices only\n"
    times = {(resolved_path(bt.block.file), bt.block.first_line): bt.time_value for bt in prediction.blocks
             if bt.block.kind == "loop_iter"}
    ranked = sorted(explained, key=lambda lp: -(times.get((resolved_path(lp.loop.file), lp.loop.line)) or 0.0))
    out = [f"explain: innermost loops priced from the compiled code ({len(explained)}), clock "
           f"{hierarchy.clock_hz / 1e9:.3g} GHz measured"]
    for lp in ranked[:top]:
        total = times.get((resolved_path(lp.loop.file), lp.loop.line))
        data = evaluate(bind(lp.data_s, bindings)) if lp.data_s != 0 else 0.0
        compiled = lp.source == "compiled code"
        bounds = {"core (llvm-mca)": lp.core_s, "latency chain through memory": lp.chain_s} if compiled else \
            {"throughput (operation classes)": lp.core_s, "latency chain": lp.chain_s}
        core_chain = chained(lp.core_s, lp.chain_s, chain_share(hierarchy), lp.index_s)
        if lp.chain_s > 0 and lp.core_s > 0:
            # the two overlap only partly (sad.predict.overlap.chained)
            how = "" if hierarchy.chain_share is not None else ", not measured on this machine"
            bounds[_chained_label(lp, chain_share(hierarchy), how)] = core_chain
        if data is not None:
            bounds["data"] = data
        wait = evaluate(bind(lp.wait_s, bindings)) if lp.wait_s != 0 else 0.0
        if wait and max(lp.latency_s, lp.chain_s) > 0:
            bounds["chain + its waits on the loads"] = max(lp.latency_s, lp.chain_s) + wait
        fills = evaluate(bind(lp.transfers_s, bindings)) if lp.loads_s and lp.transfers_s != 0 else 0.0
        if fills:
            bounds["load ports + lines into L1"] = lp.loads_s + fills
        walk_fills = evaluate(bind(lp.walk_fills_s, bindings)) if lp.walk_fills_s != 0 else 0.0
        if walk_fills:   # only beside a chain through memory (_walk_fills)
            part = walk_share(hierarchy)
            how = "" if hierarchy.walk_share is not None else ", not measured on this machine"
            scale = "" if part == 1 and how == "" else f"{part:g} x "
            bounds[f"core and chain + {scale}the column walks' lines into L1{how}"] = \
                core_chain + part * walk_fills
        limit = max(bounds, key=lambda k: bounds[k])
        share = f"{total:.4g} s" if total is not None else "time unbound"
        out.append(f"  {lp.loop.file}:{lp.loop.line}  {share}; per iteration "
                   + ", ".join(f"{k} {v * 1e9:.3g} ns" for k, v in bounds.items()) + f"  -> bound: {limit}")
        if compiled:
            out.append(f"      core: {lp.core_s * hierarchy.clock_hz:.3g} cycles/iteration from {lp.asm_instructions} "
                       f"instructions" + (f", {lp.vector} source iterations a pass" if lp.vector > 1 else "")
                       + (" along the enclosing loop (data per iteration / vector)" if lp.outer else "")
                       + (f"; {lp.scaled}" if lp.scaled else ""))
            for share, adds, flip in lp.arms:
                out.append(f"      arm of an IF in {share} of the iterations: {adds * 1e9:.3g} ns when it runs"
                           + (f", {flip * 1e9:.3g} ns a misprediction" if flip else "")
                           + " (the core figure counts it in every one; the time keeps the probability)")
            if lp.calls:
                out.append("      calls: " + ", ".join(
                    f"{name} {seconds * 1e9:.3g} ns" if seconds is not None else f"{name} (not priced)"
                    for name, seconds in lp.calls)
                    + (f", calling {lp.call_s * 1e9:.3g} ns" if lp.call_s else "")
                    + " per iteration (processor.library), added to the core's cycles without its divisions")
        else:
            out.append("      core: not compiled here; calibrated latency and throughput of the operation classes")
        if lp.trip_points:
            out.append(f"      trips per entry differ between entries (a triangular nest): priced at {lp.trip_points} "
                       "points of them, each weighed by the iterations it stands for; the streams below at the mean")
        if lp.touch_s != 0:
            out.extend(_first_touch_lines(lp, hierarchy, bindings))
        for name, fp, lines, stride_walk in lp.levels:
            value = evaluate(bind(fp, bindings))
            pair = None
            if stride_walk is not None:
                pitch = evaluate(bind(stride_walk.pitch, bindings))
                walk_bytes = evaluate(bind(stride_walk.bytes, bindings))
                pair = (pitch, walk_bytes) if pitch is not None and walk_bytes is not None else None
            where = level_name(value, hierarchy, pair) if value is not None else "depends on " + str(fp)
            crowded = one_set_shares(sympy.Integer(int(pair[0])), hierarchy, lp.window)[0][0] \
                if pair is not None and float(pair[0]).is_integer() else 0
            out.append(f"      {name}: {lines * hierarchy.line_bytes:.3g} bytes/iteration from {where}"
                       + (f" ({value / 1024:.4g} KiB between reuses)" if value is not None else "")
                       + (f"; rows in {1 / crowded} L1 sets, more in flight than their ways: column cost + "
                          f"one-set excess / {1 / crowded ** 2}" if crowded else ""))
    return "\n".join(out) + "\n"
