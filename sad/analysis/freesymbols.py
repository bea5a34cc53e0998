"""The free symbols of a formula, each shared subexpression looked at once per process.

Data flow: a helper of the layers that ask which parameters a formula mentions — the pipeline (which
parameters the final SAD uses), bindings (is a bound formula a number yet), the mapper and the SPMD rank
choice. The SAD's formulas are DAGs: md1's cell count (a Piecewise of Min/floor of NPART, RHO and RCUT) stands
in most of its 283 block counts, several times in each. sympy's `free_symbols` walks the tree, every
occurrence again and nothing remembered between calls: about 0.2 s of md1's `sad analyze`. Here every
distinct subexpression's answer is remembered (expressions are immutable, so it never changes), which makes
the walks of all the counts together linear in the DAG.

The answer is sympy's own: a class that defines its own `free_symbols` (Sum and the other binders, which
leave out their bound index; Symbol) is asked directly, and only the plain `Basic` rule — the union over the
arguments — is applied here, memoized.
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
    found = _EMPTY.union(*(free_symbols(arg) for arg in expr.args)) if plain else frozenset(expr.free_symbols)
    if len(_MEMO) >= LIMIT:
        _MEMO.clear()
    _MEMO[expr] = found
    return found


def _rule_of(cls: type):
    for klass in cls.__mro__:
        if "free_symbols" in klass.__dict__:
            return klass.__dict__["free_symbols"]
    return None
