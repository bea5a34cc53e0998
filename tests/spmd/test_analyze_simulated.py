"""`sad analyze` of an MPI program with NPROCS bound: its ranks simulated together (sad.predict.simulated) are
the prediction, against hand derivations on the nCUBE/2's LogGP figures (machine_db/ncube2.yaml, from Brehm
1999, Sec. 6.1.3: o_s = 100 µs, o_r = 73 µs, O_s = O_r = 1/5.35 µs per byte, G = 1/1.67 µs per byte,
L = g = 0, DMA, the send copy pipelined with the transfer: one message between idle ranks takes
o_s + o_r + b (G + O_r), where each rank priced alone pays PICL's comm(b) = o_s + o_r + b (O_s + G + O_r)), against
Brehm's measured CG times (Tab. 6.7), and the fallback to the per-rank formula with a warning where the
ranks cannot be simulated."""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from sad.cli.main import main
from sad.common import timetext

SPMD = Path(__file__).resolve().parents[2] / "corpus" / "spmd"
O_S, O_R, COPY, LINK = 100e-6, 73e-6, 1 / 5.35e6, 1 / 1.67e6


def comm(b: int) -> float:
    return O_S + O_R + b * LINK + 2 * b * COPY


def msg(b: int) -> float:
    """One message between idle ranks in the simulation: the send copy runs under the transfer (pipelined,
    G > O_s), so comm(b) less the copy b O_s."""
    return O_S + O_R + b * LINK + b * COPY


def analyze(path: Path, *args: str, fmt: str = "json") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["analyze", str(path), "-m", "ncube2", "--format", fmt, *args])
    return status, out.getvalue(), err.getvalue()


HEAD = """      PROGRAM T
      INCLUDE 'mpif.h'
      INTEGER ME, NP, IERR, STAT(MPI_STATUS_SIZE)
      DOUBLE PRECISION BUF(1024), X, S
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
"""
PING_PONG = HEAD + """      IF (ME .EQ. 0) THEN
         CALL MPI_SEND(BUF, 1024, MPI_DOUBLE_PRECISION, 1, 7,
     &        MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(BUF, 1024, MPI_DOUBLE_PRECISION, 1, 7,
     &        MPI_COMM_WORLD, STAT, IERR)
      ELSE IF (ME .EQ. 1) THEN
         CALL MPI_RECV(BUF, 1024, MPI_DOUBLE_PRECISION, 0, 7,
     &        MPI_COMM_WORLD, STAT, IERR)
         CALL MPI_SEND(BUF, 1024, MPI_DOUBLE_PRECISION, 0, 7,
     &        MPI_COMM_WORLD, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
"""
REDUCE = HEAD + """      X = ME
      CALL MPI_REDUCE(X, S, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &     MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
"""


def test_ping_pong_is_two_messages_after_rank_0s_compute(tmp_path):
    """Rank 0 sends 8192 B and waits for them back; rank 1 is idle when they arrive and answers at once:
    T = rank 0's compute + 2 msg(8192); rank 0 communicates o_s + o_r + 2 b O (its own overheads and copies)
    and waits for the rest: o_s + o_r + 2 b G. Each rank priced alone it would be compute + comm(b)."""
    (tmp_path / "pp.f").write_text(PING_PONG)
    status, out, err = analyze(tmp_path / "pp.f", "-D", "NPROCS=2")
    doc = json.loads(out)
    b = 8192
    assert status == 0 and "warning" not in err
    assert doc["model"] == "timeline" and doc["rank"]["rank"] == 0
    assert doc["time_s"] == pytest.approx(doc["computation_s"] + 2 * msg(b), rel=1e-12)
    assert doc["communication_s"] == pytest.approx(O_S + O_R + 2 * b * COPY, rel=1e-12)
    assert doc["wait_s"] == pytest.approx(O_S + O_R + 2 * b * LINK, rel=1e-12)
    assert doc["time_s"] == pytest.approx(doc["computation_s"] + doc["communication_s"] + doc["wait_s"], rel=1e-12)
    assert doc["per_rank"]["time_s"] == pytest.approx(doc["per_rank"]["computation_s"] + comm(b), rel=1e-12)
    timeline = doc["timeline"]
    assert timeline["simulated"] and timeline["failure"] is None and timeline["messages"] == 2
    assert timeline["time_s"] == doc["time_s"] and timeline["slowest"] == 0
    assert [s["kind"] for s in timeline["critical_path"] if s["end"] > s["start"]][-3:] == ["send", "transfer", "recv"]


