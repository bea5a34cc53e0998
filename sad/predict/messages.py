"""Pricing message-passing calls with a machine's programming-model level.

Data flow: the mapper (sad.predict.mapper) hands each `message` block's MessageCost (sad.analysis.spmd) here;
the machine (sad.machine.model) gives the primitive's expression in b (bytes) and P (processes). A primitive the
machine names is priced by its own expression. Otherwise the documented composition below is used, each part
priced the same way:

    sendrecv        send(b) + recv(b)                   (one ring-shift step: PerPreT's comm(b))
    isend / irecv   send(b) / recv(b), charged at the wait that completes them when it follows them in the
                    same statement list (sad.analysis.spmd.link_requests); otherwise where they are posted.
                    No overlap of communication and computation is modelled.
    send, recv      comm(b) when the machine has only comm
    allgather       gather(b) + bcast(P·b)
    alltoall        (P − 1) · comm(b)
    scan            reduce(b)
    reduce_scatter  reduce(b) + scatter(b / P)
    mcast           n · send(b)   (PVM: n receiving tasks)
    comm_split      allgather(8)
    bookkeeping     init, finalize, comm_size, comm_rank, wtime, mytid, pack, … (sad.ir.msgcalls.LOCAL): 0

A primitive the machine cannot price is the unresolved cost T_msg_<primitive> (seconds per call), listed by
the mapper with the machine's other unpriced operations: never a silent 0.
"""
from __future__ import annotations

import sympy

from sad.analysis.params import make_symbol
from sad.analysis.spmd import MessageCost
from sad.ir import msgcalls

_B = sympy.Symbol("b")
_P = sympy.Symbol("P")
COMPOSITIONS: dict[str, list[tuple[str, sympy.Expr, sympy.Expr]]] = {
    # primitive: [(part, factor, bytes of the part)], in b and P
    "sendrecv": [("send", 1, _B), ("recv", 1, _B)],
    "isend": [("send", 1, _B)],
    "irecv": [("recv", 1, _B)],
    "allgather": [("gather", 1, _B), ("bcast", 1, _P * _B)],
    "alltoall": [("comm", _P - 1, _B)],
    "scan": [("reduce", 1, _B)],
    "reduce_scatter": [("reduce", 1, _B), ("scatter", 1, _B / _P)],
    "comm_split": [("allgather", 1, sympy.Integer(8))],
    "send": [("comm", 1, _B)],
    "recv": [("comm", 1, _B)],
}
FREE = frozenset(msgcalls.LOCAL | {"wait"})


def message_seconds(msg: MessageCost, machine, missing: set[str]) -> sympy.Expr:
    """Seconds for one execution of the call."""
    if msg.deferred:
        return sympy.Integer(0)  # priced at the wait that completes it
    if msg.parts:
        total = sympy.Integer(0)
        for primitive, nbytes in msg.parts:
            seconds = _price(primitive, nbytes, msg.nprocs, machine)
            total += seconds if seconds is not None else _missing(primitive, missing)
        return total
    if msg.primitive == "mcast":
        per_task = _price("send", msg.bytes, msg.nprocs, machine)
        if per_task is None:
            return _missing("mcast", missing)
        return (msg.fanout if msg.fanout is not None else msg.nprocs - 1) * per_task
    seconds = _price(msg.primitive, msg.bytes, msg.nprocs, machine)
    if seconds is not None:
        return seconds
    if msg.primitive in FREE:
        return sympy.Integer(0)
    return _missing(msg.primitive, missing)


def _price(primitive: str, nbytes, nprocs, machine, depth: int = 0) -> sympy.Expr | None:
    if primitive in machine.primitives:
        return machine.message_time(primitive, nbytes, nprocs)
    if depth > 3 or primitive not in COMPOSITIONS:
        return None
    total = sympy.Integer(0)
    for part, factor, size in COMPOSITIONS[primitive]:
        seconds = _price(part, size.xreplace({_B: nbytes, _P: nprocs}), nprocs, machine, depth + 1)
        if seconds is None:
            return None
        total += sympy.sympify(factor).xreplace({_P: nprocs}) * seconds
    return total


def _missing(primitive: str, missing: set[str]) -> sympy.Expr:
    key = f"msg.{primitive}"
    missing.add(key)
    return make_symbol("T_" + key.replace(".", "_"), "op_cost")
