"""Calls of the C run-time library that scientific code makes (malloc, free, memcpy, qsort, ...): priced by
the machine database, not left as unknown call costs.

Data flow: the call expander (sad.analysis.calls) asks `expand` about every call of a routine not among the
analyzed files; for a library routine listed here it adds, at the call site, a `library` event per call
(op key ``lib.<name>``) and, when the work grows with an argument, a second event counted that many times
(``lib.<name>.<unit>``: bytes copied or set, n·log2(n) of a sort's n elements). The machine prices the keys
(sad.machine.model: ``processor.library``; ``sad calibrate`` measures them on the host, see
sad.machine.libbench); a machine without a figure leaves the key unpriced, which the mapper names as an
unpriced call (sad.predict.mapper). libm's functions (sqrt, exp, pow, fabs, ...) are intrinsics, priced by
``processor.intrinsics`` (frontends.c.mathlib).

The events are of their own role `library`: not statements, so line counts (what gcov measures) do not see
them, and their own blocks, so that a loop priced from its compiled code (sad.predict.loopcost) keeps them.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import sympy

from sad import ir
from sad.analysis.description import Event


@dataclass(frozen=True)
class LibraryRoutine:
    """How the work of one library routine grows: per call, and per `unit` of the amount its arguments give."""
    unit: str | None = None      # byte | nlogn | None (a fixed cost per call)
    args: tuple[int, ...] = ()   # the arguments whose product is the amount (bytes) or n (elements)
    writes: tuple[int, ...] = ()  # the arguments whose storage it writes (pointers); the others it only reads

    def amount(self, values: list[sympy.Expr]) -> sympy.Expr:
        """The number of units one call does, from the values of `args`."""
        product = sympy.Mul(*values)
        if self.unit == "nlogn":  # a sort's comparisons grow as n log2 n (0 for n <= 1)
            return product * sympy.log(sympy.Max(product, 1)) / sympy.log(2)
        return product


# C names (case-sensitive, called from C). The per-byte cost of calloc is glibc's clearing of a block it
# does not get zeroed from the kernel; realloc is priced per call only (whether it moves the block, and
# copies it, depends on the heap).
ROUTINES: dict[str, LibraryRoutine] = {
    "malloc": LibraryRoutine(),
    "free": LibraryRoutine(writes=(0,)),
    "realloc": LibraryRoutine(writes=(0,)),
    "calloc": LibraryRoutine("byte", (0, 1)),
    "memcpy": LibraryRoutine("byte", (2,), (0,)),
    "memmove": LibraryRoutine("byte", (2,), (0,)),
    "memset": LibraryRoutine("byte", (2,), (0,)),
    "qsort": LibraryRoutine("nlogn", (1,), (0,)),
}


def routine(name: str, language: str) -> LibraryRoutine | None:
    """The library routine a call by this name from code in this language is, or None."""
    return ROUTINES.get(name) if language == "c" else None


def call_key(name: str) -> str:
    """The op key of one call of a library routine: 'lib.memcpy'."""
    return f"lib.{name}"


def amount_key(name: str, unit: str) -> str:
    """The op key of one unit of a library routine's work: 'lib.memcpy.byte'."""
    return f"lib.{name}.{unit}"


def events(name: str, spec: LibraryRoutine, values: list[sympy.Expr] | None, site: Event, seq
           ) -> list[tuple[Event, sympy.Expr]]:
    """The library events of one call at `site` and their counts per execution of the call; None for
    `values` when the amount cannot be known (the caller names the call's cost instead). `seq` gives the
    next event number of the build."""
    out = [(_event(site, call_key(name), name, seq()), sympy.Integer(1))]
    if spec.unit is not None and values is not None:
        out.append((_event(site, amount_key(name, spec.unit), name, seq()), spec.amount(values)))
    return out


def _event(site: Event, key: str, name: str, seq: int) -> Event:
    return Event(site.procedure, site.loc, "library", Counter({key: 1}), site.region, seq, False,
                 last_line=site.loc.line, text=name)


def expand(expander, name: str, args: list[ir.Expr], index: dict, local, site: Event, at: ir.Stmt | None
           ) -> bool:
    """Add the library events of a call of `name` by the procedure `expander` (sad.analysis.calls.CallExpander)
    builds; False when `name` is no library routine here, or the amount its arguments give is not known (the
    call then stays a named call cost)."""
    spec = routine(name, expander.proc.language)
    if spec is None:
        return False

    def value(arg: ir.Expr) -> sympy.Expr | None:
        found = expander.values.expr(arg, index) if at is None else expander.values.argument(arg, at, index)
        return None if found is None or found.is_Boolean else found

    values = argument_values(spec, args, value)
    if spec.unit is not None and values is None:
        return False
    for event, count in events(name, spec, values, site, expander.ctx.next_seq):
        local.add(event, count)
    return True


def is_library_key(key: str) -> bool:
    """True for the op key of a library routine's call or work."""
    return key.startswith("lib.")


def argument_values(spec: LibraryRoutine, args: list[ir.Expr], value) -> list[sympy.Expr] | None:
    """The values of the arguments the amount depends on (`value(arg)` gives one or None), or None when one
    is not known or the call passes too few arguments."""
    if any(pos >= len(args) for pos in spec.args):
        return None
    found = [value(args[pos]) for pos in spec.args]
    return None if any(v is None for v in found) else found
