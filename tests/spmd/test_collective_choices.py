"""The collectives each machine's file names (programming_model.collectives), simulated as those algorithms'
messages and priced alike by the per-rank formula: the nCUBE/2 runs PICL's tree collect and broadcast on
the binomial tree (gather, allgather as collect + broadcast), the Paragon MPICH 1.1's (linear gather, ring
allgather); both reduce then broadcast for allreduce and exchange empty messages pairwise in a barrier.
Times derived by hand from Brehm 1999, Sec. 6.1.3's figures (send setup + receive setup, link and twice the
copy per byte)."""
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


def test_ncube2_allgather_is_tree_collect_then_broadcast():
    """cgallg.f at 8 ranks: 128 rows, 1024 B each. Rank 4 collects its subtree (5: one block, 6: two), sends
    its four blocks to rank 0, receives all eight back and passes them to 6, then 5; leaf 5 sends one block
    up and receives the eight."""
    b = 128 * 8
    assert calls("cgallg.f", "ncube2", 8, 4, "allgather") == [
        ("recv", 5, b), ("recv", 6, 2 * b), ("send", 0, 4 * b), ("recv", 0, 8 * b), ("send", 6, 8 * b),
        ("send", 5, 8 * b)]
    assert calls("cgallg.f", "ncube2", 8, 5, "allgather") == [("send", 4, b), ("recv", 4, 8 * b)]


def test_ncube2_gather_is_a_tree_collect():
    """cgcoll.f at 8 ranks: rank 0 receives 1's block, 2's two and 4's four (log2 8 start-ups, not 7); rank
    3 sends its one block to 2."""
    b = 128 * 8
    assert calls("cgcoll.f", "ncube2", 8, 0, "gather") == [("recv", 1, b), ("recv", 2, 2 * b),
                                                           ("recv", 4, 4 * b)]
    assert calls("cgcoll.f", "ncube2", 8, 3, "gather") == [("send", 2, b)]


@pytest.mark.parametrize("machine", ["ncube2", "paragon"])
def test_allreduce_is_reduce_then_bcast(machine):
    """MPICH: MPI_Reduce to rank 0 along the binomial tree, then MPI_Bcast down it (4 ranks: 0 hears 1, 2)."""
    assert calls("cgcoll.f", machine, 4, 0, "allreduce")[:4] == [
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


def analyze_json(tmp_path, machine: str, nprocs: int) -> dict:
    src = tmp_path / "allg.c"
    src.write_text(ALLGATHER)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["analyze", str(src), "-m", machine, "-D", f"NPROCS={nprocs}", "--format", "json"]) == 0
    return json.loads(out.getvalue())


def test_paragon_ring_allgather_simulated_and_priced_alike(tmp_path):
    """800 B per rank, 8 ranks starting together: 7 ring steps of one block (7 setups, 7 blocks); the
    simulation and the per-rank formula give the same time."""
    doc = analyze_json(tmp_path, "paragon", 8)
    assert doc["model"] == "timeline"
    assert doc["time_s"] == pytest.approx(7 * SETUP["paragon"] + 7 * 800 * PER_BYTE["paragon"], rel=1e-6)
    assert doc["per_rank"]["time_s"] == pytest.approx(7 * SETUP["paragon"] + 7 * 800 * PER_BYTE["paragon"],
                                                      rel=1e-3)


def test_ncube2_allgather_collects_then_broadcasts(tmp_path):
    """800 B per rank, 2 ranks: rank 1 sends its block to rank 0, which sends both blocks back, two messages in
    series. Simulated, each message's send copy runs under its transfer (ncube2.yaml: pipelined):
    2 (T1 + T4) + (800 + 1600) (T3 + T5) per byte; the per-rank formula prices the collect and the broadcast
    with PICL's five phases: 2 (T1 + T4) + (800 + 1600) (T3 + 2 T2)."""
    doc = analyze_json(tmp_path, "ncube2", 2)
    assert doc["model"] == "timeline"
    assert doc["time_s"] == pytest.approx(2 * SETUP["ncube2"] + 2400 * SIM_PER_BYTE["ncube2"], rel=1e-6)
    assert doc["per_rank"]["time_s"] == pytest.approx(2 * SETUP["ncube2"] + 2400 * PER_BYTE["ncube2"], rel=1e-3)
