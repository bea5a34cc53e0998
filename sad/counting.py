"""Exact loop counting: DO trip counts and sums over a loop index.

Data flow: the SAD builder gives a counted loop's bounds (sympy, from sad.values) and the per-iteration count
of each statement in its body (which may depend on the loop index when inner bounds do); this module returns
the per-entry counts. A triangular nest sums exactly (DO I=1,N / DO J=I,N gives N(N+1)/2 once N ≥ 1, and 0
for an empty range), not a product of averages.
"""
from __future__ import annotations

import sympy

_TAU = sympy.Symbol("tau_trip", integer=True, positive=True)
_K = sympy.Symbol("k", integer=True, nonnegative=True)


def trip_count(lo: sympy.Expr, hi: sympy.Expr, step: sympy.Expr) -> sympy.Expr:
    """Fortran 77 iteration count MAX(0, INT((hi - lo + step)/step)); for integer operands INT truncates,
    which equals floor whenever the quotient is non-negative, the only case that survives the MAX."""
    lo, hi, step = sympy.sympify(lo), sympy.sympify(hi), sympy.sympify(step)
    if step == 0:
        raise ValueError("DO step of zero")
    raw = (hi - lo + step) / step
    if step in (1, -1):
        raw = sympy.expand(raw)
    else:
        raw = sympy.floor(raw)
    return sympy.Max(0, raw)


def sum_over_index(f: sympy.Expr, index: sympy.Symbol, lo: sympy.Expr, hi: sympy.Expr,
                   step: sympy.Expr) -> sympy.Expr:
    """Σ f(index) over index = lo, lo+step, ... (the DO loop's iterations), in closed form where possible."""
    lo, hi, step = sympy.sympify(lo), sympy.sympify(hi), sympy.sympify(step)
    trips = trip_count(lo, hi, step)
    if index not in f.free_symbols:
        return trips * f
    f_k = f.subs(index, lo + step * _K)
    if trips.is_Integer and int(trips) <= _EXPLICIT_LIMIT:
        return sympy.Add(*[f_k.subs(_K, k) for k in range(int(trips))])
    closed = _closed_sum(f_k, lo, hi, step)
    if closed is not None:
        return closed.subs(_TAU, trips)
    return sympy.Sum(f_k, (_K, 0, trips - 1))


_EXPLICIT_LIMIT = 200


def _closed_sum(f_k: sympy.Expr, lo, hi, step):
    """Σ_{k=0}^{τ-1} f_k in terms of τ, valid for every τ ≥ 0 (τ=0 gives 0), or None.

    Inner trip counts appear as Max(0, g(k)); over the iterations of a non-empty outer loop each g is
    linear in k, so it is non-negative throughout when it is at both ends (k = 0 and k = τ-1). With one
    bound written in terms of τ (hi - lo = step·(τ-1), exact for unit steps) that is decided symbolically,
    the Max drops, and sympy sums the polynomial.
    """
    if step not in (1, -1):
        return None
    solved = _bound_in_tau(hi - lo - step * (_TAU - 1), hi, lo)
    if solved is None:
        return None
    var, replacement = solved
    for m in sorted(f_k.atoms(sympy.Max), key=sympy.default_sort_key):
        g = _max_zero_argument(m)
        if g is None or not _linear_in_k(g):
            return None
        ends = [g.subs(_K, 0).subs(var, replacement), g.subs(_K, _TAU - 1).subs(var, replacement)]
        if not all(sympy.simplify(e).is_nonnegative for e in ends):
            return None
        f_k = f_k.subs(m, g)
    f_k = f_k.subs(var, replacement)
    try:
        total = sympy.summation(sympy.expand(f_k), (_K, 0, _TAU - 1))
    except Exception:  # sympy raises many kinds here; any of them means "no closed form"
        return None
    if total.has(sympy.Sum):
        return None
    return sympy.factor(total)


def _max_zero_argument(m: sympy.Max):
    """g for Max(0, g), else None."""
    if len(m.args) != 2 or 0 not in m.args:
        return None
    return m.args[1] if m.args[0] == 0 else m.args[0]


def _linear_in_k(g: sympy.Expr) -> bool:
    return g.is_polynomial(_K) and sympy.Poly(g, _K).degree() <= 1


def _bound_in_tau(relation: sympy.Expr, hi: sympy.Expr, lo: sympy.Expr):
    """Solve relation = 0 for one symbol of the bounds (hi's first): (symbol, its expression in τ)."""
    candidates = sorted(hi.free_symbols, key=lambda s: s.name) + sorted(lo.free_symbols, key=lambda s: s.name)
    for var in candidates:
        if var == _K:
            continue
        coeff = sympy.expand(relation).coeff(var)
        if coeff != 0 and var not in coeff.free_symbols and \
                sympy.expand(relation - coeff * var).free_symbols.isdisjoint({var}):
            return var, sympy.expand(var - relation / coeff)
    return None
