"""The in-core part of the loop-cost model: seconds per iteration of a loop's own work, without its data.

Data flow: an innermost loop (sad.predict.sourceloops) and, where the source compiled here, its file's loops
in the generated code (sad.predict.compiled) → ``compiled_bounds``: the assembly loop that runs the source loop
(most of its instructions on the loop's lines; the vectorized one where gcc vectorized it), llvm-mca's cycles
per iteration (port throughput and the chains through registers) / the source iterations one pass covers
(``vector_width``: from how far its addresses advance) / clock, and the longest
loop-carried chain through memory (a slot of the stack at -O0, an element updated in place, an element read
back in a later iteration: store-to-load forwarding + the operations on it), and the loop-carried chain through
an accumulator register (``accumulator_cycles``: what sad.predict.overlap adds the chain's waits on its loads to).
A loop that calls a library routine (``call exp``, which llvm-mca takes for one instruction) adds the routine's
calibrated work (``library_seconds``) to its own cycles without divisions and square roots.
Where no compiled loop prices it:
``operation_bounds``, the calibrated operation classes (sad.predict.opmodel), every reference at its issue
price (the data part prices its line). Where llvm-mca's model is another core's, its cycles are scaled per
resource class by the ratios `sad calibrate` measured (``host_cycles``). sad.predict.loopcost composes these
with sad.predict.reuse.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import sympy

from sad import ir
from sad.analysis.cost import Layout, is_strided
from sad.ir.walk import walk, walk_stmts
from sad.machine import corescale, libbench
from sad.machine.hierarchy import Hierarchy
from sad.machine.model import STRIDED_KEYS
from sad.predict import compiled as cc
from sad.predict import opmodel, regchain
from sad.predict.sourceloops import EXACT_TYPES, Ref, SourceLoop, _as_ir, resolved_path


@dataclass(frozen=True)
class InCore:
    """The in-core bounds of one source loop, per iteration of the source loop."""
    core_s: float          # throughput and register chains (llvm-mca), or the operation classes' throughput
    chain_s: float         # the longest loop-carried chain through memory
    width: int = 1         # source iterations per compiled iteration (vector x unroll)
    instructions: int = 0  # instructions of the compiled loop body (0: not compiled)
    window: float | None = None   # iterations in flight: reorder-buffer entries / instructions per iteration
    outer: bool = False    # the width is the enclosing loop's: gcc vectorized the nest's next loop out
    scaled: str = ""       # how llvm-mca's cycles were scaled to this core (sad.machine.corescale), "" if not
    between: frozenset[int] = frozenset()
    """Source lines of the instructions run between two entries (``between_entries``) where the core figure
    includes them (``entries_cycles``): the blocks on those lines are priced by it, not again per operation."""
    latency_s: float = 0.0  # the loop-carried chain through an accumulator register (0: none), host latencies
    guessed: tuple[str, ...] = ()
    """Operations priced without a measured figure (``opmodel.guessed_figures``): said in a warning."""
    loads_s: float = 0.0
    """Seconds per iteration the load ports are busy (``load_port_cycles``): the ECM model's non-overlapping
    in-core part, to which sad.predict.overlap adds the transfers into L1 (0: no compiled loop prices it)."""
    calls: tuple[tuple[str, float | None], ...] = ()
    """The library routines one compiled iteration calls and the seconds each adds (None: no figure prices it,
    the core figure leaves its work out and a warning says so)."""
    call_s: float = 0.0
    """Seconds per iteration its calls of priced routines cost as calls (``processor.library.same``), added
    with the routines' work (``library_seconds``)."""
    index_s: float = 0.0
    """The chain through the loop's index where the compiler keeps it in memory (-O0, ``index_chain``, the measured
    empty loop), one of the chains ``chain_s`` is the longest of: every address of the body waits for it, where a
    longer chain (an accumulator, or the index's slot priced by its forwarding) runs beside the body
    (sad.predict.overlap.chained)."""
    unmeasured: tuple[str, ...] = ()
    """Figures the machine lacks that this loop's bounds would use (the nearest one stood in; a warning says so)."""
    arms: tuple[tuple[sympy.Expr, float, float], ...] = ()
    """Arms of an IF whose share of the iterations is a branch probability no run has told: (that share, the
    seconds per iteration the arm adds to ``core_s``, which counts it in every iteration, the seconds a
    misprediction costs where a test of data runs it, else 0); sad.predict.loopcost.core_with_arms folds them."""
    removed: bool = False
    """No instruction comes from the loop's lines (``removed_bounds``): its iterations cost nothing, data too."""
    l1_included: bool = False
    """The core figure holds the L1's part of the loop's data (a library copy timed in L1, ``library_copy``):
    the data part takes the transfers beyond L1 only (sad.predict.loopcost)."""


LibraryFigure = Callable[[str], "float | None"]
"""A routine's name (``exp``) → seconds of its work per call in a loop (processor.library.<name>.call), or None."""

DIVIDER = ("div", "idiv", "sqrt")
"""Mnemonics (less a leading v) of the divider's instructions, which a library routine's code does not use:
glibc's exp, log, sin, cos and pow are tables and polynomials without a division."""
CALL_FIGURE = "same"
"""The library entry whose ``call`` figure is the cost of a call itself (sad.machine.libbench: a loop calling a
routine that returns its argument, less the loop without the call)."""


