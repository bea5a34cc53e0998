"""The composition of an innermost loop's in-core and data parts: what overlaps and what waits.

Data flow: the in-core bounds of a loop (sad.predict.incore: ``core``, the chain through memory ``chain``, the
loop-carried register chain ``latency`` and the cycles its load ports are busy ``loads``), its data part
(sad.predict.reuse: ``data``, the seconds of its streams' transfers, and ``transfers``, the part of them that
brings lines into L1 through the caches) and its streams with the level serving each (``streams_of``) →
``wait_seconds``: Σ over the read streams of lines per iteration × the serving level's calibrated chain wait
(``Level.wait_s`` per line streaming, ``Level.column_wait_s`` per access of a column walk;
sad.machine.chainwait) → ``loop_seconds``: seconds per iteration, one rule at every optimization level:

    max(core & chain, data, max(latency, chain) + wait, loads + transfers, core & chain + walk fills)

(the last only where a chain runs through memory: ``walks``, the column walks' part of the transfers).

``core & chain`` (``chained``) is the core where no chain runs through memory, else the longer of the two +
half the shorter: a loop whose iterations are linked through memory (a variable kept in a stack slot at -O0,
an element updated in place) does not hide its body's work behind the chain. Each link is a load that waits
for a store's data, an operation and a store; the body's instructions of earlier iterations, ready and older,
take the ports and the dispatch slots first, and delay the link. Measured pinned on an Emerald Rapids VM, 23
loops at -O0 in L1 (the index alone, an accumulator, an element updated in place, beside bodies of 9 to 51
instructions; benchmarks/chain_overlap.py), timed side by side in one process in the host's two states (a
quiet sibling hyperthread, one run, and a busy one, the median of eight: a sum of eight loads 4.1 and 6.3 ns
an iteration): measured / max(core, chain) had a median of 1.15 and 1.35 with a median absolute deviation of
its log of 0.085 and 0.10; measured / (the longer + half the shorter) 0.93 and 1.06, deviation 0.064 and
0.070 (the whole shorter added: 0.76 and 0.89). On the -O0 development kernels (benchmarks/devkernels,
session 25's calibration and times), the median error of the in-cache size went from 19.3 to 13.8 % and of the
large size from 30.8 to 20.5 %; none of the -O2 ones changed (no chain through memory binds there).

Where the loop's index is kept in memory (-O0: ``addl $1, -4(%rbp)``, every address of the body computed from a
load of it; ``index``: the measured empty loop's pass, sad.predict.incore.index_chain), the share is of the
shorter of the core and the index's chain, and a longer chain (an accumulator, an element updated in place, the
index's slot priced by its forwarding) runs beside both: max(chain, the longer of core and index + share x the
shorter). Each iteration's work waits for its index's link; an accumulator's link waits only for its own
operands. Measured pinned on an Intel Xeon VM (2026-12-01), the 23 L1 loops of sad.predict.chainshare at -O0:
the loops whose only chain is the index's ran near core + index (div 2.65 ns with a core of 1.37, inplace 2.74
with 1.41), those with a sum's chain of 3.01 ns near that chain alone (sum 2.86-2.95 with a core of 0.77, mv
2.86-3.03 with 1.61). One share of the longest chain cannot follow both: its fit on that host came out 0.15, 1,
0.45-0.9 and 0.25 in one morning, the median absolute deviation of the log ratios 0.105-0.117 at the best share;
by the index's chain, fitted on the same calibration, 0.6 with a deviation of 0.028 (level 0.97, against 0.885
at the earlier rule's 0.25). The -O0 development kernels (benchmarks/devkernels and devkernels12, 45 kernels, the
same measured times and calibration, the shares set by hand): median error 9.9, 17.0, 28.6 and 26.3 % at the
earlier rule's shares 0.25, 0.6, 0.9 and 1; 11.8, 11.3, 11.5 and 13.7 % at 0.2, 0.6, 0.9 and 1 by the index's
chain. Not better at its best; far less at the mercy of a share that comes out differently on a noisy host.

The first two are the ECM model's fully overlapping composition: a core with slack hides the transfers. The
third is what a loop whose iterations wait on a loop-carried chain (an accumulator in a register at -O2, a
variable kept in memory at -O0) cannot hide: each link of the chain waits for the operands its loads bring, by
what the same wait cost a serial sum on this host (sad.machine.chainwait). A loop with no such chain, a level
whose transfers a chain hides (L1, L2 here), or a machine calibrated before the waits were measured: wait 0,
the fully overlapping rule alone (for the last, sad.predict.loopcost warns and the report says to recalibrate).
A column walk the walk probe times (sad.machine.walkprobe) is waited on by what the probe's chained run waits on
the same walks, not by its level's figure: the probe times its data term too, and a walk's level says nothing of
the pages it misses. lu at LARGE, -O2 (the walk from L2 by reuse, over up to 2 000 rows 16 000 B apart): the
level's wait 0, the probe's 0.08-1.4 ns an access as the rows grow; the development suite at LARGE went from
13.4 to 11.8 % median error, within 25 % from 22 to 26 of 29 (mvt -24 -> -3 %, trmm -30 -> -12 %, lu -26 ->
-21 %, lu_p -29 -> -25 %; the same measured times).
Writes are not waited on (no chain reads a store). A chain through memory also waits for the lines new to a
column walk (``fresh_lines``: the line an outer loop moves along, once every eight columns of doubles) at the
level that brings them; a chain in a register does not. Measured pinned on this host, column sums over 1 100
columns of 2 000 and 3 000 rows (17 and 26 MB, new lines from memory): at -O0 (the sum kept in memory, 4.2 ns
a link) 5.6 and 5.8 ns an iteration, 4.3 without these waits, 5.3 with them; at -O2 (a register, 1.1 ns a
link) 1.6 and 3.3 ns, which the data part alone gives (1.6, 3.9) and these waits would overshoot (2.0 at
2 000 rows). The development kernels agree (re-timed, pinned): at -O0 mvt, gemver, colsum and symvlow -9, -8,
-13, -3 % without them, +1, -1, +6, +8 % with; at -O2 colsum and symvlow +10 % and +1 % without, +22 % and
+35 % with. A slow register chain (s = s * c + a, 2.1 ns a link) waits some (+0.4 ns at 2 000 rows): not
modelled. The last term, loads + transfers, is the ECM model's non-overlapping part (Hager et
al.; Kerncraft's models/ecm.py): the L1 either serves the loop's loads or takes a line from L2, not both, so the
load ports' cycles and the lines' transfers into L1 add up; memory's own bandwidth overlaps (the data term;
which transfers overlap is the core's property, settled by measurement: sad.predict.reuse.transfer_seconds).

The fifth term is the same non-overlap where the loop's iterations are linked through memory: each link is a
store and a load of the L1 (a stack slot at -O0), so the lines a column walk brings into L1 wait behind the
links and the body, not beside them. Only the column walks' lines: a walk a row or more apart per access is
fetched on demand (no prefetcher follows a stride across pages), while a unit-stride stream's lines are
prefetched ahead of the links. Predicted with the development suites' measured times (session 25's -O0
calibration): the large sizes' median error 20.5 -> 14.1 %, within 25 % 13 -> 17 of 21 (trmm -39 -> -18 %,
symm -38 -> -14 %, gramschmidt -31 -> -5 %, lu -22 -> -8 %, syr2k -28 -> -10 %); the smaller sizes 11.7 -> 15.3 %,
within 25 % 26 -> 27 of 34, close pairs 71 -> 74 %, where it overshoots (gramschmidt +4 -> +34 %, colpairs
+46 -> +64 %, trmm +3 -> +19 %); the 47 kernels of both sizes 15.5 -> 14.3 %, within 25 % 33 -> 38. Adding every
transfer instead (streams too) overshoots the streaming kernels (gesummv +19 -> +35 %, adi +9 -> +27 %,
gemver +1 -> +26 %); adding the walks' fills to the chain alone, not to the body, moves the large sizes only to
18.2 %. At -O2 a chain runs through memory only where an element is updated in place, and no development kernel's
prediction moved. How many of the walks' lines wait is the core's property: the term adds the machine's
``walk_share`` of them, fitted by `sad calibrate` at -O0 (sad.predict.chainshare; 0.15-0.55 on an AMD EPYC Zen 3
VM), all of them where the file has none (``WALK_SHARE``).
"""
from __future__ import annotations

