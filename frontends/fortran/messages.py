"""Message-passing calls (MPI_*, PVM pvmf*) to `ir.Message` statements.

Data flow: frontends.fortran.stmts asks `message_for` about every CALL after its arguments are converted; a
recognised library routine becomes a Message (kind, library, count and datatype where identifiable) that the
communication and programming-model levels of the machine database price.
"""
from __future__ import annotations

from sad.ir import Const, Expr, Loc, Message, Var

MPI_KINDS = {
    "SEND": "send", "BSEND": "send", "SSEND": "send", "RSEND": "send",
    "ISEND": "isend", "IBSEND": "isend", "ISSEND": "isend", "IRSEND": "isend",
    "RECV": "recv", "IRECV": "irecv", "SENDRECV": "sendrecv", "SENDRECV_REPLACE": "sendrecv",
    "WAIT": "wait", "WAITALL": "wait", "WAITANY": "wait", "WAITSOME": "wait", "TEST": "test",
    "BCAST": "bcast", "REDUCE": "reduce", "ALLREDUCE": "allreduce", "BARRIER": "barrier",
    "GATHER": "gather", "GATHERV": "gather", "ALLGATHER": "allgather", "ALLGATHERV": "allgather",
    "SCATTER": "scatter", "SCATTERV": "scatter", "ALLTOALL": "alltoall", "ALLTOALLV": "alltoall",
    "SCAN": "scan", "REDUCE_SCATTER": "reduce_scatter",
    "INIT": "init", "FINALIZE": "finalize", "COMM_SIZE": "comm_size", "COMM_RANK": "comm_rank",
    "ABORT": "abort",
}
# (count argument index, datatype argument index) per MPI kind
MPI_COUNT = {
    "send": (1, 2), "isend": (1, 2), "recv": (1, 2), "irecv": (1, 2), "bcast": (1, 2), "sendrecv": (1, 2),
    "reduce": (2, 3), "allreduce": (2, 3), "scan": (2, 3),
    "gather": (1, 2), "allgather": (1, 2), "scatter": (1, 2), "alltoall": (1, 2),
}
MPI_TYPES = {
    "MPI_INTEGER": "integer", "MPI_INTEGER4": "integer", "MPI_INTEGER8": "integer", "MPI_INT": "integer",
    "MPI_REAL": "real", "MPI_REAL4": "real", "MPI_FLOAT": "real",
    "MPI_DOUBLE_PRECISION": "double", "MPI_REAL8": "double", "MPI_DOUBLE": "double",
    "MPI_COMPLEX": "complex", "MPI_DOUBLE_COMPLEX": "complex", "MPI_LOGICAL": "logical",
    "MPI_CHARACTER": "character", "MPI_CHAR": "character", "MPI_BYTE": "character",
}
PVM_KINDS = {
    "PVMFSEND": "send", "PVMFPSEND": "send", "PVMFRECV": "recv", "PVMFNRECV": "irecv", "PVMFTRECV": "recv",
    "PVMFPRECV": "recv", "PVMFMCAST": "bcast", "PVMFBCAST": "bcast", "PVMFBARRIER": "barrier",
    "PVMFREDUCE": "reduce", "PVMFPACK": "pack", "PVMFUNPACK": "unpack", "PVMFINITSEND": "initsend",
    "PVMFMYTID": "init", "PVMFEXIT": "finalize", "PVMFSPAWN": "spawn", "PVMFPARENT": "parent",
    "PVMFJOINGROUP": "joingroup", "PVMFLVGROUP": "leavegroup", "PVMFGSIZE": "comm_size",
    "PVMFGETINST": "comm_rank", "PVMFPROBE": "probe", "PVMFBUFINFO": "bufinfo",
}
PVM_TYPES = {"INTEGER2": "integer", "INTEGER4": "integer", "REAL4": "real", "REAL8": "double",
             "COMPLEX8": "complex", "COMPLEX16": "complex", "STRING": "character", "BYTE1": "character"}


def message_for(name: str, args: list[Expr], loc: Loc, label: str | None) -> Message | None:
    """A Message for CALL name(args) when name is an MPI or PVM routine, else None."""
    if name.startswith("MPI_"):
        kind = MPI_KINDS.get(name[4:], name[4:].lower())
        count = datatype = None
        if kind in MPI_COUNT:
            ci, ti = MPI_COUNT[kind]
            count = args[ci] if ci < len(args) else None
            datatype = _datatype(args[ti], MPI_TYPES) if ti < len(args) else None
        return Message(kind, "MPI", name, args, count=count, datatype=datatype, loc=loc, label=label)
    if name.startswith("PVMF"):
        kind = PVM_KINDS.get(name, name[4:].lower())
        count = datatype = None
        if kind in ("pack", "unpack") and len(args) >= 3:
            datatype = _datatype(args[0], PVM_TYPES)
            count = args[2]
        return Message(kind, "PVM", name, args, count=count, datatype=datatype, loc=loc, label=label)
    return None


def _datatype(expr: Expr, table: dict[str, str]) -> str | None:
    if isinstance(expr, Var):
        return table.get(expr.name)
    if isinstance(expr, Const) and isinstance(expr.value, str):
        return table.get(expr.value.upper())
    return None
