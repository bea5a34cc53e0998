"""Message-passing calls read from the source: sizes, ranks, compositions and bad input.

Small programs written in the test, analyzed on the Paragon (PerPreT model, Brehm 1999, Sec. 6.1.3:
send(b) = 45 µs + b/100 MB/s + b/40 MB/s, recv(b) = 95 µs + b/100 MB/s) through the command line in this
process; bad input gives a warning naming the parameter that stands in, exit 0, never a traceback."""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
import sympy

from sad.cli.main import main

OPENMPI_INCLUDE = "/usr/lib/x86_64-linux-gnu/openmpi/include"
ROOT = Path(__file__).resolve().parents[2]


def send(b):
    return 45e-6 + b / 100e6 + b / 40e6


def recv(b):
    return 95e-6 + b / 100e6


def run(tmp_path: Path, name: str, text: str, *args: str, machine: str = "paragon") -> tuple[int, dict, str]:
    src = tmp_path / name
    src.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["analyze", str(src), "-m", machine, "--format", "json", *args])
    return status, json.loads(out.getvalue()), err.getvalue()


def messages(doc: dict) -> list[dict]:
    return [b for b in doc["blocks"] if b["kind"] == "message"]


F_HEAD = """      PROGRAM T
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, N, NEWC, STAT(MPI_STATUS_SIZE), MYTYPE
      DOUBLE PRECISION BUF(1000)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
"""


def test_wrong_argument_count_unknown_datatype_other_communicator(tmp_path):
    status, doc, err = run(tmp_path, "bad.f", F_HEAD + """      N = 100
      CALL MPI_SEND(BUF, N, MPI_DOUBLE_PRECISION, 1, 0, MPI_COMM_WORLD)
      CALL MPI_BCAST(BUF, N, MPI_FOO, 0, MPI_COMM_WORLD, IERR)
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, MOD(ME, 2), ME, NEWC, IERR)
      CALL MPI_ALLREDUCE(BUF, BUF, N, MPI_DOUBLE_PRECISION, MPI_SUM,
     &     NEWC, IERR)
      CALL MPI_SEND(BUF, N, MYTYPE, 1, 0, MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
""", "-D", "NPROCS=4")
    assert status == 0 and "Traceback" not in err
    assert "MPI_SEND takes 7 arguments, 6 given: its message size is the parameter BYTES_T_MPI_SEND1" in err
    assert "MPI_BCAST: unknown datatype MPI_FOO: bytes per element are the parameter SIZE_T_MPI_BCAST1" in err
    assert "communicator NEWC is not MPI_COMM_WORLD: its size is the parameter NPROCS_NEWC" in err
    names = {p["name"] for p in doc["parameters"]}
    assert {"BYTES_T_MPI_SEND1", "SIZE_T_MPI_BCAST1", "NPROCS_NEWC", "SIZE_T_MPI_SEND2"} <= names
    by_call = {(m["call"], m["first_line"]): m for m in messages(doc)}
    # N is passed to the MPI_SEND that is not understood: it may write it, so N is a run-time value
    assert by_call[("MPI_BCAST", 10)]["bytes"] == "N*SIZE_T_MPI_BCAST1"
    assert by_call[("MPI_SEND", 14)]["bytes"] == "N*SIZE_T_MPI_SEND2"   # a derived datatype: no warning
    assert "MYTYPE" not in err
    assert sorted(doc["unbound"]) == ["BYTES_T_MPI_SEND1", "N", "NPROCS_NEWC", "SIZE_T_MPI_BCAST1",
                                      "SIZE_T_MPI_SEND2"]


def test_bad_call_in_c(tmp_path):
    status, doc, err = run(tmp_path, "bad.c", """#include <mpi.h>
int main(int argc, char **argv) {
    double buf[10]; MPI_Comm half;
    MPI_Init(&argc, &argv);
    MPI_Send(buf, 10, MPI_DOUBLE, 1, 0);
    MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &half);
    MPI_Bcast(buf, 10, MPI_DOUBLE, 0, half);
    MPI_Finalize();
    return 0;
}
""")
    assert status == 0 and "Traceback" not in err
    assert "MPI_Send takes 6 arguments, 5 given: its message size is the parameter BYTES_main_MPI_SEND1" in err
    assert "communicator half is not MPI_COMM_WORLD: its size is the parameter NPROCS_half" in err


