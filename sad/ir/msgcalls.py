"""The message-passing vocabulary: which MPI and PVM routines are messages, and where their arguments are.

Data flow: both frontends look a call up here (`mpi_spec`, `pvm_spec`) and build an `ir.Message` with the
primitive, the count, the datatype, the partner and the communicator taken from the argument positions given
here; the analysis turns count × `datatype_bytes` into the message size; the mapper prices the primitive with
the machine's programming-model level. Defined once so that Fortran and C agree.

Argument positions are 0-based and the same in Fortran and C (Fortran adds a trailing IERROR). `nargs` is the
C argument count; Fortran's is one more, except where the table says otherwise.

Primitives (what a machine's programming_model names, or what the mapper composes):
  send recv sendrecv isend irecv wait bcast reduce allreduce scan gather scatter allgather alltoall
  reduce_scatter barrier mcast spawn comm_split
Local bookkeeping (no message; free unless a machine file prices it under the same name): see LOCAL.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sad.ir.nodes import Cast, Const, Expr, Loc, Message, UnOp, Var

LOCAL = frozenset({"init", "finalize", "comm_size", "comm_rank", "comm_dup", "comm_free", "wtime", "wtick",
                   "initialized", "get_count", "get_processor_name", "type", "cart", "dims_create",
                   "mytid", "parent", "exit", "initsend", "pack", "unpack", "joingroup", "leavegroup",
                   "gsize", "getinst", "test", "probe", "bufinfo", "abort"})
"""Primitives that move no data between processes: they cost nothing unless a machine prices them."""


@dataclass(frozen=True)
class CallSpec:
    """How a message-passing call's arguments map to the primitive, count, type, partner and tag."""
    primitive: str
    nargs: int                      # C argument count (Fortran: + fortran_extra)
    count: int | None = None        # element count argument
    datatype: int | None = None     # datatype argument
    partner: int | None = None      # destination / source / root argument
    partner_role: str = ""          # dest | source | root | tasks
    source: int | None = None       # sendrecv: the source beside the destination
    comm: int | None = None         # communicator argument
    out: int | None = None          # the scalar this call sets: a size, a rank (see `sets`)
    sets: str = ""                  # nprocs | rank | ntasks
    no_def: tuple[int, ...] = ()    # arguments the call reads only (a broadcast buffer keeps its value)
    fortran_extra: int = 1          # Fortran's trailing IERROR / INFO


