"""atomswalk.atoms: sympy's Basic.atoms (the same set, members included) with each shared subexpression walked
once and each answer remembered, handed out as a set of the caller's own."""
from __future__ import annotations

import sympy

from sad.analysis import atomswalk

N, M, K = sympy.symbols("N M k", integer=True)
TEST = sympy.Piecewise((1, N > M), (0, True))
SHARED = sympy.Max(0, N - K) * TEST + sympy.floor(M / 4)
FORMULA = SHARED * TEST + sympy.Sum(SHARED * K, (K, 1, N)) + sympy.Min(SHARED, M) + 3


def sympys(expr: sympy.Basic, *types) -> set:
    return atomswalk._sympy_atoms(expr, *types)


def test_the_atoms_are_sympys_with_and_without_types():
    for types in [(), (sympy.Piecewise,), (sympy.Symbol,), (sympy.Max, sympy.Min), (sympy.Integer,),
                  (sympy.Sum,), (TEST,)]:   # an instance stands for its class, as in sympy
        assert atomswalk.atoms(FORMULA, *types) == sympys(FORMULA, *types)
    assert atomswalk.atoms(FORMULA, sympy.Piecewise) == {TEST}
    assert atomswalk.atoms(FORMULA, sympy.Max) == {sympy.Max(0, N - K)}
    # the leaves: N - k is N + (-1)·k, M/4 is M·(1/4), the Piecewise's last condition True
    assert atomswalk.atoms(FORMULA) == {N, M, K, sympy.Integer(0), sympy.Integer(1), sympy.Integer(3),
                                        sympy.Integer(-1), sympy.Rational(1, 4), sympy.true} == sympys(FORMULA)


def test_an_answer_asked_again_comes_from_memory_as_a_new_set():
    expr = SHARED + sympy.Piecewise((N, M > 7), (M, True))
    first = atomswalk.atoms(expr, sympy.Piecewise)
    hits = atomswalk._remembered.cache_info().hits
    first.add(sympy.Integer(5))   # a caller changes the set it got
    again = atomswalk.atoms(expr, sympy.Piecewise)
    assert atomswalk._remembered.cache_info().hits == hits + 1
    assert again == {TEST, sympy.Piecewise((N, M > 7), (M, True))} == sympys(expr, sympy.Piecewise)
    assert again is not first


def test_sympy_asks_through_the_installed_walk():
    atomswalk.install()
    assert sympy.Basic.atoms is atomswalk.atoms
    assert FORMULA.atoms(sympy.Sum) == {sympy.Sum(SHARED * K, (K, 1, N))}
