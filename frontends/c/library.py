"""C library calls that are not ordinary calls in the IR: stdio → IO, exit/abort → Stop, MPI_* → Message.

Data flow: `exprs` and `stmts` lower a call's arguments and then ask `special_kind(name)`; for a hit they
build the statement here. Only calls by name to functions the user did not define themselves are special.

Conventions:
- IO kinds: printf/puts/putchar/vprintf → "print"; fprintf/fputs/fputc/putc/fwrite/sprintf/snprintf/perror
  → "write"; scanf/fscanf/sscanf/getchar/getc/fgetc/fgets/gets/fread → "read"; fopen/freopen/fdopen →
  "open"; fclose → "close"; rewind/fseek/fsetpos → "rewind"; ftell/feof/ferror/fgetpos → "inquire";
  fflush → "flush". Format strings and streams are not items; for reads `targets` are what input assigns
  (`&x` → x, a buffer `buf` → *buf); a statement `v = getchar()` adds v to the targets.
- Message kind: the MPI name without "MPI_", lower case (MPI_Allreduce → "allreduce", MPI_Isend →
  "isend"); count and datatype from the argument positions of the MPI standard; datatype as an IR type
  ("double" for MPI_DOUBLE, "character" for MPI_CHAR/MPI_BYTE). MPI_Wtime/MPI_Wtick stay function calls;
  MPI_Abort is a Stop.
"""
from __future__ import annotations

from frontends.c import typesys as ts
from frontends.c.context import ctype_of, set_ctype
from sad import ir

# name → (kind, index of the first transferred item or None, index of the first read target or None)
_IO: dict[str, tuple[str, int | None, int | None]] = {
    "printf": ("print", 1, None), "vprintf": ("print", 1, None), "puts": ("print", 0, None),
    "putchar": ("print", 0, None),
    "fprintf": ("write", 2, None), "vfprintf": ("write", 2, None), "fputs": ("write", 0, None),
    "fputc": ("write", 0, None), "putc": ("write", 0, None), "perror": ("write", 0, None),
    "sprintf": ("write", 2, None), "vsprintf": ("write", 2, None), "snprintf": ("write", 3, None),
    "vsnprintf": ("write", 3, None), "fwrite": ("write", 0, None),
    "scanf": ("read", None, 1), "fscanf": ("read", None, 2), "sscanf": ("read", None, 2),
    "vscanf": ("read", None, 1), "getchar": ("read", None, None), "getc": ("read", None, None),
    "fgetc": ("read", None, None), "fgets": ("read", None, 0), "gets": ("read", None, 0),
    "fread": ("read", None, 0),
    "fopen": ("open", 0, None), "freopen": ("open", 0, None), "fdopen": ("open", 0, None),
    "fclose": ("close", None, None), "fflush": ("flush", None, None),
    "rewind": ("rewind", None, None), "fseek": ("rewind", None, None), "fsetpos": ("rewind", None, None),
    "ftell": ("inquire", None, None), "feof": ("inquire", None, None), "ferror": ("inquire", None, None),
    "fgetpos": ("inquire", None, None),
}
# how many leading arguments of the item range are the transferred items (None: all the rest)
_ITEM_COUNT = {"fputs": 1, "fputc": 1, "putc": 1, "fwrite": 1, "perror": 1, "puts": 1, "putchar": 1,
               "fopen": 1, "freopen": 1, "fdopen": 1}
_ONE_TARGET = {"fgets", "gets", "fread"}

STOP_NAMES = frozenset({"exit", "abort", "_Exit", "_exit", "quick_exit", "MPI_Abort"})
MPI_FUNCTIONS = frozenset({"MPI_Wtime", "MPI_Wtick"})  # plain function calls, not messages