def opt_level_keeps_memory(spec: str | None) -> bool:
    """True when the compile command keeps variables in memory (-O0, -Og or no -O flag)."""
    return not spec or not any(f.startswith("-O") and f not in ("-O0", "-Og") for f in str(spec).split())


def on_loop_lines(where: tuple[str, int] | None, loop: SourceLoop, file: str) -> bool:
    """Whether an instruction's source place (the ``.loc``'s file and line) is one of the loop's lines in
    ``file``."""
    return where is not None and resolved_path(where[0]) == file and loop.line <= where[1] <= loop.last_line


def compiled_loop(loop: SourceLoop, cf: cc.CompiledFile, file: str) -> tuple[cc.AsmLoop, int] | None:
    """The innermost loop of the assembly that runs ``loop`` (more than half of its instructions on the loop's
    lines; the packed one where gcc vectorized the loop, the longest of those) and its vector width in bytes,
    or None when no loop of the assembly is the source loop's."""
    candidates = []
    for asm in cf.loops:
        if not asm.innermost:
            continue
        inside = sum(n for where, n in asm.lines.items() if on_loop_lines(where, loop, file))
        if inside * 2 > sum(asm.lines.values()):
            candidates.append(asm)
    if not candidates:
        return None
    vector_bytes = cf.vectorized.get(loop.line, 0) or _outer_vectorized(loop, cf)
    packed = [a for a in candidates if a.packed] if vector_bytes else []
    return max(packed or candidates, key=lambda a: len(a.instructions)), vector_bytes if packed else 0


def _outer_vectorized(loop: SourceLoop, cf: cc.CompiledFile) -> int:
    """Vector bytes of the nearest enclosing loop gcc vectorized around this innermost one (outer-loop
    vectorization: doitgen's ``for p { for s: sum[p] += A[s] * C4[s][p] }`` at -O2 keeps sum[p], sum[p+1] in
    one register and runs the s loop once for both p: each packed iteration of the s loop does two source
    iterations), 0 when none was."""
    for outer in reversed(loop.nest[:-1]):
        if outer.loc.line in cf.vectorized:
            return cf.vectorized[outer.loc.line]
    return 0


