"""The composition of a loop's in-core and data parts (sad.predict.overlap): max(core & chain, data, the
loop-carried chain + what it waits for on its read streams, the load ports' cycles + the lines into L1), where
core & chain is the core, or beside a chain through memory the longer of the two + half the shorter; the
waits from the levels' calibrated chain waits (sad.machine.chainwait). Hand-derived figures; the end-to-end
cases compile a serial sum and a column walk with gcc -O2 and price them with llvm-mca."""
from __future__ import annotations

import io
import shutil

import pytest
import sympy

from sad.analysis.bindings import evaluate
from sad.analysis.description import group_blocks
from sad.analysis.pipeline import analyze
from sad.machine import hierarchy as hier
from sad.machine.model import MachineError, load_machine
from sad.predict.loopcost import LoopCoverage, price_loops
from sad.predict.overlap import chained, loop_seconds, wait_seconds
from sad.predict.reuse import data_seconds, into_l1, l1_in_core, streams_of, transfer_seconds
from tests.predict.loop_nests import column_loop, host_machine, inner_loop

needs_mca = pytest.mark.skipif(shutil.which("llvm-mca") is None or shutil.which("gcc") is None,
                               reason="llvm-mca and gcc are needed for the compiled-code model")

NS = 1e-9
HOST = hier.Hierarchy(clock_hz=2.5e9, line_bytes=64, levels=(
    hier.Level("L1", 32 * 1024, 0.3 * NS, 0.4 * NS, 0.3 * NS, 0.4 * NS),
    hier.Level("L2", 512 * 1024, 0.5 * NS, 0.9 * NS, 0.5 * NS, 0.9 * NS, wait_s=0.0, column_wait_s=0.0),
    hier.Level("memory", None, 6.0 * NS, 8.0 * NS, 12 * NS, 14 * NS, wait_s=4 * NS, column_wait_s=10 * NS)))


def test_a_chain_adds_its_waits_where_the_overlap_would_hide_them():
    # core 1.0 ns (its accumulator's chain), data 0.7 ns, waits 0.5 ns: 1.0 + 0.5
    assert float(loop_seconds(1.0 * NS, 0.0, sympy.Float(0.7 * NS), 1.0 * NS, sympy.Float(0.5 * NS))) \
        == pytest.approx(1.5 * NS)
    # no loop-carried chain: the fully overlapping rule, max(1.0, 0.7)
    assert float(loop_seconds(1.0 * NS, 0.0, sympy.Float(0.7 * NS), 0.0, sympy.Float(0.5 * NS))) \
        == pytest.approx(1.0 * NS)
    # a chain through memory (-O0: forwarding + the add, 3 ns) waits the same way: 3 + 0.5
    assert float(loop_seconds(1.0 * NS, 3.0 * NS, sympy.Float(0.7 * NS), 0.0, sympy.Float(0.5 * NS))) \
        == pytest.approx(3.5 * NS)
    # the data bound still wins where it is the largest: max(1.0, 0.7, 4.0, 1.0 + 0.5)
    assert float(loop_seconds(1.0 * NS, 0.0, sympy.Float(4.0 * NS), 1.0 * NS, sympy.Float(0.5 * NS))) \
        == pytest.approx(4.0 * NS)


def test_a_column_walk_waits_its_serving_levels_column_wait(tmp_path):
    # s += a[i*n + j] over i: a line per iteration, n lines (64 n bytes) between two uses of one; n = 64 (4 KiB,
    # half of L1 holds it): L1, no wait; n = 1000 (64000 B, L2's half holds it): L2's 0; n = 10000 (640 KB,
    # more than half of L2): memory, 10 ns per access
    loop, trips = column_loop(tmp_path)
    wait = wait_seconds(streams_of(loop, trips, HOST)[0], HOST)
    values = {n: float(wait.xreplace({s: n for s in wait.free_symbols if s.name == "n"})) for n in (64, 1000, 10000)}
    assert values == pytest.approx({64: 0.0, 1000: 0.0, 10000: 10 * NS})


COPY_SUM_C = """#include <stdio.h>
#define N 4000000
static double a[N], b[N];
int main(void) {
    int i; double s = 0;
    for (i = 0; i < N; i++) a[i] = i;
    for (i = 0; i < N; i++) { b[i] = a[i]; s += a[i]; }
    printf("%g %g\\n", s, b[7]);
    return 0;
}
"""


