"""An And, an Or or a relation's canonical form seen before is the one built then (sad.analysis.logicmemo),
and it is the tree sympy's own construction gives."""
from __future__ import annotations

import sympy
from sympy.core.relational import Relational

import sad.analysis.counting  # noqa: F401  (installs the memo, as every build does)
from sad.analysis import logicmemo

N, NB, NX, LWORK = sympy.symbols("N NB NX LWORK", integer=True)


def _conditions():
    # the conditions of a blocked loop's block-size choices, as a fold over their combinations makes them
    return [sympy.Ge(NB, NX), sympy.Lt(LWORK, N * NB), sympy.Le(-NB + 2, 0), sympy.Gt(N, 128),
            sympy.Eq(NX - N, 0), sympy.Ne(-LWORK, -N)]


def test_an_and_is_built_once():
    conds = _conditions()
    first = sympy.And(*conds[:3]), sympy.Or(conds[3], conds[4])
    before = logicmemo._built.cache_info()
    again = sympy.And(*conds[:3]), sympy.Or(conds[3], conds[4])
    after = logicmemo._built.cache_info()
    assert again == first
    assert after.hits == before.hits + 2 and after.misses == before.misses


def test_the_build_is_sympys_own():
    """Repeated relations dropped, a relation and its negation, short circuits, nested Ands flattened,
    Python booleans (left to sympy) and canonical forms with the signs and sides swapped."""
    c = _conditions()
    cases = [lambda: sympy.And(c[0], c[1], c[0]), lambda: sympy.And(c[0], sympy.Lt(NB, NX)),
             lambda: sympy.Or(c[1], sympy.Ge(LWORK, N * NB)), lambda: sympy.And(c[2], sympy.false, c[3]),
             lambda: sympy.Or(sympy.And(c[0], c[1]), sympy.And(c[3], c[4]), c[5]),
             lambda: sympy.And(True, c[1]), lambda: sympy.And(sympy.And(c[0], c[5]), c[2]),
             lambda: [r.canonical for r in c], lambda: sympy.And(*c)]
    ours = [sympy.srepr(case()) for case in cases]
    sympy.And.__new__ = sympy.Or.__new__ = staticmethod(logicmemo._new)
    Relational.canonical = property(logicmemo._canonical)
    try:
        theirs = [sympy.srepr(case()) for case in cases]
    finally:
        del sympy.And.__new__, sympy.Or.__new__
        logicmemo.install()
    assert ours == theirs
    assert ours[1] == "false"
    assert ours[7] == sympy.srepr([NB >= NX, LWORK < N * NB, NB - 2 >= 0, N > 128, sympy.Eq(N - NX, 0),
                                   sympy.Ne(LWORK, N)])


def test_a_canonical_form_is_found_once():
    relation = sympy.Le(-NB + 2, -NX)
    first = relation.canonical
    before = logicmemo._canonical_of.cache_info()
    assert relation.canonical is first
    assert logicmemo._canonical_of.cache_info().hits == before.hits + 1
