"""The ranks' timelines simulated together (sad.predict.timeline) against hand derivations on the nCUBE/2's
LogGP figures (machine_db/ncube2.yaml, from Brehm 1999, Sec. 6.1.3: o_s = 100 µs, o_r = 73 µs,
O_s = O_r = 1/5.35 µs per byte, G = 1/1.67 µs per byte, L = g = 0, DMA) with PICL's five phases in
series (NET), where one message between idle ranks takes comm(b) = 173 µs + b/1.67 MB/s + 2 b/5.35 MB/s,
and as the file has them, the send copy pipelined with the transfer (PIPED); and the per-rank events of the CG-Tree
program (corpus/spmd/cgtree.f), whose message sizes come from subtree sizes computed in a loop on RANK and
NPROCS, decided per rank."""
from __future__ import annotations

import contextlib
import dataclasses
import io
import json
from pathlib import Path

import pytest

from sad.analysis.pipeline import load_program
from sad.cli.main import main
from sad.machine.model import load_machine
from sad.predict import collectives
from sad.predict.events import Op
from sad.predict.timeline import DeadlockError, Network, simulate
from sad.predict.trace import traces

SPMD = Path(__file__).resolve().parents[2] / "corpus" / "spmd"
PIPED = Network.of(load_machine("ncube2"))
NET = dataclasses.replace(PIPED, pipelined=False)  # the five phases in series
O_S, O_R, COPY, LINK = 100e-6, 73e-6, 1 / 5.35e6, 1 / 1.67e6


def comm(b: int) -> float:
    return O_S + O_R + b * LINK + 2 * b * COPY


def test_network_is_brehms_figures():
    assert (PIPED.o_s, PIPED.o_r) == pytest.approx((O_S, O_R), rel=1e-12)
    assert (PIPED.O_s, PIPED.O_r, PIPED.G) == pytest.approx((COPY, COPY, LINK), rel=1e-12)
    assert PIPED.dma and PIPED.pipelined and PIPED.hypercube and PIPED.L == PIPED.g == 0


def test_pipelined_send_one_message_and_a_fathers_two_sons():
    """ncube2 as its file has it: the transfer starts after the send setup and reads the buffer as the copy
    fills it (G > O_s, so the link sets the pace). One message between idle ranks: o_s + b G + o_r + b O_r.
    A father sending b to two sons on two channels: son 1 as one message; son 2's send starts when the
    first copy ends, o_s + b O_s, so it arrives at 2 o_s + b O_s + b G and is received b O_r + o_r later
    (8192 B: 8.24 ms, against 9.77 ms with the phases in series, Brehm 1999 Tab. 6.8: 8.25 ms per level)."""
    b = 8192
    one = simulate([[Op("send", peer=1, nbytes=b)], [Op("recv", peer=0, nbytes=b)]], PIPED)
    assert one.time == pytest.approx(O_S + b * LINK + O_R + b * COPY, rel=1e-12)
    assert one.communicate[0] == pytest.approx(O_S + b * COPY, rel=1e-12)  # the processor still copies
    sons = [[Op("send", peer=1, nbytes=b), Op("send", peer=2, nbytes=b)],
            [Op("recv", peer=0, nbytes=b)], [Op("recv", peer=0, nbytes=b)]]
    piped, serial = simulate(sons, PIPED), simulate(sons, NET)
    assert piped.end[1] == pytest.approx(O_S + b * LINK + O_R + b * COPY, rel=1e-12)
    assert piped.end[2] == pytest.approx(2 * O_S + b * COPY + b * LINK + O_R + b * COPY, rel=1e-12)
    assert serial.end[2] == pytest.approx(2 * (O_S + b * COPY) + b * LINK + O_R + b * COPY, rel=1e-12)
    assert (piped.end[2] * 1e3, serial.end[2] * 1e3) == pytest.approx((8.24, 9.77), abs=5e-3)
    # the critical path: the first send whole, the second up to its transfer's start (its setup), the
    # transfer, the receive; the steps add up to the end
    path = [(step.rank, step.kind, step.end - step.start) for step in piped.path]
    assert [p[:2] for p in path] == [(0, "send"), (0, "send"), (2, "transfer"), (2, "recv")]
    assert [p[2] for p in path] == pytest.approx([O_S + b * COPY, O_S, b * LINK, O_R + b * COPY], rel=1e-9)


