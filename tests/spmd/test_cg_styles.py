"""CG programs after Brehm 1999, Fig. 6.17 written in styles the other corpus programs lack (issue 28: the
held-out programs are someone else's): C with MPI_ANY_SOURCE receives placed by the status
(corpus/spmd/cgsimple_any.c), a heap tree from a recursive subtree size and MPI_ANY_TAG
(cgtree_mpi.c), recursive halving in GOTO loops with the sizes from a PARAMETER include (cghalve.f),
MPI_ALLGATHERV from MPI_IN_PLACE with counts and offsets kept in arrays (cgcoll_v.c), Fortran with
MPI_ALLGATHER and MPI_ALLREDUCE, a COMMON block and DO ... END DO (cgallg.f). Each is predicted by
`sad analyze -D NPROCS=P` with nothing else bound, against the measured nCUBE/2 times of Tab. 6.7 (Simple)
and 6.8 (Tree) at P = 128, and traced under mpirun by `sad extrapolate`, whose calls must be sad's events."""
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


def analyze(name: str, *args: str) -> tuple[dict, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["analyze", str(SPMD / name), "-m", "ncube2", "--format", "json", *args]) == 0
    return json.loads(out.getvalue()), err.getvalue()


@pytest.mark.parametrize("name, measured", [("cgsimple_any.c", 0.383), ("cgtree_mpi.c", 0.102),
                                            ("cghalve.f", 0.102)])
def test_analyze_at_128_processors_is_within_15_percent_of_brehm(name, measured):
    """Brehm 1999, Tab. 6.7 (Simple, 0.383 s) and 6.8 (Tree, 0.102 s), psize 1024, one iteration, P = 128."""
    doc, err = analyze(name, "-D", "NPROCS=128")
    assert doc["model"] == "timeline" and "warning" not in err, err
    assert doc["time_s"] == pytest.approx(measured, rel=0.15)


def test_any_source_in_c_is_followed():
    """sad's C mpi.h declares MPI_ANY_SOURCE as an extern int: the tracer gives it MPI's value (any source),
    so rank 0 takes the three blocks in the order they arrive."""
    program, _ = load_program([str(SPMD / "cgsimple_any.c")], [], {})
    events, _ = traces(program, load_machine("ncube2"), 4, {})
    first = [op for op in events[0] if op.kind == "recv"][:3]
    assert [(op.peer, op.nbytes) for op in first] == [(-1, 256 * 8)] * 3


def test_allgatherv_in_place_takes_the_ranks_receive_count():
    """1024 rows over 3 ranks: 342, 341, 341. MPI_IN_PLACE: each rank's block is its element of the counts
    (the send count 0 is ignored by MPI); the formula, which has no rank's element, names the size as a
    parameter instead of pricing 0 bytes."""
    program, _ = load_program([str(SPMD / "cgcoll_v.c")], [], {})
    events, _ = traces(program, load_machine("ncube2"), 3, {})
    totals = [{op.total for op in ops if op.call == "allgather"} for ops in events]
    assert totals == [{342 * 8}, {341 * 8}, {341 * 8}]
    doc, err = analyze("cgcoll_v.c", "-D", "NPROCS=3")
    assert doc["model"] == "timeline" and doc["per_rank"]["time_s"] is None
    assert any(name.upper().startswith("BYTES_MAIN_MPI_ALLGATHERV") for name in doc["unbound"])


@pytest.mark.parametrize("name", ["cgcoll_v.c", "cghalve.f", "cgallg.f"])
def test_real_runs_are_the_events_sad_derives(name):
    """Built with mpicc / mpif77 (the math library linked, the include found), run at 3 processes: every
    rank's calls (kind, partner, bytes) are the events sad traces from the source."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["extrapolate", str(SPMD / name), "-I", str(SPMD), "-m", "ncube2", "-D", "NPROCS=16",
                       "--trace-np", "3"])
    assert status == 0, err.getvalue()
    assert out.getvalue().count("agrees with sad's events") == 3
