"""Issue 28's bugs, each with a program written here: the other side's count of MPI_GATHER, MPI_ALLGATHER,
MPI_SENDRECV and the send count of MPI_SCATTER are read, not written, by the call (a size variable passed
there keeps its value), analyzed on the Paragon (Brehm 1999, Sec. 6.1.3); `sad sweep` of a rank-dependent
program over 10^5 points evaluates rank classes, not every rank, and gives a clear error at worst."""
from __future__ import annotations

import contextlib
import csv
import io
from pathlib import Path

import numpy
import sympy

from sad.analysis.pipeline import analyze
from sad.cli.main import main
from sad.machine.model import load_machine
from sad.predict import sweep
from sad.predict.mapper import predict

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


SWEPT = """      PROGRAM W
      INCLUDE 'mpif.h'
      INTEGER N, ME, NPROCS, IERR, I
      DOUBLE PRECISION A(100000), S
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPROCS, IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      READ (*, *) N
      S = 0.0D0
      DO 10 I = 1, N / NPROCS
         S = S + A(I)
   10 CONTINUE
      IF (ME .EQ. 0) WRITE (*, *) S
      IF (2*ME + 1 .LT. NPROCS) THEN
         DO 20 I = 1, N
            S = S + A(I)
   20    CONTINUE
      END IF
      CALL MPI_FINALIZE(IERR)
      END
"""


def test_sweep_of_a_rank_dependent_program_over_1e5_points(tmp_path: Path):
    """Before: ValueError: 52480000 (point, rank) pairs, more than 20000000 (a traceback)."""
    src = tmp_path / "w.f"
    src.write_text(SWEPT)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["sweep", str(src), "-m", "ncube2", "-D", "NPROCS=1:1024", "-D", "N=1000-100000:100",
                       "--format", "csv"])
    assert status == 0, err.getvalue()
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert len(rows) == 102400
    assert {r["RANK"] for r in rows} == {"0"}  # rank 0 writes and sums the most


def test_rank_classes_are_few_and_agree_with_every_rank(tmp_path: Path, monkeypatch):
    src = tmp_path / "w.f"
    src.write_text(SWEPT)
    analysis = analyze([str(src)])
    formula = predict(analysis.blocks, load_machine("ncube2"), {}).time
    classes = sweep.rank_classes(formula)
    assert classes is not None and len(classes) <= 12
    compiled = sweep.compile_formula(formula)
    nprocs, n = numpy.meshgrid(numpy.arange(1.0, 40.0), numpy.array([7.0, 1000.0, 5e4]), indexing="ij")
    columns = {"NPROCS": nprocs.ravel(), "N": n.ravel()}
    by_class = sweep.slowest_rank(compiled, columns, nprocs.size)
    monkeypatch.setattr(sweep, "rank_classes", lambda expr: None)
    every = sweep.slowest_rank(compiled, columns, nprocs.size)
    assert numpy.array_equal(by_class[0], every[0]) and numpy.array_equal(by_class[1], every[1])


def test_too_many_ranks_without_classes_is_a_clear_error(tmp_path: Path, monkeypatch):
    src = tmp_path / "w.f"
    src.write_text(SWEPT)
    monkeypatch.setattr(sweep, "rank_classes", lambda expr: None)
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        status = main(["sweep", str(src), "-m", "ncube2", "-D", "NPROCS=1:1024", "-D", "N=1000-100000:100"])
    assert status == 2 and "(point, rank) pairs, more than" in err.getvalue()
