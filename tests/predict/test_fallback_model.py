"""The fallback model (no compiled code: sparc2's per-operation database with a hierarchy and operation classes)
prices every transfer once, the chains through memory of -O0 code, and one line for references that share it
(issue 27, item 2). Figures hand-derived from machine_db/sparc2.yaml (25 ns a cycle)."""
from __future__ import annotations

from pathlib import Path

import pytest
import sympy

from sad.analysis.description import group_blocks
from sad.analysis.pipeline import analyze
from sad.machine.model import load_machine
from sad.predict.loopcost import price_loops

ROOT = Path(__file__).resolve().parents[2]
CYCLE = 25e-9

COLSUM = """void colsum(double *a, double *x, int n) {
    int i, j;
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++)
            x[j] = x[j] + a[i * n + j];
}
"""

TRISOLV = """void trisolv(double *L, double *x, double *b, int n) {
    int i, j;
    for (i = 0; i < n; i++) {
        x[i] = b[i];
        for (j = 0; j < i; j++)
            x[i] -= L[i * n + j] * x[j];
        x[i] = x[i] / L[i * n + i];
    }
}
"""

STENCIL = """void smooth(double *u, double *v, int n) {
    int i, j;
    for (i = 1; i < n - 1; i++)
        for (j = 0; j < n; j++)
            v[j * n + i] = u[j * n + i - 1] + u[j * n + i] + u[j * n + i + 1];
}
"""


def _machine(tmp_path: Path):
    """sparc2 (no compile command: no compiled code) with a hierarchy: L1 64 KiB of 32-byte lines, memory."""
    text = (ROOT / "machine_db" / "sparc2.yaml").read_text()
    text += ("hierarchy:\n  clock: 40 MHz\n  line: 32\n  forward_fp: 100 ns\n  ops:\n"
             "    add.double: {latency: 100 ns, throughput: 50 ns}\n"
             "  levels:\n"
             "    - {name: L1, size: 64 KiB, read: 20 ns, write: 25 ns, column_read: 30 ns, column_update: 35 ns}\n"
             "    - {name: memory, read: 600 ns, write: 650 ns, column_read: 700 ns, column_update: 750 ns}\n")
    (tmp_path / "host.yaml").write_text(text)
    return load_machine(tmp_path / "host.yaml")


def _priced(tmp_path: Path, text: str, line: int, n: int):
    src = tmp_path / "k.c"
    src.write_text(text)
    analysis = analyze([str(src)])
    blocks = group_blocks(analysis.counts)
    overrides, explained = price_loops(analysis, blocks, _machine(tmp_path))
    loop = next(lp for lp in explained if lp.loop.line == line)
    assert loop.source == "operation classes"
    at = {s: n for s in loop.seconds.free_symbols}
    data = float(sympy.sympify(loop.data_s).xreplace({s: n for s in sympy.sympify(loop.data_s).free_symbols}))
    return loop, float(sympy.sympify(loop.seconds).xreplace(at)), data


def test_a_column_walk_pays_its_line_once_not_the_flat_strided_price_too(tmp_path):
    loop, seconds, data = _priced(tmp_path, COLSUM, 4, 4000)
    # the core: every operation at sparc2's price, a's strided reference at the unit-stride load's 3 cycles
    # (load_strided's 27 cycles are a refill from memory: the data term's line): 3 subscripts 15, loads 3 + 3,
    # integer mul 31 and add 4, store 3, assign 8, the loop's increment and test 16 = 83 cycles, + the double
    # add's class throughput 50 ns
    assert loop.core_s == pytest.approx(83 * CYCLE + 50e-9)
    # the data: a's column, 4000 lines of 32 bytes between two uses of a line (> half of the 64 KiB L1):
    # one line a trip from memory's column figure
    assert data == pytest.approx(700e-9)
    # the sum kept in memory: a chain of floating-point forwarding (100 ns) + the add's latency (100 ns), the
    # shorter of core and chain, half of it not hidden (sad.predict.overlap.chained)
    assert loop.chain_s == pytest.approx(200e-9)
    assert seconds == pytest.approx(83 * CYCLE + 50e-9 + 0.5 * 200e-9)
    # n = 500: the column (16 KB) stays in L1, its line costs the L1 column figure; but one access in 4 (32-byte
    # lines: the next j moves along them) reads a line new to the walk, last used a run of the nest (a's 2 MB)
    # ago: from memory, 700 ns instead of 30 (reuse.fresh_lines)
    _, _, small = _priced(tmp_path, COLSUM, 4, 500)
    assert small == pytest.approx(30e-9 + (700e-9 - 30e-9) / 4)


def test_o0_chain_through_an_element_updated_in_place_is_priced(tmp_path):
    loop, _, _ = _priced(tmp_path, TRISOLV, 5, 1000)
    # x[i] -= L[i][j] * x[j] over j: x[i] is stored and loaded again every trip (no -O flag: in memory):
    # the subtraction (the add class's latency) + floating-point store-to-load forwarding
    assert loop.chain_s == pytest.approx(100e-9 + 100e-9)


