"""The block cost model of a calibrated host: cache sizes from the OS, the serving level of a reference as a
step function of the problem size, llvm-mca on the compiler's own loops, chains through memory at -O0, and a
calibration that either converges or names its unreliable figures on a loaded core."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import sympy

from sad.analysis.description import group_blocks
from sad.analysis.pipeline import analyze
from sad.machine import hierarchy as hier
from sad.machine.model import load_machine
from sad.predict import compiled as cc
from sad.predict.loopcost import data_seconds, loop_trips, price_loops, source_loops
from tests.predict.loop_nests import column_loop, inner_loop

ROOT = Path(__file__).resolve().parents[2]
needs_mca = pytest.mark.skipif(shutil.which("llvm-mca") is None or shutil.which("gcc") is None,
                               reason="llvm-mca and gcc are needed for the compiled-code model")

HIER = hier.Hierarchy(clock_hz=2.5e9, line_bytes=64, levels=(
    hier.Level("L1", 32 * 1024, 0.3e-9, 0.4e-9, 0.3e-9, 0.4e-9),
    hier.Level("L2", 512 * 1024, 0.8e-9, 0.9e-9, 0.8e-9, 0.9e-9),
    hier.Level("memory", None, 6.0e-9, 8.0e-9, 12e-9, 14e-9)), forward_s=2.8e-9, forward_fp_s=3.2e-9)

SUM_C = """#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n, r, i; double s = 0;
    if (scanf("%d", &n) != 1) return 1;
    double *a = malloc(n * sizeof(double));
    for (i = 0; i < n; i++) a[i] = i;
    for (r = 0; r < 100; r++)
        for (i = 0; i < n; i++)
            s += a[i];
    printf("%g\\n", s);
    return 0;
}
"""


def test_cache_sizes_read_from_sysfs(tmp_path):
    for k, (level, kind, size) in enumerate([(1, "Data", "32K"), (1, "Instruction", "64K"), (2, "Unified", "512K"),
                                             (3, "Unified", "8192K")]):
        d = tmp_path / "cpu0" / "cache" / f"index{k}"
        d.mkdir(parents=True)
        (d / "level").write_text(f"{level}\n")
        (d / "type").write_text(f"{kind}\n")
        (d / "size").write_text(f"{size}\n")
        (d / "coherency_line_size").write_text("64\n")
    caches = hier.os_caches(0, tmp_path)
    assert [(c.level, c.size_bytes, c.line_bytes) for c in caches] == [(1, 32768, 64), (2, 524288, 64),
                                                                       (3, 8388608, 64)]


def test_working_set_crossing_a_cache_size_steps_up_there(tmp_path):
    loop, trips = inner_loop(tmp_path, SUM_C, 9, "sum.c")
    data, shown = data_seconds(loop, trips, HIER)
    n = sympy.Symbol("n")
    per_iteration = {size: float(data.xreplace({s: size for s in data.free_symbols if s.name == "n"}))
                     for size in (2048, 2049, 32768, 32769)}
    # a[i] is reused at the next r: 8n bytes between reuses; L1 holds half its 32 KiB (the safety factor), so
    # the step is at n = 2048 (16 KiB) and at n = 32768 (256 KiB, half of L2); 1/8 of a line per iteration
    assert per_iteration[2048] == pytest.approx(0.3e-9 / 8)
    assert per_iteration[2049] == pytest.approx(0.8e-9 / 8)
    assert per_iteration[32768] == pytest.approx(0.8e-9 / 8)
    assert per_iteration[32769] == pytest.approx(6.0e-9 / 8)
    assert isinstance(data, sympy.Mul) and data.has(sympy.Piecewise) and n.name in {s.name for s in data.free_symbols}
    assert [entry[0] for entry in shown] == ["a"]


@needs_mca
def test_llvm_mca_prices_the_compilers_loop_and_o0_chains_through_memory(tmp_path):
    src = tmp_path / "sum.c"
    src.write_text(SUM_C)
    o2 = cc.compiled_file(src, "gcc -O2")
    inner = [lp for lp in o2.loops if lp.innermost and (str(src), 10) in lp.lines]
    assert inner, "the s += a[i] loop is found in the -O2 code through its .loc lines"
    result = cc.mca(tuple(inner[0].instructions))
    # one FP add chain on s: the latency of addsd (3 or 4 cycles on x86 cores) bounds the iteration
    assert 2.9 <= max(result.cycles, cc.register_chain(inner[0].instructions)) <= 4.5
    assert cc.memory_chains(inner[0].instructions, result.latencies) == []      # s lives in a register
    o0 = cc.compiled_file(src, "gcc -O0")
    body = next(lp for lp in o0.loops if lp.innermost and (str(src), 10) in lp.lines)
    chains = cc.memory_chains(body.instructions, cc.mca(tuple(body.instructions)).latencies)
    kinds = sorted((c.floating, c.cycles >= 1) for c in chains)
    assert kinds == [(False, True), (True, True)]     # i++ in memory (integer) and s += in memory (FP)


@needs_mca
def test_priced_loop_replaces_the_sum_of_operation_times(tmp_path):
    src = tmp_path / "sum.c"
    src.write_text(SUM_C)
    text = (ROOT / "machine_db" / "sparc2.yaml").read_text()
    text = text.replace("models:\n", 'models:\n  compile: "gcc -O2"\n', 1)
    text += ("hierarchy:\n  clock: 2500 MHz\n  line: 64\n  forward: 2.8 ns\n  forward_fp: 3.2 ns\n  levels:\n"
             "    - {name: L1, size: 32 KiB, read: 0.3 ns, write: 0.4 ns}\n"
             "    - {name: memory, read: 6 ns, write: 8 ns}\n")
    machine_file = tmp_path / "host.yaml"
    machine_file.write_text(text)
    machine = load_machine(machine_file)
    analysis = analyze([str(src)])
    blocks = group_blocks(analysis.counts)
    overrides, explained = price_loops(analysis, blocks, machine)
    priced = {b.first_line: overrides[id(b)] for b in blocks if id(b) in overrides}
    loop = next(lp for lp in explained if lp.loop.line == 9)
    assert priced[10] == 0                  # the statement's operations are inside the loop's price
    core = loop.core_s * 2.5e9
    assert 2.9 <= core <= 4.5
    at = {s: 1000 for s in priced[9].free_symbols}
    assert float(priced[9].xreplace(at)) == pytest.approx(max(loop.core_s, 6e-9 / 8 if 8000 > 16384 else 0.3e-9 / 8))


@pytest.mark.heavy
def test_calibration_on_a_loaded_core_converges_or_names_unreliable_figures():
    cpu = hier.pinned_cpu()
    if cpu is None or shutil.which("taskset") is None or shutil.which("gcc") is None:
        pytest.skip("needs CPU affinity, taskset and gcc")
    busy = subprocess.Popen(["taskset", "-c", str(cpu), sys.executable, "-c", "while True: pass"])
    try:
        cal = hier.measure(budget_s=6.0)
    finally:
        busy.kill()
        busy.wait()
    figures = {"clock": cal.clock, "hierarchy.forward": cal.forward, "hierarchy.forward_fp": cal.forward_fp,
               "hierarchy.first_touch": cal.first_touch}
    figures.update({f"hierarchy.{k}.read": v for k, v in cal.read.items()})
    figures.update({f"hierarchy.{k}.write": v for k, v in cal.write.items()})
    for name, fig in figures.items():
        assert fig.seconds > 0, name                       # never a zero or negative figure
        if not fig.reliable:
            assert any(w.startswith(name + ":") and "unreliable" in w for w in cal.warnings), name
    text = "\n".join(hier.render_yaml(cal))
    # every figure the file shows can be flagged, not only those above (a loaded core may upset a column walk)
    shown = [*figures.values(), *cal.column.values(), *cal.column_write.values(), *cal.one_set.values(),
             *cal.one_set_write.values(), *(f for pair in cal.ops.values() for f in pair),
             *(f for f in (cal.tlb_miss, cal.walk_latency) if f is not None)]
    flagged = [f for f in shown if not f.reliable]
    assert ("UNRELIABLE" in text) == bool(flagged)


@needs_mca
def test_loop_never_entered_for_the_bound_values_prices_to_zero_not_nan(tmp_path):
    # the inner loop's entry count is a probability times the outer trips: with the probability bound to 0
    # the trips per entry must be 0, not 0/0 (a NaN inside the cache-level Piecewise broke the prediction)
    src = tmp_path / "guarded.c"
    src.write_text(SUM_C.replace("    for (r = 0; r < 100; r++)\n", "    for (r = 0; r < 100; r++)\n"
                                 "        if (a[r % n] > 1e300)\n"))
    text = (ROOT / "machine_db" / "sparc2.yaml").read_text().replace("models:\n", 'models:\n  compile: "gcc -O2"\n', 1)
    text += ("hierarchy:\n  clock: 2500 MHz\n  levels:\n    - {name: L1, size: 32 KiB, read: 0.3 ns, write: 0.4 ns}\n"
             "    - {name: memory, read: 6 ns, write: 8 ns}\n")
    (tmp_path / "host.yaml").write_text(text)
    from sad.predict.job import predict_analysis
    analysis = analyze([str(src)], generic_data=False)  # a test of data that stays a probability
    probability = next(p.name for p in analysis.table.unresolved() if p.name.startswith("P_"))
    values = {"n": sympy.Integer(1000), probability: sympy.Integer(0), "C_malloc": sympy.Integer(0)}
    result = predict_analysis(analysis, load_machine(tmp_path / "host.yaml"), values)
    assert result.loops and result.prediction.time_value is not None
    assert result.prediction.time_value == result.prediction.time_value       # not NaN


KERN_F = """      PROGRAM P
      INTEGER N, I
      DOUBLE PRECISION W(1000), S
      N = 1000
      DO 10 I = 1, N
         W(I) = I
   10 CONTINUE
      S = 0
      CALL KERN(N, S, W)
      PRINT *, S
      END
      SUBROUTINE KERN(N, S, X)
      INTEGER N, I
      DOUBLE PRECISION S, X(N)
      DO 20 I = 1, N
         S = S + X(I)
   20 CONTINUE
      RETURN
      END
