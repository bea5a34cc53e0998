"""A test of data decided with the constants the program may have stored where it reads, as the question a
routine's summary carries: the test's outcome, not the constants.

Data flow: the value backtracer (sad.analysis.values) decides a comparison of untraced floating-point data
for generic data (sad.analysis.genericdata), then once more with the constants the program may have stored
where each side reads (sad.analysis.storedconstants). What the build takes from those constants is the
outcome alone, so that is what it notes in the journal (sad.analysis.journal), and what a later program is
asked again (ProgramFacts.asked_again, through `outcome`) before it takes the summary in (sad.analysis.summaries).

A call passes a callee's floating formal the same choice where the actual reads such storage (DORM2R's
TAU(I) for DLARF's TAU): the callee's tests on that formal are decided in the caller's build, and noted
alike, by relation (`formal_outcome`).

STRMV's `X(JX).NE.ZERO` is open whether its callers may store {0} or {0, 1, -1} in X. Noting the constants
themselves tied each routine's summary to its callers' exact sets, which grow with the program: in SGEEVX's
unit 23 of the routines it reaches were built again though built before, 20 of its 27 s.
"""
from __future__ import annotations

from collections.abc import Callable

import sympy

from sad.analysis import genericdata

QUESTION = "stored test"
FORMAL_QUESTION = "stored formal test"

# One comparison: its operator, each side as (the storage it reads, None for none; its value as data), the
# floating-point kind it compares in
Side = tuple[str | None, sympy.Expr]
Relation = tuple[str, tuple[Side, Side], str]
ConstantsOf = Callable[[str], frozenset]


def held(side: Side, constants_of: ConstantsOf) -> sympy.Expr:
    """A side's value with its datum a choice of data and the constants its storage may hold (unchanged
    where it reads no storage or is more than one datum: genericdata.plain_datum)."""
    name, value = side
    if name is None or not genericdata.plain_datum(value):
        return value
    return genericdata.with_constants(value, constants_of(name))


def held_relations(relations: tuple[Relation, ...], constants_of: ConstantsOf
                   ) -> list[tuple[str, sympy.Expr, sympy.Expr, str]]:
    """The comparisons with each side held (`held`), as genericdata takes them."""
    return [(op, held(left, constants_of), held(right, constants_of), kind)
            for op, (left, right), kind in relations]


def outcome(join: str | None, relations: tuple[Relation, ...], constants_of: ConstantsOf) -> sympy.Basic | None:
    """The test's outcome for generic data and the stored constants: one comparison (`join` None) or two
    joined by `join` (and, or); None where it stays open."""
    compared = held_relations(relations, constants_of)
    if join is None:
        op, left, right, kind = compared[0]
        return genericdata.decide(op, left, right, kind)
    return genericdata.decide_jointly(join, compared)


# A formal's mark at a call: ("stored", the caller's storage name) for data or the constants stored there,
# ("value", what it stands for) otherwise
Mark = tuple[str, object]


def formal_outcome(rel: sympy.Basic, data: tuple[tuple[sympy.Symbol, str], ...],
                   marks: tuple[tuple[sympy.Symbol, Mark], ...], constants_of: ConstantsOf) -> sympy.Basic | None:
    """A callee's relation on its floating formals (`data`: symbol, kind) decided for generic data at a
    call, each formal standing for what `marks` says: a stored mark as the data or the constants
    `constants_of` gives its storage."""
    stands = {symbol: genericdata.with_constants(genericdata.formal_datum(symbol.name), constants_of(str(what)))
              if how == "stored" else what for symbol, (how, what) in marks}
    return genericdata.decide_relation(rel, dict(data), stands)