def test_ping_pong_two_ranks():
    """rank 0 computes c0, sends b, receives b back; rank 1 computes c1 < arrival, receives, sends back:
    T = c0 + 2 comm(b); rank 0 waits comm(b) + b G after its send; rank 1 waits arrival - c1."""
    b, c0, c1 = 8192, 1e-3, 2e-3
    ping = [[Op("comp", c0), Op("send", peer=1, nbytes=b), Op("recv", peer=1, nbytes=b)],
            [Op("comp", c1), Op("recv", peer=0, nbytes=b), Op("send", peer=0, nbytes=b)]]
    result = simulate(ping, NET)
    assert result.time == pytest.approx(c0 + 2 * comm(b), rel=1e-12)
    assert result.slowest == 0
    arrival = c0 + O_S + b * (COPY + LINK)
    assert result.wait[1] == pytest.approx(arrival - c1, rel=1e-12)
    assert result.wait[0] == pytest.approx(comm(b) + b * LINK, rel=1e-12)
    assert result.communicate[0] == pytest.approx(O_S + O_R + 2 * b * COPY, rel=1e-12)
    kinds = [(s.rank, s.kind) for s in result.path if s.end > s.start]
    assert kinds == [(0, "compute"), (0, "send"), (1, "transfer"), (1, "recv"), (1, "send"), (0, "transfer"),
                     (0, "recv")]


def test_computations_in_a_row_are_one_step_of_the_path():
    """rank 0 computes 0, 1 ms and 2 ms (a, b, c), sends b bytes; rank 1 receives them, computes 3 ms (d), then
    0 s (e): the path is rank 0's 3 ms named after b (the first that takes time; a 0 s one is no step), the
    send o_s + b O_s, its transfer b G, the receive o_r + b O_r and rank 1's 3 ms named after d."""
    b = 1000
    ops = [[Op("comp", 0.0, where="a"), Op("comp", 1e-3, where="b"), Op("comp", 2e-3, where="c"),
            Op("send", peer=1, nbytes=b, where="s")],
           [Op("recv", peer=0, nbytes=b, where="r"), Op("comp", 3e-3, where="d"), Op("comp", 0.0, where="e")]]
    result = simulate(ops, NET)
    steps = [(s.rank, s.kind, s.where) for s in result.path]
    assert steps == [(0, "compute", "b"), (0, "send", "s"), (1, "transfer", "r"), (1, "recv", "r"),
                     (1, "compute", "d")]
    spans = [s.end - s.start for s in result.path]
    assert spans == pytest.approx([3e-3, O_S + b * COPY, b * LINK, O_R + b * COPY, 3e-3], rel=1e-9)
    assert result.time == pytest.approx(3e-3 + comm(b) + 3e-3, rel=1e-12)


@pytest.mark.parametrize("cores, factor", [(1, 2.0), (2, 1.0), (4, 1.0)])
def test_ranks_sharing_cores_run_at_their_share(cores, factor):
    """The ping-pong above with its 2 ranks on `cores` cores: on one core their work shares it and every time
    doubles (T = 2 (c0 + 2 comm(b))), the wait included (an upper bound: a waiting rank yields the core); with a
    core each, as alone."""
    b, c0, c1 = 8192, 1e-3, 2e-3
    ping = [[Op("comp", c0), Op("send", peer=1, nbytes=b), Op("recv", peer=1, nbytes=b)],
            [Op("comp", c1), Op("recv", peer=0, nbytes=b), Op("send", peer=0, nbytes=b)]]
    result = simulate(ping, Network(O_S, O_R, COPY, COPY, LINK, hypercube=True, cores=cores))
    assert result.time == pytest.approx(factor * (c0 + 2 * comm(b)), rel=1e-12)
    assert result.compute == pytest.approx([factor * c0, factor * c1], rel=1e-12)
    assert result.wait[1] == pytest.approx(factor * (c0 + O_S + b * (COPY + LINK) - c1), rel=1e-12)
    assert result.path[-1].end == pytest.approx(result.time, rel=1e-12)
    assert result.shared == factor