def test_a_stream_waits_per_line_and_a_written_one_not_at_all(tmp_path):
    # line 7: a read (8 bytes of a 64-byte line per iteration, from memory: 4 ns / 8), b written (no wait)
    loop, trips = inner_loop(tmp_path, COPY_SUM_C, 7)
    assert evaluate(wait_seconds(streams_of(loop, trips, HOST)[0], HOST)) == pytest.approx(0.5 * NS)


def test_a_machine_without_waits_keeps_the_overlap(tmp_path):
    plain = hier.Hierarchy(clock_hz=2.5e9, line_bytes=64, levels=tuple(
        hier.Level(lv.name, lv.size_bytes, lv.line_s, lv.store_line_s, lv.column_s, lv.column_store_s)
        for lv in HOST.levels))
    loop, trips = inner_loop(tmp_path, COPY_SUM_C, 7)
    assert wait_seconds(streams_of(loop, trips, plain)[0], plain) == 0


SERIAL_SUM_C = """#include <stdio.h>
#define N 4000000
static double a[N];
int main(void) {
    int i, r; double s = 0;
    for (i = 0; i < N; i++) a[i] = i;
    for (r = 0; r < 4; r++)
        for (i = 0; i < N; i++)
            s += a[i];
    printf("%g\\n", s);
    return 0;
}
"""


@needs_mca
def test_a_serial_sum_from_memory_costs_its_chain_and_its_wait(tmp_path):
    # gcc -O2 keeps s in a register: one addsd a source iteration, the host's add latency 1.2 ns; a (32 MB)
    # streams from memory: 6 ns a line of 8 elements read (0.75 ns an iteration, hidden by the chain) and a
    # wait of 4 ns a line (0.5 ns an iteration, not hidden): 1.2 + 0.5 = 1.7 ns, where the overlap alone said 1.2.
    # Without the vectorizer: gcc 12 otherwise runs the sum as an in-order reduction, two scalar addsd an
    # iteration, which the in-core model does not count as two source iterations (no packed instruction)
    src = tmp_path / "sum.c"
    src.write_text(SERIAL_SUM_C)
    analysis = analyze([str(src)])
    machine_file = host_machine(tmp_path, "gcc -O2 -fno-tree-vectorize",
                                "  ops:\n    add.double: {latency: 1.2 ns, throughput: 0.3 ns}\n"
                                "  chain_wait: {L1: [0 ns, 0 ns], memory: [4 ns, 10 ns]}\n")
    machine = load_machine(machine_file)
    assert [(lv.wait_s, lv.column_wait_s) for lv in machine.hierarchy.levels] == [(0.0, 0.0), (4 * NS, 10 * NS)]
    _, explained = price_loops(analysis, group_blocks(analysis.counts), machine)
    price = next(lp for lp in explained if lp.loop.line == 8)
    assert price.latency_s == pytest.approx(1.2 * NS)
    assert evaluate(price.data_s) == pytest.approx(0.75 * NS)
    assert evaluate(price.seconds) == pytest.approx(1.7 * NS)


def test_a_chain_wait_for_a_level_the_hierarchy_lacks_is_an_error(tmp_path):
    """A misspelt level name in chain_wait would leave that level's waits at 0 without a word: the file's line
    and the levels it has are named instead."""
    machine_file = host_machine(tmp_path, extra="  chain_wait: {L1: [0 ns, 0 ns], L3: [4 ns, 10 ns]}\n")
    line = machine_file.read_text().splitlines().index("  chain_wait: {L1: [0 ns, 0 ns], L3: [4 ns, 10 ns]}") + 1
    with pytest.raises(MachineError) as err:
        load_machine(machine_file)
    assert str(err.value) == (f"{machine_file}:{line}: error: hierarchy.chain_wait.L3: no level named 'L3' "
                              "(levels: L1, memory)")


def _coverage_of(tmp_path, extra: str) -> LoopCoverage:
    src = tmp_path / "sum.c"
    src.write_text(SERIAL_SUM_C)
    analysis = analyze([str(src)])
    machine = load_machine(host_machine(tmp_path, "gcc -O2", "  ops:\n    add.double: {latency: 1.2 ns, "
                                        "throughput: 0.3 ns}\n" + extra))
    coverage = LoopCoverage()
    price_loops(analysis, group_blocks(analysis.counts), machine, coverage=coverage)
    return coverage


