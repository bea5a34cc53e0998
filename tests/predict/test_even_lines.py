"""Column walks whose rows are an even number of lines apart: every access on a line of one parity, which some
L2s serve at half the rate (``Level.column_even_s``, timed by `sad calibrate` at 34 lines beside column_read's 33).
Hand-derived from the figures; no timing."""
from __future__ import annotations

import dataclasses

import pytest
import sympy

from sad.machine import hierarchy as hier
from sad.predict.loopcost import Walk, serving_level
from sad.predict.reuse import even_lines, into_l1
from tests.predict.loop_nests import column_sum_warnings
from tests.predict.test_one_set import ZEN

# ZEN's L2 with an even-line column figure of 1.6 ns against its column read of 0.8 ns
EVEN = dataclasses.replace(ZEN, levels=(ZEN.levels[0], dataclasses.replace(ZEN.levels[1], column_even_s=1.6e-9),
                                        *ZEN.levels[2:]))


def _l2_read(pitch: int, host: hier.Hierarchy = EVEN) -> float:
    # 1 024 rows, one line each: 64 KiB between reuses, past half of L1, within half of L2
    walk = Walk(sympy.Integer(pitch), sympy.Integer(1024 * 64))
    return float(serving_level(sympy.Integer(1024 * 64), host, False, True, walk))


def test_rows_an_even_number_of_lines_apart_take_the_even_figure():
    assert _l2_read(16000) == pytest.approx(1.6e-9)      # a row of 2 000 doubles: 250 lines
    assert _l2_read(16064) == pytest.approx(0.8e-9)      # 251 lines: the column read
    assert _l2_read(7200) == pytest.approx(0.8e-9)       # 112.5 lines: rows alternate, both parities
    assert _l2_read(16000, ZEN) == pytest.approx(0.8e-9)  # not measured: the column read for every pitch


def test_an_update_and_a_symbolic_pitch():
    walk = Walk(sympy.Integer(16000), sympy.Integer(1024 * 64))
    # the figure is a read's: an update keeps its column update figure (0.9 ns)
    assert float(serving_level(sympy.Integer(1024 * 64), EVEN, True, True, walk)) == pytest.approx(0.9e-9)
    n = sympy.Symbol("n", positive=True, integer=True)
    chosen = even_lines(8 * n, 64, sympy.Float(2), sympy.Float(1))
    assert [float(chosen.subs(n, v)) for v in (2000, 2008, 2004)] == [2.0, 1.0, 1.0]


def test_the_transfer_into_l1_is_the_even_figure_beyond_l1s_column_read():
    # L1's column read is 0.4 ns: 1.6 - 0.4 = 1.2 ns into L1 from L2 at an even pitch
    assert into_l1(EVEN).levels[1].column_even_s == pytest.approx(1.2e-9)


def test_calibrate_writes_the_even_figure_and_the_database_reads_it(tmp_path):
    from tests.predict.test_tlb_ramp import _m, _written_and_read
    text, hierarchy = _written_and_read(tmp_path, column_even={"L1": _m(0.3), "memory": _m(2.5)})
    assert "column_read_even: 0.3 ns" in text and "column_read_even: 2.5 ns" in text
    assert [lv.column_even_s for lv in hierarchy.levels] == [pytest.approx(0.3e-9), pytest.approx(2.5e-9)]
    _, without = _written_and_read(tmp_path)           # calibrated before it was timed: not measured
    assert [lv.column_even_s for lv in without.levels] == [0.0, 0.0]


def _unmeasured_warnings(tmp_path, row: int, level_line: str) -> tuple[list, str]:
    """The warnings and the report's loop line of a column sum over rows of ``row`` doubles, on the test host
    whose L1 entry is ``level_line``."""
    return column_sum_warnings(tmp_path, "column_read_even", row, level_line=level_line)


@pytest.mark.skipif(not __import__("shutil").which("gcc"), reason="needs gcc")
def test_a_file_calibrated_before_even_walks_says_so_where_a_walk_is_even(tmp_path):
    """Columns timed (``column_read``) but no ``column_read_even``: a walk over rows of 2 000 doubles (250 lines)
    is priced at the odd figure, said once at its loop (line 4) and in the report's line; rows of 2 008 doubles
    (251 lines) need no even figure; a file with the figure, or one written without any column figure, says
    nothing."""
    old = "    - {name: L1, size: 32 KiB, read: 0.3 ns, write: 0.4 ns, column_read: 0.35 ns}\n"
    said, summary = _unmeasured_warnings(tmp_path, 2000, old)
    assert [(d.loc.line, d.severity) for d in said] == [(4, "warning")]
    assert "the column read figure stands in" in said[0].message
    assert summary.endswith("; recalibrate: column walks an even number of lines apart not measured")
    assert _unmeasured_warnings(tmp_path, 2008, old) == ([], "1 of 1 innermost loops priced from the compiled "
                                                          "code (gcc -O2)")
    new = old.replace("column_read: 0.35 ns", "column_read: 0.35 ns, column_read_even: 0.5 ns")
    assert _unmeasured_warnings(tmp_path, 2000, new)[0] == []
    by_hand = "    - {name: L1, size: 32 KiB, read: 0.3 ns, write: 0.4 ns}\n"
    assert _unmeasured_warnings(tmp_path, 2000, by_hand)[0] == []
