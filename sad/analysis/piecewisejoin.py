"""Pieces of a Piecewise with the same value joined by Or, as built, with the disjuncts that others imply
left out, instead of sympy's conjunctive normal form of the Or.

Data flow: installed by sad.analysis.counting next to the Piecewise memo (sad.analysis.piecewisememo). A
product of indicators, which every count under two tests is, folds (sympy's piecewise_fold) into one piece
per combination of their conditions, and the pieces with the same value (the many zeros) are joined by
Piecewise.__new__ (_piecewise_collapse_arguments) into Or(c_new, c_before), which sympy rewrites at once as an
And of Ors (distribute_and_over_or). That rewrite multiplies the clauses: with a library's option tests
nested under a callee's own tests (CGEMLQT's LSAME tests over CLARFB's), it made 226 of the 280 profiled
seconds of CGEMLQT's closure. Kept as built, the Or instead grows by the repeats a product of conditions
makes, X | (Y & X): DGEQR2's counts bound at DGEQRF's call came out 44 854 nodes instead of 31 273, which
took DGEQRF past its budget of callee counts (sad.analysis.calls.EXPANSION_BUDGET), so its last DGEQR2
was deferred and never expanded.

Absorption removes exactly those repeats: a disjunct is left out where the others imply it, that is, where
one of its conjuncts is another disjunct (X | (Y & X) is X), is an Or of other disjuncts, or where another
disjunct's conjuncts are a subset of its own ((Y & X) | (Y & X & Z) is Y & X). Each removal keeps the Or
equal to what it was (the disjunct removed implies the ones kept), so a condition is the same Boolean
function as sympy's, in another form: every count has the same value at every point.
"""
from __future__ import annotations

from sympy import And, Or
from sympy.logic.boolalg import Boolean


def _implied(disjunct: Boolean, others: list[Boolean]) -> bool:
    """Whether the Or of `others` holds wherever `disjunct` does, by the structure of the terms alone."""
    rest = set(others)
    conjuncts = set(disjunct.args) if isinstance(disjunct, And) else {disjunct}
    for c in conjuncts:
        if c in rest or (isinstance(c, Or) and rest.issuperset(c.args)):
            return True
    return any(isinstance(o, And) and conjuncts.issuperset(o.args) for o in others)


def absorbed(cond: Boolean) -> Boolean:
    """An Or with each disjunct that the remaining ones imply left out, one at a time in sympy's order of
    the arguments (so the result is determined by the Or alone); anything else as it is."""
    if not isinstance(cond, Or):
        return cond
    kept = list(cond.args)
    for disjunct in cond.args:
        others = [d for d in kept if d is not disjunct]
        if _implied(disjunct, others):
            kept = others
    return cond if len(kept) == len(cond.args) else Or(*kept)


def install() -> None:
    """Let sympy's Piecewise join its same-valued pieces by `absorbed` (idempotent)."""
    import sympy.functions.elementary.piecewise as piecewise
    piecewise.distribute_and_over_or = absorbed  # its one use: the join in _piecewise_collapse_arguments
