"""The collectives each machine's file names (programming_model.collectives), simulated as those algorithms'
messages and priced alike by the per-rank formula: both machines run MPICH's (src/coll/intra_fns.c), the
nCUBE/2 MPICH 1.0's (allgather as P linear gathers), the Paragon MPICH 1.1's (ring allgather); both reduce
then broadcast for allreduce, gather linearly at the root and exchange empty messages pairwise in a barrier.
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


def test_ncube2_allgather_is_p_gathers():
    """cgallg.f at 8 ranks: 128 rows, 1024 B each; rank 5 sends its block to roots 0 ... 4, receives every
    other block in rank order in its own gather, then sends to roots 6 and 7 (MPICH 1.0)."""
    b = 128 * 8
    assert calls("cgallg.f", "ncube2", 8, 5, "allgather") == (
        [("send", r, b) for r in range(5)] + [("recv", r, b) for r in (0, 1, 2, 3, 4, 6, 7)]
        + [("send", 6, b), ("send", 7, b)])


def test_ncube2_gather_is_linear_at_the_root():
    """cgcoll.f at 8 ranks: rank 0 receives one block from each of 1 ... 7 in turn; rank 3 sends one."""
    b = 128 * 8
    assert calls("cgcoll.f", "ncube2", 8, 0, "gather") == [("recv", r, b) for r in range(1, 8)]
    assert calls("cgcoll.f", "ncube2", 8, 3, "gather") == [("send", 0, b)]


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


def test_ncube2_gathers_allgather_runs_the_two_gathers_in_turn(tmp_path):
    """800 B per rank, 2 ranks: rank 1 sends to rank 0's gather while rank 0 waits, then rank 0 sends to
    rank 1's gather while rank 1 waits, two whole messages in series (a ring would overlap them). Simulated,
    each message's send copy runs under its transfer (ncube2.yaml: pipelined): 2 (T1 + T4 + T3 + T5); the
    per-rank formula prices each rank alone, one send and one receive: comm(800) = T1 + T4 + T3 + 2 T2."""
    doc = analyze_json(tmp_path, "ncube2", 2)
    assert doc["model"] == "timeline"
    assert doc["time_s"] == pytest.approx(2 * (SETUP["ncube2"] + 800 * SIM_PER_BYTE["ncube2"]), rel=1e-6)
    assert doc["per_rank"]["time_s"] == pytest.approx(SETUP["ncube2"] + 800 * PER_BYTE["ncube2"], rel=1e-3)