import sympy

from sad.machine.hierarchy import Hierarchy, Level
from sad.predict.reuse import Stream, by_serving_level, run_seconds

CHAIN_SHARE = 0.5
"""Share of the shorter of a loop's core (throughput) and its chain through memory that the longer does not
hide, where the machine file has none measured (``Hierarchy.chain_share``, sad.predict.chainshare: the share is the
core's; 0.5 is the Emerald Rapids VM's of the module docstring)."""

WALK_SHARE = 1.0
"""Share of the column walks' transfers into L1 that wait behind a chain through memory (the fifth term), where
the machine file has none measured (``Hierarchy.walk_share``, sad.predict.chainshare): all of them, the rule the
module docstring measured on the Emerald Rapids VM. On an AMD EPYC Zen 3 VM the fills overlap the links far more:
its calibrations fitted 0.15-0.55."""


def wait_seconds(streams: list[Stream], hierarchy: Hierarchy, memory_chain: bool = False,
                 probed: sympy.Expr | None = None, timed_rows: bool = False) -> sympy.Expr:
    """Seconds per iteration a loop-carried chain waits on the loop's read streams (``streams_of``): lines per
    iteration × the serving level's wait (a Piecewise in the footprints, like the data part); 0 where no level
    has a measured wait. For a ``memory_chain`` (see the module docstring), a column walk's lines new to it
    (the stream's ``fresh_lines``) are also waited for at the level that brings them, as the data part prices
    them there. ``probed``: seconds per access a serial chain waits on the loop's column walks, timed together
    on this host (sad.predict.reuse.probed_seconds, ``chained``): each walk's access waits that, in place of its
    level's figures, as the data part takes the probe's figure for them. ``timed_rows``: a register chain waits
    on a row stream that starts anew at every entry (``restart_rows``) what the probe's chained runs wait per
    access, as the data part takes their figure (a chain through memory: its level's, as for walks)."""
    if probed is None and not timed_rows and not any(lv.wait_s > 0 or lv.column_wait_s > 0
                                                     for lv in hierarchy.levels):
        return sympy.Integer(0)
    line = hierarchy.line_bytes
    total = sympy.Integer(0)
    for ref, lines, fp, walk, _share, _when, fresh, rows in streams:
        if walk is not None and probed is not None:
            total += lines * probed     # per access of the walks timed together, the written ones' too
            continue
        if ref.write:
            continue
        timed = run_seconds(rows, hierarchy, chained=True) if timed_rows and walk is None else None
        if timed is not None:
            total += lines * line / ref.elem_bytes * timed
            continue
        stream = by_serving_level(fp, hierarchy, None, _stream_wait)
        if walk is None:
            total += lines * stream
            continue
        # a pitch of one line (x[8*i] of doubles) is a stream of consecutive lines
        column = by_serving_level(fp, hierarchy, walk, _column_wait)
        total += lines * sympy.Piecewise((stream, sympy.Le(walk.pitch, line)), (column, True))
        if memory_chain and fresh is not None:
            share, beyond = fresh
            farther = by_serving_level(beyond, hierarchy, None, _column_wait) - column
            total += lines * share * sympy.Piecewise((0, sympy.Le(walk.pitch, line)), (farther, True))
    return total


