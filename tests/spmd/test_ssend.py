"""A synchronous send (MPI_SSEND; MPI_ISSEND at its wait) completes only when the matching receive has
started (the MPI standard's synchronous mode), where a standard send is buffered and completes locally.
Hand derivations on the nCUBE/2's LogGP figures with the five phases in series (Brehm 1999, Sec. 6.1.3:
o_s = 100 µs, o_r = 73 µs, O_s = O_r = 1/5.35 µs per byte, G = 1/1.67 µs per byte, L = g = 0)."""
from __future__ import annotations

import dataclasses

import pytest

from sad.analysis.pipeline import load_program
from sad.machine.model import load_machine
from sad.predict.events import Op
from sad.predict.timeline import DeadlockError, Network, simulate
from sad.predict.trace import traces

NET = dataclasses.replace(Network.of(load_machine("ncube2")), pipelined=False)
O_S, O_R, COPY, LINK = 100e-6, 73e-6, 1 / 5.35e6, 1 / 1.67e6
B, LATE, AFTER = 800, 5e-3, 1e-3  # bytes; rank 1 computes LATE before its receive, rank 0 AFTER its send


def two_ranks(sync: bool, late: float) -> list[list[Op]]:
    """rank 0 sends B bytes to rank 1 (tag 7), then computes AFTER; rank 1 computes `late`, then receives."""
    send = [Op("send", peer=1, tag=7, nbytes=B, sync=sync)] + ([Op("ack", peer=1, tag=7)] if sync else [])
    return [send + [Op("comp", AFTER)], [Op("comp", late), Op("recv", peer=0, tag=7, nbytes=B)]]


def test_a_synchronous_send_waits_for_a_late_receive():
    """The receive starts at LATE = 5 ms, long after the message arrived (o_s + B (O_s + G) = 728.5 µs):
    synchronous, rank 0 is released at 5 ms and ends at LATE + AFTER, its wait LATE - (o_s + B O_s);
    buffered, it ends at o_s + B O_s + AFTER. Rank 1 ends at LATE + o_r + B O_r either way."""
    sent = O_S + B * COPY
    sync, buffered = simulate(two_ranks(True, LATE), NET), simulate(two_ranks(False, LATE), NET)
    assert sync.end[0] == pytest.approx(LATE + AFTER, rel=1e-12)
    assert sync.wait[0] == pytest.approx(LATE - sent, rel=1e-12)
    assert buffered.end[0] == pytest.approx(sent + AFTER, rel=1e-12)
    assert buffered.wait[0] == 0
    assert sync.end[1] == buffered.end[1] == pytest.approx(LATE + O_R + B * COPY, rel=1e-12)
    assert sync.wait[1] == buffered.wait[1] == 0


def test_a_synchronous_send_to_a_waiting_receive_ends_at_the_arrival():
    """Rank 1 receives at once: the receive has started when the message arrives, at o_s + B (O_s + G), and
    rank 0 goes on from there (the acknowledgement takes no time, L = 0)."""
    arrival = O_S + B * (COPY + LINK)
    result = simulate(two_ranks(True, 0.0), NET)
    assert result.end[0] == pytest.approx(arrival + AFTER, rel=1e-12)
    assert result.wait[0] == pytest.approx(B * LINK, rel=1e-12)
    assert result.end[1] == pytest.approx(arrival + O_R + B * COPY, rel=1e-12)


def test_two_synchronous_sends_to_each_other_deadlock():
    """Both ranks MPI_SSEND first, then receive: neither receive ever starts (the unsafe exchange MPI warns
    of); with buffered sends the same program runs."""
    ops = [[Op("send", peer=1 - r, tag=1, nbytes=B, sync=True), Op("ack", peer=1 - r, tag=1),
            Op("recv", peer=1 - r, tag=1, nbytes=B)] for r in (0, 1)]
    with pytest.raises(DeadlockError):
        simulate(ops, NET)
    plain = [[op for op in ops[r] if op.kind != "ack"] for r in (0, 1)]
    assert simulate(plain, NET).time == pytest.approx(O_S + B * (COPY + LINK) + O_R + B * COPY, rel=1e-12)


SOURCE = """#include <mpi.h>
int main(int argc, char **argv) {
    double x[100];
    int me;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0) {
        MPI_Ssend(x, 100, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD);
        MPI_Issend(x, 100, MPI_DOUBLE, 1, 4, MPI_COMM_WORLD, &req);
        MPI_Send(x, 100, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else if (me == 1) {
        MPI_Recv(x, 100, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(x, 100, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(x, 100, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"""


def test_ssend_waits_at_once_issend_at_its_wait(tmp_path):
    """Traced: MPI_Ssend is a synchronous send and its acknowledgement; MPI_Issend's acknowledgement comes at
    the MPI_Wait, after the standard send between them."""
    src = tmp_path / "ssend.c"
    src.write_text(SOURCE)
    program, _ = load_program([str(src)], [], {})
    events, _ = traces(program, load_machine("ncube2"), 2, {})
    seen = [(op.kind, op.tag, op.sync) for op in events[0] if op.kind != "comp"]
    assert seen == [("send", 3, True), ("ack", 3, False), ("send", 4, True), ("send", 5, False),
                    ("ack", 4, False)]