def test_a_machine_calibrated_before_chain_waits_is_told_to_recalibrate(tmp_path):
    """No hierarchy.chain_wait: the fully overlapping rule applies, said once (at the first loop priced, line 6
    of the fill loop) and in the report's line; a file with the line, even all zeros, says nothing."""
    old = _coverage_of(tmp_path, "")
    said = [d for d in old.warnings if "chain_wait" in d.message]
    assert [(d.loc.line, d.severity) for d in said] == [(6, "warning")]
    assert said[0].message.startswith("the machine database has no hierarchy.chain_wait (calibrated before chain "
                                      "waits were measured)")
    assert old.summary().endswith("; recalibrate: chain waits not measured")
    new = _coverage_of(tmp_path, "  chain_wait: {L1: [0 ns, 0 ns], memory: [0 ns, 0 ns]}\n")
    assert not [d for d in new.warnings if "chain_wait" in d.message]
    assert "recalibrate" not in new.summary()


def test_a_chain_through_memory_hides_only_half_the_shorter_of_it_and_the_core():
    # -O0: the index's chain 2.0 ns beside a body of 1.6 ns: 2.0 + 0.8; a body of 3.5 ns beside it: 3.5 + 1.0
    assert chained(1.6 * NS, 2.0 * NS) == pytest.approx(2.8 * NS)
    assert chained(3.5 * NS, 2.0 * NS) == pytest.approx(4.5 * NS)
    assert chained(1.6 * NS, 0.0) == 1.6 * NS                # no chain through memory: the core alone
    assert float(loop_seconds(1.6 * NS, 2.0 * NS, sympy.Float(0.1 * NS))) == pytest.approx(2.8 * NS)
    # the data still binds where it is the larger: max(2.8, 3.0)
    assert float(loop_seconds(1.6 * NS, 2.0 * NS, sympy.Float(3.0 * NS))) == pytest.approx(3.0 * NS)
    # a register chain (-O2's accumulator: latency, chain 0) keeps the fully overlapping max(1.6, 1.2)
    assert float(loop_seconds(1.6 * NS, 0.0, sympy.Float(1.2 * NS), 1.0 * NS)) == pytest.approx(1.6 * NS)
    # a core with an arm's probability P (a formula): at P = 1 the body 1.6 ns, at P = 0 0.6 ns, both + chain 2 ns
    p = sympy.Symbol("P")
    both = loop_seconds(0.6 * NS + p * 1.0 * NS, 2.0 * NS, sympy.Float(0.1 * NS))
    assert float(both.subs(p, 1)) == pytest.approx(2.8 * NS)
    assert float(both.subs(p, 0)) == pytest.approx(2.3 * NS)



# ------------------------------------------------------------------ the load ports and the lines into L1 (ECM)

def test_the_load_ports_and_the_lines_into_l1_add_up():
    # core 1.0 ns, data 0.8 ns (fully overlapping: 1.0); the load ports busy 0.5 ns and the lines into L1 0.6 ns:
    # the L1 serves the loads or takes the lines, not both, 0.5 + 0.6 = 1.1
    assert float(loop_seconds(1.0 * NS, 0.0, sympy.Float(0.8 * NS), loads=0.5 * NS,
                              transfers=sympy.Float(0.6 * NS))) == pytest.approx(1.1 * NS)
    # no compiled loop (loads 0): the transfers alone never bind, they are part of the data
    assert float(loop_seconds(1.0 * NS, 0.0, sympy.Float(0.8 * NS), loads=0.0,
                              transfers=sympy.Float(0.6 * NS))) == pytest.approx(1.0 * NS)


def test_a_chain_through_memory_does_not_overlap_the_column_walks_lines_into_l1():
    # core 1.6 ns beside a chain through memory of 2.0 ns: 2.8 (chained); the column walks bring 1.5 ns of lines
    # into L1 (of 1.7 ns of transfers, a stream's 0.2 the rest): 2.8 + 1.5 = 4.3, above the load ports' 0.4 + 1.7
    # and the data's 3.0
    assert float(loop_seconds(1.6 * NS, 2.0 * NS, sympy.Float(3.0 * NS), loads=0.4 * NS,
                              transfers=sympy.Float(1.7 * NS), walks=sympy.Float(1.5 * NS))) == pytest.approx(4.3 * NS)
    # a register chain (-O2, chain through memory 0): the walks' lines overlap as before, max(1.6, 3.0, 0.4 + 1.7)
    assert float(loop_seconds(1.6 * NS, 0.0, sympy.Float(3.0 * NS), 1.0 * NS, loads=0.4 * NS,
                              transfers=sympy.Float(1.7 * NS), walks=sympy.Float(1.5 * NS))) == pytest.approx(3.0 * NS)