_P2P: dict[str, Any] = dict(count=1, datatype=2, partner=3, no_def=(4,))  # the tag is read too
MPI: dict[str, CallSpec] = {
    **{n: CallSpec("send", 6, **_P2P, partner_role="dest", comm=5) for n in ("SEND", "BSEND", "SSEND", "RSEND")},
    **{n: CallSpec("isend", 7, **_P2P, partner_role="dest", comm=5) for n in ("ISEND", "IBSEND", "ISSEND",
                                                                             "IRSEND")},
    "RECV": CallSpec("recv", 7, **_P2P, partner_role="source", comm=5),
    "IRECV": CallSpec("irecv", 7, **_P2P, partner_role="source", comm=5),
    # the receive count, datatype and tag are read like the send's (a size variable there keeps its value)
    "SENDRECV": CallSpec("sendrecv", 12, **{**_P2P, "no_def": (0, 4, 6, 7, 9)}, partner_role="dest", source=8,
                         comm=10),
    "SENDRECV_REPLACE": CallSpec("sendrecv", 9, **{**_P2P, "no_def": (4, 6)}, partner_role="dest", source=5,
                                 comm=7),
    "WAIT": CallSpec("wait", 2), "WAITALL": CallSpec("wait", 3), "WAITANY": CallSpec("wait", 4),
    "WAITSOME": CallSpec("wait", 5), "TEST": CallSpec("test", 3),
    "BCAST": CallSpec("bcast", 5, 1, 2, 3, "root", comm=4, no_def=(0,)),
    "REDUCE": CallSpec("reduce", 7, 2, 3, 5, "root", comm=6, no_def=(4,)),
    "ALLREDUCE": CallSpec("allreduce", 6, 2, 3, comm=5, no_def=(4,)),
    "SCAN": CallSpec("scan", 6, 2, 3, comm=5, no_def=(4,)), "EXSCAN": CallSpec("scan", 6, 2, 3, comm=5, no_def=(4,)),
    # the other side's count, counts, displacements and datatype are only read (issue 28: a size variable
    # passed as both counts stayed a run-time value)
    "GATHER": CallSpec("gather", 8, 1, 2, 6, "root", comm=7, no_def=(4, 5)),
    "GATHERV": CallSpec("gather", 9, 1, 2, 7, "root", comm=8, no_def=(4, 5, 6)),
    "SCATTER": CallSpec("scatter", 8, 4, 5, 6, "root", comm=7, no_def=(1, 2)),
    "SCATTERV": CallSpec("scatter", 9, 5, 6, 7, "root", comm=8, no_def=(1, 2, 3)),
    "ALLGATHER": CallSpec("allgather", 7, 1, 2, comm=6, no_def=(4, 5)),
    "ALLGATHERV": CallSpec("allgather", 8, 1, 2, comm=7, no_def=(4, 5, 6)),
    "ALLTOALL": CallSpec("alltoall", 7, 1, 2, comm=6, no_def=(4, 5)),
    "ALLTOALLV": CallSpec("alltoall", 9, None, 3, comm=8),
    "REDUCE_SCATTER": CallSpec("reduce_scatter", 6, None, 3, comm=5),
    "BARRIER": CallSpec("barrier", 1, comm=0),
    "INIT": CallSpec("init", 2, fortran_extra=-1), "FINALIZE": CallSpec("finalize", 0),
    "INIT_THREAD": CallSpec("init", 4, fortran_extra=-1), "INITIALIZED": CallSpec("initialized", 1),
    "COMM_SIZE": CallSpec("comm_size", 2, comm=0, out=1, sets="nprocs"),
    "COMM_RANK": CallSpec("comm_rank", 2, comm=0, out=1, sets="rank"),
    "COMM_SPLIT": CallSpec("comm_split", 4, comm=0), "COMM_DUP": CallSpec("comm_dup", 2, comm=0),
    "COMM_FREE": CallSpec("comm_free", 1), "WTIME": CallSpec("wtime", 0, fortran_extra=0),
    "WTICK": CallSpec("wtick", 0, fortran_extra=0), "GET_COUNT": CallSpec("get_count", 3),
    "GET_PROCESSOR_NAME": CallSpec("get_processor_name", 2), "ABORT": CallSpec("abort", 2),
    "PROBE": CallSpec("probe", 4), "IPROBE": CallSpec("probe", 5),
    "TYPE_CONTIGUOUS": CallSpec("type", 3), "TYPE_VECTOR": CallSpec("type", 5),
    "TYPE_COMMIT": CallSpec("type", 1), "TYPE_FREE": CallSpec("type", 1),
    "CART_CREATE": CallSpec("comm_split", 6, comm=0), "CART_SHIFT": CallSpec("cart", 5),
    "CART_COORDS": CallSpec("cart", 4), "DIMS_CREATE": CallSpec("dims_create", 3),
}

