"""SPMD programs: message-passing statements as priced events (primitive, bytes, process count, partner).

Data flow: `link_pvm_buffers` runs on the IR before the SAD is built (PVM sends what was packed since the
last pvm_initsend; a receive delivers what is unpacked after it); the SAD builder asks `describe` about every
ir.Message and attaches the result to the statement's event, so that the mapper can price it with the
machine's programming-model level (sad.predict.messages). Sizes are backtraced like any value: bytes =
count × the datatype's size; what the source cannot tell becomes a named parameter, with a warning where the
input looks wrong (an argument count, an unknown datatype, a communicator other than the world).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import sympy

from sad import ir
from sad.analysis.params import Parameter, make_symbol
from sad.ir import msgcalls

LOCAL_FUNCTIONS = {"mpi_wtime": "wtime", "mpi_wtick": "wtick"}
"""MPI functions called for their value (linkage names): bookkeeping, priced as msg.<primitive>."""
DATA_FREE = frozenset({"barrier", "wait", "spawn", "comm_split"}) | msgcalls.LOCAL
"""Primitives whose price does not depend on a message size."""


@dataclass(frozen=True)
class MessageCost:
    """One message-passing call as the mapper prices it."""
    primitive: str
    name: str
    library: str
    bytes: sympy.Expr
    nprocs: sympy.Expr
    partner: str | None = None
    fanout: sympy.Expr | None = None  # PVM mcast: the number of receiving tasks
    deferred: bool = False  # isend/irecv completed by a wait of the same statement list: priced there
    parts: tuple[tuple[str, sympy.Expr], ...] = ()  # a wait: the (primitive, bytes) of the calls it completes

    @property
    def free_symbols(self) -> set[sympy.Symbol]:
        """Every symbol the message's size, process count, fan-out and parts depend on."""
        exprs = [self.bytes, self.nprocs] + ([self.fanout] if self.fanout is not None else [])
        exprs += [b for _, b in self.parts]
        return set().union(*(sympy.sympify(e).free_symbols for e in exprs))

    def rebind(self, subs: dict) -> MessageCost:
        """The same call seen through a call site: the callee's formals replaced by the actual arguments."""
        fanout = self.fanout.xreplace(subs) if self.fanout is not None else None
        parts = tuple((p, sympy.sympify(b).xreplace(subs)) for p, b in self.parts)
        return replace(self, bytes=sympy.sympify(self.bytes).xreplace(subs),
                       nprocs=sympy.sympify(self.nprocs).xreplace(subs), fanout=fanout, parts=parts)


def rebound(event, subs: dict):
    """A copy of a callee's message event with the call site's actual arguments in its size; the copy
    keeps the event's place in the program (its seq), so blocks and reports are unchanged."""
    clone = replace(event)
    clone.message = event.message.rebind(subs)
    return clone


def describe(builder, stmt: ir.Message, index: dict[str, sympy.Symbol]) -> MessageCost:
    """The message a statement sends, in the parameters of the procedure being built (`builder` is its
    sad.analysis.builder.ProcedureBuilder: values, names, the build context)."""
    proc = builder.proc.name
    ordinals = builder.names.ordinals
    ordinals[f"msg:{stmt.name.upper()}"] += 1
    place = f"{proc}_{stmt.name.upper()}{ordinals[f'msg:{stmt.name.upper()}']}"
    nprocs = _process_count(builder, stmt)
    if stmt.problem is not None:
        size = _parameter(builder, f"BYTES_{place}", stmt, f"bytes of {stmt.name} (call not understood)")
        builder.ctx.warn(stmt.loc, f"{stmt.problem}: its message size is the parameter BYTES_{place}")
        return MessageCost(stmt.kind, stmt.name, stmt.library, size, nprocs)
    nbytes = sympy.Integer(0) if stmt.kind in DATA_FREE else _bytes(builder, stmt, index, place)
    if stmt.request_group is not None:
        return _nonblocking(builder, stmt, nbytes, nprocs, index)
    fanout = None
    if stmt.kind == "mcast" and stmt.partner is not None:
        fanout = builder.values.bound(stmt.partner, index)
        if fanout is None:
            fanout = _parameter(builder, f"NTASK_{place}", stmt, f"tasks reached by {stmt.name}")
    return MessageCost(stmt.kind, stmt.name, stmt.library, nbytes, nprocs, _partner(builder, stmt, index, nprocs),
                       fanout)