def test_into_l1_keeps_what_each_level_adds_to_l1():
    # HOST: L1 read 0.3 write 0.4 column 0.3/0.4; L2 0.5/0.9 and 0.5/0.9; memory 6/8 and 12/14 ns a line. Beyond
    # L1: L2 0.2/0.5 (column 0.2/0.5); memory takes L2's (the line passes L2), its own bandwidth stays in the data
    levels = into_l1(HOST).levels
    assert [(lv.line_s / NS, lv.store_line_s / NS, lv.column_s / NS, lv.column_store_s / NS) for lv in levels] == \
        pytest.approx([(0, 0, 0, 0), (0.2, 0.5, 0.2, 0.5), (0.2, 0.5, 0.2, 0.5)])
    assert [lv.size_bytes for lv in levels] == [lv.size_bytes for lv in HOST.levels]


def test_a_compiled_loops_references_from_l1_add_nothing_to_its_data(tmp_path):
    # s += a[i*n + j] over i (HOST: L1 column 0.3 ns a line, L2 0.5, memory 12). n = 64, from L1: the whole L1
    # figure 0.3 + every 8th line new to the walk from L2, 0.2 / 8 beyond L1, before; with L1 in the core only
    # those new lines, at L2's whole figure: 0.5 / 8. n = 1000 (L2: 0.5 + memory's 11.5 / 8) and n = 10000
    # (memory) keep their levels' whole figures
    loop, trips = column_loop(tmp_path)
    levels = l1_in_core(HOST).levels
    assert (levels[0].line_s, levels[0].column_s, levels[0].column_store_s) == (0, 0, 0)
    assert levels[1:] == HOST.levels[1:]
    for hierarchy, want in ((HOST, {64: 0.325, 1000: 1.9375, 10000: 12.0}),
                            (l1_in_core(HOST), {64: 0.0625, 1000: 1.9375, 10000: 12.0})):
        data, _ = data_seconds(loop, trips, hierarchy)
        got = {n: float(data.xreplace({s: n for s in data.free_symbols if s.name == "n"})) / NS for n in want}
        assert got == pytest.approx(want, rel=1e-6)


def test_a_column_walk_brings_a_line_into_l1_from_the_level_that_serves_it(tmp_path):
    # s += a[i*n + j] over i: one line an iteration; n = 64: from L1 (nothing beyond), n = 1000: from L2 (0.5 - 0.3
    # ns), n = 10000: from memory, through L2 (the same 0.2 ns: memory's own 12 ns are the data term's). At n = 64
    # every 8th access reads a line new to the walk, last used a run of the nest ago (32 KiB, more than half of
    # L1): from L2, 0.2 / 8 ns (reuse.fresh_lines); at n = 1000 those come from memory, through L2: 0.2 ns too
    loop, trips = column_loop(tmp_path)
    streams = streams_of(loop, trips, HOST)
    fills = transfer_seconds(loop, trips, HOST, None, None, streams)
    values = {n: float(fills.xreplace({s: n for s in fills.free_symbols if s.name == "n"})) for n in (64, 1000, 10000)}
    assert values == pytest.approx({64: 0.2 / 8 * NS, 1000: 0.2 * NS, 10000: 0.2 * NS})


L2_WALK_C = """#include <stdio.h>
#define N 256
static double a[N][N], b[N], c[N], d[N];
int main(void) {
    int i, j, r; double s = 0;
    for (i = 0; i < N; i++) { b[i] = i; c[i] = 1; d[i] = 2; for (j = 0; j < N; j++) a[i][j] = j; }
    for (r = 0; r < 10; r++)
        for (j = 0; j < N; j++)
            for (i = 0; i < N; i++)
                s += a[i][j] * b[i] + c[i] * d[i];
    printf("%g\\n", s);
    return 0;
}
"""


