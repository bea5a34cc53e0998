"""Collective operations as the point-to-point messages of the algorithms MPI libraries use.

Data flow: sad.predict.trace meets a collective call at a rank and asks `expand` for that rank's part of it
(its sends and receives, in order), with the algorithm the machine's programming model names under
`collectives:` (sad.machine.model) or DEFAULTS; sad.predict.timeline simulates them like any message, so a
tree's depth, a root's serial sends and the waits they cause appear by themselves. Ranks are relative to
the root: v = (rank - root) mod P.

    linear              root sends to / receives from every other rank in turn, in rank order (P - 1 messages
                        at the root; MPICH's and Open MPI's basic gather, scatter)
    binomial            binomial tree (MPICH): v receives from v - lowbit(v), sends to v + 2^k for the
                        2^k below lowbit(v), largest first; reduce and gather run it upwards (gather's
                        messages carry the sender's subtree, min(lowbit(v), P - v) blocks)
    recursive_doubling  log2 P exchanges with partner v XOR 2^k (allreduce, allgather: b * 2^k bytes);
                        a process count that is no power of 2 falls back to reduce + bcast (binomial); the
                        barrier folds the ranks above the largest power of 2 in and out instead (MPICH 1.x)
    binomial (allgather) tree collect of every block to rank 0, then tree broadcast of all P blocks (the
                        gather + bcast composition, Brehm 1999's tree collect / broadcast)
    gathers             allgather as P linear gathers, to rank 0, 1, ..., P - 1 in turn (MPICH 1.0)
    ring                P - 1 steps: send to v + 1, receive from v - 1 (allgather, alltoall's pairwise)
    dissemination       barrier: round k sends 0 bytes to v + 2^k and receives from v - 2^k

The reduction's arithmetic is not timed (b / 8 additions per step: microseconds beside the messages).
"""
from __future__ import annotations

from collections.abc import Callable

from sad.predict.events import Op

PRIMITIVES = frozenset({"bcast", "reduce", "allreduce", "gather", "scatter", "allgather", "alltoall", "barrier",
                        "scan"})
ALGORITHMS = {
    "bcast": ("binomial", "linear"), "reduce": ("binomial", "linear"),
    "allreduce": ("recursive_doubling", "binomial", "linear"), "gather": ("linear", "binomial"),
    "scatter": ("linear", "binomial"), "allgather": ("ring", "recursive_doubling", "linear", "binomial", "gathers"),
    "alltoall": ("ring", "linear"), "barrier": ("dissemination", "recursive_doubling", "linear"), "scan": ("linear",),
}
"""The algorithms each collective can be simulated with (the first is the default)."""
DEFAULTS = {kind: names[0] for kind, names in ALGORITHMS.items()}


def expand(kind: str, algorithm: str, rank: int, nprocs: int, root: int, nbytes: int, tag: int,
           where: str) -> list[Op]:
    """This rank's messages in one call of collective `kind` (nbytes: the call's count x datatype size)."""
    if algorithm not in ALGORITHMS[kind]:
        raise ValueError(f"{kind}: no algorithm '{algorithm}' (known: {', '.join(ALGORITHMS[kind])})")
    if nprocs == 1:
        return []
    v = (rank - root) % nprocs
    others = [(i - root) % nprocs for i in range(nprocs) if i != root]  # relative ranks, in rank order

    def real(u: int) -> int:
        return (u + root) % nprocs

    def send(u: int, b: int) -> Op:
        return Op("send", peer=real(u), tag=tag, nbytes=b, where=where, call=kind, total=nbytes)

    def recv(u: int, b: int) -> Op:
        return Op("recv", peer=real(u), tag=tag, nbytes=b, where=where, call=kind, total=nbytes)

    table: dict[tuple[str, str], Callable[[], list[Op]]] = {
        ("bcast", "binomial"): lambda: _binomial_down(v, nprocs, send, recv, lambda u: nbytes),
        ("bcast", "linear"): lambda: _linear_down(v, others, send, recv, nbytes),
        ("scatter", "linear"): lambda: _linear_down(v, others, send, recv, nbytes),
        ("scatter", "binomial"): lambda: _binomial_down(v, nprocs, send, recv,
                                                        lambda u: _subtree(u, nprocs) * nbytes),
        ("reduce", "binomial"): lambda: _binomial_up(v, nprocs, send, recv, lambda u: nbytes),
        ("reduce", "linear"): lambda: _linear_up(v, others, send, recv, nbytes),
        ("gather", "linear"): lambda: _linear_up(v, others, send, recv, nbytes),
        ("gather", "binomial"): lambda: _binomial_up(v, nprocs, send, recv,
                                                     lambda u: _subtree(u, nprocs) * nbytes),
        ("allreduce", "recursive_doubling"): lambda: _doubling(v, nprocs, send, recv, lambda k: nbytes),
        ("allreduce", "binomial"): lambda: (_binomial_up(v, nprocs, send, recv, lambda u: nbytes)
                                            + _binomial_down(v, nprocs, send, recv, lambda u: nbytes)),
        ("allreduce", "linear"): lambda: (_linear_up(v, others, send, recv, nbytes)
                                          + _linear_down(v, others, send, recv, nbytes)),
        ("allgather", "ring"): lambda: _ring(v, nprocs, send, recv, nbytes),
        ("allgather", "recursive_doubling"): lambda: _doubling(v, nprocs, send, recv, lambda k: nbytes * k,
                                                               gather=nbytes),
        ("allgather", "linear"): lambda: (_linear_up(v, others, send, recv, nbytes)
                                          + _linear_down(v, others, send, recv, nbytes * nprocs)),
        ("allgather", "binomial"): lambda: (
            _binomial_up(v, nprocs, send, recv, lambda u: _subtree(u, nprocs) * nbytes)
            + _binomial_down(v, nprocs, send, recv, lambda u: nbytes * nprocs)),
        ("allgather", "gathers"): lambda: _gathers(v, nprocs, send, recv, nbytes),
        ("alltoall", "ring"): lambda: _pairwise(v, nprocs, send, recv, nbytes),
        ("alltoall", "linear"): lambda: _pairwise(v, nprocs, send, recv, nbytes),
        ("barrier", "dissemination"): lambda: _dissemination(v, nprocs, send, recv),
        ("barrier", "recursive_doubling"): lambda: _pairwise_fold(v, nprocs, send, recv),
        ("barrier", "linear"): lambda: _linear_up(v, others, send, recv, 0) + _linear_down(v, others, send,
                                                                                           recv, 0),
        ("scan", "linear"): lambda: ([recv(v - 1, nbytes)] if v > 0 else []) + (
            [send(v + 1, nbytes)] if v + 1 < nprocs else []),
    }
    return table[(kind, algorithm)]()