def _nonblocking(builder, stmt: ir.Message, nbytes: sympy.Expr, nprocs: sympy.Expr, index) -> MessageCost:
    """A nonblocking pair is priced at its wait: the posts cost nothing where they are, the wait carries
    their primitives and sizes (link_requests paired them within one statement list)."""
    pending = builder.__dict__.setdefault("_spmd_posted", {})
    if stmt.kind != "wait":
        pending.setdefault(stmt.request_group, []).append((stmt.kind, nbytes))
        return MessageCost(stmt.kind, stmt.name, stmt.library, nbytes, nprocs,
                           _partner(builder, stmt, index, nprocs), deferred=True)
    parts = tuple(pending.pop(stmt.request_group, []))
    return MessageCost("wait", stmt.name, stmt.library, sum((b for _, b in parts), sympy.Integer(0)), nprocs,
                       f"completes {', '.join(p for p, _ in parts)}", parts=parts)


def _process_count(builder, stmt: ir.Message) -> sympy.Expr:
    comm = stmt.comm
    if comm is not None and comm not in msgcalls.WORLD and stmt.library == "MPI":
        symbol = builder.values.process_count(comm, stmt.loc, builder.proc.name)
        builder.ctx.warn(stmt.loc, f"{stmt.name}: communicator {comm} is not MPI_COMM_WORLD: its size is the "
                                f"parameter {symbol}")
        return symbol
    return builder.values.process_count(None, stmt.loc, builder.proc.name)


def _bytes(builder, stmt: ir.Message, index, place: str) -> sympy.Expr:
    count = builder.values.bound(stmt.count, index) if stmt.count is not None else None
    if count is None:
        why = "not known statically" if stmt.count is not None else "not given by the call"
        return _parameter(builder, f"BYTES_{place}", stmt, f"bytes per {stmt.name} (count {why})")
    if stmt.library == "PVM" and stmt.kind in ("send", "recv", "mcast", "bcast") and stmt.type_name is None:
        return count  # sized from the pack calls: already bytes
    size = msgcalls.datatype_bytes(stmt.type_name, stmt.library)
    if size is None:
        name = f"SIZE_{place}"
        if stmt.type_name is None or stmt.type_name.upper().startswith(("MPI_", "PVM")):
            builder.ctx.warn(stmt.loc, f"{stmt.name}: unknown datatype {stmt.type_name or '(none)'}: bytes per "
                                    f"element are the parameter {name}")
        return count * _parameter(builder, name, stmt, f"bytes per element of datatype {stmt.type_name}")
    return count * size


def _parameter(builder, name: str, stmt: ir.Message, what: str) -> sympy.Symbol:
    symbol = make_symbol(name, "value", integer=True)
    builder.ctx.candidates.setdefault(symbol, Parameter(name, "unresolved", "value", stmt.loc.file, stmt.loc.line,
                                                        builder.proc.name, description=what))
    return symbol


def _partner(builder, stmt: ir.Message, index, nprocs: sympy.Expr) -> str | None:
    """right/left neighbour in a ring, the root of a collective, or the partner's value as a formula."""
    if stmt.kind in ("allreduce", "allgather", "alltoall", "barrier", "scan", "reduce_scatter"):
        return "all"
    if stmt.partner is None:
        return None
    value = builder.values.bound(stmt.partner, index)
    if value is None:
        return None
    role = stmt.partner_role or "partner"
    rank = builder.values.rank_symbol()
    if role in ("dest", "source"):
        for name, shift in (("right neighbour", 1), ("left neighbour", -1)):
            if _same(value, sympy.Mod(rank + shift, nprocs)):
                return name
        if stmt.kind == "sendrecv" and stmt.source is not None:
            source = builder.values.bound(stmt.source, index)
            if source is not None:
                return f"dest {_text(value)}, source {_text(source)}"
    return f"{role} {_text(value)}"