# Fortran pvmf* routines (the last argument is INFO or a result): argument positions of the Fortran binding.
PVMF: dict[str, CallSpec] = {
    "PVMFMYTID": CallSpec("mytid", 1, fortran_extra=0), "PVMFPARENT": CallSpec("parent", 1, fortran_extra=0),
    "PVMFEXIT": CallSpec("exit", 1, fortran_extra=0), "PVMFINITSEND": CallSpec("initsend", 2, fortran_extra=0),
    "PVMFPACK": CallSpec("pack", 5, 2, 0, fortran_extra=0, no_def=(1,)),
    "PVMFUNPACK": CallSpec("unpack", 5, 2, 0, fortran_extra=0),
    "PVMFSEND": CallSpec("send", 3, partner=0, partner_role="dest", fortran_extra=0),
    "PVMFPSEND": CallSpec("send", 6, 3, 4, 0, "dest", fortran_extra=0, no_def=(2,)),
    "PVMFRECV": CallSpec("recv", 3, partner=0, partner_role="source", fortran_extra=0),
    "PVMFNRECV": CallSpec("recv", 3, partner=0, partner_role="source", fortran_extra=0),
    "PVMFTRECV": CallSpec("recv", 5, partner=0, partner_role="source", fortran_extra=0),
    "PVMFPRECV": CallSpec("recv", 9, 3, 4, 0, "source", fortran_extra=0),
    "PVMFMCAST": CallSpec("mcast", 4, partner=0, partner_role="tasks", fortran_extra=0),
    "PVMFBCAST": CallSpec("bcast", 3, fortran_extra=0),
    "PVMFBARRIER": CallSpec("barrier", 3, fortran_extra=0),
    "PVMFREDUCE": CallSpec("reduce", 8, 2, 3, 6, "root", fortran_extra=0),
    "PVMFSPAWN": CallSpec("spawn", 6, out=5, sets="ntasks", fortran_extra=0),
    "PVMFJOINGROUP": CallSpec("joingroup", 2, out=1, sets="rank", fortran_extra=0),
    "PVMFLVGROUP": CallSpec("leavegroup", 2, fortran_extra=0),
    "PVMFGSIZE": CallSpec("gsize", 2, out=1, sets="nprocs", fortran_extra=0),
    "PVMFGETINST": CallSpec("getinst", 3, out=2, sets="rank", fortran_extra=0),
    "PVMFBUFINFO": CallSpec("bufinfo", 5, fortran_extra=0), "PVMFPROBE": CallSpec("probe", 3, fortran_extra=0),
}

# C pvm_* functions; out=-1 means the function's return value.
PVMC: dict[str, CallSpec] = {
    "pvm_mytid": CallSpec("mytid", 0), "pvm_parent": CallSpec("parent", 0), "pvm_exit": CallSpec("exit", 0),
    "pvm_initsend": CallSpec("initsend", 1),
    "pvm_send": CallSpec("send", 2, partner=0, partner_role="dest"),
    "pvm_psend": CallSpec("send", 5, 3, 4, 0, "dest", no_def=(2,)),
    "pvm_recv": CallSpec("recv", 2, partner=0, partner_role="source"),
    "pvm_nrecv": CallSpec("recv", 2, partner=0, partner_role="source"),
    "pvm_trecv": CallSpec("recv", 3, partner=0, partner_role="source"),
    "pvm_precv": CallSpec("recv", 8, 3, 4, 0, "source"),
    "pvm_mcast": CallSpec("mcast", 3, partner=1, partner_role="tasks"),
    "pvm_bcast": CallSpec("bcast", 2), "pvm_barrier": CallSpec("barrier", 2),
    "pvm_reduce": CallSpec("reduce", 7, 2, 3, 6, "root"),
    "pvm_spawn": CallSpec("spawn", 6, out=-1, sets="ntasks"),
    "pvm_joingroup": CallSpec("joingroup", 1, out=-1, sets="rank"),
    "pvm_lvgroup": CallSpec("leavegroup", 1),
    "pvm_gsize": CallSpec("gsize", 1, out=-1, sets="nprocs"),
    "pvm_getinst": CallSpec("getinst", 2, out=-1, sets="rank"),
    "pvm_bufinfo": CallSpec("bufinfo", 4), "pvm_probe": CallSpec("probe", 2),
}
PVM_C_PACK = {"byte": 1, "cplx": 8, "dcplx": 16, "double": 8, "float": 4, "int": 4, "uint": 4, "long": 8,
              "ulong": 8, "short": 2, "ushort": 2, "str": None}
"""pvm_pk<type>(ptr, n, stride) / pvm_upk<type>: bytes per item (None: a string, its length unknown)."""