"""


def test_first_touch_belongs_to_the_first_loop_of_an_array_not_to_formal_arguments(tmp_path):
    src = tmp_path / "sum.c"
    src.write_text(SUM_C)
    loops = {lp.line: lp.first_touch for lp in source_loops(analyze([str(src)]).program)}
    assert loops == {7: ["a"], 9: []}          # the init loop faults a's pages, the summing loop finds them mapped
    fsrc = tmp_path / "kern.f"
    fsrc.write_text(KERN_F)
    floops = {lp.line: lp.first_touch for lp in source_loops(analyze([str(fsrc)]).program)}
    assert floops == {5: ["W"], 15: []}        # X is the caller's W: a formal argument is nobody's fresh memory


@needs_mca
def test_first_touch_pages_are_paid_once_per_run(tmp_path):
    src = tmp_path / "sum.c"
    src.write_text(SUM_C)
    text = (ROOT / "machine_db" / "sparc2.yaml").read_text().replace("models:\n", 'models:\n  compile: "gcc -O2"\n', 1)
    text += ("hierarchy:\n  clock: 2500 MHz\n  page: 4096\n  first_touch: 2000 ns\n  levels:\n"
             "    - {name: L1, size: 32 KiB, read: 0.3 ns, write: 0.4 ns}\n"
             "    - {name: memory, read: 6 ns, write: 8 ns}\n")
    (tmp_path / "host.yaml").write_text(text)
    analysis = analyze([str(src)])
    blocks = group_blocks(analysis.counts)
    overrides, explained = price_loops(analysis, blocks, load_machine(tmp_path / "host.yaml"))
    init = next(lp for lp in explained if lp.loop.line == 7)
    n = 1 << 20
    at = {s: n for s in init.touch_bytes.free_symbols}
    # 8 n bytes of a = 2048 pages of 4 KiB at n = 2^20, 2 us each: 4.096 ms once, whatever the loop's count
    assert float(init.touch_bytes.xreplace(at)) == 8 * n
    assert float(init.touch_s.xreplace(at)) == pytest.approx(2048 * 2e-6)
    block = next(b for b in blocks if b.kind == "loop_iter" and b.first_line == 7)
    total = (overrides[id(block)] - init.seconds) * block.count
    assert float(total.xreplace({s: n for s in total.free_symbols})) == pytest.approx(2048 * 2e-6)
    summing = next(lp for lp in explained if lp.loop.line == 9)
    assert summing.touch_s == 0


@needs_mca
def test_o0_store_address_arithmetic_joins_the_index_chain(tmp_path):
    src = tmp_path / "loops.c"
    src.write_text("void daxpy(double *x, double *y, int n, double t) {\n"
                   "    int i; for (i = 0; i < n; i++) y[i] = y[i] + t * x[i];\n}\n"
                   "void sum(double *x, int n, double *s) {\n"
                   "    int i; double a = 0; for (i = 0; i < n; i++) a += x[i]; *s = a;\n}\n")
    o0 = cc.compiled_file(src, "gcc -O0")
    index = {}
    for line in (2, 5):
        body = next(lp for lp in o0.loops if lp.innermost and (str(src), line) in lp.lines)
        chains = cc.memory_chains(body.instructions, cc.mca(tuple(body.instructions)).latencies)
        index[line] = next(c.cycles for c in chains if not c.floating)
    # sum: i++ in memory is one add after forwarding; daxpy: the next load of i waits for the address of the
    # y[i] store, which is i sign-extended (cltq), scaled (lea) and added to y: three more dependent operations
    assert index[5] == 1
    assert index[2] >= index[5] + 3




def test_column_walk_beyond_the_tlb_reach_steps_up_where_pages_exceed_it(tmp_path):
    from dataclasses import replace
    loop, trips = column_loop(tmp_path)
    machine = replace(HIER, tlb_pages=1536, tlb_miss_s=11e-9, page_bytes=4096)
    data, _ = data_seconds(loop, trips, machine)
    at = {n: float(data.xreplace({s: n for s in data.free_symbols if s.name == "n"})) for n in (1536, 1537, 4096, 4097)}
    # a[i*n+j] over i: a line per row, 64 n bytes between two uses of a line (the next j); the pitch 8 n bytes
    # is at least a page, so each row is its own page: n pages. Up to 1536 pages the TLBs hold them (L2 column
    # cost only); beyond, 11 ns more per access, until the lines leave half of L2 (64 n > 256 KiB at n = 4097),
    # where the memory column cost (which contains its TLB misses) alone prices it. Every 8th access (the next j
    # moves along the line: 8 doubles a line) reads a line the sweep has not used since the last run of the
    # nest, 8 n^2 bytes ago: from memory, 12 - 0.8 ns more for those (fresh_lines), 1.4 ns per iteration
    fresh = (12e-9 - 0.8e-9) / 8
    assert at[1536] == pytest.approx(0.8e-9 + fresh)
    assert at[1537] == pytest.approx(0.8e-9 + fresh + 11e-9)
    assert at[4096] == pytest.approx(0.8e-9 + fresh + 11e-9)
    assert at[4097] == pytest.approx(12e-9)


def test_tlb_reach_and_miss_from_one_line_per_page_walks():
    ns = {16: 0.3, 64: 0.3, 256: 0.4, 512: 0.4, 768: 0.6, 1024: 0.8, 1536: 5.7, 2048: 12.2, 3072: 12.2, 4096: 12.2}
    reach, miss = hier.tlb_reach({p: hier.Measured(t * 1e-9, 0.01, 5) for p, t in ns.items()})
    # the step: 12.2 ns at 4096 pages minus 0.8 ns at 1024 (a quarter); the reach: the last walk below
    # 0.8 + 11.4 / 2 = 6.5 ns
    assert reach == 1536
    assert miss is not None and miss.seconds == pytest.approx(11.4e-9)
    flat = {p: hier.Measured(0.8e-9, 0.01, 5) for p in ns}
    assert hier.tlb_reach(flat) == (4096, None)


def test_a_stride_of_one_line_streams_a_wider_one_walks_columns(tmp_path):
    costs = {}
    for step in (8, 16):          # doubles: 64 bytes (one line) and 128 bytes apart
        src = tmp_path / f"stride{step}.c"
        src.write_text(SUM_C.replace("n * sizeof", f"{step} * n * sizeof").replace("a[i] = i", f"a[{step} * i] = i")
                       .replace("s += a[i]", f"s += a[{step} * i]"))
        analysis = analyze([str(src)])
        blocks = group_blocks(analysis.counts)
        loop = next(lp for lp in source_loops(analysis.program) if lp.line == 9)
        trips = {id(lp): loop_trips(blocks)[(str(src.resolve()), lp.loc.line)] for lp in loop.nest}
        data, _ = data_seconds(loop, trips, HIER)
        costs[step] = float(data.xreplace({s: 10 ** 6 for s in data.free_symbols if s.name == "n"}))
    # a line per iteration from memory either way: the consecutive lines at the streaming figure (6 ns), lines
    # 128 bytes apart at the column-walk figure (12 ns)
    assert costs[8] == pytest.approx(6e-9)
    assert costs[16] == pytest.approx(12e-9)