def _stream_wait(level: Level) -> sympy.Expr:
    return sympy.Float(level.wait_s, 6)


def _column_wait(level: Level) -> sympy.Expr:
    return sympy.Float(level.column_wait_s, 6)


def loop_seconds(core: sympy.Expr | float, chain: float, data: sympy.Expr, latency: float = 0.0,
                 wait: sympy.Expr | int = 0, loads: float = 0.0, transfers: sympy.Expr | int = 0,
                 walks: sympy.Expr | int = 0, share: float = CHAIN_SHARE,
                 walk_share: float = WALK_SHARE, index: float = 0.0) -> sympy.Expr:
    """Seconds per iteration: max(core & chain, data, max(latency, chain) + wait, loads + transfers, core & chain
    + walk_share x walks) (the module docstring; ``walks``: the column walks' transfers into L1, added only beside
    a chain through memory, by the machine's ``walk_share`` of them; ``share`` and ``index``, the chain through the
    loop's index where it is kept in memory: core & chain's, ``chained``). The
    whole core added to all the transfers is what held-out kernels of benchmarks/devkernels reject (-O2, pinned:
    syrk +71 %, mvt +57 %, colpairs +84 %, gemver at n = 1024 +196 %; -1 %, -1 %, +69 %, +159 % overlapped):
    only the load ports' share of the core waits for the lines into L1 (nussinov's column walk from L2 at -O2,
    re-measured 0.15-0.16 s: 0.101 s fully overlapped, 0.146 s with the loads and the transfers added)."""
    core_term = sympy.Float(core, 6) if isinstance(core, float) else core
    waiting = max(latency, chain)
    waited = sympy.Float(waiting, 6) + sympy.sympify(wait) if waiting > 0 and wait != 0 else sympy.Integer(0)
    fills = sympy.Float(loads, 6) + sympy.sympify(transfers) if loads > 0 and transfers != 0 else sympy.Integer(0)
    if data == 0 and waited == 0 and fills == 0 and not core_term.free_symbols:
        return sympy.Float(chained(float(core_term), chain, share, index), 6)
    core_term = chained(core_term, chain, share, index)
    terms = [core_term, sympy.Float(chain, 6), data] + [t for t in (waited, fills) if t != 0]
    if chain > 0 and walks != 0 and walk_share > 0:
        # a chain through memory is the L1's traffic: the walks' lines wait behind its links (module docstring)
        waits = sympy.sympify(walks) if walk_share == 1 else sympy.Float(walk_share, 6) * sympy.sympify(walks)
        terms.append(core_term + waits)
    return sympy.Max(*terms)