MPI_BYTES = {
    "MPI_CHAR": 1, "MPI_SIGNED_CHAR": 1, "MPI_UNSIGNED_CHAR": 1, "MPI_BYTE": 1, "MPI_CHARACTER": 1,
    "MPI_PACKED": 1, "MPI_SHORT": 2, "MPI_UNSIGNED_SHORT": 2, "MPI_INT": 4, "MPI_UNSIGNED": 4,
    "MPI_LONG": 8, "MPI_UNSIGNED_LONG": 8, "MPI_LONG_LONG": 8, "MPI_LONG_LONG_INT": 8,
    "MPI_UNSIGNED_LONG_LONG": 8, "MPI_INT8_T": 1, "MPI_INT16_T": 2, "MPI_INT32_T": 4, "MPI_INT64_T": 8,
    "MPI_UINT8_T": 1, "MPI_UINT16_T": 2, "MPI_UINT32_T": 4, "MPI_UINT64_T": 8, "MPI_C_BOOL": 1,
    "MPI_FLOAT": 4, "MPI_DOUBLE": 8, "MPI_LONG_DOUBLE": 16, "MPI_C_COMPLEX": 8, "MPI_C_FLOAT_COMPLEX": 8,
    "MPI_C_DOUBLE_COMPLEX": 16, "MPI_C_LONG_DOUBLE_COMPLEX": 32, "MPI_2INT": 8, "MPI_FLOAT_INT": 8,
    "MPI_DOUBLE_INT": 16, "MPI_INTEGER": 4, "MPI_INTEGER1": 1, "MPI_INTEGER2": 2, "MPI_INTEGER4": 4,
    "MPI_INTEGER8": 8, "MPI_REAL": 4, "MPI_REAL4": 4, "MPI_REAL8": 8, "MPI_DOUBLE_PRECISION": 8,
    "MPI_COMPLEX": 8, "MPI_DOUBLE_COMPLEX": 16, "MPI_LOGICAL": 4, "MPI_2REAL": 8,
    "MPI_2DOUBLE_PRECISION": 16, "MPI_2INTEGER": 8,
}
"""Bytes per element of the predefined MPI datatypes (LP64, Fortran default INTEGER/REAL/LOGICAL of 4)."""
PVM_BYTES = {"BYTE1": 1, "INTEGER2": 2, "INTEGER4": 4, "INTEGER8": 8, "REAL4": 4, "REAL8": 8,
             "COMPLEX8": 8, "COMPLEX16": 16, "STRING": 1}
"""Bytes per item of the Fortran PVM data types (fpvm3.h)."""
WORLD = frozenset({"MPI_COMM_WORLD"})
_IR_TYPES = (("complex", ("COMPLEX", "CPLX")), ("character", ("CHAR", "BYTE", "PACKED", "STRING")),
             ("logical", ("BOOL", "LOGICAL")), ("double", ("DOUBLE", "REAL8")), ("real", ("FLOAT", "REAL")),
             ("integer", ("INT", "SHORT", "LONG", "UNSIGNED")))
"""The first rule whose word occurs in the datatype's name gives its IR type."""


def ir_type(type_name: str | None, library: str) -> str | None:
    """The IR data type of a predefined datatype (MPI_DOUBLE → double, REAL8 → double), or None."""
    if type_name is None or datatype_bytes(type_name, library) is None:
        return None
    word = type_name.upper().removeprefix("MPI_").removeprefix("C_")
    for ir_name, words in _IR_TYPES:
        if any(w in word for w in words):
            return ir_name
    return None


def mpi_spec(name: str) -> CallSpec | None:
    """The spec of MPI routine `name` (any case, with the MPI_ prefix), or None."""
    upper = name.upper()
    return MPI.get(upper[4:]) if upper.startswith("MPI_") else None


def pvm_spec(name: str) -> CallSpec | None:
    """The spec of a PVM routine: Fortran PVMF* (any case) or C pvm_*; pack/unpack in C by type suffix."""
    if name.upper().startswith("PVMF"):
        return PVMF.get(name.upper())
    if name in PVMC:
        return PVMC[name]
    for prefix, primitive in (("pvm_pk", "pack"), ("pvm_upk", "unpack")):
        if name.startswith(prefix) and name[len(prefix):] in PVM_C_PACK:
            return CallSpec(primitive, 1 if name.endswith("str") else 3, None if name.endswith("str") else 1,
                            no_def=(0,) if primitive == "pack" else ())
    return None


