"""Message-passing calls (MPI_*, PVM pvmf*) to `ir.Message` statements.

Data flow: frontends.fortran.stmts asks `message_for` about every CALL after its arguments are converted; a
recognised library routine becomes a Message (primitive, count, datatype, partner, communicator: the argument
positions of `sad.ir.msgcalls`, shared with the C frontend) that the mapper prices with the machine's
programming-model level.
"""
from __future__ import annotations

from sad.ir import Expr, Loc, Message
from sad.ir.msgcalls import build_message


def message_for(name: str, args: list[Expr], loc: Loc, label: str | None) -> Message | None:
    """A Message for CALL name(args) when name is an MPI or PVM routine, else None."""
    return build_message(name, args, loc, "fortran", label)