def test_analyze_on_a_machine_whose_ranks_share_cores_says_so(tmp_path):
    """ncube2's file with `communication.cores: 2`: cgtree.f at 8 ranks takes 4 times as long as on the
    nCUBE/2 (a processor per rank), with a warning that says why."""
    text = (Path(__file__).resolve().parents[2] / "machine_db" / "ncube2.yaml").read_text()
    shared = tmp_path / "shared.yaml"
    shared.write_text(text.replace("\n  dma: true", "\n  cores: 2\n  dma: true", 1))
    times, warnings = [], []
    for machine in ("ncube2", str(shared)):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            assert main(["analyze", str(SPMD / "cgtree.f"), "-m", machine, "-D", "NPROCS=8", "--format",
                         "json"]) == 0
        times.append(json.loads(out.getvalue())["time_s"])
        warnings.append(err.getvalue())
    assert times[1] == pytest.approx(4 * times[0], rel=1e-9)
    assert "share" not in warnings[0] and "8 ranks share 2 core(s)" in warnings[1]


def test_the_wait_is_on_the_rank_that_waits():
    """Rank 1 computes 10 ms before it answers: rank 1 never waits (the message is there), rank 0 waits
    for the answer: 10 ms + recv overhead + the answer's send and transfer − rank 0's send."""
    b, c0, c1 = 800, 1e-3, 10e-3
    ping = [[Op("comp", c0), Op("send", peer=1, nbytes=b), Op("recv", peer=1, nbytes=b)],
            [Op("comp", c1), Op("recv", peer=0, nbytes=b), Op("send", peer=0, nbytes=b)]]
    result = simulate(ping, NET)
    assert result.wait[1] == 0.0
    answer = c1 + O_R + b * COPY + O_S + b * (COPY + LINK)
    assert result.wait[0] == pytest.approx(answer - (c0 + O_S + b * COPY), rel=1e-12)
    assert result.time == pytest.approx(answer + O_R + b * COPY, rel=1e-12)


def test_binary_tree_reduction_takes_log2_p_messages():
    """Binomial reduce of 8 bytes to rank 0 over 8 ranks after c of compute each: three levels, each one
    comm(8) (the receiver waits for the sender's o_s + b(O_s + G) at each level): T = c + 3 comm(8), and
    rank 0 waits o_s + 8 (O_s + G) three times."""
    c, b, p = 5e-3, 8, 8
    ranks = [[Op("comp", c)] + collectives.expand("reduce", "binomial", r, p, 0, b, -1, "") for r in range(p)]
    assert [op.peer for op in ranks[0][1:]] == [1, 2, 4]
    result = simulate(ranks, NET)
    assert result.time == pytest.approx(c + 3 * comm(b), rel=1e-12)
    assert result.slowest == 0
    assert result.wait[0] == pytest.approx(3 * (O_S + b * (COPY + LINK)), rel=1e-12)
    assert result.wait[7] == 0.0


def test_sends_of_one_rank_share_a_channel_without_dma():
    """Without DMA the sender drives each transfer: two sends of b take 2 (o_s + b O_s + b G) at the sender."""
    b = 1000
    net = Network(O_S, O_R, COPY, COPY, LINK, dma=False)
    two = [[Op("send", peer=1, nbytes=b), Op("send", peer=1, nbytes=b)],
           [Op("recv", peer=0, nbytes=b), Op("recv", peer=0, nbytes=b)]]
    result = simulate(two, net)
    assert result.end[0] == pytest.approx(2 * (O_S + b * (COPY + LINK)), rel=1e-12)
    assert result.end[1] == pytest.approx(2 * (O_S + b * (COPY + LINK)) + O_R + b * COPY, rel=1e-12)