def _lowbit(v: int) -> int:
    return v & -v


def _subtree(v: int, nprocs: int) -> int:
    """Ranks in the binomial subtree of relative rank v."""
    return nprocs if v == 0 else min(_lowbit(v), nprocs - v)


def _binomial_down(v: int, nprocs: int, send, recv, size) -> list[Op]:
    ops: list[Op] = []
    mask = 1
    while mask < nprocs:
        if v & mask:
            ops.append(recv(v - mask, size(v)))
            break
        mask <<= 1
    mask >>= 1
    while mask > 0:
        if v + mask < nprocs:
            ops.append(send(v + mask, size(v + mask)))
        mask >>= 1
    return ops


def _binomial_up(v: int, nprocs: int, send, recv, size) -> list[Op]:
    ops: list[Op] = []
    mask = 1
    while mask < nprocs:
        if v & mask:
            ops.append(send(v - mask, size(v)))
            break
        if v + mask < nprocs:
            ops.append(recv(v + mask, size(v + mask)))
        mask <<= 1
    return ops


def _linear_down(v: int, others: list[int], send, recv, nbytes: int) -> list[Op]:
    if v == 0:
        return [send(u, nbytes) for u in others]
    return [recv(0, nbytes)]


def _linear_up(v: int, others: list[int], send, recv, nbytes: int) -> list[Op]:
    if v == 0:
        return [recv(u, nbytes) for u in others]
    return [send(0, nbytes)]


def _gathers(v: int, nprocs: int, send, recv, nbytes: int) -> list[Op]:
    """P linear gathers, rooted at 0, 1, ..., P - 1 in turn (no root: v is the rank): a rank sends its block
    to every other rank and, in its own turn, receives every other rank's block in rank order."""
    ops: list[Op] = []
    for root in range(nprocs):
        if root == v:
            ops += [recv(u, nbytes) for u in range(nprocs) if u != v]
        else:
            ops.append(send(root, nbytes))
    return ops


def _pairwise_fold(v: int, nprocs: int, send, recv) -> list[Op]:
    """Barrier by pairwise exchange (MPICH 1.x): the ranks above the largest power of 2, n, first report to
    v - n, the n lower ranks exchange empty messages with v XOR 2^k, then release the ones above."""
    n = 1 << (nprocs.bit_length() - 1)
    if v >= n:
        return [send(v - n, 0), recv(v - n, 0)]
    ops: list[Op] = [recv(v + n, 0)] if v + n < nprocs else []
    mask = 1
    while mask < n:
        ops += [send(v ^ mask, 0), recv(v ^ mask, 0)]
        mask <<= 1
    return ops + ([send(v + n, 0)] if v + n < nprocs else [])


def _doubling(v: int, nprocs: int, send, recv, size, gather: int = 0) -> list[Op]:
    if nprocs & (nprocs - 1):
        block = gather or size(1)
        up = _binomial_up(v, nprocs, send, recv, lambda u: (_subtree(u, nprocs) * gather) if gather else block)
        return up + _binomial_down(v, nprocs, send, recv, lambda u: block * (nprocs if gather else 1))
    ops: list[Op] = []
    mask = 1
    while mask < nprocs:
        ops += [send(v ^ mask, size(mask)), recv(v ^ mask, size(mask))]
        mask <<= 1
    return ops


def _ring(v: int, nprocs: int, send, recv, nbytes: int) -> list[Op]:
    ops: list[Op] = []
    for _ in range(nprocs - 1):
        ops += [send((v + 1) % nprocs, nbytes), recv((v - 1) % nprocs, nbytes)]
    return ops


def _pairwise(v: int, nprocs: int, send, recv, nbytes: int) -> list[Op]:
    ops: list[Op] = []
    for step in range(1, nprocs):
        ops += [send((v + step) % nprocs, nbytes), recv((v - step) % nprocs, nbytes)]
    return ops


def _dissemination(v: int, nprocs: int, send, recv) -> list[Op]:
    ops: list[Op] = []
    step = 1
    while step < nprocs:
        ops += [send((v + step) % nprocs, 0), recv((v - step) % nprocs, 0)]
        step <<= 1
    return ops