# MPI name (without MPI_) → (count argument index, datatype argument index)
_MPI_COUNT = {
    "send": (1, 2), "ssend": (1, 2), "bsend": (1, 2), "rsend": (1, 2), "isend": (1, 2), "issend": (1, 2),
    "recv": (1, 2), "irecv": (1, 2), "bcast": (1, 2), "sendrecv": (1, 2), "sendrecv_replace": (1, 2),
    "reduce": (2, 3), "allreduce": (2, 3), "scan": (2, 3), "exscan": (2, 3), "reduce_scatter": (None, 3),
    "gather": (1, 2), "allgather": (1, 2), "scatter": (1, 2), "alltoall": (1, 2), "gatherv": (1, 2),
    "allgatherv": (1, 2), "scatterv": (None, 3), "alltoallv": (None, 3),
}
MPI_DATATYPES = {
    "MPI_CHAR": "character", "MPI_SIGNED_CHAR": "character", "MPI_UNSIGNED_CHAR": "character",
    "MPI_BYTE": "character", "MPI_CHARACTER": "character", "MPI_PACKED": "character",
    "MPI_SHORT": "integer", "MPI_UNSIGNED_SHORT": "integer", "MPI_INT": "integer", "MPI_UNSIGNED": "integer",
    "MPI_LONG": "integer", "MPI_UNSIGNED_LONG": "integer", "MPI_LONG_LONG": "integer",
    "MPI_LONG_LONG_INT": "integer", "MPI_UNSIGNED_LONG_LONG": "integer", "MPI_INTEGER": "integer",
    "MPI_INT8_T": "integer", "MPI_INT16_T": "integer", "MPI_INT32_T": "integer", "MPI_INT64_T": "integer",
    "MPI_UINT8_T": "integer", "MPI_UINT16_T": "integer", "MPI_UINT32_T": "integer",
    "MPI_UINT64_T": "integer", "MPI_2INT": "integer", "MPI_C_BOOL": "logical", "MPI_LOGICAL": "logical",
    "MPI_FLOAT": "real", "MPI_REAL": "real", "MPI_DOUBLE": "double", "MPI_LONG_DOUBLE": "double",
    "MPI_DOUBLE_PRECISION": "double", "MPI_DOUBLE_INT": "double", "MPI_FLOAT_INT": "real",
    "MPI_C_COMPLEX": "complex", "MPI_C_FLOAT_COMPLEX": "complex", "MPI_C_DOUBLE_COMPLEX": "complex",
    "MPI_C_LONG_DOUBLE_COMPLEX": "complex", "MPI_COMPLEX": "complex", "MPI_DOUBLE_COMPLEX": "complex",
}


def special_kind(name: str) -> str | None:
    """'io', 'stop', 'mpi' or None for an ordinary call."""
    if name in _IO:
        return "io"
    if name in STOP_NAMES:
        return "stop"
    if name.startswith("MPI_") and name not in MPI_FUNCTIONS:
        return "mpi"
    return None


def io_kind(name: str) -> str:
    return _IO[name][0]


def pointee(arg: ir.Expr) -> ir.Expr:
    """What a pointer argument designates: &x → x, a buffer p → *p (ArrayRef(p, [])), else the argument."""
    if isinstance(arg, ir.UnOp) and arg.op == "addr":
        return arg.operand
    ct = ctype_of(arg)
    if isinstance(arg, ir.Var) and ts.is_pointerish(ct):
        return set_ctype(ir.ArrayRef(arg.name, []), _scalar_elem(ct))
    return arg


def _scalar_elem(ct: ts.CType | None) -> ts.CType | None:
    elem = ts.element(ct)
    while isinstance(elem, ts.Array):
        elem = elem.elem
    return elem


def build_io(name: str, args: list[ir.Expr], loc: ir.Loc, result: ir.Expr | None = None) -> ir.IO:
    kind, first_item, first_target = _IO[name]
    items: list[ir.Expr] = []
    targets: list[ir.Expr] = []
    if first_item is not None:
        count = _ITEM_COUNT.get(name)
        chosen = args[first_item:] if count is None else args[first_item:first_item + count]
        items = [pointee(a) if name == "fwrite" else a for a in chosen]
    if first_target is not None:
        chosen = args[first_target:first_target + 1] if name in _ONE_TARGET else args[first_target:]
        targets = [pointee(a) for a in chosen]
    if name in ("sprintf", "vsprintf", "snprintf", "vsnprintf") and args:
        targets.append(pointee(args[0]))
    if name == "sscanf" and args:
        items.append(args[0])
    if result is not None:
        targets.append(result)
    return ir.IO(kind, items=items, targets=targets, loc=loc)


def build_stop(name: str, args: list[ir.Expr], loc: ir.Loc) -> ir.Stop:
    if name == "MPI_Abort":
        code = args[1] if len(args) > 1 else None
    else:
        code = args[0] if args else None
    return ir.Stop(code, loc=loc)


def mpi_datatype(arg: ir.Expr | None) -> str | None:
    if isinstance(arg, ir.Var):
        return MPI_DATATYPES.get(arg.name)
    return None


def build_message(name: str, args: list[ir.Expr], loc: ir.Loc) -> ir.Message:
    kind = name[4:].lower() if name.startswith("MPI_") else name.lower()
    count: ir.Expr | None = None
    datatype: str | None = None
    positions = _MPI_COUNT.get(kind)
    if positions is not None:
        ci, di = positions
        if ci is not None and ci < len(args):
            count = args[ci]
        if di is not None and di < len(args):
            datatype = mpi_datatype(args[di])
    return ir.Message(kind, "MPI", name, list(args), count=count, datatype=datatype, loc=loc)
