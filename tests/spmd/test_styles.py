"""Other coding styles of the same SPMD patterns (issue 28: the held-out programs are written by someone else):
hypercube partners from the bit intrinsics (IEOR(ME, 2**K)), C file-scope variables for the rank and size,
a C function that reads them, a C static local, MPI_WTIME, block counts kept in INTEGER arrays, Cartesian
communicators (MPI_CART_CREATE / MPI_CART_SHIFT); the events each rank traces are derived by hand."""
from __future__ import annotations

from pathlib import Path

import pytest

from sad.analysis.pipeline import load_program
from sad.machine.model import load_machine
from sad.predict.trace import TraceError, traces

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


COUNTS_F = """      PROGRAM CNT
      INCLUDE 'mpif.h'
      INTEGER N
      PARAMETER (N = 1000)
      DOUBLE PRECISION P(N)
      INTEGER ME, NP, I, IERR, ICNT(0:127), IDSP(0:127)
      INTEGER STAT(MPI_STATUS_SIZE)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IDSP(0) = 0
      DO 10 I = 0, NP - 1
         ICNT(I) = N / NP
         IF (I .LT. MOD(N, NP)) ICNT(I) = ICNT(I) + 1
         IF (I .GT. 0) IDSP(I) = IDSP(I - 1) + ICNT(I - 1)
   10 CONTINUE
      IF (ME .EQ. 0) THEN
         DO 20 I = 1, NP - 1
            CALL MPI_RECV(P(IDSP(I) + 1), ICNT(I), MPI_DOUBLE_PRECISION,
     &           I, 1, MPI_COMM_WORLD, STAT, IERR)
   20    CONTINUE
      ELSE
         CALL MPI_SEND(P(IDSP(ME) + 1), ICNT(ME), MPI_DOUBLE_PRECISION,
     &        0, 1, MPI_COMM_WORLD, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
"""


def test_block_counts_kept_in_an_integer_array(tmp_path):
    """N = 1000 over P = 3 with the remainder spread: ICNT = (334, 333, 333), offsets IDSP = (0, 334, 667),
    computed in a loop into arrays: ranks 1 and 2 send 333 doubles (2664 bytes) to rank 0."""
    events = _events(tmp_path, "cnt.f", COUNTS_F, 3)
    msgs = [[(op.kind, op.peer, op.nbytes) for op in ops if op.kind != "comp"] for ops in events]
    assert msgs == [[("recv", 1, 2664), ("recv", 2, 2664)], [("send", 0, 2664)], [("send", 0, 2664)]]


def test_an_array_a_message_writes_is_not_known_after_it(tmp_path):
    """Rank 0 sets ICNT(1) = 10, the others 5, then MPI_BCAST(ICNT) from rank 0: a count read from ICNT(1)
    afterwards is not the rank's stale 5 but not known (bind it), at rank 1."""
    text = """      PROGRAM BC
      INCLUDE 'mpif.h'
      DOUBLE PRECISION V(100)
      INTEGER ME, NP, IERR, ICNT(4)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      ICNT(1) = 5
      IF (ME .EQ. 0) ICNT(1) = 10
      CALL MPI_BCAST(ICNT, 4, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      IF (ME .EQ. 1) CALL MPI_SEND(V, ICNT(1), MPI_DOUBLE_PRECISION, 0,
     &     1, MPI_COMM_WORLD, IERR)
      IF (ME .EQ. 0) CALL MPI_RECV(V, 10, MPI_DOUBLE_PRECISION, 1, 1,
     &     MPI_COMM_WORLD, MPI_STATUS_IGNORE, IERR)
      CALL MPI_FINALIZE(IERR)
      END
"""
    with pytest.raises(TraceError, match=r"bc.f:11: the count is not known at rank 1"):
        _events(tmp_path, "bc.f", text, 2)