def test_binary_tree_reduction_is_log2_p_messages(tmp_path):
    """MPI_REDUCE of one double to rank 0 over 8 ranks, binomial on the nCUBE/2: three levels, each one
    msg(8); rank 0 waits o_s + 8 G at each level (its partner sends when rank 0 is ready)."""
    (tmp_path / "red.f").write_text(REDUCE)
    status, out, _ = analyze(tmp_path / "red.f", "-D", "NPROCS=8")
    doc = json.loads(out)
    assert status == 0 and doc["model"] == "timeline" and doc["rank"]["rank"] == 0
    assert doc["time_s"] == pytest.approx(doc["computation_s"] + 3 * msg(8), rel=1e-12)
    assert doc["wait_s"] == pytest.approx(3 * (O_S + 8 * LINK), rel=1e-12)
    assert doc["timeline"]["messages"] == 7


def test_analyze_is_the_timeline_and_explains_it(tmp_path):
    """The text report gives the simulated time first and the per-rank formula after it; --explain adds the
    classes of ranks and the critical path; the time is `sad timeline`'s."""
    (tmp_path / "red.f").write_text(REDUCE)
    status, text, _ = analyze(tmp_path / "red.f", "-D", "NPROCS=8", "--explain", fmt="text")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["timeline", str(tmp_path / "red.f"), "-m", "ncube2", "-D", "NPROCS=8", "--format", "json"]) == 0
    simulated = json.loads(out.getvalue())["time"]
    assert status == 0
    block = text.split("Predicted time:\n", 1)[1]
    assert block.startswith(f"  T = {timetext.seconds(simulated)}  (NPROCS = 8: the ranks simulated together")
    assert "Each rank priced alone (the per-rank formula" in block
    assert "Critical path (ends at rank 0" in text and "Ranks simulated together (NPROCS = 8, 7 messages" in text


@pytest.mark.parametrize("name, measured", [("cgsimple.f", 0.383)])
def test_cg_at_128_processors_within_15_percent_of_brehm(name, measured):
    """Brehm 1999, Tab. 6.7: CG-Simple, psize 1024, one iteration, P = 128 on the nCUBE/2: 0.383 s measured.
    Each rank priced alone gave +142 % (the root's 127 receives serialized in full, no overlap)."""
    status, out, err = analyze(SPMD / name, "-D", "NPROCS=128")
    doc = json.loads(out)
    assert status == 0 and doc["model"] == "timeline"
    assert doc["time_s"] == pytest.approx(measured, rel=0.15)


def test_deadlock_falls_back_to_the_formula_with_a_warning(tmp_path):
    """Both ranks receive first: no simulation; the warning and the document say why, and the time is the
    per-rank formula's (each rank priced alone), never a silent number."""
    (tmp_path / "dl.f").write_text(HEAD + """      CALL MPI_RECV(BUF, 1, MPI_DOUBLE_PRECISION, 1 - ME, 7,
     &     MPI_COMM_WORLD, STAT, IERR)
      CALL MPI_SEND(BUF, 1, MPI_DOUBLE_PRECISION, 1 - ME, 7,
     &     MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
""")
    status, out, err = analyze(tmp_path / "dl.f", "-D", "NPROCS=2")
    doc = json.loads(out)
    assert status == 0
    assert "sad: warning: NPROCS = 2: the ranks are not simulated together (deadlock" in err
    assert doc["model"] == "formula" and doc["time_s"] == doc["per_rank"]["time_s"] is not None
    assert doc["wait_s"] is None and not doc["timeline"]["simulated"]
    assert doc["timeline"]["failure"].startswith("deadlock")
    _, text, _ = analyze(tmp_path / "dl.f", "-D", "NPROCS=2", fmt="text")
    assert "NPROCS = 2: the ranks could not be simulated together (deadlock" in text