def test_deadlock_is_reported():
    with pytest.raises(DeadlockError, match="rank 0 waits for rank 1"):
        simulate([[Op("recv", peer=1, nbytes=8)], [Op("recv", peer=0, nbytes=8)]], NET)


@pytest.mark.parametrize("peer", [2, -2])
def test_a_message_to_a_rank_that_does_not_exist_is_an_error(peer):
    """A halving tree run at 3 ranks sends to rank 3 (benchmarks/spmdheld/cgthalve.c): an error that says so,
    not an IndexError, and a negative rank does not land in another rank's box."""
    two = [[Op("send", peer=peer, nbytes=8, where="f.c:5")], [Op("comp", 1e-3)]]
    with pytest.raises(DeadlockError, match=f"rank 0 sends to rank {peer} at f.c:5: there are ranks 0 to 1"):
        simulate(two, NET)


def test_cg_tree_sizes_are_decided_per_rank():
    """cgtree.f at P = 8 (NB = 128 rows): rank 0 receives its sons' subtrees {1, 3, 4, 7} and {2, 5, 6}
    (4 and 3 blocks of 128 doubles), rank 1 those of {3, 7} and {4}: the subtree sizes NSZ computes in a
    loop on RANK and NPROCS, which the static analysis leaves as parameters."""
    program, failed = load_program([str(SPMD / "cgtree.f")], [], {})
    assert not failed
    events, shared = traces(program, load_machine("ncube2"), 8, {})
    received = {r: [(op.peer, op.nbytes) for op in events[r] if op.kind == "recv"][:2] for r in (0, 1)}
    assert received == {0: [(1, 4 * 1024), (2, 3 * 1024)], 1: [(3, 2 * 1024), (4, 1024)]}
    sent = [(op.peer, op.nbytes) for op in events[7] if op.kind == "send"]
    assert sent[0] == (3, 1024)
    assert not shared.missing


def test_timeline_command_explains(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["timeline", str(SPMD / "cgsimple.f"), "-m", "ncube2", "-D", "NPROCS=4", "--explain"])
    assert status == 0, err.getvalue()
    text = out.getvalue()
    assert "slowest: rank 0" in text and "Critical path" in text and "transfer" in text
    assert "its representative: its lowest rank" in text
    assert any(line.split()[:3] == ["rank", "3", "3"] for line in text.splitlines())
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        assert main(["timeline", str(SPMD / "cgsimple.f"), "-m", "ncube2"]) == 2
    assert "NPROCS" in err.getvalue()



def test_timeline_of_a_broken_file_is_an_error_not_a_time(tmp_path):
    """A file with a syntax error: its error at file:line, exit 1 and no timeline (before: T = 0.000 ms for a
    program whose MPI calls were never read); an unknown machine is one `sad: error:` line, exit 2."""
    src = tmp_path / "broken.f"
    src.write_text("      PROGRAM X\n      CALL MPI_INIT(IERR\n      END\n")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["timeline", str(src), "-m", "ncube2", "-D", "NPROCS=4"]) == 1
    assert f"{src}:2: error: syntax error" in err.getvalue() and out.getvalue() == ""
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        assert main(["timeline", str(SPMD / "cgsimple.f"), "-m", "nosuch.yaml", "-D", "NPROCS=4"]) == 2
    assert err.getvalue().count("error:") == 1 and "unknown machine 'nosuch.yaml'" in err.getvalue()

