"""The vocabulary of atomic operations: the keys of a cost vector S[block] and of a machine's processor level.

Data flow: the cost counter (sad.analysis.cost) emits these keys with counts; the machine database (sad.machine.model)
prices them; the mapper multiplies. Nothing else needs to agree on names, so they are defined once here.

Keys:
    <op>.<type>          op in ARITH_KEYS, type in DATA_TYPES           e.g. "mul.double", "assign.integer"
    logical              one .AND./.OR./.NOT./.EQV. (C && and || are branches, ! is logical)
    bitop                C & | ^ << >> ~
    intrinsic.<NAME>.<type>   intrinsic function by Fortran generic name and argument type  "intrinsic.SQRT.double"
    index                address arithmetic of one subscript of an array reference
    load.<type> / store.<type>   a memory reference to an array element (or through a pointer) that is
                         unit-stride or invariant in the innermost loop
    load_strided.<type> / store_strided.<type>   one that jumps through memory as the innermost loop
                         advances (the index in a slower dimension, or a non-unit step)
    loop_start           entering a counted loop (once per entry)
    loop_iter            one iteration of any loop (increment, test, jump)
    branch               one conditional branch decision (IF, arithmetic IF, computed GOTO, &&, ||, ?:)
    select               a conditional move: a side-effect-free ?: or a MIN/MAX-like IF (both values
                         computed, one kept, no branch); priced as a branch where the machine has no figure
    goto                 an unconditional jump
    call                 a call and its return (argument passing included)
    io.<kind>            one I/O statement (read, write, print, open, ...)
    io_item              one item transferred by an I/O statement
    msg.<kind>           one message-passing primitive (send, recv, bcast, ...)
    lib.<name>           one call of a C library routine (malloc, memcpy, qsort: sad.analysis.libcalls)
    lib.<name>.<unit>    one unit of its work: byte (memcpy, memset, calloc), nlogn (qsort: n·log2 n of n)
"""
from __future__ import annotations

DATA_TYPES = ("integer", "real", "double", "complex", "logical", "character")
ARITH_KEYS = ("add", "sub", "mul", "div", "pow", "mod", "neg", "assign", "compare", "convert")
CONTROL_KEYS = ("loop_start", "loop_iter", "branch", "select", "goto", "call")
MEMORY_KEYS = ("load", "store", "load_strided", "store_strided")


def data_type(ir_type: str) -> str:
    """Map an IR type onto the data types a machine database prices (pointers cost as integers)."""
    if ir_type in DATA_TYPES:
        return ir_type
    if ir_type == "pointer":
        return "integer"
    return "real" if ir_type == "unknown" else "integer"


def arith(op: str, ir_type: str) -> str:
    """The op key of an arithmetic operation on a type: 'add.double'."""
    return f"{op}.{data_type(ir_type)}"


def intrinsic(name: str, ir_type: str) -> str:
    """The op key of an intrinsic function on a type: 'intrinsic.SQRT.double'."""
    return f"intrinsic.{name.upper()}.{data_type(ir_type)}"


def memory(kind: str, ir_type: str) -> str:
    """The op key of a memory reference of a kind on a type: 'load.double'."""
    return f"{kind}.{data_type(ir_type)}"


def split(key: str) -> list[str]:
    """'intrinsic.SQRT.double' → ['intrinsic', 'SQRT', 'double']."""
    return key.split(".")