@needs_mca
def test_a_column_walk_from_l2_waits_for_its_lines_behind_the_loads(tmp_path):
    """Four loads an iteration (a's column, b, c, d) keep the load units busy at least 1 and at most 4 cycles
    (four loads on one to four units). Between two uses of a line the nest touches 256 of a's lines and b, c
    and d (16 + 6 KiB): more than the half of L1 the layer condition allows, so L2 serves them all. a brings a
    line an iteration at L2's column figure, 3.3 ns against L1's 0.3: 3.0 ns into L1; b, c and d an eighth of
    a line each at L2's read figure, 1 ns against 0.3: 3 × 0.7 / 8. The iteration costs the loads' cycles +
    those 3.2625 ns, more than the data term's 3.3 + 3 × 1 / 8 ns and the core's."""
    src = tmp_path / "walk.c"
    src.write_text(L2_WALK_C)
    analysis = analyze([str(src)])
    text = host_machine(tmp_path, "gcc -O2 -fno-tree-vectorize").read_text().replace(
        "    - {name: memory, read: 6 ns, write: 8 ns}\n",
        "    - {name: L2, size: 2048 KiB, read: 1 ns, write: 1 ns, column_read: 3.3 ns, column_update: 3.3 ns}\n"
        "    - {name: memory, read: 6 ns, write: 8 ns, column_read: 12 ns, column_update: 14 ns}\n")
    machine_file = tmp_path / "l2.yaml"
    machine_file.write_text(text)
    machine = load_machine(machine_file)
    _, explained = price_loops(analysis, group_blocks(analysis.counts), machine)
    price = next(lp for lp in explained if lp.loop.line == 9)
    clock = machine.hierarchy.clock_hz
    assert 1.0 <= price.loads_s * clock <= 4.0
    assert evaluate(price.transfers_s) == pytest.approx(3.0 * NS + 3 * 0.7 * NS / 8)
    assert evaluate(price.data_s) == pytest.approx(3.3 * NS + 3 * 1.0 * NS / 8)
    assert evaluate(price.seconds) == pytest.approx(price.loads_s + 3.2625 * NS)


def _l2_walk_machine(tmp_path, level: str, extra: str = ""):
    """host_machine with an L2 between L1 and memory (column reads 3.3 ns a line from L2, 12 from memory),
    compiling with gcc ``level`` -fno-tree-vectorize, and the hierarchy lines ``extra``."""
    text = host_machine(tmp_path, f"gcc {level} -fno-tree-vectorize", extra).read_text().replace(
        "    - {name: memory, read: 6 ns, write: 8 ns}\n",
        "    - {name: L2, size: 2048 KiB, read: 1 ns, write: 1 ns, column_read: 3.3 ns, column_update: 3.3 ns}\n"
        "    - {name: memory, read: 6 ns, write: 8 ns, column_read: 12 ns, column_update: 14 ns}\n")
    machine_file = tmp_path / "l2.yaml"
    machine_file.write_text(text)
    return machine_file


@needs_mca
@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_the_column_walks_lines_wait_behind_a_chain_through_memory(tmp_path, level):
    """L2_WALK_C's a[i][j] is its one column walk: 3.3 - 0.3 = 3.0 ns of lines into L1 an iteration (b, c and d
    stream, an eighth of a line each). At -O0 (s and i in stack slots: a chain through memory) they wait behind
    the core and the chain: the iteration costs chained(core, chain) + 3.0 ns; at -O2 no chain runs through
    memory and the walk's lines are the ECM term's as before (the test above)."""
    src = tmp_path / "walk.c"
    src.write_text(L2_WALK_C)
    analysis = analyze([str(src)])
    machine_file = _l2_walk_machine(tmp_path, level)
    _, explained = price_loops(analysis, group_blocks(analysis.counts), load_machine(machine_file))
    price = next(lp for lp in explained if lp.loop.line == 9)
    if level == "-O2":
        assert price.chain_s == 0 and price.walk_fills_s == 0
        return
    assert price.chain_s > 0
    assert evaluate(price.walk_fills_s) == pytest.approx(3.0 * NS)
    both = chained(price.core_s, price.chain_s, index=price.index_s)
    assert evaluate(price.seconds) == pytest.approx(both + 3.0 * NS)