def test_cg_with_a_broadcast_input_counts_every_message():
    """corpus/spmd/cg.f reads N, NITER, IGSUM at rank 0 and broadcasts them (the other ranks take the bound
    values through MPI_BCAST; IGSUM lives in COMMON): at P = 8, NITER = 20, IGSUM = 1 there are 3 binomial
    broadcasts (7 messages each), 2 halo exchanges per iteration and rank, and 1 + 2 NITER simple global sums
    of 2 (P - 1) messages: 21 + 320 + 574 = 915."""
    program, _ = load_program([str(SPMD / "cg.f")], [], {})
    machine = load_machine("paragon")
    events, _ = traces(program, machine, 8, {"N": 8000, "NITER": 20, "IGSUM": 1})
    result = simulate(events, Network.of(machine))
    assert result.messages == 915
    assert result.slowest == 0


def test_any_source_takes_the_first_arrival():
    """Rank 1 sends after 10 ms, rank 2 at once: rank 0's first receive from any source gets rank 2's."""
    ranks = [[Op("recv", peer=-1, nbytes=8), Op("recv", peer=-1, nbytes=8)],
             [Op("comp", 10e-3), Op("send", peer=0, nbytes=8)],
             [Op("send", peer=0, nbytes=8)]]
    result = simulate(ranks, NET)
    first = next(s for s in result.path if s.kind == "transfer")
    assert result.time == pytest.approx(10e-3 + comm(8), rel=1e-12)
    assert [s.peer for s in result.path if s.kind == "recv"] == [1]  # the last one, which set the pace
    assert first.peer == 1
    assert result.wait[0] == pytest.approx(10e-3 + O_S + 8 * (COPY + LINK) - (O_R + 8 * COPY), rel=1e-12)


GOTO_TREE = """      PROGRAM GT
      INCLUDE 'mpif.h'
      INTEGER ME, NPROCS, IERR, LO, HI, NSUB
      DOUBLE PRECISION W(1000)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPROCS, IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      NSUB = 0
      LO = ME
      HI = ME
   10 IF (LO .LT. NPROCS) THEN
         NSUB = NSUB + MIN(HI, NPROCS - 1) - LO + 1
         LO = 2*LO + 1
         HI = 2*HI + 2
         GOTO 10
      END IF
      IF (ME .GT. 0) CALL MPI_SEND(W, NSUB, MPI_DOUBLE_PRECISION,
     &     (ME - 1)/2, 1, MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      END
"""


def test_a_goto_loop_on_rank_and_nprocs_is_followed(tmp_path):
    """A heap subtree's size counted in a GOTO loop: at P = 8 rank 1's subtree is {1, 3, 4, 7}, rank 2's
    {2, 5, 6}, rank 3's {3, 7}, the leaves' themselves (8 bytes a rank)."""
    src = tmp_path / "gt.f"
    src.write_text(GOTO_TREE)
    program, _ = load_program([str(src)], [], {})
    events, _ = traces(program, load_machine("ncube2"), 8, {})
    sends = [[(op.peer, op.nbytes) for op in ops if op.kind == "send"] for ops in events]
    assert sends == [[], [(0, 32)], [(0, 24)], [(1, 16)], [(1, 8)], [(2, 8)], [(2, 8)], [(3, 8)]]


def test_an_unknown_trip_count_names_what_to_bind(tmp_path):
    src = tmp_path / "w.f"
    src.write_text("""      PROGRAM W
      INCLUDE 'mpif.h'
      INTEGER N, ME, NPROCS, IERR, I
      DOUBLE PRECISION S
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPROCS, IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      READ (*, *) N
      DO 10 I = 1, N / NPROCS
         S = S + I
   10 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
""")
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        assert main(["timeline", str(src), "-m", "ncube2", "-D", "NPROCS=4"]) == 2
    assert "w.f:9: the trip count of this loop is not known at rank 0 (N): bind it with -D" in err.getvalue()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        assert main(["timeline", str(src), "-m", "ncube2", "-D", "NPROCS=4", "-D", "N=400"]) == 0


