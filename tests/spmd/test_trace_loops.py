"""The tracer prices innermost loops with the loop model on a calibrated machine, as `sad analyze` does
(sad.predict.traceloops): on a host file of a 2-core EPYC at -O0, CG-Tree's per-rank compute had been priced
from the operation figures alone at half the CPU time the ranks took. Figures hand-derived from
machine_db/sparc2.yaml (25 ns a cycle) with the hierarchy of tests/predict/test_fallback_model.py."""
from __future__ import annotations

from pathlib import Path

import pytest

from sad.analysis.pipeline import load_program
from sad.machine.model import load_machine
from sad.predict.trace import traces

ROOT = Path(__file__).resolve().parents[2]
CYCLE = 25e-9

COLSUM = """#include <mpi.h>
double a[10000], x[100];
void colsum(double *a, double *x, int n) {
    int i, j;
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++)
            x[j] = x[j] + a[i * n + j];
}
int main(int argc, char **argv) {
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    colsum(a, x, 100 / np);
    MPI_Finalize();
    return 0;
}
"""


def _machine(tmp_path: Path, hierarchy: bool):
    text = (ROOT / "machine_db" / "sparc2.yaml").read_text()
    if hierarchy:
        text += ("hierarchy:\n  clock: 40 MHz\n  line: 32\n  forward_fp: 100 ns\n  ops:\n"
                 "    add.double: {latency: 100 ns, throughput: 50 ns}\n"
                 "  levels:\n"
                 "    - {name: L1, size: 64 KiB, read: 20 ns, write: 25 ns, column_read: 30 ns, "
                 "column_update: 35 ns}\n"
                 "    - {name: memory, read: 600 ns, write: 650 ns, column_read: 700 ns, column_update: 750 ns}\n")
    (tmp_path / "m.yaml").write_text(text)
    return load_machine(tmp_path / "m.yaml")


def _compute(tmp_path: Path, machine, nprocs: int) -> list[float]:
    src = tmp_path / "colsum.c"
    src.write_text(COLSUM)
    program, failed = load_program([str(src)], [], {})
    assert not failed
    ops, _ = traces(program, machine, nprocs, {})
    return [sum(op.seconds for op in rank if op.kind == "comp") for rank in ops]


def test_the_innermost_loop_is_priced_by_the_loop_model(tmp_path):
    # per trip of the loop on i (tests/predict/test_fallback_model.py): 83 cycles of operations at sparc2's
    # prices with a's column read at the unit-stride load's 3 cycles, + the double add's throughput 50 ns; its
    # column (100 lines of 32 B) stays in the 64 KiB L1: 30 ns a line, below the core; x[j]'s chain through
    # memory 100 + 100 ns, below too, half of it not hidden (sad.predict.overlap.chained). 100 x 100 trips at
    # NPROCS = 1; the loop on j adds its 100 trips' control, under 1 % of it
    per_trip = 83 * CYCLE + 50e-9 + 0.5 * 200e-9
    assert _compute(tmp_path, _machine(tmp_path, True), 1) == [pytest.approx(100 * 100 * per_trip, rel=1e-2)]
    # each of 2 ranks: colsum at n = 50, 50 x 50 trips
    assert _compute(tmp_path, _machine(tmp_path, True), 2) == [pytest.approx(50 * 50 * per_trip, rel=1e-2)] * 2


def test_a_machine_without_a_hierarchy_keeps_the_operation_prices(tmp_path):
    # sparc2 alone: the same 83 cycles of operations with the double add at sparc2's own figure, lddf 3 +
    # interlock 1 + faddd 4 = 8 cycles, for 200 ns instead of the class throughput's 50 ns
    seconds = _compute(tmp_path, _machine(tmp_path, False), 1)
    assert seconds == [pytest.approx(100 * 100 * (83 + 8) * CYCLE, rel=1e-2)]
