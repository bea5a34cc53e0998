"""The collectives each machine's file names (programming_model.collectives), simulated as those algorithms'
messages and priced alike by the per-rank formula: the nCUBE/2 (a hypercube) runs the hypercube algorithms
(spanning binomial trees for broadcast / collect, dimension exchange for allreduce and allgather), the
Paragon MPICH's (allreduce as reduce + broadcast, linear gather, ring allgather). Times derived by hand from
Brehm 1999, Sec. 6.1.3's figures (send setup + receive setup, link and twice the copy per byte)."""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from sad.analysis.pipeline import load_program
from sad.cli.main import main
from sad.machine.model import load_machine
from sad.predict.trace import traces

SPMD = Path(__file__).resolve().parents[2] / "corpus" / "spmd"
SETUP = {"ncube2": (100 + 73) * 1e-6, "paragon": (45 + 95) * 1e-6}  # T1 + T4, seconds
PER_BYTE = {"ncube2": (1 / 1.67 + 2 / 5.35) * 1e-6, "paragon": (1 / 40 + 2 / 100) * 1e-6}  # T3 + T2 + T5
# simulated on the path: ncube2's send copy T2 overlaps its transfer T3 (communication.pipelined)
SIM_PER_BYTE = {"ncube2": (1 / 1.67 + 1 / 5.35) * 1e-6, "paragon": PER_BYTE["paragon"]}  # T3 + T5


def calls(name: str, machine: str, nprocs: int, rank: int, call: str) -> list[tuple[str, int, int]]:
    program, _ = load_program([str(SPMD / name)], [], {})
    events, _ = traces(program, load_machine(machine), nprocs, {})
    return [(op.kind, op.peer, op.nbytes) for op in events[rank] if op.call == call]


def test_hypercube_allgather_is_the_dimension_exchange():
    """cgallg.f at 8 ranks: 128 rows, 1024 B each; rank 5 exchanges with 4, 7, 1 (5 XOR 1, 2, 4), the block
    doubling each step (a ring would send to 6 and receive from 4, seven times)."""
    b = 128 * 8
    assert calls("cgallg.f", "ncube2", 8, 5, "allgather") == [
        ("send", 4, b), ("recv", 4, b), ("send", 7, 2 * b), ("recv", 7, 2 * b), ("send", 1, 4 * b),
        ("recv", 1, 4 * b)]


def test_hypercube_gather_is_the_binomial_collect():
    """cgcoll.f at 8 ranks: rank 0 receives its subtrees from 1, 2 and 4 (1, 2, 4 blocks), not 7 blocks."""
    b = 128 * 8
    assert calls("cgcoll.f", "ncube2", 8, 0, "gather") == [("recv", 1, b), ("recv", 2, 2 * b), ("recv", 4, 4 * b)]


def test_paragon_allreduce_is_reduce_then_bcast():
    """MPICH: MPI_Reduce to rank 0 along the binomial tree, then MPI_Bcast down it (4 ranks: 0 hears 1, 2)."""
    assert calls("cgcoll.f", "paragon", 4, 0, "allreduce")[:4] == [
        ("recv", 1, 8), ("recv", 2, 8), ("send", 2, 8), ("send", 1, 8)]


ALLGATHER = """#include <mpi.h>
int main(int argc, char **argv) {
    double mine[100], all[800];
    MPI_Init(&argc, &argv);
    MPI_Allgather(mine, 100, MPI_DOUBLE, all, 100, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
"""


@pytest.mark.parametrize("machine, steps, blocks", [("ncube2", 3, 7), ("paragon", 7, 7)])
def test_allgather_alone_simulated_and_priced_alike(tmp_path, machine, steps, blocks):
    """800 B per rank, 8 ranks starting together: on the hypercube 3 exchanges of 1, 2, 4 blocks
    (3 setups, 7 blocks), on the Paragon 7 ring steps of one block (7 setups, 7 blocks). On the Paragon the
    simulation and the per-rank formula give the same time; on the nCUBE/2 the simulation's blocks cost
    T3 + T5 per byte (each send's copy runs under its transfer, ncube2.yaml: pipelined), the formula's
    T2 + T3 + T5."""
    src = tmp_path / "allg.c"
    src.write_text(ALLGATHER)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["analyze", str(src), "-m", machine, "-D", "NPROCS=8", "--format", "json"]) == 0
    doc = json.loads(out.getvalue())
    simulated = steps * SETUP[machine] + blocks * 800 * SIM_PER_BYTE[machine]
    assert doc["model"] == "timeline"
    assert doc["time_s"] == pytest.approx(simulated, rel=1e-6)
    assert doc["per_rank"]["time_s"] == pytest.approx(steps * SETUP[machine] + blocks * 800 * PER_BYTE[machine],
                                                      rel=1e-3)
