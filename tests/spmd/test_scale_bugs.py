"""Issue 28's bugs, each with a program written here: the other side's count of MPI_GATHER, MPI_ALLGATHER,
MPI_SENDRECV and the send count of MPI_SCATTER are read, not written, by the call (a size variable passed
there keeps its value), analyzed on the Paragon (Brehm 1999, Sec. 6.1.3)."""
from __future__ import annotations

from pathlib import Path

import sympy

from sad.analysis.pipeline import analyze

HEAD = """      PROGRAM G
      INCLUDE 'mpif.h'
      INTEGER NB, ME, NPROCS, IERR, I, K, STAT(MPI_STATUS_SIZE)
      DOUBLE PRECISION A(1000), B(100000)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPROCS, IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      NB = 100
      DO 5 K = 1, 3
"""
CALLS = {
    "gather": """      CALL MPI_GATHER(A, NB, MPI_DOUBLE_PRECISION, B, NB,
     &     MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, IERR)
""",
    "allgather": """      CALL MPI_ALLGATHER(A, NB, MPI_DOUBLE_PRECISION, B, NB,
     &     MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, IERR)
""",
    "scatter": """      CALL MPI_SCATTER(B, NB, MPI_DOUBLE_PRECISION, A, NB,
     &     MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, IERR)
""",
    "sendrecv": """      CALL MPI_SENDRECV(A, NB, MPI_DOUBLE_PRECISION, 0, 1, B, NB,
     &     MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_WORLD, STAT, IERR)
""",
}
TAIL = """      DO 10 I = 1, NB
         A(I) = A(I) + 1.0D0
   10 CONTINUE
    5 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
"""


def test_the_other_count_is_read_so_the_size_stays_bound(tmp_path: Path):
    for name, call in CALLS.items():
        src = tmp_path / f"{name}.f"
        src.write_text(HEAD + call + TAIL)
        analysis = analyze([str(src)])
        [msg] = [b.message for b in analysis.blocks if b.message is not None and b.message.primitive == name]
        assert msg.bytes == 800, name
        assert {s.name for s in msg.free_symbols} <= {"NPROCS"}, name
        adds = [c for e, c in analysis.counts.items() if e.cost.get("add.double")]
        assert adds == [300], name  # the loop after the call still runs NB = 100 times
        assert "NB" not in {s.name for c in analysis.counts.values() for s in sympy.sympify(c).free_symbols}
