"""Branch probabilities the predicted time does not depend on: an IF or select whose arms cost the same.

Data flow: the mapper (sad.predict.mapper) prices the SAD's blocks and sums count x seconds; before binding the
total it asks here which probabilities leave it (issue 27: `x = a > b ? a : b` is counted X*P and X*(1 - P)
times at one price, so the time must be bound without P; the counts keep it). The test is exact: a cheap proof
that P matters (two values at one point) first, then the derivative in P multiplied out as a polynomial.
"""
from __future__ import annotations

import math

import sympy

from sad.analysis.bindings import evaluate
from sad.analysis.freesymbols import free_symbols
from sad.analysis.products import tree_size

# The exactness check expands a derivative: on the terms of one probability written out up to this many nodes.
# Past it (the probabilities of IFs that rejoin many times over, whose terms are immense as trees) the
# probability stays in the time, named as unbound like any other: never dropped without the check.
IDLE_CHECK_NODES = 4000


def without_idle_probabilities(total: sympy.Expr) -> sympy.Expr:
    """The time with every branch probability taken out that it does not depend on: an IF or select whose arms
    cost the same (``x = a > b ? a : b``) is counted X·P and X·(1 - P) times at one price, so the time must be
    bound without P (the counts keep it). Exact: the terms holding P are replaced by their value at P = 0 only
    when their derivative in P is 0 (_is_zero_polynomial); a P inside a Max or Piecewise (a loop priced as a
    whole) stays."""
    terms = list(sympy.Add.make_args(total))
    symbols = [free_symbols(t) for t in terms]
    probabilities = sorted({s for each in symbols for s in each if s.name.startswith("P_")}, key=lambda s: s.name)
    for p in probabilities:
        holding = [i for i, each in enumerate(symbols) if p in each]
        part = sympy.Add(*[terms[i] for i in holding])
        if tree_size([part]) > IDLE_CHECK_NODES or _depends_at_a_point(part, p):
            continue
        slope = part.diff(p)
        if slope != 0 and not _is_zero_polynomial(_shielded(slope)):
            continue
        for i in holding:
            terms[i] = sympy.Integer(0)
            symbols[i] = frozenset()
        rest = part.xreplace({p: sympy.Integer(0)})
        terms.append(rest)
        symbols.append(free_symbols(rest))
    return sympy.Add(*terms)


# Whole numbers for the point: distinct, none small (a bound of 5 leaves `DO J = 6, N` empty and hides a term)
_POINT = (37, 53, 71, 89, 107, 131, 151, 173, 193, 211, 233, 257)


def _depends_at_a_point(part: sympy.Expr, p: sympy.Symbol) -> bool:
    """Whether `part` is shown to depend on `p` by two values at one point: `p` at 1/3 and at 2/3, every other
    symbol at a whole number of _POINT, every other probability at 1/(11 + k) (so that no sum of a few of them
    is 1: `1 - P_a - P_b` is a factor of every term under a three-way IF). Cheap where the exact test is not:
    expanding the derivatives of STREVC3's terms took 44 of the 45 s of `sad analyze strevc3.f`. Equal values
    (or a point where the formula has no number, an open sum) prove nothing: the exact test follows."""
    if part.has(sympy.Sum):
        return False  # an open sum is added up trip by trip (counting.evaluate_sums): no cheap number
    truths = _truth_symbols(part)
    others = sorted(free_symbols(part) - {p}, key=lambda s: s.name)
    point: dict[sympy.Basic, sympy.Basic] = {
        s: sympy.true if s in truths else sympy.Rational(1, 11 + k) if s.name.startswith("P_")
        else sympy.Integer(_POINT[k % len(_POINT)]) for k, s in enumerate(others)}
    values = []
    for x in (sympy.Rational(1, 3), sympy.Rational(2, 3)):
        at = {**point, p: x}
        try:
            found = [evaluate(t.xreplace(at)) for t in sympy.Add.make_args(part)]
        except (TypeError, ValueError, ZeroDivisionError):  # a value the formula cannot take there
            return False
        terms = [v for v in found if v is not None and math.isfinite(v)]
        if len(terms) != len(found):
            return False
        values.append((sum(terms), sum(abs(v) for v in terms)))
    (a, scale_a), (b, scale_b) = values
    # more than rounding apart (the coefficients are floating-point seconds): an unpriced call of 53 s beside a
    # block of 1.8 µs that one arm makes 0.1 µs dearer (DBDSQR's IF34) differs by 2e-9 of the whole
    return abs(a - b) > 1e-12 * max(scale_a, scale_b, 1e-300)


def _shielded(expr: sympy.Expr) -> sympy.Expr:
    """`expr` with each function applied (a choice, a Max, a floor, a call's cost) and each quotient replaced
    by a symbol of its own, the same one wherever it recurs: expanding that multiplies out the products only,
    not the conditions inside the choices (IEEECK's tests of ONE/ZERO nested four deep took 117 s so), nor a
    quotient's (STREXC's 1/(1 + X) of its GOTO loops, 58 s). Zero so is zero."""
    names: dict[sympy.Basic, sympy.Symbol] = {}

    def name(e: sympy.Basic) -> sympy.Symbol:
        return names.setdefault(e, sympy.Dummy(f"f{len(names)}"))

    def opaque(e: sympy.Basic) -> bool:
        return e.is_Function or isinstance(e, (sympy.Sum, sympy.Derivative, sympy.Subs)) \
            or (e.is_Pow and not (e.exp.is_Integer and e.exp >= 0))
    return expr.replace(opaque, name)


def _is_zero_polynomial(expr: sympy.Expr) -> bool:
    """Whether a polynomial in its symbols is 0, multiplied out in sympy's sparse polynomial ring (a product
    of ten `1 - P` factors is 1 024 terms, which sympy.expand builds as expressions, ten times slower); a
    power by a symbol or a quotient by one is expanded as an expression. Written here because sympy.Poly
    converts an expression by expanding it first, which is the slow part."""
    gens = sorted(free_symbols(expr), key=sympy.default_sort_key)
    if not gens:
        return expr == 0
    floats = expr.has(sympy.Float)  # seconds: over the reals, as sympy's Floats add; else exactly, over QQ
    ring, *symbols = sympy.polys.rings.ring(gens, sympy.RR if floats else sympy.QQ)
    generators = dict(zip(gens, symbols))

    def element(e: sympy.Basic):
        if e in generators:
            return generators[e]
        if e.is_Number:
            return ring(float(e) if floats else e)
        if e.is_Add:
            return sum((element(a) for a in e.args), ring.zero)
        if e.is_Mul:
            product = ring.one
            for a in e.args:
                product *= element(a)
            return product
        if e.is_Pow and e.exp.is_Integer and e.exp >= 0:
            return element(e.base) ** int(e.exp)
        raise ValueError(e)
    try:
        return not element(expr)
    except (ValueError, TypeError):  # not a polynomial (or an infinite number in it): as an expression
        return sympy.expand(expr) == 0


def _truth_symbols(expr: sympy.Expr) -> set[sympy.Basic]:
    """The symbols a formula uses as truth values (a LOGICAL formal, DLASQ5's IEEE, as a choice's condition),
    which the point gives `true`, not a number."""
    found: set[sympy.Basic] = set()
    stack = [cond for pw in expr.atoms(sympy.Piecewise) for _, cond in pw.args]
    while stack:
        cond = stack.pop()
        if isinstance(cond, sympy.Symbol):
            found.add(cond)
        elif isinstance(cond, sympy.logic.boolalg.BooleanFunction):
            stack.extend(cond.args)
    return found
