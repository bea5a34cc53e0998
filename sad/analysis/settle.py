"""Settled extremes: a Min or Max whose arguments are ordered by facts sympy does not use, replaced by the
argument it takes.

Data flow: sad.analysis.storedelements binds a callee's element rule to a call's actuals; a bound that still
holds the caller's loop index depends on where the call is, and gives no rule. Often it only seems to:
DGERQF's blocked `CALL DGERQ2(IB, N-K+I+IB-1, ..., TAU(I), ...)` binds DGERQ2's `MIN(M, N) - N + 1` to
`Min(IB, N - K + I + IB - 1) - (N - K + I + IB - 1) + 1`, shifted by I - 1, which is K - N + 1 on every trip
once the Min is IB: K = MIN(M, N) is at most N, and I, the subscript of the element TAU(I) passed, is at
least 1. sympy orders neither (it takes N - Min(M, N) and I - 1 as of unknown sign), so the facts are given
here: lower bounds of symbols (a subscript is at least its array's lower bound), and the rule that
-Min(a, b) = Max(-a, -b) is at least any of -a, -b.
"""
from __future__ import annotations

import sympy

_DEPTH = 4  # extremes opened per proof: enough for a Min of a Min, bounded so a proof stays cheap


def settled(expr: sympy.Expr, at_least: dict[sympy.Symbol, sympy.Expr]) -> sympy.Expr:
    """`expr` with each Min and Max (innermost first) reduced to the arguments no other argument is proven
    to dominate, given that each symbol of `at_least` is at least its value."""
    shifts = {s: low + sympy.Dummy(f"{s.name}_over", integer=True, nonnegative=True)
              for s, low in at_least.items()}

    def dominated(small: sympy.Expr, large: sympy.Expr) -> bool:
        return nonnegative(sympy.expand((large - small).xreplace(shifts)))

    def visit(node: sympy.Basic) -> sympy.Basic:
        if not node.args or node.is_Atom:
            return node
        args = tuple(visit(a) for a in node.args)
        if isinstance(node, (sympy.Min, sympy.Max)):
            kept = list(args)
            for a in args:
                others = [b for b in kept if b is not a]
                if others and len(others) < len(kept) and _beaten(node.func, a, others, dominated):
                    kept = others
            common, kept = _common_terms(kept)
            return common + (kept[0] if len(kept) == 1 else node.func(*kept))
        return node.func(*args) if args != node.args else node

    return visit(expr)


def _common_terms(args: list[sympy.Expr]) -> tuple[sympy.Expr, list[sympy.Expr]]:
    """The terms all arguments share, and the arguments without them: Min(M + E, N + E) = E + Min(M, N)
    (DGERQF's MU and NU, M and N plus where its blocked loop stopped)."""
    if len(args) < 2:
        return sympy.Integer(0), args
    terms = [sympy.expand(a).as_coefficients_dict() for a in args]
    shared = {t: c for t, c in terms[0].items() if all(d.get(t) == c for d in terms[1:])}
    if not shared:
        return sympy.Integer(0), args
    common = sympy.Add(*(c * t for t, c in shared.items()))
    return common, [sympy.expand(a - common) for a in args]


def _beaten(func, a: sympy.Expr, others: list[sympy.Expr], dominated) -> bool:
    """a is redundant beside `others` in func(a, *others): at least their Min (a Min), at most their Max.
    The others are compared as one extreme, so that a holding that very extreme cancels it (DGERQF's
    Min(P, Q, I + N - K - 1 + Min(P, Q)))."""
    rest = others[0] if len(others) == 1 else func(*others)
    return dominated(rest, a) if func is sympy.Min else dominated(a, rest)


def nonnegative(expr: sympy.Expr, depth: int = _DEPTH) -> bool:
    """expr >= 0 proven. An extreme term is opened: c*Min(a, b) with c < 0 (or c*Max with c > 0) is the Max
    of c*a, c*b, and the sum is nonnegative where the rest plus one of them is; c*Min with c > 0 (c*Max with
    c < 0) needs the rest plus each of them."""
    known = expr.is_nonnegative
    if known is not None or depth == 0:
        return bool(known)
    for term in sympy.Add.make_args(expr):
        coeff, extreme = term.as_coeff_Mul()
        if not isinstance(extreme, (sympy.Min, sympy.Max)) or not coeff.is_nonzero:
            continue
        rest = expr - term
        branches = [sympy.expand(rest + coeff * a) for a in extreme.args]
        largest = (coeff < 0) == isinstance(extreme, sympy.Min)
        proofs = (nonnegative(b, depth - 1) for b in branches)
        return any(proofs) if largest else all(proofs)
    return False
