"""C library calls that are not ordinary calls in the IR: stdio → IO, exit/abort → Stop, MPI_* → Message.

Data flow: `exprs` and `stmts` lower a call's arguments and then ask `special_kind(name)`; for a hit they
build the statement here. Only calls by name to functions the user did not define themselves are special.

Conventions:
- IO kinds: printf/puts/putchar/vprintf → "print"; fprintf/fputs/fputc/putc/fwrite/sprintf/snprintf/perror
  → "write"; scanf/fscanf/sscanf/getchar/getc/fgetc/fgets/gets/fread → "read"; fopen/freopen/fdopen →
  "open"; fclose → "close"; rewind/fseek/fsetpos → "rewind"; ftell/feof/ferror/fgetpos → "inquire";
  fflush → "flush". Format strings and streams are not items; for reads `targets` are what input assigns
  (`&x` → x, a buffer `buf` → *buf); a statement `v = getchar()` adds v to the targets.
- Messages: MPI_* and pvm_* calls (sad.ir.msgcalls gives the primitive and the argument positions shared
  with Fortran: MPI_Allreduce → "allreduce", MPI_Sendrecv_replace → "sendrecv"); datatype as an IR type
  ("double" for MPI_DOUBLE, "character" for MPI_CHAR/MPI_BYTE). MPI_Wtime/MPI_Wtick stay function calls;
  MPI_Abort is a Stop. `x = pvm_gsize(g)` keeps x as the Message's result.
"""
from __future__ import annotations

from sad import ir
from sad.ir import msgcalls

from . import typesys as ts
from .context import ctype_of, set_ctype

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

def special_kind(name: str) -> str | None:
    """'io', 'stop', 'mpi' or None for an ordinary call."""
    if name in _IO:
        return "io"
    if name in STOP_NAMES:
        return "stop"
    if name.startswith("MPI_") and name not in MPI_FUNCTIONS:
        return "mpi"
    if name.startswith("pvm_") and msgcalls.pvm_spec(name) is not None:
        return "mpi"
    return None


def io_kind(name: str) -> str:
    """The IR I/O kind (read, write, print, ...) of a C library I/O function."""
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
    """The IR I/O statement for a call of a C library I/O function."""
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
    """The IR STOP for exit(), abort() or MPI_Abort(), with its exit code when given."""
    if name == "MPI_Abort":
        code = args[1] if len(args) > 1 else None
    else:
        code = args[0] if args else None
    return ir.Stop(code, loc=loc)


def returns_value(name: str) -> bool:
    """A message-passing function whose return value is data (a PVM group size, instance, task count)."""
    spec = msgcalls.pvm_spec(name)
    return spec is not None and spec.out == -1


def build_message(name: str, args: list[ir.Expr], loc: ir.Loc, result: ir.Expr | None = None) -> ir.Message:
    """The Message for an MPI or PVM call (`result`: where the call's value goes, for pvm_gsize and kin)."""
    msg = msgcalls.build_message(name, list(args), loc, "c", result=result)
    assert msg is not None  # special_kind said "mpi"
    return msg