def test_conditions_on_the_rank_are_decided_per_rank(tmp_path):
    """Even ranks send 8·N bytes to their right neighbour, odd ones receive them; rank 0 also prints.
    The slowest rank is rank 0; -D RANK=1 gives the receiver's time."""
    text = F_HEAD + """      N = 1000
      IF (MOD(ME, 2) .EQ. 0) THEN
         CALL MPI_SEND(BUF, N, MPI_DOUBLE_PRECISION, MOD(ME + 1, NP), 0,
     &        MPI_COMM_WORLD, IERR)
      ELSE
         CALL MPI_RECV(BUF, N, MPI_DOUBLE_PRECISION, ME - 1, 0,
     &        MPI_COMM_WORLD, STAT, IERR)
      END IF
      IF (ME .EQ. 0) WRITE (*, *) 'done'
      CALL MPI_FINALIZE(IERR)
      END
"""
    _, doc, _ = run(tmp_path, "even.f", text, "-D", "NPROCS=4")
    alone = doc["per_rank"]  # the per-rank formula's figures (the time itself is the ranks simulated together)
    assert alone["rank"]["rank"] == 0 and alone["rank"]["nprocs"] == 4 and "slowest of 4 ranks" in alone["rank"]["note"]
    assert alone["communication_s"] == pytest.approx(send(8000), rel=1e-12)
    assert alone["time_s"] == pytest.approx(alone["computation_s"] + alone["communication_s"], rel=1e-12)
    sends = [m for m in messages(doc) if m["primitive"] == "send"]
    assert sends[0]["partner"] == "right neighbour" and sends[0]["bytes"] == "8000"
    _, one, _ = run(tmp_path, "even.f", text, "-D", "NPROCS=4", "-D", "RANK=1")
    assert one["communication_s"] == pytest.approx(recv(8000), rel=1e-12)
    _, generic, _ = run(tmp_path, "even.f", text)
    assert generic["rank"]["rank"] is None and "generic rank" in generic["rank"]["note"]
    assert "RANK" in generic["communication"] and generic["communication_s"] is None


def test_compositions_and_bookkeeping(tmp_path):
    """isend + irecv + waitall = send + recv, at the waitall; allgather = gather(b) + bcast(P·b) on a machine
    that does not name allgather (the Paragon's file without its line); wtime, comm_size, comm_rank, init,
    finalize cost nothing on the Paragon (it names no such primitive)."""
    machine = tmp_path / "paragon_composed.yaml"
    lines = (ROOT / "machine_db" / "paragon.yaml").read_text().splitlines(keepends=True)
    machine.write_text("".join(line for line in lines if not line.startswith("  allgather:")))
    status, doc, err = run(tmp_path, "nb.c", """#include <mpi.h>
int main(int argc, char **argv) {
    double a[100], b[100], all[800], t; int me, np; MPI_Request r[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    t = MPI_Wtime();
    MPI_Isend(a, 100, MPI_DOUBLE, (me + 1) % np, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(b, 100, MPI_DOUBLE, (me - 1 + np) % np, 0, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    MPI_Allgather(a, 100, MPI_DOUBLE, all, 100, MPI_DOUBLE, MPI_COMM_WORLD);
    t = MPI_Wtime() - t;
    MPI_Finalize();
    return 0;
}
""", "-D", "NPROCS=8", machine=str(machine))
    assert status == 0 and "warning" not in err
    assert not [p for p in doc["parameters"] if p["name"].startswith(("C_", "T_"))]
    comm = lambda b: send(b) + recv(b)
    gather, bcast = 7 * comm(800), 3 * comm(8 * 800)
    assert doc["per_rank"]["communication_s"] == pytest.approx(send(800) + recv(800) + gather + bcast, rel=1e-12)
    partners = {m["primitive"]: m["partner"] for m in messages(doc)}
    assert partners["isend"] == "right neighbour" and partners["irecv"] == "left neighbour"
    # the nonblocking pair is priced at its wait
    times = {m["primitive"]: m["time_s"] for m in messages(doc)}
    assert times["isend"] == times["irecv"] == 0.0
    assert times["wait"] == pytest.approx(send(800) + recv(800), rel=1e-12)
    assert partners["wait"] == "completes isend, irecv"
    assert doc["operations"]["msg.wtime"] == "2"