def test_a_value_only_a_run_can_tell_falls_back_with_the_place(tmp_path):
    """A trip count read at run time and not bound: the warning names the line; the formula keeps it."""
    (tmp_path / "rd.f").write_text(HEAD + """      READ (*, *) N
      DO 10 I = 1, N
         CALL MPI_BCAST(BUF, 1, MPI_DOUBLE_PRECISION, 0,
     &        MPI_COMM_WORLD, IERR)
 10   CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
""")
    status, out, err = analyze(tmp_path / "rd.f", "-D", "NPROCS=4")
    doc = json.loads(out)
    assert status == 0 and doc["model"] == "formula" and doc["time_s"] is None
    assert "rd.f:9: the trip count of this loop is not known at rank 0" in err
    _, out, err = analyze(tmp_path / "rd.f", "-D", "NPROCS=4", "-D", "N=3")
    doc = json.loads(out)
    assert doc["model"] == "timeline" and "warning" not in err and doc["timeline"]["messages"] == 3 * 3


def test_one_rank_asked_for_is_the_formula(tmp_path):
    """-D RANK=r asks for that rank's formula: no simulation."""
    (tmp_path / "red.f").write_text(REDUCE)
    _, out, _ = analyze(tmp_path / "red.f", "-D", "NPROCS=8", "-D", "RANK=3")
    doc = json.loads(out)
    assert doc["model"] == "formula" and doc["timeline"] is None


def test_deadlock_with_a_formula_without_number_prices_the_traced_ranks_alone(tmp_path):
    """The message size comes from a loop whose IF depends on the rank (the formula keeps its probability as
    a parameter) and both ranks receive first: the traced ranks each priced alone (send(b) + recv(b) per
    rank, no waits) are the time, and the model says so. Rank 1 counts K = 3 elements: 24 bytes each way."""
    (tmp_path / "dl.f").write_text(HEAD.replace("INTEGER ME,", "INTEGER K, L, ME,") + """      K = 0
      DO 10 L = 1, 20
         IF (L .LE. ME + 2) K = K + 1
   10 CONTINUE
      CALL MPI_RECV(BUF, K, MPI_DOUBLE_PRECISION, 1 - ME, 7,
     &     MPI_COMM_WORLD, STAT, IERR)
      CALL MPI_SEND(BUF, K, MPI_DOUBLE_PRECISION, 1 - ME, 7,
     &     MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
""")
    status, out, err = analyze(tmp_path / "dl.f", "-D", "NPROCS=2")
    doc = json.loads(out)
    assert status == 0 and "the time is the traced ranks each priced alone" in err
    assert doc["model"] == "traced alone" and doc["per_rank"]["time_s"] is None and doc["wait_s"] is None
    b = 24
    send, recv = O_S + b * COPY + b * LINK, O_R + b * COPY  # PICL send(b), recv(b) (Brehm 1999, Sec. 6.1.3)
    assert doc["communication_s"] == pytest.approx(send + recv, rel=1e-12)
    assert doc["time_s"] == pytest.approx(doc["computation_s"] + doc["communication_s"], rel=1e-12)


def test_a_machine_without_loggp_figures_falls_back_with_its_name():
    """sparc2 has no communication level: the ranks are not simulated, the warning names the machine and
    the figures it lacks, and the formula prices (here it has no number: sparc2 prices no message)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["analyze", str(SPMD / "cgsimple.f"), "-m", "sparc2", "-D", "NPROCS=4", "--format", "json"]) == 0
    doc = json.loads(out.getvalue())
    assert "NPROCS = 4: the ranks are not simulated together (machine sparc2: communication.loggp" in err.getvalue()
    assert doc["model"] == "formula" and doc["timeline"]["failure"].startswith("machine sparc2: communication.loggp")