GRID_F = """      PROGRAM GRID
      INCLUDE 'mpif.h'
      DOUBLE PRECISION V(100), W(100)
      INTEGER ME, NP, IERR, DIMS(2), GRD, UP, DOWN, LEFT, RIGHT
      INTEGER STAT(MPI_STATUS_SIZE)
      LOGICAL PERIOD(2)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      DIMS(1) = 2
      DIMS(2) = NP / 2
      PERIOD(1) = .FALSE.
      PERIOD(2) = .TRUE.
      CALL MPI_CART_CREATE(MPI_COMM_WORLD, 2, DIMS, PERIOD, .FALSE.,
     &     GRD, IERR)
      CALL MPI_CART_SHIFT(GRD, 0, 1, UP, DOWN, IERR)
      CALL MPI_CART_SHIFT(GRD, 1, 1, LEFT, RIGHT, IERR)
      CALL MPI_SENDRECV(V, 10, MPI_DOUBLE_PRECISION, DOWN, 1,
     &     W, 10, MPI_DOUBLE_PRECISION, UP, 1, GRD, STAT, IERR)
      CALL MPI_SENDRECV(V, 20, MPI_DOUBLE_PRECISION, RIGHT, 2,
     &     W, 20, MPI_DOUBLE_PRECISION, LEFT, 2, GRD, STAT, IERR)
      CALL MPI_FINALIZE(IERR)
      END
"""


def test_cartesian_grid_shifts(tmp_path):
    """A 2 x 3 grid (rows not periodic, columns periodic), rank = 3 row + column: the shift down sends 80 bytes
    from row 0 to row 1 and nothing off the edges (MPI_PROC_NULL); the periodic shift right sends 160 bytes to
    column + 1 mod 3 and receives from column - 1 mod 3."""
    events = _events(tmp_path, "grid.f", GRID_F, 6)
    msgs = [[(op.kind, op.peer, op.nbytes) for op in ops if op.kind != "comp"] for ops in events]
    for rank, got in enumerate(msgs):
        row, col = divmod(rank, 3)
        down = [("send", rank + 3, 80)] if row == 0 else [("recv", rank - 3, 80)]
        right = [("send", 3 * row + (col + 1) % 3, 160), ("recv", 3 * row + (col - 1) % 3, 160)]
        assert got == down + right


def test_ring_on_a_cartesian_communicator_is_the_ring(tmp_path):
    """corpus/spmd/ringmm.f with its neighbours from MPI_CART_SHIFT of a periodic 1-D MPI_CART_CREATE and its
    shifts on that communicator: the same messages at P = 8 as the ring on MPI_COMM_WORLD."""
    ring = (Path(__file__).resolve().parents[2] / "corpus" / "spmd" / "ringmm.f").read_text()
    create = ("      CALL MPI_CART_CREATE(MPI_COMM_WORLD, 1, NPROCS, .TRUE., .TRUE.,\n     &     RING, IERR)\n"
              "      CALL MPI_CART_SHIFT(RING, 0, 1, LEFT, RIGHT, IERR)\n")
    cart = ring.replace("      RIGHT = MOD(ME + 1, NPROCS)\n", create)
    cart = cart.replace("      LEFT = MOD(ME - 1 + NPROCS, NPROCS)\n", "").replace("      INTEGER IERR\n",
                                                                                  "      INTEGER IERR, RING\n")
    cart = cart.replace("RIGHT, 1, LEFT, 1, MPI_COMM_WORLD, STAT, IERR)", "RIGHT, 1, LEFT, 1, RING, STAT, IERR)")
    assert cart.count("RING") == 5  # PROGRAM RINGMM, the declaration, the creation, the shift, the exchange

    def messages(name: str, text: str):
        return [[(op.kind, op.peer, op.nbytes) for op in ops if op.kind != "comp"]
                for ops in _events(tmp_path, name, text, 8)]
    assert messages("cart.f", cart) == messages("ring.f", ring)


RING_C = """#include <mpi.h>
double b[64];
int main(int argc, char **argv)
{
    int me, np, step, left, right;
    int dims[1], periods[1] = {1};
    MPI_Comm ring;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    dims[0] = np;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    MPI_Comm_rank(ring, &me);
    MPI_Cart_shift(ring, 0, 1, &left, &right);
    for (step = 0; step < np - 1; step++)
        MPI_Sendrecv_replace(b, 64 / np, MPI_DOUBLE, right, 1, left, 1, ring, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
"""


def test_c_ring_on_a_cartesian_communicator(tmp_path):
    """The periods from an initializer (int periods[1] = {1}), the size from MPI_Comm_size: at P = 4 every
    rank sends 16 doubles (128 bytes) to rank + 1 mod 4 and receives from rank - 1 mod 4, three times."""
    events = _events(tmp_path, "ring.c", RING_C, 4)
    for rank, ops in enumerate(events):
        msgs = [(op.kind, op.peer, op.nbytes) for op in ops if op.kind != "comp"]
        assert msgs == [("send", (rank + 1) % 4, 128), ("recv", (rank - 1) % 4, 128)] * 3


