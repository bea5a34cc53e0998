"""What the check-only programs of benchmarks/spmdheld/ (CG and ring matrix multiply in styles the corpus
lacks; benchmarks/spmd_held.py prints their errors against Brehm 1999) found wrong in sad, each on a small
program whose figures are derived by hand:
- address arithmetic written in the subscripts (A(I - IOFF, J), a[(i - lo) * n + j]) was priced as integer
  work on the PerPreT machines, whose node rate already contains it: the same CG 27 % to 150 % slower;
- a loop with messages whose first two trips were silent was copied from them (a halving tree's leaf lost
  the receive of its last trip, decided by `mids[k]`);
- a message sent and never received was dropped without a word;
- a size read in a receive buffer's subscript (`U(NL + 1)`) was taken as changed by the call, so the last
  rank's remainder block (heatlog.f) stayed a parameter to bind by hand, and a sweep over it found no rank
  classes in Max(0, Piecewise(...))."""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
import sympy

from sad.analysis.pipeline import load_program
from sad.cli.main import main
from sad.machine.model import load_machine
from sad.predict.events import Op
from sad.predict.timeline import DeadlockError, Network, simulate
from sad.predict.trace import traces

T_F = 1 / 0.43e6  # ncube2: one flop at the node rate, 0.43 MFLOPS (Brehm 1999, Sec. 6.1.3)

ROW_OFFSET_F = """\
      PROGRAM K1
      INTEGER N, IOFF, I, J
      PARAMETER (N = 64)
      DOUBLE PRECISION A(N, N), P(N), S
      IOFF = 3
      S = 0.0D0
      DO 20 I = IOFF + 1, IOFF + N
         DO 10 J = 1, N
            S = S + A(I - IOFF, J)*P(J)
   10    CONTINUE
   20 CONTINUE
      END
"""
FLAT_C = """\
#define N 64
double a[N * N], p[N];
int main(void)
{
    int i, j, lo = 3;
    double s = 0.0;
    for (i = lo; i < lo + N; i++)
        for (j = 0; j < N; j++)
            s += a[(i - lo) * N + j] * p[j];
    return 0;
}
"""


def _seconds(path: Path, machine: str = "ncube2") -> float:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["analyze", str(path), "-m", machine, "--format", "json"]) == 0
    return json.loads(out.getvalue())["time_s"]


@pytest.mark.parametrize("name, text", [("k1.f", ROW_OFFSET_F), ("k2.c", FLAT_C)])
def test_subscript_arithmetic_is_inside_the_node_rate(tmp_path, name, text):
    """64 x 64 multiply-adds: 2 flops each, and 65 loop entries at t_f (ncube2.yaml), whatever the subscripts
    compute: 8257 t_f. Before, A(I - IOFF, J) added a t_f / 4 subtract per trip (+12 %) and
    a[(i - lo) * N + j] a subtract, a multiply and an add (1.5 t_f, +75 %)."""
    source = tmp_path / name
    source.write_text(text)
    assert _seconds(source) == pytest.approx((2 * 64 * 64 + 65) * T_F, rel=1e-12)


SILENT_TRIPS_C = """\
#include <mpi.h>
int main(int argc, char **argv)
{
    int me, np, k, who[3];
    double v = 1.0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    who[0] = -1;
    who[1] = -1;
    who[2] = 1;
    for (k = 0; k < 3; k++) {
        if (me == 0 && who[k] >= 0)
            MPI_Send(&v, 1, MPI_DOUBLE, who[k], 7, MPI_COMM_WORLD);
        if (me == who[k])
            MPI_Recv(&v, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"""


def test_a_later_trip_decided_by_the_index_is_followed(tmp_path):
    """The first two trips send nothing from the same scalars; the third, through who[k], sends rank 0's
    value to rank 1. Rank 0 sends once, rank 1 receives once, rank 2 neither."""
    source = tmp_path / "silent.c"
    source.write_text(SILENT_TRIPS_C)
    program, failed = load_program([str(source)], [], {})
    assert not failed
    events, _ = traces(program, load_machine("ncube2"), 3, {})
    messages = [[(op.kind, op.peer, op.nbytes) for op in ops if op.kind != "comp"] for ops in events]
    assert messages == [[("send", 1, 8)], [("recv", 0, 8)], []]


def test_a_message_never_received_is_an_error():
    net = Network(o_s=1e-4, o_r=1e-4, O_s=0.0, O_r=0.0, G=1e-6)
    with pytest.raises(DeadlockError, match="1 message.* never received .*rank 0 to rank 1, tag 5"):
        simulate([[Op("send", peer=1, tag=5, nbytes=8)], [Op("comp", seconds=1e-3)]], net)
    # received, the same message takes o_s + o_r + 8 G (hand-derived; L = g = 0)
    done = simulate([[Op("send", peer=1, tag=5, nbytes=8)], [Op("recv", peer=0, tag=5)]], net)
    assert done.time == pytest.approx(2e-4 + 8e-6, rel=1e-12)


