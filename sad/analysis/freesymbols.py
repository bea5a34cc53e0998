"""The free symbols of a formula, each shared subexpression looked at once per process.

Data flow: a helper of the layers that ask which parameters a formula mentions — the pipeline (which
parameters the final SAD uses), bindings (is a bound formula a number yet), the mapper and the SPMD rank
choice. The SAD's formulas are DAGs: md1's cell count (a Piecewise of Min/floor of NPART, RHO and RCUT) stands
in most of its 283 block counts, several times in each. sympy's `free_symbols` walks the tree, every
occurrence again and nothing remembered between calls: about 0.2 s of md1's `sad analyze`. Here every
distinct subexpression's answer is remembered (expressions are immutable, so it never changes), which makes
the walks of all the counts together linear in the DAG.

The answer is sympy's own. The plain `Basic` rule (the union over the arguments) and sympy's rule for a Sum
over symbol indices (its summand's symbols without the index, plus those of its limits, limit after limit)
are applied here, memoized: sympy finds a Sum's by substituting its index by itself, which rebuilds the
summand and re-evaluates every Max, floor and Mod in it through the assumptions (most of the cost of pricing
a `sad check` routine whose formula keeps sums). Any other class that defines its own `free_symbols` (the
other binders, Symbol) is asked directly.
"""
from __future__ import annotations

import sympy
from sympy.core.basic import Basic

LIMIT = 200_000  # subexpressions remembered (a long `sad check` worker analyzes many programs)

_MEMO: dict[Basic, frozenset] = {}
_PLAIN: dict[type, bool] = {}  # class -> uses Basic's free_symbols (the union over the arguments)
_BASIC_RULE = Basic.__dict__["free_symbols"]
_EMPTY: frozenset = frozenset()


def free_symbols(expr: sympy.Basic) -> frozenset:
    """`expr.free_symbols`, as a frozenset, remembered for every compound subexpression."""
    cls = type(expr)
    plain = _PLAIN.get(cls)
    if plain is None:
        plain = _PLAIN[cls] = _rule_of(cls) is _BASIC_RULE
    if not expr.args:
        return _EMPTY if plain else frozenset(expr.free_symbols)   # a number; a Symbol
    known = _MEMO.get(expr)
    if known is not None:
        return known
    if plain:
        found = _EMPTY.union(*(free_symbols(arg) for arg in expr.args))
    elif isinstance(expr, sympy.Sum) and all(len(xab) == 3 and xab[0].is_Symbol for xab in expr.limits):
        found = _of_sum(expr)
    else:
        found = frozenset(expr.free_symbols)
    if len(_MEMO) >= LIMIT:
        _MEMO.clear()
    _MEMO[expr] = found
    return found


def _of_sum(expr: sympy.Sum) -> frozenset:
    """sympy's ExprWithLimits rule: per limit, in order, its index left out and its bounds' symbols added."""
    found = set(free_symbols(expr.function))
    for index, low, high in expr.limits:
        found.discard(index)
        found |= free_symbols(low) | free_symbols(high)
    return frozenset(found)


def _rule_of(cls: type):
    for klass in cls.__mro__:
        if "free_symbols" in klass.__dict__:
            return klass.__dict__["free_symbols"]
    return None
