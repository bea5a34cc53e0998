"""Each rank priced alone from its traced events: `sad analyze`'s number where its formula keeps per-rank values.

Data flow: an SPMD program's IR and a machine → every rank's events at the bound NPROCS (sad.predict.trace:
loop counts, branches and message sizes decided at each rank, so a heap-numbered tree's subtree sizes computed
in a loop on RANK and NPROCS are known) → per rank its compute plus each of its messages priced by the
machine's programming-model level (send(b) for a send, recv(b) for a receive, a collective call by its own
expression at the call's bytes, as sad.predict.messages prices them for `sad analyze`) → the slowest rank.

This is `sad analyze`'s semantics (no waits, no overlap: each rank priced alone), with the values the
formula leaves as parameters (the rank's subtree sizes, its branch outcomes) taken from the trace instead;
`sad timeline` simulates the same events together. The CLI says so where it uses it (issue 28).
"""
from __future__ import annotations

from dataclasses import dataclass

from sad.predict.events import Op
from sad.predict.messages import _price


@dataclass(frozen=True)
class Alone:
    """Per rank: seconds priced alone (compute + messages); the slowest rank and how many were traced."""
    compute: list[float]
    communicate: list[float]

    @property
    def seconds(self) -> list[float]:
        """Each rank's compute + communication."""
        return [c + m for c, m in zip(self.compute, self.communicate)]

    @property
    def slowest(self) -> int:
        """The slowest rank (the lowest of equals)."""
        times = self.seconds
        return max(range(len(times)), key=lambda r: (times[r], -r))

    @property
    def time(self) -> float:
        """The program's time: its slowest rank's."""
        return self.seconds[self.slowest]


class PriceError(Exception):
    """The machine's programming-model level cannot price a traced message."""


def price_alone(events: list[list[Op]], machine) -> Alone:
    """Every rank's compute and its messages priced one by one on the machine (send(b), recv(b); a
    collective's messages at a rank, consecutive with one tag, as one call of the collective)."""
    nprocs = len(events)
    cache: dict[tuple[str, int], float] = {}

    def cost(kind: str, nbytes: int) -> float:
        key = (kind, nbytes)
        if key not in cache:
            seconds = _price(kind, nbytes, nprocs, machine)
            if seconds is None or not seconds.is_number:
                raise PriceError(f"machine {machine.name} cannot price a '{kind}' of {nbytes} bytes "
                                 "(programming_model: send and recv, or comm)")
            cache[key] = float(seconds)
        return cache[key]

    compute, communicate = [], []
    for ops in events:
        comp = comm = 0.0
        call: tuple[str, int] | None = None
        for op in ops:
            if op.kind == "comp":
                comp += op.seconds
            elif op.kind == "ack":  # a synchronous send's wait for its receiver: a wait, not priced alone
                continue
            elif op.call:  # a collective: its messages at this rank are one call, priced whole
                if call != (op.call, op.tag):
                    call = (op.call, op.tag)
                    comm += cost(op.call, op.total)
                continue
            else:
                comm += cost(op.kind, op.nbytes)
            call = None
        compute.append(comp)
        communicate.append(comm)
    return Alone(compute, communicate)
