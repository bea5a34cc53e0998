"""The order in which sympy's printers write the terms of a sum, found without sympy's evalf.

Data flow: used by the report's printer (sad.predict.report) for every sum it prints. sympy orders the terms
of an Add (`Expr.as_ordered_terms`) by their monomials in the sorted generators, then by coefficient; to get
each term's coefficient it calls `complex()` on the number in front, which goes through `evalf` and the
assumptions system, and that was half the text report's time. `ordered_terms` is the same algorithm with the
coefficient of a plain Integer, Rational or Float converted by `float()` (the same double: both round the
exact value to 53 bits once), everything else as sympy does it. Tests compare it with `as_ordered_terms` on
the formulas of the whole corpus.
"""
from __future__ import annotations

from functools import lru_cache

import sympy
from sympy.concrete.expr_with_limits import ExprWithLimits
from sympy.core.exprtools import decompose_power
from sympy.core.sorting import default_sort_key

from sad.analysis.freesymbols import free_symbols

_PLAIN = (sympy.Integer, sympy.Rational, sympy.Float)
_REMEMBERED = 100_000   # term parts and generators remembered (a long `sad check` orders many programs' sums)


def ordered_terms(expr: sympy.Add) -> list[sympy.Expr]:
    """`expr.as_ordered_terms()` (sympy's default order) of a sum."""
    args = expr.args
    if len(args) == 2 and _number_first(args):
        return sympy.Expr.as_ordered_terms(expr)  # sympy's special case `1 - 2*x`, kept in sympy's hands
    terms = [_term_key(term) for term in args]
    if any(t[0].is_Order for t in terms):
        return sympy.Expr.as_ordered_terms(expr)
    gens = sorted({base for _, _, powers, _ in terms for base in powers}, key=_sort_key_of)
    index = {g: i for i, g in enumerate(gens)}
    keyed = []
    for term, coeff, powers, ncpart in terms:
        monom = [0] * len(gens)
        for base, exp in powers.items():
            monom[index[base]] = exp
        keyed.append((term, coeff, tuple(monom), ncpart))
    keyed.sort(key=_sort_key)
    return [k[0] for k in keyed]


@lru_cache(maxsize=_REMEMBERED)
def _sort_key_of(generator: sympy.Basic) -> tuple:
    """default_sort_key, remembered per generator (the same few recur in every sum of a program)."""
    return default_sort_key(generator)


def _number_first(args: tuple) -> bool:
    """Whether the sum might be sympy's special case (a number and a product of a number and more)."""
    return any(isinstance(a, (sympy.Number, sympy.NumberSymbol)) for a in args)


def _term_key(term: sympy.Expr) -> tuple:
    """sympy's `as_terms` entry for one term: (term, coefficient as (re, im), {base: exponent}, non-commutative
    factors)."""
    coeff_expr, rest = term.as_coeff_Mul()
    coeff = complex(float(coeff_expr)) if isinstance(coeff_expr, _PLAIN) else complex(coeff_expr)
    factors = _factors(rest)
    for number in factors[0]:
        coeff *= number
    return term, (coeff.real, coeff.imag), factors[1], factors[2]


@lru_cache(maxsize=_REMEMBERED)
def _factors(rest: sympy.Expr) -> tuple[list[complex], dict, tuple]:
    """The numeric factors, {base: exponent} and non-commutative factors of a term's part after its leading
    number (shared between calls: read, never changed). Remembered: the same parts recur in many sums (a
    report's operation counts are the same block counts times different numbers)."""
    numbers: list[complex] = []
    powers: dict = {}
    ncpart = []
    if rest is not sympy.S.One:
        for factor in sympy.Mul.make_args(rest):
            if _is_number(factor):
                try:
                    numbers.append(complex(factor))
                except (TypeError, ValueError):
                    pass
                else:
                    continue
            if factor.is_commutative:
                base, exp = decompose_power(factor)
                powers[base] = exp
            else:
                ncpart.append(factor)
    return numbers, powers, tuple(ncpart)


def _is_number(factor: sympy.Basic) -> bool:
    """factor.is_number; for a Sum (no free symbols, by sympy's definition) from the remembered free symbols
    of sad.analysis.freesymbols, since sympy finds a Sum's free symbols again at every question."""
    if isinstance(factor, ExprWithLimits):
        return not free_symbols(factor)
    return bool(factor.is_number)


def _sort_key(entry: tuple) -> tuple:
    """sympy's key for the default (lex) order: monomials descending, then non-commutative parts, then the
    coefficient (`Expr._parse_order`)."""
    _, (re, im), monom, ncpart = entry
    return (tuple(-m for m in monom), tuple(e.sort_key() for e in ncpart), ((bool(im), im), (re, im)))
