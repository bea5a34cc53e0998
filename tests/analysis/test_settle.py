"""Settled extremes (sad.analysis.settle): a Min or Max reduced where facts sympy does not use order its
arguments. Hand-derived cases, DGERQF's among them."""
from __future__ import annotations

import sympy

from sad.analysis.settle import nonnegative, settled

M, N, II, X, P, E = sympy.symbols("M N I X P E", integer=True)  # II: the loop index I
K = sympy.Min(M, N)


def test_a_min_of_its_arguments_is_at_most_each():
    assert nonnegative(N - K)
    assert nonnegative(M - K)
    assert not nonnegative(K - N)
    assert not nonnegative(N - M)


def test_a_lower_bound_of_a_symbol_orders_a_min():
    assert settled(sympy.Min(X, X + II - 1), {II: 1}) == X
    # without the fact, or with one too weak, only the shared X comes out
    assert settled(sympy.Min(X, X + II - 1), {}) == X + sympy.Min(0, II - 1)
    assert settled(sympy.Max(X, X + II - 2), {II: 1}) == X + sympy.Max(0, II - 2)


def test_dgerqfs_blocked_bound_is_one_value_on_every_trip():
    """DGERQ2's MIN(M, N) - N + 1 bound to a block (IB, N - K + I + IB - 1) and shifted by I - 1."""
    ib = sympy.Min(K - II + 1, P)
    width = N - K + II + ib - 1
    bound = sympy.expand(sympy.Min(ib, width) - width + 1 + II - 1)
    assert bound.has(II)
    assert sympy.expand(settled(bound, {II: 1})) == K - N + 1


def test_terms_all_arguments_share_come_out():
    shifted = sympy.Piecewise((sympy.Min(M + E + 32, N + E + 32) - N - E - 31, P > 2), (K - N + 1, True))
    assert settled(shifted, {}) == K - N + 1
    assert settled(sympy.Max(X, X), {}) == X
