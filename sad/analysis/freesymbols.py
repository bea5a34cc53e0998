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

`install()` (by sad.analysis.counting) makes sympy's own questions take the same memo: `Basic.free_symbols`
and a Sum's are properties here that give a new set of the remembered answer (sympy's callers change the
set they get). sympy asks for them in `as_independent`, `has` of symbols and a Sum's `is_number`, each a
walk of the whole tree (a Sum's substitutes its index by itself, rebuilding the summand): 40 of the 700
profiled seconds of `sad check` on the LAPACK sample.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sympy
from sympy.concrete.expr_with_limits import ExprWithLimits
from sympy.core.basic import Basic

LIMIT = 200_000  # subexpressions remembered (a long `sad check` worker analyzes many programs)

_MEMO: dict[Basic, frozenset] = {}
_RULES: dict[type, object] = {}  # class -> its free_symbols rule as sympy defines it (False: none)
_BASIC_RULE = Basic.__dict__["free_symbols"]
_LIMITS_RULE = ExprWithLimits.__dict__["free_symbols"]
_EMPTY: frozenset = frozenset()


def free_symbols(expr: sympy.Basic) -> frozenset:
    """`expr.free_symbols`, as a frozenset, remembered for every compound subexpression."""
    cls = type(expr)
    plain = _rule_of(cls) is _BASIC_RULE   # Basic's rule: the union over the arguments
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
        found = frozenset(_sympys(cls, expr))
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
    """The class's free_symbols property as sympy defines it (not the ones installed here)."""
    rule = _RULES.get(cls)
    if rule is None:
        klass = next((k for k in cls.__mro__ if "free_symbols" in k.__dict__), None)
        rule = _RULES[cls] = _SYMPY_RULES.get(klass, klass.__dict__["free_symbols"]) if klass else False
    return rule or None


def _sympys(cls: type, expr: Basic) -> set:
    """expr's free symbols by sympy's rule for its class."""
    return _call(_rule_of(cls), expr)


def _call(rule: property, expr: Basic) -> set:
    getter = rule.fget
    assert getter is not None  # sympy's free_symbols are properties with a getter
    return getter(expr)


def _remembering(original: property) -> property:
    """The property installed in place of sympy's `original`: the memo's answer as a new set (sympy's callers
    change the set they get) where `original` is the object's own rule; sympy's where a subclass defines
    its own and reaches this one through super() (an Integral's)."""
    def get(self: Basic) -> set:
        if _rule_of(type(self)) is original:
            return set(free_symbols(self))
        return _call(original, self)
    return property(get)


# the classes whose rule is replaced, with sympy's (Any: mypy does not let a class's property be set)
_SYMPY_RULES: dict[Any, property] = {Basic: _BASIC_RULE, ExprWithLimits: _LIMITS_RULE}


@contextmanager
def sympys_rules() -> Iterator[None]:
    """sympy's own free_symbols rules while the block runs (what the memo is compared with in tests)."""
    installed = {klass: klass.__dict__["free_symbols"] for klass in _SYMPY_RULES}
    for klass, original in _SYMPY_RULES.items():
        klass.free_symbols = original
    try:
        yield
    finally:
        for klass, rule in installed.items():
            klass.free_symbols = rule


def install() -> None:
    """Let sympy's own free_symbols questions (Basic's rule and a Sum's) be answered from the memo
    (idempotent)."""
    for klass, original in _SYMPY_RULES.items():
        klass.free_symbols = _remembering(original)