def _same(a: sympy.Expr, b: sympy.Expr) -> bool:
    """Equal as functions of the rank: compared at a few process counts and every rank of each."""
    rank = sympy.Symbol("RANK", integer=True)
    nprocs = sympy.Symbol("NPROCS", integer=True)
    if not (a.free_symbols | b.free_symbols) <= {rank, nprocs}:
        return False
    try:
        return all(int(a.subs({rank: r, nprocs: p})) == int(b.subs({rank: r, nprocs: p}))
                   for p in (2, 3, 5) for r in range(p))
    except (TypeError, ValueError):
        return False


def _text(value: sympy.Expr) -> str:
    return sympy.sstr(value)


# ------------------------------------------------------------------------------------------ requests
def link_requests(program: ir.Program) -> None:
    """Pair MPI isend/irecv with the wait (wait, waitall, ...) that follows them in the same statement list,
    before any other wait there: they get one request_group, and the mapper prices the pair at the wait.
    Posts completed elsewhere (in another list, another routine) stay priced where they are posted."""
    group = 0
    for proc in program.procedures:
        lists = [proc.body] + [body for stmt in ir.walk_stmts(proc.body) for body in ir.child_bodies(stmt)]
        for stmts in lists:
            posted: list[ir.Message] = []
            for stmt in stmts:
                if not isinstance(stmt, ir.Message) or stmt.library != "MPI" or stmt.problem is not None:
                    continue
                if stmt.kind in ("isend", "irecv"):
                    posted.append(stmt)
                elif stmt.kind == "wait" and posted:
                    group += 1
                    for post in posted + [stmt]:
                        post.request_group = group
                    posted = []


# ------------------------------------------------------------------------------------------ PVM buffers
def link_pvm_buffers(program: ir.Program) -> None:
    """Give each PVM send/mcast/bcast the bytes packed since the last initsend, and each receive the bytes
    unpacked after it, when those pack calls are straight-line code of the same statement list. Otherwise
    the size stays unknown (a named parameter)."""
    for proc in program.procedures:
        _link_list(proc.body)
        for stmt in ir.walk_stmts(proc.body):
            for body in ir.child_bodies(stmt):
                _link_list(body)


def _link_list(stmts: list[ir.Stmt]) -> None:
    packed: list[ir.Message] | None = []
    receive: ir.Message | None = None
    unpacked: list[ir.Message] | None = None
    for stmt in stmts:
        if isinstance(stmt, ir.Message) and stmt.library == "PVM" and stmt.problem is None:
            if stmt.kind == "initsend":
                packed = []
            elif stmt.kind == "pack" and packed is not None:
                packed.append(stmt)
            elif stmt.kind in ("send", "mcast", "bcast") and stmt.count is None:
                stmt.count = _packed_bytes(packed)
            elif stmt.kind == "recv" and stmt.count is None:
                _close(receive, unpacked)
                receive, unpacked = stmt, []
            elif stmt.kind == "unpack" and unpacked is not None:
                unpacked.append(stmt)
            continue
        if any(isinstance(s, ir.Message) and s.kind in ("pack", "unpack") for body in ir.child_bodies(stmt)
               for s in ir.walk_stmts(body)):
            packed = None  # packed in a loop or a branch: not straight-line, the size stays unknown
            unpacked = None
    _close(receive, unpacked)


def _close(receive: ir.Message | None, unpacked: list[ir.Message] | None) -> None:
    if receive is not None:
        receive.count = _packed_bytes(unpacked)


def _packed_bytes(packs: list[ir.Message] | None) -> ir.Expr | None:
    if not packs:
        return None
    total: ir.Expr | None = None
    for pack in packs:
        size = msgcalls.datatype_bytes(pack.type_name, "PVM")
        if size is None or pack.count is None:
            return None
        term = ir.BinOp("mul", pack.count, ir.Const(size, type="integer"), type="integer")
        total = term if total is None else ir.BinOp("add", total, term, type="integer")
    return total