def walk_share(hierarchy: Hierarchy) -> float:
    """The machine's measured share of the column walks' fills that wait behind a chain through memory
    (sad.predict.chainshare), else ``WALK_SHARE``."""
    return hierarchy.walk_share if hierarchy.walk_share is not None else WALK_SHARE


def chain_share(hierarchy: Hierarchy) -> float:
    """The machine's measured share of core & chain (sad.predict.chainshare), else ``CHAIN_SHARE``."""
    return hierarchy.chain_share if hierarchy.chain_share is not None else CHAIN_SHARE


def chained(core: sympy.Expr | float, chain: float, share: float = CHAIN_SHARE,
            index: float = 0.0) -> sympy.Expr | float:
    """The core and its chains through memory together (the module docstring): the core alone where no chain
    runs through memory; where the loop's index is kept in memory (``index`` > 0, -O0), the longer of the core and
    the index's chain + ``share`` of the shorter, or the longest chain if that is longer (an accumulator or an
    element the body runs beside); else the longer of the core and the chain + ``share`` of the shorter (the
    machine's measured share, else ``CHAIN_SHARE``)."""
    if chain <= 0:
        return core
    if index > 0:
        gated = chained(core, index, share)
        return max(gated, chain) if isinstance(gated, float) else sympy.Max(gated, chain)
    if isinstance(core, float):
        return max(core, chain) + share * min(core, chain)
    return sympy.Max(core, chain) + sympy.Float(share, 6) * sympy.Min(core, chain)