def test_equal_trips_folded_give_the_full_simulation(tmp_path):
    """CG-Tree with 40 iterations at P = 8: the tracer replicates the equal trips; 3, 4 and 5 of them
    simulated and the rest added step by step give every rank's end, compute, communicate and wait of the
    simulation of all 40 (to 1e-12 s), and the same number of messages."""
    from sad.predict.timeline import simulate_folded
    src = tmp_path / "cg40.f"
    src.write_text((SPMD / "cgtree.f").read_text().replace("NITER = 1)", "NITER = 40)"))
    program, _ = load_program([str(src)], [], {})
    events, shared = traces(program, load_machine("ncube2"), 8, {})
    full = simulate(events, NET)
    folded = simulate_folded(events, shared.repeats, NET)
    assert folded.folded == (5, 39)
    assert folded.messages == full.messages
    for name in ("end", "compute", "communicate", "wait"):
        assert getattr(folded, name) == pytest.approx(getattr(full, name), abs=1e-12)


@pytest.mark.parametrize("name, nprocs, machine_name", [
    ("cgtree.f", 37, "ncube2"), ("cgtree.f", 128, "paragon"), ("cgsimple.f", 16, "ncube2"),
    ("cghalve.f", 33, "paragon"), ("cgtree_mpi.c", 64, "ncube2"), ("cgsimple_any.c", 16, "ncube2")])
def test_folded_runs_share_their_first_trips_bit_for_bit(tmp_path, name, nprocs, machine_name):
    """simulate_folded's runs with 3, 4 and 5 trips (12 trips) are one run stopped after the 3rd and the 4th
    trip, a copy going on to the end at each stop (5 trips): each result, ends, sums, messages and critical
    path, is the same to the last bit as the cut's own run. The CG programs with 12 iterations; the one
    with receives from any source (cgsimple_any.c) is seen to have one, and runs its cuts apart."""
    from sad.predict import timeline
    text = (SPMD / name).read_text()
    src = tmp_path / name
    src.write_text(text.replace("NITER = 1)", "NITER = 12)").replace("#define NITER 1\n", "#define NITER 12\n"))
    (tmp_path / "cgsize.h").write_text((SPMD / "cgsize.h").read_text().replace("NITER = 1)", "NITER = 12)"))
    program, _ = load_program([str(src)], [str(tmp_path)], {})
    machine = load_machine(machine_name)
    net = Network.of(machine)
    events, shared = traces(program, machine, nprocs, {})
    found = timeline._replicated(shared.repeats)
    assert found is not None and found[0] >= 10
    trips, picks = found

    def cut(k: int) -> list[list[Op]]:
        return timeline._cut(events, picks, trips, k)

    def stops(k: int) -> list[int]:
        return [s + k * n for s, n, _ in picks]
    shared_runs = timeline._runs_sharing_trips(cut, stops, net, True)
    own_runs = [simulate(cut(k), net, path=k == 5) for k in (3, 4, 5)]
    assert shared_runs == own_runs
    assert own_runs[0].messages < own_runs[1].messages < own_runs[2].messages
    state = timeline._State(nprocs)
    timeline._advance(state, cut(3), net, False)
    assert state.wild == (name == "cgsimple_any.c")


LEAVES = """      PROGRAM LEAVES
      INCLUDE 'mpif.h'
      INTEGER ME, NPROCS, IERR, I, J, K, R, STAT(MPI_STATUS_SIZE)
      DOUBLE PRECISION S, B(64)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPROCS, IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      K = 10 - 5*MIN(ME, 1)
      J = 0
      S = 0.0D0
      DO 10 I = 1, 20
         IF (J .LT. K) THEN
            J = J + 1
            S = S + 1.0D0
         END IF
   10 CONTINUE
      IF (ME .EQ. 0) THEN
         DO 20 R = 1, NPROCS - 1
            CALL MPI_RECV(B, 64, MPI_DOUBLE_PRECISION, R, 1,
     &           MPI_COMM_WORLD, STAT, IERR)
   20    CONTINUE
      ELSE
         CALL MPI_SEND(B, J, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_WORLD,
     &        IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
"""