@needs_mca
def test_the_machines_walk_share_of_the_lines_waits_behind_the_chain(tmp_path):
    """The same -O0 walk on a machine whose calibration measured walk_share 0.4 (and chain_share 0.25): 0.4 x
    3.0 ns of the walk's lines wait behind core & chain, so the iteration costs the largest of chained(core,
    chain, 0.25) + 1.2 ns, the load ports + all 3.2625 ns of transfers into L1 (the ECM term) and the data's 3.3 +
    3 x 1 / 8 ns; --explain names the share, and without one says it is not measured and warns."""
    from sad.cli.main import run
    src = tmp_path / "walk.c"
    src.write_text(L2_WALK_C)
    analysis = analyze([str(src)])
    machine_file = _l2_walk_machine(tmp_path, "-O0", "  chain_share: 0.25\n  walk_share: 0.4\n")
    _, explained = price_loops(analysis, group_blocks(analysis.counts), load_machine(machine_file))
    price = next(lp for lp in explained if lp.loop.line == 9)
    want = max(chained(price.core_s, price.chain_s, 0.25, price.index_s) + 0.4 * 3.0 * NS, price.loads_s + 3.2625 * NS,
               3.3 * NS + 3 * 1.0 * NS / 8)
    assert evaluate(price.seconds) == pytest.approx(want)
    assert "hierarchy.walk_share" not in price.unmeasured
    for extra, shown in (("  chain_share: 0.25\n  walk_share: 0.4\n", "core and chain + 0.4 x the column walks' "
                          "lines into L1 "),
                         ("  chain_share: 0.25\n", "core and chain + 1 x the column walks' lines into L1, not "
                          "measured on this machine ")):
        out, err = io.StringIO(), io.StringIO()
        assert run(["analyze", str(src), "-m", str(_l2_walk_machine(tmp_path, "-O0", extra)), "--explain"],
                   out, err) == 0
        assert shown in out.getvalue()
        assert ("no hierarchy.walk_share" in err.getvalue()) == ("walk_share" not in extra)


COLUMN_SUM_C = """#include <stdio.h>
static double A[200][1100];
int main(void) {
    long i, j; double s = 0;
    for (i = 0; i < 200; i++) for (j = 0; j < 1100; j++) A[i][j] = i + j;
    for (j = 0; j < 1100; j++)
        for (i = 0; i < 200; i++)
            s += A[i][j];
    printf("%g\\n", s);
    return 0;
}
"""


def test_a_chain_through_memory_waits_for_a_columns_new_lines(tmp_path):
    # s += A[i][j] over i: 200 lines (12.8 KB) between two uses of one, half of L1 holds them: L1, no wait; a
    # line new to the walk every 8th j (8 doubles a line), last used a whole run of the nest ago (200 x 1100
    # doubles, 1.76 MB): memory's column wait, 10 ns / 8 an iteration, where the chain is given the loop
    loop, trips = inner_loop(tmp_path, COLUMN_SUM_C, 7)
    streams = streams_of(loop, trips, HOST)[0]
    assert evaluate(wait_seconds(streams, HOST)) == 0
    assert evaluate(wait_seconds(streams, HOST, memory_chain=True)) == pytest.approx(10 * NS / 8)


@needs_mca
@pytest.mark.parametrize("level, waits", [("-O0", 10 * NS / 8), ("-O2", 0.0)])
def test_only_a_chain_through_memory_waits_for_the_new_lines(tmp_path, level, waits):
    # -O0 keeps s in memory (a store and a load each link): it waits for memory's column wait once every 8
    # columns; -O2 keeps it in a register, whose waits the data part covers (sad.predict.overlap)
    src = tmp_path / "colsum.c"
    src.write_text(COLUMN_SUM_C)
    analysis = analyze([str(src)])
    machine = load_machine(host_machine(tmp_path, f"gcc {level}",
                                        "  ops:\n    add.double: {latency: 1.2 ns, throughput: 0.3 ns}\n"
                                        "  chain_wait: {L1: [0 ns, 0 ns], memory: [4 ns, 10 ns]}\n"))
    _, explained = price_loops(analysis, group_blocks(analysis.counts), machine)
    price = next(lp for lp in explained if lp.loop.line == 7)
    assert (price.chain_s > price.latency_s) == (level == "-O0")
    assert evaluate(price.wait_s) == pytest.approx(waits)