def compiled_bounds(loop: SourceLoop, cf: cc.CompiledFile, file: str, hierarchy: Hierarchy,
                    spec: str | None = None, trips: float | None = None,
                    library: LibraryFigure | None = None, control_s: float = 0.0) -> InCore | None:
    """The in-core bounds of a loop from its compiled code (see the module docstring), None when the loop is
    not found in the assembly or llvm-mca cannot read it. ``trips``: iterations per entry of the loop where
    known as a number (a loop the compiler unrolled completely is priced per entry, then per iteration).
    ``library``: the machine's figures of the routines a loop calls. ``control_s``: the machine's measured
    empty counted loop, per trip (``control.loop_iter``, compiled with the calibration's flags), the least a
    pass whose index is kept in memory takes (``index_chain``)."""
    found = compiled_loop(loop, cf, file)
    if found is None:
        return straight_line_bounds(loop, cf, file, hierarchy, trips, library) or removed_bounds(loop, cf, file)
    chosen, vector_bytes = found
    result = cc.mca(tuple(chosen.instructions))
    if result is None:
        return None
    width = vector_width(chosen, loop, vector_bytes, loop.line in cf.vectorized)
    clock = hierarchy.clock_hz
    model_cycles, scaled = host_cycles(result, hierarchy)
    arms = arm_cycles(chosen, loop, file, model_cycles, hierarchy)
    cycles = max(arms.cycles, cc.register_chain(chosen.instructions))
    between: frozenset[int] = frozenset()
    carried = len(loop.nest) > 1 and isinstance(loop.nest[-1], ir.Do) and \
        opmodel.carried_between_entries(loop.nest[-1], loop.nest[-2])
    # compiled iterations per entry: a loop vectorized along itself covers `width` of its trips a pass; one
    # vectorized along the enclosing loop runs all its trips, each for `width` of the enclosing loop's
    outer = bool(vector_bytes) and loop.line not in cf.vectorized
    if trips and cycles > result.block_rthroughput and not carried:
        entries = entries_cycles(chosen, cf, trips if outer else trips / width)
        if entries is not None and entries < cycles:
            cycles = entries
            between = frozenset(w[1] for _, w in between_entries(chosen, cf) or [] if w and resolved_path(w[0]) == file)
    cycles = regchain.latency_bound_cycles(chosen.instructions, result.latencies, cycles, result.block_rthroughput,
                                           hierarchy)
    fetch = fetch_cycles(chosen, cf)
    fetched = ""
    if fetch > cycles:
        cycles = fetch
        fetched = f"fetch bound: the code spans {fetch} blocks of {FETCH_BLOCK} bytes"
    elif not cf.spans and cc.host_model().mcpu.startswith("znver"):
        fetched = "no fetch bound: the code's place is unknown (the file does not link as a program alone)"
    if fetched:
        scaled = f"{scaled}; {fetched}" if scaled else fetched
    core = (cycles / clock + arms.mispredicted) / width
    if arms.mispredicted:
        scaled = f"{scaled}; tests of data mispredicted {arms.mispredicted * 1e9:.3g} ns" if scaled else \
            f"tests of data mispredicted {arms.mispredicted * 1e9:.3g} ns"
    calls = library_calls(chosen.instructions, library)
    call_s = library(CALL_FIGURE) if library is not None and calls else None
    priced_calls = [seconds for _, seconds in calls if seconds is not None]   # 0: a routine of the program
    if priced_calls:
        core = max(core, library_seconds(chosen.instructions, calls, hierarchy, call_s or 0.0) / width)
    chain = 0.0
    latencies = regchain.host_latencies(chosen.instructions, result.latencies, hierarchy)
    slots = cc.memory_chains(chosen.instructions, latencies)
    for ch in slots:
        chain = max(chain, forwarding_seconds(ch, hierarchy) + ch.cycles / clock)
    unmeasured: tuple[str, ...] = ("hierarchy.forward_folded",) if not hierarchy.forward_folded_s and any(
        ch.folded and not ch.floating for ch in slots) else ()
    if not hierarchy.forward_rmw_s and any(ch.rmw and not ch.floating for ch in slots):
        unmeasured += ("hierarchy.forward_rmw",)
    if priced_calls and call_s is None:
        unmeasured += (f"processor.library.{CALL_FIGURE}",)
    if not hierarchy.mispredict_s and arms.on_data:
        unmeasured += ("hierarchy.mispredict",)
    forms = regchain.host_register_latencies(chosen.instructions, result.latencies, hierarchy)
    for el in cc.element_chains(chosen.instructions, tuple(forms)):
        # an element stored and read back ``distance`` iterations later: forwarding + the operations on it
        fwd = hierarchy.forward_fp_s if el.floating else hierarchy.forward_s
        chain = max(chain, (fwd + el.cycles / clock) / el.distance / width)
    body = loop.nest[-1].body if isinstance(loop.nest[-1], ir.Do) else []
    if opt_level_keeps_memory(spec) or cc.invariant_stores(chosen.instructions):
        # x[j] += ... with j fixed in this loop: at -O0 (and at -O2 when gcc cannot keep it in a register for
        # fear of aliasing) every iteration loads what the previous one stored
        chain = max(chain, element_chain(body, loop, hierarchy))
    if opt_level_keeps_memory(spec) and hierarchy.ops and isinstance(loop.nest[-1], ir.Do):
        # -O0 keeps every scalar in memory, also one the code reaches through a pointer (a Fortran dummy
        # argument, S = S + X(I)), which the fixed-slot analysis of the assembly does not see; and an element
        # written in one iteration and read back in a later one (x[i] = ... x[i - 1]) is a chain through memory
        chain = max(chain, opmodel.chain_seconds(body, hierarchy, in_memory=True),
                    opmodel.recurrence_seconds(loop.nest[-1], hierarchy, 1 / clock))
    index = index_chain(control_s, width) if opt_level_keeps_memory(spec) else 0.0
    chain = max(chain, index)
    rob = cc.rob_entries()
    window = rob / len(chosen.instructions) if rob else None
    if chain > 0 and trips and rob and len(loop.nest) > 1 and isinstance(loop.nest[-1], ir.Do) \
            and opmodel.restarts_each_entry(loop.nest[-1], loop.nest[-2]):
        in_flight = entries_in_flight(chosen, cf, (trips if outer else trips / width), rob)
        chain, index = chain / in_flight, index / in_flight
    # never beyond the core figure: where that is shorter, the chains of successive entries of a short loop
    # overlap (``entries_cycles``) and the chain does not bind
    latency = min(core, accumulator_cycles(chosen.instructions, result.latencies, hierarchy) / width / clock)
    return InCore(core, chain, width, len(chosen.instructions), window, outer, scaled, between, latency,
                  loads_s=load_port_cycles(result, hierarchy) / width / clock, unmeasured=unmeasured,
                  calls=calls, call_s=call_s * len(calls) if call_s and priced_calls else 0.0,
                  arms=tuple((share, adds / clock / width, flip / width) for share, adds, flip in arms.open),
                  index_s=index)


def index_chain(control_s: float, width: int) -> float:
    """Seconds per source iteration of the chain through a loop's index where the compiler keeps it in memory
    (-O0: ``addl $1, -4(%rbp)``, then ``cmpl $N, -4(%rbp)`` and the loads that address the arrays): the measured
    empty counted loop of the same flags, per pass. The forwarding figure of a slot's load-add-store
    (``Hierarchy.forward_s``, timed at -O2 on a slot the stack pointer addresses) is no measure of it: on an
    Emerald Rapids VM that chain costs 0.2 ns + a cycle by it, 0.54 ns a trip, where the -O0 empty loop runs
    1.4-2.2 ns (2.0 calibrated) and ``c[j] = 1.0`` at -O0 2.1-2.3 ns against 1.22 predicted without it."""
    return control_s / width if control_s > 0 and width > 0 else 0.0


def library_calls(instructions: tuple[str, ...] | list[str], library: LibraryFigure | None
                  ) -> tuple[tuple[str, float | None], ...]:
    """The routines a compiled loop body calls directly (``call exp@PLT``), each with its figure: a libmvec
    routine (``call _ZGVbN2v_exp``, a vectorized loop of exp) by its database name (``exp_x2``)."""
    symbols = [text.split()[-1].split("@")[0] for text in instructions
               if text.split()[0] == "call" and not text.split()[-1].startswith("*")]
    names = [libbench.vector_key(symbol) or symbol for symbol in symbols]
    return tuple((name, library(name) if library else None) for name in names)


