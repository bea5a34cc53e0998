"""One event of a rank's timeline: a compute interval, or a message sent or received.

Data flow: made by sad.predict.trace (and sad.predict.collectives for a collective's messages), consumed by
sad.predict.timeline's simulation.
"""
from __future__ import annotations

from dataclasses import dataclass

ANY = -1
"""MPI_ANY_SOURCE / MPI_ANY_TAG (their values in mpif.h and Open MPI's mpi.h)."""


@dataclass(frozen=True, slots=True)  # slots: millions of them at P = 1024, read in the event loop
class Op:
    """One event of a rank: compute for `seconds`, or send/receive `nbytes` to/from `peer` with `tag`; `ack`:
    wait until `peer` has started the receive of this rank's synchronous send (`sync`) with `tag`."""
    kind: str  # comp | send | recv | ack
    seconds: float = 0.0
    peer: int = -1
    tag: int = 0
    nbytes: int = 0
    where: str = ""
    call: str = ""  # a collective's messages: the collective (bcast, allreduce, ...)
    total: int = 0  # a collective's messages: the call's bytes (count x datatype size), for pricing it whole
    sync: bool = False  # a send: synchronous (MPI_SSEND, MPI_ISSEND), its `ack` follows
