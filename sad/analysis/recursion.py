"""Recursion unrolled on known arguments: a recursive routine called with sizes the caller knows runs a
finite tree of activations, each of which is counted exactly, as a call to any other routine is.

Data flow: the pipeline (sad.analysis.pipeline) builds every routine of a cycle of calls twice. The first
build is the one callers fall back to: the routine's counts per activation with its tests on formals as
probabilities, and `X_<routine>_CALLS` activations per call from outside the cycle. The second, *activation*
build treats the formals as the activation's argument values, like any routine's. In both the activation
build and its callers (sad.analysis.calls), a call into the cycle is an event of no cost (role "recurse")
whose count is written with the marker `Activations(tag, a1, ..., an)`: the call starts an activation of
the routine `tag` names with its formals bound to a1 ... an, formulas in the caller's symbols. Counts are
linear in the markers, so they ride through loops and sums as any count does (a call in `DO J = 1, N, NB`
with the argument `N - J + 1` is a Sum of markers in J) and are bound with the caller's values at each call.
Once every marker's arguments are numbers, `unroll` walks the tree of activations: each activation's
counts bound to its arguments (by the call expander, as for an ordinary call), its own recursion events
replaced by the activations they start. LAPACK's DGETRF2 (`N1 = MIN(M, N)/2`, then itself on N1 and on
N - N1 columns) factors a 150 x 150 matrix in DGETRF's three panels in 297 activations, every line's count
equal to gcov's.

The same markers carry a call of a routine that is not recursive but too large, or undefined, to take in
with symbolic arguments (DTRTRI and DLAUUM in DPOTRI's build): sad.analysis.calls defers it, and the caller
that binds its arguments to numbers expands one "activation" from the routine's ordinary build, as for a call
into recursion.

Where an argument never becomes a number (a size only a run can tell, library mode), a count of calls
depends on data, or the tree has more than ACTIVATION_LIMIT activations, the call keeps the named
activation count X_<routine>_CALLS of the first build, with a note saying why.
"""
from __future__ import annotations

from collections.abc import Callable

import sympy
from sympy.core.function import AppliedUndef
from sympy.logic.boolalg import BooleanAtom

from sad.analysis.description import Event

# Activations(tag, *arguments): calls that start an activation of the recursive routine `tag` names. An
# undefined function: sympy keeps it as it is (its is_number is False, so no code takes it for a value).
ACTIVATIONS = sympy.Function("Activations")

# A formal's value that a call does not pass in a form sad can trace (an output argument, an array): the
# activation is unrolled without it, and only while its counts do not depend on that formal.
UNTRACED = sympy.Symbol("UNTRACED_ARGUMENT")

# Activations one call may unroll into. Each costs one binding of the routine's counts (milliseconds for
# DGETRF2 with DTRSM, DGEMM and DLASWP expanded); DGETRF2 on an N x N matrix takes 2N - 1.
ACTIVATION_LIMIT = 4096

Counts = list[tuple[Event, sympy.Expr]]
Start = tuple[int, tuple[sympy.Expr, ...], sympy.Expr]  # (tag, arguments, how many such calls)
Stuck = Callable[[Event, sympy.Expr, str], Counts]  # a call that cannot be unrolled → the events standing for it


class NotUnrolled(Exception):
    """The tree of activations cannot be walked: the message says why."""


def known(value: sympy.Basic) -> bool:
    """Whether a value passed to a call is known: a number, or a LOGICAL constant (DLAQZ3 passes
    `.TRUE.` to DTGEXC; sympy's true is no number, and the call was never unrolled)."""
    return value.is_number or isinstance(value, BooleanAtom)


def marker(tag: int, values: list[sympy.Expr]) -> sympy.Expr:
    """One call that starts an activation of routine `tag` with its formals bound to `values`."""
    return ACTIVATIONS(sympy.Integer(tag), *values)