def datatype_bytes(name: str | None, library: str) -> int | None:
    """Bytes per element of a predefined datatype named `name`, or None (derived or unknown)."""
    if name is None:
        return None
    if library == "PVM":
        return PVM_BYTES.get(name.upper(), PVM_C_PACK.get(name))
    return MPI_BYTES.get(name.upper())


def build_message(name: str, args: list[Expr], loc: Loc, language: str, label: str | None = None,
                  result: Expr | None = None) -> Message | None:
    """The Message for a call of MPI or PVM routine `name` with lowered `args`, or None for other calls.
    A wrong argument count is kept as `problem` (the analysis warns and names a parameter)."""
    spec = mpi_spec(name)
    library = "MPI"
    if spec is None:
        spec, library = pvm_spec(name), "PVM"
    if spec is None:
        if not name.upper().startswith("MPI_"):
            return None
        spec, library = CallSpec(name[4:].lower(), len(args)), "MPI"  # not in the table: priced by name
    expected = spec.nargs + (spec.fortran_extra if language == "fortran" else 0)
    msg = Message(spec.primitive, library, name, list(args), loc=loc, label=label, result=result)
    if len(args) != expected:
        msg.problem = f"{name} takes {expected} argument{'s' if expected != 1 else ''}, {len(args)} given"
        return msg

    def arg(pos: int | None) -> Expr | None:
        return args[pos] if pos is not None and 0 <= pos < len(args) else None

    msg.count = arg(spec.count)
    msg.partner, msg.partner_role, msg.source = arg(spec.partner), spec.partner_role, arg(spec.source)
    msg.type_name = _name_of(arg(spec.datatype))
    place = in_place(msg)
    if place is not None:  # the send side is ignored: a counts array's element is the tracer's (per rank)
        count, datatype, vector = place
        msg.count, msg.type_name = (None if vector else arg(count)), _name_of(arg(datatype))
    if language == "c" and library == "PVM" and spec.primitive in ("pack", "unpack"):
        msg.type_name = name.split("k", 1)[1]          # pvm_pkdouble → double, pvm_upkint → int
    msg.datatype = ir_type(msg.type_name, library)
    comm = arg(spec.comm)
    msg.comm = _name_of(comm) if comm is not None else None
    return msg


IN_PLACE_RECEIVE: dict[str, tuple[int, int, bool]] = {
    "GATHER": (4, 5, False), "ALLGATHER": (4, 5, False), "GATHERV": (4, 6, True), "ALLGATHERV": (4, 6, True)}
"""A gather whose send buffer is MPI_IN_PLACE ignores its send count and type: the rank's own block is the
receive side's (count or counts array, datatype); the counts array's element is the rank's (True)."""


def in_place(msg: Message) -> tuple[int, int, bool] | None:
    """For a gather or allgather (v) sending from MPI_IN_PLACE: (receive count argument, receive datatype
    argument, whether that count is an array of per-rank counts); else None."""
    name = msg.name.upper().removeprefix("MPI_")
    found = IN_PLACE_RECEIVE.get(name) if msg.library == "MPI" else None
    if found is None or not msg.args or (_name_of(msg.args[0]) or "").upper() != "MPI_IN_PLACE":
        return None
    return found


def _name_of(expr: Expr | None) -> str | None:
    """The handle's name: MPI_DOUBLE; Open MPI's mpi.h spells it ((MPI_Datatype) ((void *) &(ompi_mpi_double)))."""
    while isinstance(expr, (Cast, UnOp)) and (isinstance(expr, Cast) or expr.op == "addr"):
        expr = expr.operand
    if isinstance(expr, Var):
        if expr.name.startswith("ompi_mpi_"):
            return "MPI_" + expr.name[len("ompi_mpi_"):].upper()
        return expr.name
    if isinstance(expr, Const) and isinstance(expr.value, str):
        return expr.value
    return None