def library_seconds(instructions: tuple[str, ...] | list[str], calls: tuple[tuple[str, float | None], ...],
                    hierarchy: Hierarchy, call_s: float = 0.0) -> float:
    """Seconds per compiled iteration of a loop that calls library routines: llvm-mca's cycles for the body
    without its divisions and square roots (and without the calls, which llvm-mca cannot model:
    sad.predict.compiled._neutral_call), plus each call (``call_s``: the calibrated cost of calling a routine
    that returns its argument, ``processor.library.same``) and each routine's work. The routine's instructions
    compete with the loop's for the pipelined units, not for the divider (``DIVIDER``), and a loop of one call
    runs at the routine's figure plus its call (sad.machine.libbench). Here, -O2: ``y[i] = exp(x[i])`` 7.2 ns an
    element, ``sqrt(x[i]) * exp(-x[i])`` 6.4 ns (the square root hides under the call), ``exp(-v) * log(v + 1)``
    11.6 to 14.5 ns, exp plus a degree-8 polynomial and two divisions 10.5 ns."""
    rest = cc.mca(tuple(t for t in instructions if not t.split()[0].lstrip("v").startswith(DIVIDER)))
    own = host_cycles(rest, hierarchy)[0] / hierarchy.clock_hz if rest is not None else 0.0
    return own + sum(call_s + (seconds or 0.0) for _, seconds in calls)


class ArmPrice(NamedTuple):
    """What ``arm_cycles`` finds in a loop body's arms."""
    cycles: float                                     # the body's cycles, each arm in its share
    mispredicted: float                               # seconds per iteration of the mispredicted tests of data
    open: list[tuple[sympy.Expr, float, float]]       # arms whose share is a formula: (share, cycles, flip)
    on_data: bool                                     # an arm is run by a test of data


def arm_cycles(chosen: cc.AsmLoop, loop: SourceLoop, file: str, cycles: float, hierarchy: Hierarchy) -> ArmPrice:
    """``cycles`` of a compiled loop body (llvm-mca runs every instruction in every iteration) with each arm of
    an IF that a forward jump skips (``skipped_arms``) paid in the share of the iterations that run it
    (``SourceLoop.line_shares``): the cycles less (1 - share) x what the arm adds; and the seconds per
    iteration of the branches the predictor misses: an arm run by a test of data (``SourceLoop.data_lines``) in
    a share p of the iterations, the minority outcome, min(p, 1 - p), at ``hierarchy.mispredict`` each (a
    predictor learns a test's bias, not random data; a test of the loop indices it learns). A pair-force loop
    whose square root and division run for the pairs within the cutoff only (gfortran -O2, 19 % of the pairs):
    14.1 cycles an iteration with the arm, 3.1 without, 5.2 weighted, + 0.19 x 4 ns mispredicted; 8.6
    measured here. An arm whose share is a formula (a probability no run has told) is returned as (share,
    cycles it adds, seconds a misprediction costs) for the caller to keep in the price."""
    weighted, mispredicted, on_data = cycles, 0.0, False
    open_arms: list[tuple[sympy.Expr, float, float]] = []
    for first, last in skipped_arms(chosen):
        lines = {w[1] for w in chosen.where[first:last + 1] if w and resolved_path(w[0]) == file}
        on_data = on_data or bool(lines & loop.data_lines)
        shares = [loop.line_shares[line] for line in lines if line in loop.line_shares]
        formulas = [loop.share_exprs[line] for line in sorted(lines) if line in loop.share_exprs]
        if not shares and not formulas:
            continue
        rest = cc.mca(tuple(t for k, t in enumerate(chosen.instructions) if not first <= k <= last))
        adds = max(0.0, cycles - host_cycles(rest, hierarchy)[0]) if rest is not None else 0.0
        flip = hierarchy.mispredict_s if lines & loop.data_lines else 0.0
        if not shares:
            open_arms.append((formulas[0], adds, flip))
            continue
        share = max(shares)
        weighted -= (1 - share) * adds
        mispredicted += min(share, 1 - share) * flip
    return ArmPrice(weighted, mispredicted, open_arms, on_data)


def skipped_arms(chosen: cc.AsmLoop) -> list[tuple[int, int]]:
    """(first, last) instruction indices of the stretches of a loop body a forward jump inside it skips, the
    outermost only (the tests of ``IF (A .AND. B)`` jump to one label from two places: one arm; an arm nested
    in another is priced with it)."""
    arms = set()
    for k, text in enumerate(chosen.instructions):
        found = cc.jump_target(text)
        if found is not None and chosen.targets.get(found, -1) > k + 1:
            arms.add((k + 1, chosen.targets[found] - 1))
    return sorted(a for a in arms if not any(o != a and o[0] <= a[0] and a[1] <= o[1] for o in arms))


def element_chain(body: list[ir.Stmt], loop: SourceLoop, hierarchy: Hierarchy) -> float:
    """The longest chain through an element updated in place (``opmodel.element_chain_seconds`` + forwarding),
    each in the share of the iterations that run its statement (an update in an arm of an IF)."""
    longest = 0.0
    for stmt in walk_stmts(body):
        if isinstance(stmt, ir.Assign):
            ops = opmodel.element_chain_seconds([stmt], loop.index, hierarchy, 1 / hierarchy.clock_hz)
            if ops:
                share = loop.line_shares.get(stmt.loc.line, 1.0) if stmt.loc else 1.0
                longest = max(longest, (hierarchy.forward_fp_s + ops) * share)
    return longest