PROBE_C = """\
#include <mpi.h>
static double buf[100];
int main(int argc, char **argv)
{
    int me, got;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0) {
        MPI_Probe(MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_DOUBLE, &got);
        MPI_Recv(buf, got, MPI_DOUBLE, st.MPI_SOURCE, 3, MPI_COMM_WORLD, &st);
    } else {
        MPI_Send(buf, 100, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"""


def test_a_receive_after_a_probe_takes_the_probed_message(tmp_path):
    """The source (the status's MPI_SOURCE) and the count (MPI_GET_COUNT) are run-time values: the receive
    takes the first message from any source with the probe's tag, and is charged by its 800 bytes. On
    ncube2 one message between idle ranks is 100 + 73 us + b / 1.67 MB/s + b / 5.35 MB/s (Brehm 1999,
    Sec. 6.1.3's phases, the send copy under the transfer: ncube2.yaml, pipelined): 801.6 us for b = 800,
    after rank 1's `me == 0` test (a compare and a branch, t_f / 4 each)."""
    source = tmp_path / "probe.c"
    source.write_text(PROBE_C)
    program, failed = load_program([str(source)], [], {})
    assert not failed
    machine = load_machine("ncube2")
    events, shared = traces(program, machine, 2, {})
    assert [(op.kind, op.peer, op.tag) for op in events[0] if op.kind != "comp"] == [("recv", -1, 3)]
    assert any("MPI_PROBE" in note for note in shared.notes)
    comm = 173e-6 + 800 / 1.67e6 + 800 / 5.35e6
    assert simulate(events, Network.of(machine)).time == pytest.approx(T_F / 2 + comm, rel=1e-9)


LAST_RANK_REMAINDER_F = """\
      PROGRAM T3
      INCLUDE 'mpif.h'
      INTEGER N, ME, NP, NL, I, IERR, STAT(MPI_STATUS_SIZE)
      PARAMETER (N = 1000)
      DOUBLE PRECISION U(0:N + 1), S
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NL = N / NP
      IF (ME .EQ. NP - 1) NL = N - (NP - 1) * (N / NP)
      CALL MPI_SENDRECV(U(1), 1, MPI_DOUBLE_PRECISION, MPI_PROC_NULL,
     &     1, U(NL + 1), 1, MPI_DOUBLE_PRECISION, MPI_PROC_NULL, 1,
     &     MPI_COMM_WORLD, STAT, IERR)
      S = 0
      DO 20 I = 1, NL
         S = S + U(I)
   20 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
"""


def test_a_size_in_a_receive_buffers_subscript_stays_bound(tmp_path):
    """`U(NL + 1)` as MPI_SENDRECV's receive buffer reads NL, it does not change it: the last rank's
    remainder block stays a formula of RANK and NPROCS (benchmarks/spmdheld/heatlog.f). At NPROCS = 7 the
    ranks 0 ... 5 add floor(1000 / 7) = 142 values, rank 6 the other 1000 - 6 * 142 = 148."""
    source = tmp_path / "t3.f"
    source.write_text(LAST_RANK_REMAINDER_F)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["analyze", str(source), "-m", "ncube2", "--format", "json"]) == 0
    doc = json.loads(out.getvalue())
    assert doc["unbound"] == ["NPROCS", "RANK"]
    adds = sympy.sympify(doc["operations"]["add.double"])
    at = {str(s): s for s in adds.free_symbols}
    assert [adds.subs({at["RANK"]: r, at["NPROCS"]: 7}) for r in (0, 5, 6)] == [142, 142, 148]


def test_sweep_of_a_remainder_block_uses_rank_classes(monkeypatch):
    """Max(0, Piecewise(... Eq(RANK, NPROCS - 1) ...)), the remainder block's trip count, has rank classes
    (0, NPROCS - 1 and the ranks around the break), so a 10^5-point sweep of heatlog.f (with its
    `IF (ME .EQ. 0 ...) WRITE` in the time loop) is not refused for its 5 * 10^7 (point, rank) pairs. On a
    smaller grid the classes give the table evaluating every rank gives, byte for byte."""
    from sad.cli.main import run
    from sad.predict import sweep

    heat = Path(__file__).resolve().parents[2] / "benchmarks" / "spmdheld" / "heatlog.f"
    rank, nprocs = sympy.Symbol("RANK"), sympy.Symbol("NPROCS")
    block = sympy.Max(0, sympy.Piecewise((1000 - (nprocs - 1) * sympy.floor(1000 / nprocs),
                                          sympy.Eq(rank, nprocs - 1)), (sympy.floor(1000 / nprocs), True)))
    classes = sweep.rank_classes(block)
    assert classes is not None and {sympy.Integer(0), nprocs - 1} <= set(classes)

    args = ["sweep", str(heat), "-m", "ncube2", "-D", "NPROCS=1:40", "-D", "N=1000-100000:10", "--format", "csv"]
    by_class, every_rank = io.StringIO(), io.StringIO()
    assert run(args, stdout=by_class, stderr=io.StringIO()) == 0
    monkeypatch.setattr(sweep, "rank_classes", lambda expr: None)
    assert run(args, stdout=every_rank, stderr=io.StringIO()) == 0
    assert len(by_class.getvalue().splitlines()) == 401
    assert by_class.getvalue() == every_rank.getvalue()