def markers(count: sympy.Expr) -> list[sympy.Expr]:
    """The markers in a count, in a fixed order."""
    found = [a for a in count.atoms(AppliedUndef) if a.func == ACTIVATIONS]
    return sorted(found, key=sympy.default_sort_key)


def starts(count: sympy.Expr) -> list[Start] | None:
    """The activations a count of recursion events starts, (tag, arguments, times) for each distinct
    marker; None while an argument is not a number yet."""
    found = markers(count)
    if any(not all(known(a) or a == UNTRACED for a in m.args) for m in found):
        return None
    return [(int(m.args[0]), tuple(m.args[1:]), count.xreplace({n: sympy.Integer(n == m) for n in found}))
            for m in found]


def calls_per_tag(count: sympy.Expr) -> dict[int, sympy.Expr]:
    """How many calls into each recursive routine a count of recursion events stands for, whatever their
    arguments (for the activation counts of a call that is not unrolled)."""
    found = markers(count)
    tags = sorted({int(m.args[0]) for m in found})
    return {t: count.xreplace({m: sympy.Integer(int(m.args[0]) == t) for m in found}) for t in tags}


def tags_in(count: sympy.Expr) -> list[int]:
    """The tags of the markers in a count."""
    return [int(m.args[0]) for m in markers(count)] if count.has(ACTIVATIONS) else []


def retagged(count: sympy.Expr, tags: dict[int, int]) -> sympy.Expr:
    """A count with the tags of its markers renumbered (a routine's summary taken into another program)."""
    found = {m: ACTIVATIONS(sympy.Integer(tags[int(m.args[0])]), *m.args[1:]) for m in markers(count)}
    return count.xreplace(found) if found else count


def unroll(first: list[Start], counts_of: Callable[[int, tuple], Counts],
           limit: int = ACTIVATION_LIMIT, stuck: Stuck | None = None) -> dict[Event, sympy.Expr]:
    """Every event's count over the trees of activations that the calls `first` start.
    `counts_of(tag, arguments)` gives one activation's counts bound to its arguments. A call whose
    arguments are not all known where it stands is given to `stuck` (the event, its count times the
    activation's, why), whose events stand for it (DGESVD's call of DORGBR passes a LWORK not known there, and
    DORGBR passes it on to DORGLQ: that one call priced per call, not the whole of DGESVD); without
    `stuck` the unrolling stops there."""
    totals: dict[Event, sympy.Expr] = {}
    pending = list(reversed(first))
    activations = 0
    while pending:
        tag, args, times = pending.pop()
        activations += 1
        if activations > limit:
            raise NotUnrolled(f"more than {limit} activations")
        for event, count in counts_of(tag, args):
            if event.role != "recurse":
                _add(totals, event, times * count)
                continue
            more = starts(count)
            if more is None:
                why = f"the call at {event.loc.file}:{event.loc.line} passes values that are not known there " \
                      f"({_symbols(count)})"
                if stuck is None:
                    raise NotUnrolled(why)
                for standing, n in stuck(event, times * count, why):
                    _add(totals, standing, n)
                continue
            pending.extend((t, a, times * n) for t, a, n in reversed(more) if n != 0)
    return totals


def _add(totals: dict[Event, sympy.Expr], event: Event, n: sympy.Expr) -> None:
    """Count `n` more of `event` (first seen: `n` itself, so that a lone count stays as it was built)."""
    known = totals.get(event)
    totals[event] = n if known is None else known + n


def passed(count: sympy.Expr) -> list[str]:
    """The names of the values the calls in `count` pass that are no numbers yet (not a sum's own index)."""
    indices = {limit[0] for total in count.atoms(sympy.Sum) for limit in total.limits}
    return sorted({s.name for m in markers(count) for a in m.args[1:] for s in a.free_symbols
                   if s != UNTRACED and s not in indices})


def _symbols(count: sympy.Expr) -> str:
    return ", ".join(passed(count)) or "values only a run can tell"