def forwarding_seconds(chain: cc.MemoryChain, hierarchy: Hierarchy) -> float:
    """Store-to-load forwarding of a chain through a memory slot: floating point, or integer through a plain
    load, or integer through a load folded into an operation (``forward_folded``: Zen renames a mov from a
    stack slot just stored, 0.35 ns here, but not an operation's memory operand, 2.2 ns here: hashmix's
    ``h = (h ^ v[i]) * 16777619`` at -O0 runs 3.6 ns an iteration where a renamed chain would take 1.4). A
    machine without that figure uses the plain one (sad.predict.loopcost warns). Likewise a read-modify-write of a
    register's value (``forward_rmw``: on an Emerald Rapids VM, Intel's Golden Cove line renames ``addq $1,
    -8(%rbp)`` and a plain load, 1.1 cycles a link, not ``addq %rax, -24(%rbp)``, 7.2 cycles: gcc -O0's integer
    ``t = t + b[j]`` ran 8 cycles an iteration where the plain figure gave 1.6)."""
    if chain.floating:
        return hierarchy.forward_fp_s
    if chain.rmw and hierarchy.forward_rmw_s:
        return hierarchy.forward_rmw_s
    return hierarchy.forward_folded_s if chain.folded and hierarchy.forward_folded_s else hierarchy.forward_s


def load_port_cycles(result: cc.McaResult, hierarchy: Hierarchy) -> float:
    """Cycles per compiled iteration the busiest load unit of llvm-mca's model is busy (its ``Resource pressure per
    iteration``; a unit is a load unit by the class sad.machine.corescale gives it from the model's own answer on
    a loop of loads, or by its name): the ECM model's T_nOL, the cycles in which the L1 serves loads and cannot
    take a line from L2 (Hager et al.; Kerncraft's machine files count the address units on AMD Zen 2, the load
    ports on Intel). Scaled to this core like the loop's cycles where `sad calibrate` measured the stand-in
    model's load ratio (``host_cycles``)."""
    mcpu = cc.host_model().mcpu
    classes = corescale.model_classes(mcpu)
    scale = hierarchy.mca_scale if hierarchy.mca_scale is not None and hierarchy.mca_scale.mcpu == mcpu else None
    busy = [p * (scale.ratio_of(r) if scale is not None else 1.0) for r, p in result.pressure
            if (classes.get(r) or corescale.resource_class(r)) == "load"]
    return max(busy, default=0.0)


def entries_in_flight(inner: cc.AsmLoop, cf: cc.CompiledFile, trips: float, rob: int) -> float:
    """Entries of a short innermost loop the core keeps in flight at once (at least 1): its reorder buffer over
    the instructions of one entry (the body ``trips`` times and what runs between two entries). A chain through
    memory that restarts at each entry (``opmodel.restarts_each_entry``: -O0's ``dist = 0`` before a loop of 8
    ``dist += e * e``) runs in as many entries side by side; llvm-mca, which prices the register chains of
    such loops over several entries (``entries_cycles``), does not see chains through memory. k-means' distance
    loop at -O0 (8 trips, 28 instructions an iteration): 3.27 ns an iteration chained, 2.3 ns measured."""
    between = between_entries(inner, cf) or []
    per_entry = len(inner.instructions) * max(1.0, trips) + len(between)
    return max(1.0, rob / per_entry)


def accumulator_cycles(body: list[str], latencies: tuple[int, ...], hierarchy: Hierarchy) -> float:
    """Cycles of the longest loop-carried register chain (``regchain.host_chain``, the host's latencies) of a
    loop that carries a value from one iteration to the next through an operation (an accumulator,
    ``addsd %xmm0, %xmm1``, or gcc's in-order vector reduction, two ``addsd`` a vector); 0 for a loop whose only
    register chains are its counters and pointers (one add of a cycle)."""
    model, host = regchain.host_chain(body, regchain.register_form_latencies(body, latencies), hierarchy)
    return host if model > 1 else 0.0