BCAST_C = """#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int me, np, i, n = 0, m = 1;
    double x[64];
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0) {
        n = 3;
        scanf("%d", &m);
    }
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&m, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (i = 0; i < n * m; i++)
        MPI_Bcast(x, 8, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
"""


def test_a_broadcast_scalar_is_the_roots_at_every_rank(tmp_path):
    """`int n = 0` everywhere; rank 0 sets n = 3 and reads m (bound with -D m=2), then broadcasts both by
    address: every rank makes n·m = 6 broadcasts of 64 bytes, not the 0 or 1 its own initializer says."""
    source = tmp_path / "bc.c"
    source.write_text(BCAST_C)
    program, _ = load_program([str(source)], [], {})
    events, _ = traces(program, load_machine("ncube2"), 4, {"m": 2})
    for ops in events:
        assert len({op.tag for op in ops if op.nbytes == 64}) == 6


F_RANKS = """      PROGRAM T
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, M, COMM, STAT(MPI_STATUS_SIZE)
      DOUBLE PRECISION X(1000)
      CALL MPI_INIT(IERR)
"""
DUP_F = F_RANKS + """      CALL MPI_COMM_DUP(MPI_COMM_WORLD, COMM, IERR)
      CALL MPI_COMM_SIZE(COMM, NP, IERR)
      CALL MPI_COMM_RANK(COMM, ME, IERR)
      IF (ME .GT. 0) CALL MPI_RECV(X, 100, MPI_DOUBLE_PRECISION, ME - 1,
     &     1, COMM, STAT, IERR)
      IF (ME .LT. NP - 1) CALL MPI_SEND(X, 100, MPI_DOUBLE_PRECISION,
     &     ME + 1, 1, COMM, IERR)
      CALL MPI_FINALIZE(IERR)
      END
"""


def test_a_copy_of_the_world_communicator_is_followed(tmp_path):
    """MPI_COMM_DUP(MPI_COMM_WORLD, COMM): the same ranks; a chain 0 -> 1 -> 2 -> 3 of 800 bytes on it."""
    source = tmp_path / "dup.f"
    source.write_text(DUP_F)
    program, _ = load_program([str(source)], [], {})
    events, _ = traces(program, load_machine("ncube2"), 4, {})
    shape = [[(op.kind, op.peer, op.nbytes) for op in ops if op.kind != "comp"] for ops in events]
    assert shape == [[("send", 1, 800)], [("recv", 0, 800), ("send", 2, 800)], [("recv", 1, 800), ("send", 3, 800)],
                     [("recv", 2, 800)]]


CHAIN_F = F_RANKS + """      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      M = 0
      IF (ME .LT. NP - 1) THEN
         CALL MPI_RECV(M, 1, MPI_INTEGER, ME + 1, 1, MPI_COMM_WORLD,
     &        STAT, IERR)
         CALL MPI_RECV(X, M, MPI_DOUBLE_PRECISION, ME + 1, 2,
     &        MPI_COMM_WORLD, STAT, IERR)
      END IF
      M = M + 10
      IF (ME .GT. 0) THEN
         CALL MPI_SEND(M, 1, MPI_INTEGER, ME - 1, 1, MPI_COMM_WORLD,
     &        IERR)
         CALL MPI_SEND(X, M, MPI_DOUBLE_PRECISION, ME - 1, 2,
     &        MPI_COMM_WORLD, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
"""


def test_a_size_received_before_the_data_is_the_senders(tmp_path):
    """Each rank receives from the next a count and then that many doubles, adds its own 10 elements and
    passes both on: rank r receives 10 (P - 1 - r) doubles. The count a rank receives is the one its sender
    sent (found by tracing the ranks again once the sender's is known), never the M = 0 it held before."""
    source = tmp_path / "chain.f"
    source.write_text(CHAIN_F)
    program, _ = load_program([str(source)], [], {})
    events, _ = traces(program, load_machine("ncube2"), 5, {})
    for rank, ops in enumerate(events):
        received = [op.nbytes for op in ops if op.kind == "recv"]
        assert received == ([] if rank == 4 else [4, 8 * 10 * (4 - rank)])
