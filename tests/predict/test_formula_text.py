"""report.formula: the remembering printer gives sympy's own text (sstr, full_prec=False) for every formula,
whatever it printed before (shared subexpressions in other contexts, Floats of other precisions)."""
from __future__ import annotations

import pytest
import sympy

from sad.predict.report import formula, short_formula

N, M, P = sympy.symbols("N M P_X_IF1", positive=True)
RCUT = sympy.Symbol("RCUT", positive=True)
K = sympy.Symbol("K", integer=True)
BOXL = (N / sympy.Float("0.8442", 15)) ** sympy.Rational(1, 3)
CELLS = sympy.Min(40, sympy.floor(BOXL / sympy.Min(RCUT, BOXL / 2)))
NCELL = sympy.Piecewise((CELLS**3, CELLS >= 3), (0, True))


def _expected(expr: sympy.Expr, digits: int) -> str:
    expr = expr.xreplace({f: sympy.Float(f, digits) for f in expr.atoms(sympy.Float)})
    return sympy.sstr(expr, full_prec=False)


FORMULAS = [
    N * M - 3 * N + 1,
    -(N - M),  # the same Add as a factor of -1 and alone below
    N - M,
    sympy.Rational(3, 2) * N**2 / (M + 1),
    (N - 1) ** -2 + sympy.sqrt(N),
    P * (1 - P) * N - 2 * (1 - P),
    NCELL * sympy.Float("1.9e-7", 15) * N + sympy.Float("3.25e-6", 15) * CELLS,
    NCELL,
    CELLS,
    -CELLS + N,
    sympy.Max(0, K - 2) * sympy.Float("2.5e-07", 15),
    sympy.Max(0, K - 2) * sympy.Float("2.5e-07", 4),
    sympy.Piecewise((N, sympy.Eq(K, 1)), (M, K > 1), (0, True)) + sympy.floor(N / 2),
    sympy.Sum(K * N, (K, 1, M)),
    sympy.Float("123456.789", 15) * N,
    sympy.Float("0.1", 15) - N,
]


def test_same_text_as_sympy_in_every_order_and_precision():  # 1.05808 = 0.8442^(-1/3)
    for digits in (6, 4, 15):
        for expr in FORMULAS + FORMULAS[::-1]:
            assert formula(expr, digits) == _expected(expr, digits), expr
    assert formula(NCELL) == "Piecewise((Min(40, floor(1.05808*N**(1/3)/Min(0.52904*N**(1/3), RCUT)))**3, " \
                             "Min(40, floor(1.05808*N**(1/3)/Min(0.52904*N**(1/3), RCUT))) >= 3), (0, True))"


def test_a_formula_without_floats_is_printed_as_itself_not_rebuilt(monkeypatch):
    from sympy.core.cache import clear_cache

    from sad.predict import report
    def cells():   # NCELL without its Float
        return sympy.Min(40, sympy.floor(N ** sympy.Rational(1, 3) / sympy.Min(RCUT, N / 2))) * M + N
    first = cells()
    clear_cache()
    second = cells()   # equal, another object
    assert first == second and first is not second
    memo: dict = {}
    assert report._rounded(first, 6, memo) is first
    assert report._rounded(second, 6, memo) is second
    rebuilt = []
    monkeypatch.setattr(sympy.Add, "func", property(lambda self: rebuilt.append(self) or type(self)))
    assert report._rounded(second + 1, 6, memo) == second + 1 and rebuilt == []


SUMS = [sum((K ** i * sympy.Float(f"{i}.25e-7", 15) * NCELL for i in range(1, 30)), -N * M),
        -N - M - CELLS * P + sympy.Float("1e-9", 15),
        (N - M) * P - (N + 1) ** 2 + sympy.Rational(1, 3),
        NCELL * N + CELLS]


@pytest.mark.parametrize("width", [1, 5, 40, 96, 300, 2000, 10 ** 6])
def test_the_shown_start_of_a_formula_is_the_start_of_its_text(width):
    from sad.predict import report
    for digits in (6, 4):
        for expr in FORMULAS + SUMS + FORMULAS[::-1]:
            full = formula(expr, digits)
            report._PRINTER.memo.clear()   # the leading terms printed alone, nothing remembered of the whole
            assert short_formula(expr, width, digits) == (full if len(full) <= width else full[:width - 1] + "…")
    assert len(formula(SUMS[0])) > 2000