def test_loops_that_start_alike_are_replayed(tmp_path):
    """The loop's branch reads J, which it writes: it is followed trip by trip. Ranks 1 ... P-1 start it
    alike (K = 5, J = 0): rank 1 follows it, ranks 2 ... P-1 replay its charges and its scalars (P - 2
    loops reused), so each sends J = 5 doubles (40 bytes), rank 0 (K = 10) none; the events are those of
    following every loop at every rank. With rank classes, ranks 2 ... P-1 are rank 1's class: not traced
    at all (P - 2 classed), the same events."""
    src = tmp_path / "leaves.f"
    src.write_text(LEAVES)
    program, _ = load_program([str(src)], [], {})
    machine = load_machine("ncube2")
    events, shared = traces(program, machine, 16, {}, classes=False)
    followed, plain = traces(program, machine, 16, {}, remember=False)
    classed, by_class = traces(program, machine, 16, {})
    assert shared.reused == 14 and plain.reused == 0
    assert by_class.classed == 14 and shared.classed == plain.classed == 0
    assert events == followed == classed
    assert [[op.nbytes for op in ops if op.kind == "send"] for ops in events[1:]] == [[40]] * 15
    assert len({ops[0] for ops in events[1:]}) == 1 and events[0][0] != events[1][0]


@pytest.mark.parametrize("name", ["cgsimple", "cgtree", "cgcoll"])
def test_replayed_loops_give_the_traced_times(tmp_path, name):
    """CG-Simple, CG-Tree and CG-with-collectives at P = 1, 5, 16, 33 on ncube2 (two iterations, so that
    later trips replay earlier ones): the events, each rank's end, compute, communicate and wait equal
    those of following every loop (to 1e-12 s); so do those of tracing one rank per class of ranks."""
    src = tmp_path / f"{name}.f"
    src.write_text((SPMD / f"{name}.f").read_text().replace("NITER = 1)", "NITER = 2)"))
    program, _ = load_program([str(src)], [], {})
    machine = load_machine("ncube2")
    reused = classed = 0
    for nprocs in (1, 5, 16, 33):
        events, shared = traces(program, machine, nprocs, {}, classes=False)
        followed, _ = traces(program, machine, nprocs, {}, remember=False)
        by_class, classes = traces(program, machine, nprocs, {})
        reused += shared.reused
        classed += classes.classed
        assert events == followed == by_class
        a, b = simulate(events, NET, path=False), simulate(followed, NET, path=False)
        for field in ("end", "compute", "communicate", "wait"):
            assert getattr(a, field) == pytest.approx(getattr(b, field), abs=1e-12)
    assert reused > 0 or name != "cgtree"
    assert classed > 0


def test_ranks_whose_trips_settle_a_trip_later_are_still_folded(tmp_path):
    """CG-Tree with N = 16 at P = 32 (NB = 0: some ranks' trips become equal one trip later, so they
    replicate 38 trips, the others 39): every rank keeps its last 38 replicated, the loop is still folded
    (5 of 38 trips simulated) and gives the full simulation's ends and splits to 1e-12 s."""
    from sad.predict.timeline import simulate_folded
    src = tmp_path / "cg16.f"
    src.write_text((SPMD / "cgtree.f").read_text().replace("N = 1024, NITER = 1)", "N = 16, NITER = 40)")
                   .replace("PARAMETER (N = 1024)", "PARAMETER (N = 16)"))
    program, _ = load_program([str(src)], [], {})
    events, shared = traces(program, load_machine("ncube2"), 32, {})
    assert {max(reps, key=lambda x: x[1] * x[2])[2] for reps in shared.repeats} == {38, 39}
    full = simulate(events, NET)
    folded = simulate_folded(events, shared.repeats, NET)
    assert folded.folded == (5, 38)
    assert folded.messages == full.messages
    for name in ("end", "compute", "communicate", "wait"):
        assert getattr(folded, name) == pytest.approx(getattr(full, name), abs=1e-12)