def vector_width(chosen: cc.AsmLoop, loop: SourceLoop, vector_bytes: int, own: bool) -> int:
    """Source iterations one iteration of the compiled loop covers. Read from the compiled loop itself
    (``pass_iterations``: how far its addresses advance per pass against the source's step), whatever made it
    cover several: the vectorizer, an unroll (``-funroll-loops``, clang's unroll by 4), or both, as in gcc's
    in-order reduction of a vectorized ``s += a[i]`` at -O2 (two scalar ``addsd`` a pass, no store to read a
    width from). Where the addresses do not tell, a vectorized loop's vector bytes / the largest element, 1 for
    another. Where gcc vectorized the enclosing loop (not ``own``), the vector's: this loop's addresses advance
    along its own index, one source iteration a pass for each of the vector's outer iterations."""
    elem = max((r.elem_bytes for r in loop.refs), default=8)
    vector = max(1, vector_bytes // elem) if vector_bytes else 1
    if vector_bytes and not own:
        return vector
    return pass_iterations(chosen, loop) or vector


def pass_iterations(chosen: cc.AsmLoop, loop: SourceLoop) -> int | None:
    """Source iterations per pass of the compiled loop from its addresses: each address the loop moves by a
    constant (``cc.address_advances``) advances, per pass, the bytes its reference moves per source iteration
    (the loop's step x the element, for a reference along the row) times the iterations a pass covers; an
    address of a reference that walks a column moves the count times a row or more. The count is the one that
    every advance fits, taken from a reference whose element size is exact (``EXACT_TYPES``: a C ``long`` and
    an ``int`` are both "integer", a double complex walk reads two doubles per element); None where no count,
    or more than one, fits, or the loop's step is not a constant."""
    step = _constant_step(loop)
    layout = Layout(loop.index, loop.fastest)
    body = loop.nest[-1].body if isinstance(loop.nest[-1], ir.Do) else []
    moving = _moving(body, loop.index) if loop.index is not None else set()
    along = [r for r in loop.refs if not is_strided(_as_ir(r), layout) and _moves(r, loop, moving)]
    if step is None or not along:
        return None
    sizes = {r.elem_bytes * step for r in along}
    exact = {r.elem_bytes * step for r in along if r.type in EXACT_TYPES}
    column = any(is_strided(_as_ir(r), layout) for r in loop.refs)
    advances = {a for a, _ in cc.address_advances(chosen.instructions) if a}
    if not advances:
        return None
    fitting = {a // s for a in advances for s in exact if a % s == 0 and a >= s}

    def fits(count: int) -> bool:
        return all(a in {count * s for s in sizes} or (column and a > count * max(sizes) and a % count == 0)
                   for a in advances)
    counts = [n for n in fitting if fits(n)]
    return counts[0] if len(counts) == 1 else None


def _constant_step(loop: SourceLoop) -> int | None:
    """The innermost loop's step as a positive integer (1 where it has none), None where it is not a constant."""
    do = loop.nest[-1]
    if not isinstance(do, ir.Do) or do.step is None:
        return 1
    if isinstance(do.step, ir.Const) and isinstance(do.step.value, int) and do.step.value:
        return abs(do.step.value)
    return None


def _moves(ref: Ref, loop: SourceLoop, moving: set[str]) -> bool:
    """True when the reference's fastest subscript moves with the loop: it names a name of `moving` (`_moving`:
    the loop's index or a variable the loop's body computes from it, ``IC = IX + (IY - 1) * MX`` then ``W(IC)``:
    taken to move as the index does, as the data part takes it), not a loop-invariant element nor one the data
    chooses (Livermore loop 13's ``i1 = (int)p[ip][0]`` then ``b[j1][i1]``, whose addresses do not advance with
    ip: taken as moving, they made the loop's 32-byte step of p's rows four source iterations a pass, and the
    loop 4x too fast)."""
    if not ref.indices or loop.index is None:
        return False
    fast = ref.indices[0] if loop.fastest == "first" else ref.indices[-1]
    return any(isinstance(n, ir.Var) and n.name in moving for n in walk(fast))


def _moving(body: list[ir.Stmt], index: str) -> set[str]:
    """The loop's index and the variables its body assigns only from it and from one another (no element read,
    no call): the names whose values advance with the index."""
    assigns = [(s.target.name, s.value) for s in walk_stmts(body)
               if isinstance(s, ir.Assign) and isinstance(s.target, ir.Var)]
    data = {name for name, value in assigns
            if any(isinstance(n, ir.ArrayRef) or isinstance(n, ir.FuncCall) and not n.intrinsic
                   for n in walk(value))}
    moving = {index}
    grown = True
    while grown:
        found = {name for name, value in assigns if name not in data
                 and any(isinstance(n, ir.Var) and n.name in moving for n in walk(value))}
        grown = not found <= moving
        moving |= found
    return moving


def host_cycles(result: cc.McaResult, hierarchy: Hierarchy) -> tuple[float, str]:
    """llvm-mca's cycles per iteration on this core: scaled per resource class where `sad calibrate` measured the
    stand-in model against this core (the machine's ``mca_scale``, sad.machine.corescale) and llvm-mca still uses
    that model; as they are otherwise. The text says what was done (for --explain), "" where nothing applies."""
    scale = hierarchy.mca_scale
    if scale is None:
        return result.cycles, ""
    if scale.mcpu != cc.host_model().mcpu:
        return result.cycles, f"not scaled: the machine's mca_scale is for -mcpu={scale.mcpu}"
    cycles, how = corescale.scaled_cycles(result, scale)
    return cycles, f"llvm-mca -mcpu={scale.mcpu} {how}"


FETCH_BLOCK = 64
"""Bytes of the aligned code block an AMD Zen core's front end fetches from per cycle (op cache and
instruction cache alike)."""


def fetch_cycles(loop: cc.AsmLoop, cf: cc.CompiledFile) -> int:
    """The front end's floor on a loop's cycles per compiled iteration, 0 where it is not known to bind: on an
    AMD Zen core (llvm-mca's host model `znver*`), a loop whose code spans n aligned 64-byte blocks takes at
    least n cycles an iteration: each block is a fetch of its own, and a branch to code in another cache line
    adds latency (AMD, Software Optimization Guide for AMD Family 17h Models 30h and Greater Processors). A
    published measurement on a Zen 2 (Ryzen 9 3900X) ran one 6-instruction loop in 450 ms inside one 64-byte
    line and in 900 ms across two; here, on a Zen 4 guest, `best[c] = max(best[c], v)` (7 instructions) ran
    1.2 cycles an iteration aligned to 64 bytes and 2.0 across a boundary, against llvm-mca's 1.4. llvm-mca
    models no fetch. The loop's place is the one it has in the file linked alone (`CompiledFile.spans`): a program built
    from several objects may place it otherwise; where the file does not link alone there is no floor."""
    if not cc.host_model().mcpu.startswith("znver"):
        return 0
    lines = cf.fetch_lines(loop, FETCH_BLOCK)
    return lines if lines is not None and lines > 1 else 0


SHORT_TRIPS = 64
"""Compiled iterations per entry up to which a latency-bound loop is priced with its entries (``entries_cycles``):
beyond, the overlap of one entry's chain with the next is a small part of the entry's time."""


def entries_cycles(inner: cc.AsmLoop, cf: cc.CompiledFile, trips: float) -> float | None:
    """Cycles per compiled iteration of a latency-bound innermost loop that runs few iterations per entry, from
    llvm-mca on what the core runs between two entries: the loop body ``trips`` times (rounded) and then the
    instructions of the enclosing assembly loop outside it (its entry and exit, ``between_entries``). A chain
    that starts afresh at each entry (``pxor %xmm1, %xmm1`` before the loop, a sum of doitgen's or lu's short
    rows) overlaps the next entry's as far as the reorder buffer and schedulers let it, which llvm-mca's model of
    them decides; a chain carried from entry to entry stays a chain. None beyond ``SHORT_TRIPS`` iterations,
    without an enclosing loop, or when that loop runs another loop too (its iterations, which may wait for this
    loop's result, sit between the entries: atax's tmp sum at n = 120, where this overlap would make it 33 % too
    fast). The trips are the mean per entry (a triangular loop's entries differ)."""
    count = round(trips)
    if not 1 <= count <= SHORT_TRIPS:
        return None
    between = between_entries(inner, cf)
    if between is None:
        return None
    result = cc.mca(tuple(inner.instructions) * count + tuple(text for text, _ in between))
    return result.cycles / count if result is not None else None


def between_entries(inner: cc.AsmLoop, cf: cc.CompiledFile) -> list[tuple[str, tuple[str, int] | None]] | None:
    """The instructions (with their source line) the core runs between two entries of an innermost assembly loop:
    those of the smallest enclosing assembly loop outside it. None without an enclosing loop, or when that loop
    runs another loop too (its iterations, which may wait for this loop's result, sit between the entries: atax's
    tmp sum at n = 120, not modelled)."""
    outer = [a for a in cf.loops if a.function == inner.function and a.start <= inner.start and inner.end <= a.end
             and (a.start, a.end) != (inner.start, inner.end)]
    if not outer:
        return None
    holder = min(outer, key=lambda a: len(a.instructions))
    nested = [(o.start, o.end) for o in cf.loops if o.function == holder.function and holder.start <= o.start
              and o.end <= holder.end and (o.start, o.end) != (holder.start, holder.end)]
    if any(not inner.start <= a <= b <= inner.end for a, b in nested):
        return None
    return [(text, where) for k, (text, where) in enumerate(zip(holder.instructions, holder.where))
            if not any(a <= holder.start + k <= b for a, b in nested)]


COPY_16 = ("movups (%rsi,%rax), %xmm0", "movups %xmm0, (%rdi,%rax)", "addq $16, %rax", "cmpq %rdx, %rax", "jne 0")
"""16 bytes of a library copy (memcpy, memmove) in SSE registers: the loop llvm-mca prices for a source loop
the compiler replaced by the call."""
SET_16 = ("movups %xmm0, (%rdi,%rax)", "addq $16, %rax", "cmpq %rdx, %rax", "jne 0")
"""16 bytes of a library fill (memset)."""
_LIBRARY = {"memcpy": COPY_16, "memmove": COPY_16, "memset": SET_16}


def removed_bounds(loop: SourceLoop, cf: cc.CompiledFile, file: str) -> InCore | None:
    """A source loop no instruction of the compiled file comes from (none of its lines in the ``.loc``
    directives): the compiler removed it (gcc -O2 deletes an empty loop, or one whose results nothing reads),
    and its iterations cost nothing at this optimization level. None where some instruction is on its lines or
    the assembly was not kept."""
    lines = cf.code_lines
    if lines is None or any(on_loop_lines(where, loop, file) for where in lines):
        return None
    return InCore(0.0, 0.0, 1, 0, scaled="no instruction comes from its lines: the compiler removed the loop",
                  removed=True)


def straight_line_bounds(loop: SourceLoop, cf: cc.CompiledFile, file: str, hierarchy: Hierarchy,
                         trips: float | None, library: LibraryFigure | None = None) -> InCore | None:
    """A source loop with no loop of its own in the assembly: gcc unrolled it completely (doitgen's copy of 32
    elements at NP = 32: sixteen load/store pairs in the enclosing loop) or replaced it by a call to memcpy,
    memmove or memset (durbin's ``y[i] = z[i]``) or by a string instruction (rep movsq). The instructions on
    its lines inside the smallest assembly loop that holds them, not inside a loop nested in it, run once per
    entry of the source loop: llvm-mca's cycles for them / iterations per entry; a library call: the routine's
    calibrated figures (``library_copy``), else llvm-mca's cycles for an SSE loop moving the bytes the source
    loop writes. None when neither is found or the trips are not a number."""
    holders = [a for a in cf.loops if any(on_loop_lines(w, loop, file) for w in a.where)]
    if not holders or not trips or trips < 1:
        return None
    holder = min(holders, key=lambda a: len(a.instructions))
    nested = [(o.start, o.end) for o in cf.loops if o.function == holder.function and holder.start <= o.start
              and o.end <= holder.end and (o.start, o.end) != (holder.start, holder.end)]
    body = [text for k, (text, where) in enumerate(zip(holder.instructions, holder.where))
            if on_loop_lines(where, loop, file) and not any(a <= holder.start + k <= b for a, b in nested)]
    calls = [name for text in body if text.split()[0] in ("call", "jmp")
             for name in _LIBRARY if text.split()[-1].split("@")[0] == name]
    # the same copy or fill inline as a string instruction (rep movsq / rep stosq), which llvm-mca prices
    # as one instruction whatever the count
    calls += ["memcpy" if "movs" in text else "memset" for text in body
              if text.split()[0] == "rep" and len(text.split()) > 1]
    clock = hierarchy.clock_hz
    if calls:
        written = sum(r.elem_bytes for r in loop.refs if r.write) or 8
        timed = library_copy(calls[0], written, trips, library)
        if timed is not None:
            return timed
        result = cc.mca(_LIBRARY[calls[0]])
        missing = (f"processor.library.{calls[0]}.byte",) if library is not None else ()
        return InCore(result.cycles * written / 16 / clock, 0.0, unmeasured=missing) if result is not None else None
    if not body or any(text.split()[0].startswith("call") for text in body):
        return None
    result = cc.mca(tuple(body))
    if result is None:
        return None
    return InCore(result.cycles / trips / clock, 0.0, 1, len(body))


def library_copy(name: str, written: int, trips: float, library: LibraryFigure | None) -> InCore | None:
    """A loop the compiler replaced by a call of ``name`` (memcpy, memmove, memset) priced by the routine's
    figures as `sad calibrate` timed them on this host (sad.machine.libbench: copies of 64 B and 16 KiB in L1):
    its work per byte for the ``written`` bytes of an iteration, and its cost per call spread over the
    ``trips`` iterations of an entry. None where the machine has no figure per byte. glibc's memcpy moves 32
    bytes at a time in AVX registers where the SSE loop llvm-mca prices moves 16: durbin's ``y[i] = z[i]`` at
    N = 2 000, -O2, ran 0.05-0.08 ns an element here (differences of the kernel's variants without it and
    without the loop before it, pinned), the SSE loop 0.21 ns, the calibrated figures 0.093 ns plus 1.6 ns a
    call; the kernel went +19.8 -> +12.1 % (LARGE), durbin_small +7.9 -> +1.3 %."""
    per_byte = library(f"{name}.byte") if library is not None else None
    if library is None or per_byte is None:
        return None
    per_call = library(name) or 0.0
    seconds = written * per_byte + per_call / trips
    return InCore(seconds, 0.0, scaled=f"{name} at its calibrated figures (processor.library.{name}: "
                  f"{per_byte * 1e9:.3g} ns a byte, {per_call * 1e9:.3g} ns a call)", l1_included=True)


def operation_bounds(loop: SourceLoop, hierarchy: Hierarchy, machine, spec: str | None) -> InCore:
    """The in-core bounds of a loop no compiled code prices: the calibrated operation classes. Every reference
    costs its issue in the core (the machine's unit-stride ``load`` / ``store`` figure; a strided one too:
    ``load_strided`` is a pass over memory, the transfer the data part prices from the level that serves the
    line). Code that keeps variables in memory (-O0) adds the chains through memory: a scalar accumulator, an
    element updated in place while the loop's index does not move it (``x[i] -= L[i][j] * x[j]`` over j), an
    element read back in a later iteration."""
    in_memory = opt_level_keeps_memory(spec)
    innermost = loop.nest[-1]
    assert isinstance(innermost, ir.Do)
    tp, lat = opmodel.core_seconds(innermost.body, Layout(loop.index, loop.fastest), hierarchy,
                                   lambda key: machine.op_cost(_issue_key(key)), in_memory)
    if in_memory:
        clock_cycle = 1 / hierarchy.clock_hz
        element = opmodel.element_chain_seconds(innermost.body, loop.index, hierarchy, clock_cycle)
        lat = max(lat, opmodel.recurrence_seconds(innermost, hierarchy, clock_cycle),
                  hierarchy.forward_fp_s + element if element else 0.0)
    guessed = opmodel.guessed_figures(innermost.body, Layout(loop.index, loop.fastest), hierarchy,
                                      lambda key: machine.op_cost(_issue_key(key)))
    return InCore(tp, lat, guessed=tuple(guessed))


def _issue_key(key: str) -> str:
    """The operation whose price is a reference's issue in the core: 'load_strided.double' → 'load.double'
    (the strided figure holds the transfer from memory, which the data part prices once)."""
    head, _, kind = key.partition(".")
    return f"{STRIDED_KEYS[head]}.{kind}" if head in STRIDED_KEYS else key
