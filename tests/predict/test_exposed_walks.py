"""A window shorter than a cache line (-O0: 42 instructions per matmul iteration, 192 / 42 = 4.6 iterations in
flight, fewer than a line's 8 doubles): the column walks' transfers from beyond L1 add to the core's time
(``exposes_lines``, ``data_terms(beyond_l1=True)``, ``loop_seconds``) when their rows fall into fewer L1 sets
than it has (``few_l1_sets``); unit-stride streams and walks over every set stay overlapped (the prefetchers
bring their lines ahead). Figures hand-derived from the hierarchy below; no timing."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import sympy

from sad.analysis.bindings import bind, evaluate
from sad.machine import hierarchy as hier
from sad.predict.loopcost import data_terms, exposes_lines, few_l1_sets, loop_seconds
from tests.predict.loop_nests import inner_loop

ROOT = Path(__file__).resolve().parents[2]

# read, write, column read, column update per line (seconds); no geometry: no set conflicts
HIER = hier.Hierarchy(clock_hz=2.32e9, line_bytes=64, levels=(
    hier.Level("L1", 32 * 1024, 0.3e-9, 0.4e-9, 0.4e-9, 0.45e-9),
    hier.Level("L2", 512 * 1024, 0.8e-9, 0.85e-9, 0.8e-9, 0.9e-9),
    hier.Level("L3", 8 * 1024 ** 2, 1.1e-9, 1.3e-9, 1.3e-9, 1.5e-9),
    hier.Level("memory", None, 6.0e-9, 8.0e-9, 12e-9, 14e-9)))

# the same with this host's geometry (L1 8 ways x 64 sets, L2 8 x 1024, L3 16 x 8192, 64 B lines)
GEO = hier.Hierarchy(clock_hz=2.32e9, line_bytes=64, levels=tuple(
    hier.Level(lv.name, lv.size_bytes, lv.line_s, lv.store_line_s, lv.column_s, lv.column_store_s, ways, sets, 64)
    for lv, (ways, sets) in zip(HIER.levels, ((8, 64), (8, 1024), (16, 8192), (0, 0)))))

O0_WINDOW = 192 / 42     # a 192-entry reorder buffer, 42 instructions per iteration of the matmul update
CORE = 11 / 2.32e9       # llvm-mca's 11 cycles per iteration of that loop at the calibrated 2.32 GHz
ORDERS = ("ijk", "ikj", "jik", "kij", "jki", "kji")


def _corpus_loop(tmp_path, order, nmax=256):
    """The innermost loop (line 29) of corpus/c/matmul_<order>.c: static double [256][256] arrays, rows
    2048 B apart (``nmax`` = 257: 2056 B)."""
    source = (ROOT / "corpus" / "c" / f"matmul_{order}.c").read_text()
    source = source.replace("#define NMAX 256", f"#define NMAX {nmax}")
    return inner_loop(tmp_path, source, 29, f"matmul_{order}_{nmax}.c")


def _terms(tmp_path, order, n, hierarchy=HIER, nmax=256):
    loop, trips = _corpus_loop(tmp_path, order, nmax)
    values = {"n": sympy.Integer(n)}
    data, exposed, _ = data_terms(loop, trips, hierarchy, values, O0_WINDOW, True)
    return loop, evaluate(bind(data, values)), evaluate(bind(exposed, values))


def test_a_window_shorter_than_a_line_exposes_it(tmp_path):
    loop, _ = _corpus_loop(tmp_path, "jki")
    assert exposes_lines(loop, O0_WINDOW, 1, 64)          # 4.57 iterations < 8 doubles per line
    assert exposes_lines(loop, 7.9, 1, 64)
    assert not exposes_lines(loop, 8.0, 1, 64)
    assert not exposes_lines(loop, 192 / 5, 1, 64)         # -O2: 5 instructions, 38 in flight
    assert not exposes_lines(loop, O0_WINDOW, 2, 64)       # two doubles per compiled iteration: 9.1 >= 8
    assert not exposes_lines(loop, None, 1, 64)            # no reorder buffer known: the old composition


def test_column_walks_from_beyond_l1_add_their_column_costs_streams_add_nothing(tmp_path):
    # n = 250, rows 2048 B apart (the declaration's), one line per access of a walk:
    # jki / kji: c[i][j] (update) and a[i][k] (read) walk columns; between two uses of their lines (the next k,
    #   or the next j along the line) the i loop touches 2 x 250 lines = 32000 B > 16 KiB (half of L1) -> L2:
    #   exposed = 0.9 + 0.8 = 1.7 ns, the whole data term as well (b[k][j] is invariant)
    # ijk / jik: b[k][j] walks a column: 250 lines + a's row of 2000 B = 18000 B -> L2 column read, 0.8 ns
    # ikj / kij: unit-stride streams only (c and b along j): nothing exposed
    exposed = {order: _terms(tmp_path, order, 250)[2] for order in ORDERS}
    assert exposed == pytest.approx({"jki": 1.7e-9, "kji": 1.7e-9, "ijk": 0.8e-9, "jik": 0.8e-9,
                                     "ikj": 0.0, "kij": 0.0})
    assert _terms(tmp_path, "jki", 250)[1] == pytest.approx(1.7e-9)
    # n = 60: 2 x 60 lines = 7680 B fit half of L1: served by L1, nothing beyond it
    assert _terms(tmp_path, "jki", 60)[2] == 0.0
    # a window long enough (-O2): no exposed part at all
    loop, trips = _corpus_loop(tmp_path, "jki")
    assert data_terms(loop, trips, HIER, None, 38.0, False)[1] == 0


def test_only_walks_whose_rows_crowd_a_few_l1_sets_are_exposed(tmp_path):
    # with the L1's geometry known: rows 2048 B apart fall into 4096 / 2048 = 2 of its 64 sets; the walks'
    # lines then come from L3, not L2: there 2048 B rows reach 32 of the 1024 sets, 32 x 8 lines = 16 KiB,
    # half of it (the safety factor) under the 250 lines (16000 B) of a column; L3 keeps 256 sets x 16 ways
    # -> jki / kji 1.5 + 1.3 = 2.8 ns, ijk / jik 1.3 ns exposed
    exposed = {order: _terms(tmp_path, order, 250, GEO)[2] for order in ORDERS}
    assert exposed == pytest.approx({"jki": 2.8e-9, "kji": 2.8e-9, "ijk": 1.3e-9, "jik": 1.3e-9,
                                     "ikj": 0.0, "kij": 0.0})
    # rows 2056 B apart (NMAX 257) reach every set: the prefetched lines survive, nothing exposed
    assert {order: _terms(tmp_path, order, 250, GEO, 257)[2] for order in ORDERS} == \
        {order: 0.0 for order in ORDERS}
    # a symbolic pitch: the condition that it is a multiple of two lines (rows 8 n bytes apart: n % 16 == 0)
    n = sympy.Symbol("n", integer=True, positive=True)
    condition = few_l1_sets(8 * n, GEO)
    assert [bool(condition.subs(n, size)) for size in (250, 256, 257, 264, 272)] == \
        [False, True, False, False, True]
    assert few_l1_sets(8 * n, HIER) is sympy.true     # no geometry: every walk


def test_the_exposed_part_adds_to_the_core_and_the_larger_bound_stands():
    # jki at n = 250: core 4.741 ns + 1.7 ns of column walks = 6.441 ns, above the chain (5 ns) and the data
    # (1.7 ns); without the exposed part the core's 4.741 ns would stand
    seconds = loop_seconds(CORE, 5e-9, sympy.Float(1.7e-9), sympy.Float(1.7e-9))
    assert float(seconds) == pytest.approx(CORE + 1.7e-9)
    assert float(loop_seconds(CORE, 5e-9, sympy.Float(1.7e-9))) == pytest.approx(5e-9)
    assert float(loop_seconds(CORE, 0.0, sympy.Integer(0))) == pytest.approx(CORE)


def test_the_six_matmul_orders_rank_by_their_exposed_walks(tmp_path):
    # the same 11-cycle core for all six at -O0: ikj = kij (streams) < ijk = jik (one column from L2)
    # < jki = kji (two columns from L2), as measured on the corpus programs at n = 250
    per_iteration = {}
    for order in ORDERS:
        _, data, exposed = _terms(tmp_path, order, 250)
        per_iteration[order] = float(loop_seconds(CORE, 0.0, sympy.Float(data), sympy.Float(exposed)))
    ranked = sorted(ORDERS, key=lambda o: (per_iteration[o], o))
    assert ranked == ["ikj", "kij", "ijk", "jik", "jki", "kji"]
    assert per_iteration["ikj"] == pytest.approx(per_iteration["kij"]) == pytest.approx(CORE)
    assert per_iteration["ijk"] == pytest.approx(per_iteration["jik"]) == pytest.approx(CORE + 0.8e-9)
    assert per_iteration["jki"] == pytest.approx(per_iteration["kji"]) == pytest.approx(CORE + 1.7e-9)


@pytest.mark.skipif(shutil.which("llvm-mca") is None or shutil.which("gcc") is None,
                    reason="llvm-mca and gcc are needed for the compiled-code model")
def test_priced_from_the_compiled_code_the_window_decides(tmp_path):
    from sad.analysis.description import group_blocks
    from sad.analysis.pipeline import analyze
    from sad.machine.model import load_machine
    from sad.predict.loopcost import price_loops

    text = (ROOT / "machine_db" / "sparc2.yaml").read_text().replace("models:\n", 'models:\n  compile: "gcc -O0"\n', 1)
    levels = ["{name: L1, size: 32 KiB, read: 0.3 ns, write: 0.4 ns, column_read: 0.4 ns, column_update: 0.45 ns}",
              "{name: L2, size: 512 KiB, read: 0.8 ns, write: 0.85 ns, column_read: 0.8 ns, column_update: 0.9 ns}",
              "{name: L3, size: 8 MiB, read: 1.1 ns, write: 1.3 ns, column_read: 1.3 ns, column_update: 1.5 ns}",
              "{name: memory, read: 6 ns, write: 8 ns, column_read: 12 ns, column_update: 14 ns}"]
    text += "hierarchy:\n  clock: 2320 MHz\n  line: 64\n  forward: 2.8 ns\n  forward_fp: 3.2 ns\n  levels:\n" + \
        "".join(f"    - {lv}\n" for lv in levels)
    (tmp_path / "host.yaml").write_text(text)
    machine = load_machine(tmp_path / "host.yaml")
    src = tmp_path / "matmul_jki.c"
    src.write_text((ROOT / "corpus" / "c" / "matmul_jki.c").read_text())
    analysis = analyze([str(src)])
    _, explained = price_loops(analysis, group_blocks(analysis.counts), machine)
    price = next(lp for lp in explained if lp.loop.line == 29)
    values = {"n": sympy.Integer(250)}
    exposed = evaluate(bind(price.exposed_s, values)) if price.exposed_s != 0 else 0.0
    seconds = evaluate(bind(price.seconds, values))
    assert price.window is not None
    if price.window < 8:       # this host's core (192 entries) at -O0: the walks' 1.7 ns add to the core
        assert exposed == pytest.approx(1.7e-9)
        assert seconds == pytest.approx(max(price.core_s + 1.7e-9, price.chain_s))
    else:                      # a core with a reorder buffer of 336 entries or more: the bounds overlap
        assert exposed == 0.0
        assert seconds == pytest.approx(max(price.core_s, price.chain_s, 1.7e-9))
