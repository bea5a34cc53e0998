"""A write stream beside a read stream of the same level costs the calibrated copy's excess over the read, not
the write alone (sad.predict.reuse.beside_reads, Level.beside_read_s), and the copy figure goes through the
machine database. Hand-derived from the machine's figures; no timing."""
from __future__ import annotations

from pathlib import Path

import pytest

from sad.machine import hierarchy as hier
from sad.machine.model import load_machine
from sad.predict.reuse import beside_reads, data_seconds
from tests.predict.loop_nests import inner_loop

ROOT = Path(__file__).resolve().parents[2]

COPY = """static double a[4000000], b[4000000];
int main(void) {
    int t, i;
    for (t = 0; t < 10; t++)
        for (i = 0; i < 4000000; i++)
            b[i] = 0.5 * a[i];
    return b[5] > 0;
}
"""

TRIAD = """static double a[4000000], b[4000000], c[4000000];
int main(void) {
    int t, i;
    for (t = 0; t < 10; t++)
        for (i = 0; i < 4000000; i++)
            c[i] = a[i] + 0.5 * b[i];
    return c[5] > 0;
}
"""

# the read's footprint between reuses is its row of 8 KB (read again for every i), the write's the whole of s:
# they are served by different levels (L1, memory) and not paired
ROW_SUM = """static double a[1000], s[3000][1000];
int main(void) {
    int t, i, j;
    for (t = 0; t < 10; t++)
        for (i = 0; i < 3000; i++)
            for (j = 0; j < 1000; j++)
                s[i][j] = a[j] * 2;
    return s[5][5] > 0;
}
"""


def _host(copy_s: float) -> hier.Hierarchy:
    return hier.Hierarchy(clock_hz=3.4e9, line_bytes=64, levels=(
        hier.Level("L1", 32 * 1024, 0.2e-9, 0.3e-9, 0.25e-9, 0.22e-9),
        hier.Level("L2", 1024 * 1024, 0.5e-9, 0.6e-9, 0.55e-9, 0.6e-9),
        hier.Level("memory", None, 1.6e-9, 2.0e-9, 2.2e-9, 2.7e-9, copy_s=copy_s)))


def test_a_copy_from_memory_costs_the_measured_copy_per_line(tmp_path):
    loop, trips = inner_loop(tmp_path, COPY, 5, "copy.c")
    # 8 B of a 64 B line per stream and iteration, both from memory (64 MB between reuses):
    # alone, read 1.6 + write 2.0 = 3.6 ns per line; side by side the copy's 3.1 ns per line
    assert float(data_seconds(loop, trips, _host(0.0))[0]) == pytest.approx(3.6e-9 / 8)
    value, shown = data_seconds(loop, trips, _host(3.1e-9))
    assert float(value) == pytest.approx(3.1e-9 / 8)
    assert [label for label, *_ in shown] == ["b(w) beside a read (copy)", "a"]


def test_a_triad_pairs_its_write_with_one_of_its_two_reads(tmp_path):
    loop, trips = inner_loop(tmp_path, TRIAD, 5, "triad.c")
    # a, b read 1.6 ns each; c written beside one of them: 3.1 - 1.6 = 1.5 ns -> 4.7 ns per line
    assert float(data_seconds(loop, trips, _host(3.1e-9))[0]) == pytest.approx(4.7e-9 / 8)


def test_a_write_whose_footprint_differs_from_the_reads_is_priced_alone(tmp_path):
    loop, trips = inner_loop(tmp_path, ROW_SUM, 6, "rows.c")
    # a from L1 (0.2 ns per line), s written to memory alone (2.0 ns per line)
    assert float(data_seconds(loop, trips, _host(3.1e-9))[0]) == pytest.approx(2.2e-9 / 8)
    assert beside_reads([]) == set()


def test_the_copy_figure_is_read_from_the_database_and_a_level_without_it_keeps_its_write(tmp_path):
    text = (ROOT / "machine_db" / "sparc2.yaml").read_text(encoding="utf-8")
    text += ("hierarchy:\n  clock: 3400 MHz\n  line: 64\n  levels:\n"
             "    - {name: L1, size: 32 KiB, read: 0.2 ns, write: 0.3 ns}\n"
             "    - {name: memory, read: 1.6 ns, write: 2.0 ns, copy: 3.1 ns}\n")
    path = tmp_path / "host.yaml"
    path.write_text(text, encoding="utf-8")
    levels = load_machine(path).hierarchy.levels
    assert levels[1].copy_s == pytest.approx(3.1e-9)
    assert levels[1].beside_read_s() == pytest.approx(1.5e-9)
    assert levels[0].copy_s == 0 and levels[0].beside_read_s() == pytest.approx(0.3e-9)


STEP2 = """static double a[8000000];
int main(void) {
    int t, j;
    double s = 0;
    for (t = 0; t < 10; t++)
        for (j = t % 2; j < 8000000; j += 2)
            s += a[j];
    return s > 0;
}
"""


def test_a_loop_stepping_two_elements_moves_two_elements_of_line_per_iteration(tmp_path):
    # a red-black sweep's j += 2: every line of a is read, 16 B of it per iteration: 1.6 ns x 16 / 64
    loop, trips = inner_loop(tmp_path, STEP2, 6, "step.c")
    assert float(data_seconds(loop, trips, _host(3.1e-9))[0]) == pytest.approx(1.6e-9 * 16 / 64)
    assert [lines for _, _, lines, _ in data_seconds(loop, trips, _host(0.0))[1]] == [0.25]