def test_references_on_one_line_of_a_column_walk_share_it(tmp_path):
    loop, _, data = _priced(tmp_path, STENCIL, 4, 4000)
    # u[j][i-1], u[j][i], u[j][i+1] along j: one line of u and the written line of v per trip, from memory (the
    # lines new to the walks, at i's next iterations, come from memory too: nothing more)
    assert sorted(entry[0] for entry in loop.levels) == ["u", "u new lines", "v(w)", "v(w) new lines"]
    assert data == pytest.approx(700e-9 + 750e-9)


SYRK = """double C[2000][2000], A[2000][1000];
void syrk(void) {
    int i, j, k;
    for (i = 0; i < 2000; i++)
        for (k = 0; k < 1000; k++)
            for (j = 0; j <= i; j++)
                C[i][j] += A[i][k] * A[j][k];
}
"""


def test_every_walked_array_has_a_data_entry(tmp_path):
    # A[i][k] (fixed in the loop on j) and A[j][k] (a column walk) share their fastest subscript: the walk is
    # a stream of its own, shown and priced (it was taken for the same reference as A[i][k] and dropped)
    loop, _, _ = _priced(tmp_path, SYRK, 6, 1)
    assert sorted(entry[0] for entry in loop.levels) == ["A", "A new lines", "C(w)"]
    walk = next(entry for entry in loop.levels if entry[0] == "A")
    assert walk[2] == 1.0 and walk[3] is not None          # a line per trip, a walk with its pitch


SYRK_ROWS = """double C[1000][1000], A[1000][2000];
void syrk(void) {
    int i, j, k;
    for (i = 0; i < 1000; i++)
        for (j = 0; j <= i; j++)
            for (k = 0; k < 2000; k++)
                C[i][j] += A[i][k] * A[j][k];
}
"""


def test_a_row_reused_only_after_the_rows_between_is_not_said_to_come_from_l1(tmp_path):
    from sad.machine import hierarchy as hier
    from sad.predict.reuse import data_seconds, level_name
    from sad.predict.sourceloops import source_loops
    src = tmp_path / "k.c"
    src.write_text(SYRK_ROWS)
    analysis = analyze([str(src)])
    loop = source_loops(analysis.program)[0]
    trips = {id(lp): t for lp, t in zip(loop.nest, (1000, 500.5, 2000))}
    host = hier.Hierarchy(clock_hz=2.5e9, line_bytes=64, levels=(
        hier.Level("L1", 32 * 1024, 0.3e-9, 0.4e-9), hier.Level("L2", 1024 * 1024, 0.8e-9, 0.9e-9),
        hier.Level("memory", None, 6.0e-9, 8.0e-9)))
    data, shown = data_seconds(loop, trips, host)
    footprints = {repr(entry[1]) for entry in shown}
    # A[i][k] is reused at the next j, after the k loop's two rows (i and j: 2 x 16000 B, + C[i][j]'s line);
    # A[j][k] only at the next i, after A's row i and the 500.5 rows j of a whole j loop
    assert [entry[0] for entry in shown] == ["A", "A"]
    assert footprints == {repr(sympy.Integer(32064)), repr(sympy.Float(16000 + 500.5 * 16000 + 500.5 * 8))}
    assert [level_name(float(entry[1]), host) for entry in shown] == ["L2", "memory"]
    # an eighth of a line each: from L2 and from memory
    assert float(data) == pytest.approx(0.8e-9 / 8 + 6.0e-9 / 8)


QUOTIENT = """double quotient(double *a, int n) {
    int i;
    double s = 1;
    for (i = 0; i < n; i++)
        s = s / a[i];
    return s;
}
"""


def test_a_chain_operation_without_a_calibrated_latency_is_a_warning_not_a_silent_zero(tmp_path):
    from sad.predict.loopcost import LoopCoverage
    src = tmp_path / "q.c"
    src.write_text(QUOTIENT)
    analysis = analyze([str(src)])
    coverage = LoopCoverage()
    _, explained = price_loops(analysis, group_blocks(analysis.counts), _machine(tmp_path), coverage=coverage)
    # the hierarchy calibrates add.double only: s's chain through the division has no latency figure (0 s, -O0's
    # store-to-load forwarding 100 ns alone), said once for the file and counted in the report's line
    assert explained[0].chain_s == pytest.approx(100e-9)
    assert [w.message for w in coverage.warnings if "operations neither" in w.message] == [
        "1 innermost loop (line 4) priced from the operation classes with operations neither a calibrated class nor "
        "the machine prices: div.double on a loop-carried chain (no calibrated latency: 0 s on a scalar's chain, "
        "3 cycles on an element's)"]
    assert coverage.summary().startswith("0 of 1 innermost loops priced from the compiled code, 1 from the "
                                         "calibrated operation classes (1 with operations no figure prices: see "
                                         "the warnings);")
