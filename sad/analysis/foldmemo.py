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

While it runs, the Quine-McCluskey step of its conjunctive form (sympy's `_simplified_pairs`, which merges
the truth table's rows that differ in one variable) is done by `paired_terms`, which gives the same terms
in the same order by looking each row's partners up instead of comparing every pair of rows: a condition
of CGEMLQT's blocked loop over 9-10 tests took 0.6 s, 60 % of it comparing pairs (24 of the 187 CPU s of
the LAPACK sample's `sad check`, about 5 %, were spent there).

And while a relation is simplified here, a difference that is a nonzero number at one point of its symbols'
domains is answered "not 0" at once (`_decided_equals`), where sympy's Expr.equals simplifies it and
substitutes random points first: the relation sympy gives is the same.
"""
from __future__ import annotations

import importlib
from functools import lru_cache

import sympy.functions.elementary.piecewise as _piecewise
import sympy.logic.boolalg as _boolalg
from sympy.core.expr import Expr
from sympy.core.numbers import Integer
from sympy.core.relational import Relational
from sympy.core.symbol import Symbol

from sad.analysis.products import larger_than

_simplify_logic = _piecewise.simplify_logic
# the module, not the function sympy.simplify exports under the same name: simplify_logic imports
# `simplify` from it when it runs
_simplify_module = importlib.import_module("sympy.simplify.simplify")
_simplify = _simplify_module.simplify
_sympy_pairs = _boolalg._simplified_pairs
_equals = Expr.equals


@lru_cache(maxsize=4096)
def simplify_logic(expr, form=None, deep=True, force=False, dontcare=None):
    """sympy.simplify_logic(expr, ...), once per process for each condition and form, with the relations it
    simplifies remembered across conditions (see the module docstring)."""
    _simplify_module.simplify = _remembered_simplify
    _boolalg._simplified_pairs = paired_terms
    try:
        return _simplify_logic(expr, form=form, deep=deep, force=force, dontcare=dontcare)
    finally:
        _simplify_module.simplify = _simplify
        _boolalg._simplified_pairs = _sympy_pairs


def paired_terms(terms: list[list[int]]) -> list[list[int]]:
    """sympy's `_simplified_pairs(terms)`, the same list: rows of 0, 1 and 3 (either) over the variables;
    every two rows that differ in one place, the second with one 1 more, merged into a row with a 3 there
    (each new row once, in the order sympy finds them: the first row by its count of ones and place, then
    the second by place), merged again the same way, followed by the rows never merged.

    sympy compares every row with every row holding one 1 more: quadratic in the rows, 0.8 s for 450 rows
    of 9 variables. Here each row's possible partners (a 0 or a 3 of it made a 1) are looked up by the
    row's bits, linear in the rows. Rows holding anything else are left to sympy."""
    if not terms:
        return []
    found = [_bits(term) for term in terms]
    bits = [key for key in found if key is not None]
    if len(bits) < len(terms):
        return _sympy_pairs(terms)
    rows_of: dict[tuple[int, int], list[int]] = {}
    for j, key in enumerate(bits):
        rows_of.setdefault(key, []).append(j)
    merged: list[list[int]] = []
    seen: set[tuple[int, ...]] = set()
    unmerged: list[int | None] = list(range(len(terms)))
    for i in sorted(range(len(terms)), key=lambda i: (bits[i][0].bit_count(), i)):
        ones, either = bits[i]
        partners = sorted((j, place) for place in range(len(terms[i])) if not ones >> place & 1
                          for j in rows_of.get((ones | 1 << place, either & ~(1 << place)), ()))
        for j, place in partners:
            unmerged[i] = unmerged[j] = None
            row = terms[i][:]
            row[place] = 3
            if tuple(row) not in seen:
                seen.add(tuple(row))
                merged.append(row)
    if merged:
        merged = paired_terms(merged)
    return merged + [terms[i] for i in unmerged if i is not None]


def _bits(term: list[int]) -> tuple[int, int] | None:
    """A row as (its places holding 1, its places holding 3) as bits; None for any other value."""
    ones = either = 0
    for place, value in enumerate(term):
        if value == 1:
            ones |= 1 << place
        elif value == 3:
            either |= 1 << place
        elif value != 0:
            return None
    return ones, either


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
    previous, Expr.equals = Expr.equals, _decided_equals
    try:
        return _simplify(expr, **dict(keywords))
    except ValueError:
        # Relational._eval_simplify tests the sides' difference with Expr.equals, which puts 0 for every
        # symbol: a floor((K - 1)/MB) in a Max becomes nan there, which Max refuses ("not comparable"), and
        # the whole sum failed (DGEMLQT's backward blocked loop DO I = KF, 1, -MB). Left unsimplified, the
        # condition is the same one.
        return expr
    finally:
        Expr.equals = previous


# Values put for the symbols of a difference, in order of their names: primes, so that two symbols' terms
# rarely cancel (M - N is 7 - 11); past the last, the difference is left to sympy.
_POINT = (7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83)


def _decided_equals(self, other, failing_expression=False):
    """Expr.equals while sympy.simplify runs here, with one shortcut: a difference compared with 0 that is a
    nonzero number at one point of its symbols' domains is not identically 0, and is answered False at once.

    sympy answers it after simplifying the difference and substituting random complex points (is_constant):
    0.1-0.3 s for a relation between MIN and MAX terms (CGEMLQT's `LDC < Max(1, M - MB*k - Min(MB, K -
    MB*k))`), 18 of the LAPACK sample's 550 profiled CPU s, to learn it is not 0. Relational._eval_simplify,
    the caller here, acts only on True (the relation is then decided), so False for sympy's None changes
    nothing there; and False is the truth wherever the point lies in the domain, which is checked against
    every assumption of every symbol. Anything else is sympy's own answer."""
    if other == 0 and _nonzero_somewhere(self):
        return False
    return _equals(self, other, failing_expression)


def _nonzero_somewhere(expr: Expr) -> bool:
    symbols = sorted(expr.free_symbols, key=lambda s: (str(s), s.sort_key()))
    if len(symbols) > len(_POINT) or not all(isinstance(s, Symbol) for s in symbols):
        return False
    point = {s: Integer(v) for s, v in zip(symbols, _POINT)}
    if not all(getattr(point[s], f"is_{name}") == holds for s in symbols for name, holds in s.assumptions0.items()):
        return False  # a symbol whose domain excludes the value put for it (negative, even, ...)
    try:
        value = expr.xreplace(point)
    except (ArithmeticError, ValueError, TypeError, NotImplementedError):
        return False  # a Mod by 0 or the like at that point (DGELQ's blocks, Mod(K, MB - 7)): sympy's answer
    return bool(value.is_Number and value.is_finite and not value.is_zero)


def install() -> None:
    """Let piecewise_fold use the remembered simplify_logic (idempotent)."""
    _piecewise.simplify_logic = simplify_logic