def test_a_machine_without_a_programming_model_names_the_cost(tmp_path):
    src = tmp_path / "s.f"
    src.write_text(F_HEAD + """      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
""")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["analyze", str(src), "-m", "sparc2", "--format", "json"]) == 0
    doc = json.loads(out.getvalue())
    assert "cannot price the message primitive 'barrier'" in err.getvalue()
    assert doc["unbound"] == ["T_msg_barrier"] and "T_msg_barrier" in doc["communication"]
    assert "T_msg_init" not in doc["time"]  # bookkeeping is free, priced or not


def test_pvm_pack_sizes_and_task_count(tmp_path):
    _, doc, err = run(tmp_path, "p.f", """      PROGRAM P
      INCLUDE 'fpvm3.h'
      INTEGER TIDS(8), NUMT, I, BUFID, INFO, N
      DOUBLE PRECISION X(100)
      N = 100
      CALL PVMFSPAWN('w', PVMTASKDEFAULT, '*', 3, TIDS, NUMT)
      DO 10 I = 1, NUMT
         CALL PVMFINITSEND(PVMDEFAULT, BUFID)
         CALL PVMFPACK(INTEGER4, N, 1, 1, INFO)
         CALL PVMFPACK(REAL8, X, N, 1, INFO)
         CALL PVMFSEND(TIDS(I), 1, INFO)
   10 CONTINUE
      CALL PVMFMCAST(NUMT, TIDS, 2, INFO)
      END
""", "-D", "NPROCS=4")
    sends = [m for m in messages(doc) if m["primitive"] == "send"]
    assert sends[0]["bytes"] == "804"                               # 4 + 8·100
    numt = next(p for p in doc["parameters"] if p["name"] == "NUMT")
    assert numt["class"] == "indirect" and numt["value"] == 3 and numt["expression"] == "NPROCS - 1"
    assert "cannot price the message primitive 'spawn'" in err and "T_msg_spawn" in doc["unbound"]
    assert [m for m in messages(doc) if m["primitive"] == "mcast"][0]["bytes"] == "BYTES_P_PVMFMCAST1"


@pytest.mark.parametrize("name", ["ringmm.f", "ringmm.c"])
def test_real_open_mpi_headers_with_dash_i(name):
    """Open MPI's own mpif.h (with its Fortran 90 INTERFACE blocks) and mpi.h (handles as addresses of
    ompi_mpi_* objects) give the same prediction as the shipped headers."""
    out = io.StringIO()
    results = []
    for extra in ([], ["-I", OPENMPI_INCLUDE]):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            assert main(["analyze", str(ROOT / "corpus" / "spmd" / name), "-m", "paragon", "-D", "NPROCS=16",
                         "--format", "json", *extra]) == 0
        results.append(json.loads(out.getvalue()))
    alone = [r["per_rank"] for r in results]  # (P - 1) comm(b): the per-rank formula's, Tab. 6.2's COMM
    assert alone[0]["communication_s"] == alone[1]["communication_s"] == pytest.approx(0.024218, abs=5e-7)
    assert sympy.sympify(results[0]["communication"]) == sympy.sympify(results[1]["communication"])


def test_c_pvm_values_returned_by_the_group_calls(tmp_path):
    """`int me = pvm_joingroup(g)` is the rank and `np = pvm_gsize(g)` NPROCS: the sends of rank 0 (to every
    task) are priced at rank 0 only, 8·100 packed bytes each."""
    _, doc, _ = run(tmp_path, "g.c", """#include <pvm3.h>
int main(void) {
    double x[100];
    int me = pvm_joingroup("g");
    int np, i;
    np = pvm_gsize("g");
    if (me == 0)
        for (i = 1; i < np; i++) {
            pvm_initsend(PvmDataDefault);
            pvm_pkdouble(x, 100, 1);
            pvm_send(i, 1);
        }
    pvm_exit();
    return 0;
}
""", "-D", "NPROCS=4")
    values = {p["name"]: p["expression"] or p["value"] for p in doc["parameters"]}
    assert values["me"] == "RANK"
    assert doc["rank"]["rank"] == 0
    assert doc["communication_s"] == pytest.approx(3 * send(800), rel=1e-12)
