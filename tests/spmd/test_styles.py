"""Other coding styles of the same SPMD patterns (issue 28: the held-out programs are written by someone else):
hypercube partners from the bit intrinsics (IEOR(ME, 2**K)), C file-scope variables for the rank and size,
a C function that reads them, and a C static local; the events each rank traces are derived by hand."""
from __future__ import annotations

from sad.analysis.pipeline import load_program
from sad.machine.model import load_machine
from sad.predict.trace import traces

CUBE_F = """      PROGRAM CUBE
      INCLUDE 'mpif.h'
      DOUBLE PRECISION V(64)
      INTEGER ME, NP, K, MASK, PARTNR, IERR, STAT(MPI_STATUS_SIZE)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      K = 0
   5  IF (2**K .LT. NP) THEN
         MASK = 2**K
         PARTNR = IEOR(ME, MASK)
         IF (IAND(ME, MASK) .NE. 0 .AND. MOD(ME, MASK) .EQ. 0) THEN
            CALL MPI_SEND(V, MASK, MPI_DOUBLE_PRECISION, PARTNR, 1,
     &           MPI_COMM_WORLD, IERR)
         ELSE IF (MOD(ME, 2*MASK) .EQ. 0) THEN
            CALL MPI_RECV(V, MASK, MPI_DOUBLE_PRECISION, PARTNR, 1,
     &           MPI_COMM_WORLD, STAT, IERR)
         END IF
         K = K + 1
         GOTO 5
      END IF
      CALL MPI_FINALIZE(IERR)
      END
"""


def _events(tmp_path, name: str, text: str, nprocs: int):
    src = tmp_path / name
    src.write_text(text)
    program, failed = load_program([str(src)], [], {})
    assert not failed
    return traces(program, load_machine("ncube2"), nprocs, {})[0]


def test_hypercube_partners_from_ieor(tmp_path):
    """Binomial collect at P = 8 written with IEOR/IAND: step k, ranks with bit k lowest send 2^k doubles
    to ME XOR 2^k: rank 0 receives from 1, 2, 4 (8, 16, 32 bytes), rank 4 from 5 and 6 sends 32 bytes."""
    events = _events(tmp_path, "cube.f", CUBE_F, 8)
    msgs = [[(op.kind, op.peer, op.nbytes) for op in ops if op.kind != "comp"] for ops in events]
    assert msgs == [[("recv", 1, 8), ("recv", 2, 16), ("recv", 4, 32)], [("send", 0, 8)],
                    [("recv", 3, 8), ("send", 0, 16)], [("send", 2, 8)],
                    [("recv", 5, 8), ("recv", 6, 16), ("send", 0, 32)], [("send", 4, 8)],
                    [("recv", 7, 8), ("send", 4, 16)], [("send", 6, 8)]]


GLOBALS_C = """#include <mpi.h>
int me, np;
double v[64];

int partner(int mask)
{
    return me ^ mask;
}

int calls(void)
{
    static int n = 0;
    n = n + 1;
    return n;
}

int main(int argc, char **argv)
{
    int mask, k;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    for (mask = 1; mask < np; mask <<= 1) {
        k = calls();
        MPI_Sendrecv(v, k, MPI_DOUBLE, partner(mask), 3, v + 32, k, MPI_DOUBLE, partner(mask), 3,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"""


def test_c_file_scope_rank_static_counter(tmp_path):
    """The rank and size in C file-scope variables, read by main's loop and by a function (not reused
    between ranks as if pure); a static counter gives 1, 2, 3 doubles in the three butterfly steps at P = 8:
    rank r exchanges with r^1 (8 bytes), r^2 (16), r^4 (24)."""
    events = _events(tmp_path, "g.c", GLOBALS_C, 8)
    for rank, ops in enumerate(events):
        msgs = [(op.kind, op.peer, op.nbytes) for op in ops if op.kind != "comp"]
        assert msgs == [(kind, rank ^ mask, 8 * k) for k, mask in ((1, 1), (2, 2), (3, 4))
                        for kind in ("send", "recv")]


WTIME_F = """      PROGRAM TIMED
      INCLUDE 'mpif.h'
      DOUBLE PRECISION T0, T1, S
      INTEGER ME, NP, IERR
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      T0 = MPI_WTIME()
      S = ME
      CALL MPI_REDUCE(S, T1, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &     MPI_COMM_WORLD, IERR)
      T1 = MPI_WTIME() - T0
      IF (ME .EQ. 0) PRINT *, T1
      CALL MPI_FINALIZE(IERR)
      END
"""


def test_a_program_timing_itself_with_mpi_wtime(tmp_path):
    """MPI_WTIME() (a function in mpif.h) is MPI's clock, not a routine missing from the program: no warning;
    the binomial reduce at P = 4: rank 0 receives from 1 and 2, rank 2 from 3."""
    src = tmp_path / "timed.f"
    src.write_text(WTIME_F)
    program, _ = load_program([str(src)], [], {})
    events, shared = traces(program, load_machine("ncube2"), 4, {})
    assert not shared.notes
    assert [[(op.kind, op.peer) for op in ops if op.kind != "comp"] for ops in events] == [
        [("recv", 1), ("recv", 2)], [("send", 0)], [("recv", 3), ("send", 0)], [("send", 2)]]
