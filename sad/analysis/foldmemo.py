"""sympy's Piecewise folding with each condition's simplification done once per process.

Data flow: imported by sad.analysis.counting, which builds the open sums (sympy.Sum) of a loop body over its
index; building a Sum folds the Piecewise of its summand (sympy's piecewise_fold), and folding turns each
condition that holds a Piecewise (an if-then-else, ITE) into conjunctive normal form with
sympy.simplify_logic, which simplifies every relation in it (Relational.equals: cancel, factor_terms) each
time. The same few conditions come back for every sum of a routine and for every call of a callee: in
DGEHD2's build 213 simplifications of 16 distinct conditions were 90 % of the file's time (the generic-data
tests of DLARF's callees, ILADLR/ILADLC, in the bounds of its loop over I).

simplify_logic is a function of its arguments alone (expressions are immutable; the answer is built from
the expression, not from the process's history), so remembering its answer gives the same fold, tree for
tree, as asking again. Only piecewise_fold's own use of it is replaced (the only one in sympy's piecewise
module); nothing else in sympy changes.
"""
from __future__ import annotations

import importlib
from functools import lru_cache

import sympy.functions.elementary.piecewise as _piecewise
from sympy.core.relational import Relational

from sad.analysis.products import larger_than

_simplify_logic = _piecewise.simplify_logic
# the module, not the function sympy.simplify exports under the same name: simplify_logic imports
# `simplify` from it when it runs
_simplify_module = importlib.import_module("sympy.simplify.simplify")
_simplify = _simplify_module.simplify


@lru_cache(maxsize=4096)
def simplify_logic(expr, form=None, deep=True, force=False, dontcare=None):
    """sympy.simplify_logic(expr, ...), once per process for each condition and form, with the relations it
    simplifies remembered across conditions (see the module docstring)."""
    _simplify_module.simplify = _remembered_simplify
    try:
        return _simplify_logic(expr, form=form, deep=deep, force=force, dontcare=dontcare)
    finally:
        _simplify_module.simplify = _simplify


def _remembered_simplify(expr, *args, **kwargs):
    """sympy.simplify(expr, ...), once per process for each expression and keywords, for small expressions
    (see _worth_simplifying); a large one is returned as it is, which is what simplify returns for it
    nearly always, after seconds."""
    if args:
        return _simplify(expr, *args, **kwargs)
    if not _worth_simplifying(expr):
        return _smaller_relation(expr, kwargs)
    return _once(expr, kwargs)


def _once(expr, kwargs: dict):
    try:
        return _simplified(expr, tuple(sorted(kwargs.items())))
    except TypeError:  # a keyword's value that cannot be hashed (a measure given as a list)
        return _simplify(expr, **kwargs)


# Beyond this many nodes sympy.simplify of a term is left out. Measured on Reference LAPACK's SORMHR and
# SORMQR (a blocked loop's bounds in MIN(64, ILAENV(...)), floor and Max): 317 simplifications took 113 s,
# most of it in Relational._eval_simplify's Expr.equals (random complex points substituted into the
# MIN/ILAENV terms, each a new Min to build), and changed 8 expressions: two relations whose sides differ
# by a small term (A > A - k → k > 0, kept by _smaller_relation) and six signs written the other way.
_SIMPLIFY_NODES = 20


def _worth_simplifying(expr) -> bool:
    return not larger_than(expr, _SIMPLIFY_NODES)


def _smaller_relation(expr, kwargs: dict):
    """A large relation whose two sides differ by a small expression (MIN(...) > MIN(...) - K, a loop's
    bound against itself shifted): simplified as the relation of that difference with 0, which is what
    sympy.simplify finds for it after simplifying both sides; anything else as it is."""
    if not isinstance(expr, Relational):
        return expr
    difference = expr.lhs - expr.rhs
    if larger_than(difference, _SIMPLIFY_NODES):
        return expr
    # not through _remembered_simplify: the relation may be a node or two over the limit its difference is
    # under, and would come back here
    return _once(expr.func(difference, 0), kwargs)


@lru_cache(maxsize=16384)
def _simplified(expr, keywords: tuple):
    try:
        return _simplify(expr, **dict(keywords))
    except ValueError:
        # Relational._eval_simplify tests the sides' difference with Expr.equals, which puts 0 for every
        # symbol: a floor((K - 1)/MB) in a Max becomes nan there, which Max refuses ("not comparable"), and
        # the whole sum failed (DGEMLQT's backward blocked loop DO I = KF, 1, -MB). Left unsimplified, the
        # condition is the same one.
        return expr


def install() -> None:
    """Let piecewise_fold use the remembered simplify_logic (idempotent)."""
    _piecewise.simplify_logic = simplify_logic

