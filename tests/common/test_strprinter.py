"""The quick str printer (sad.common.strprinter) prints what sympy's StrPrinter prints, character for
character: on random formulas of the shapes sad prints (priced counts: Floats times products of Max, Min,
floor, Mod, Piecewise and sums) and on the coefficients where sympy's own rule must decide (0, ±oo, zoo,
nan, unevaluated products)."""
from __future__ import annotations

import random

import pytest
import sympy
from sympy.printing import precedence as sympy_precedence
from sympy.printing.str import StrPrinter

from sad.common.strprinter import QuickStrPrinter, float_precedence, mul_precedence

N, M, K = sympy.symbols("G.N G.M K", integer=True)
P = sympy.Symbol("P_1", positive=True)
X = sympy.Symbol("x")


def _number(rng: random.Random) -> sympy.Expr:
    kind = rng.randrange(5)
    if kind == 0:
        return sympy.Float(rng.choice([1, -1]) * rng.uniform(1e-9, 1e-5), 15)
    if kind == 1:
        return sympy.Float(rng.choice([0.5, -2.5, 3.0, -1.0, 1e-300, -7.25e12]))
    if kind == 2:
        return sympy.Rational(rng.randint(-9, 9), rng.randint(1, 5))
    if kind == 3:
        return sympy.Integer(rng.randint(-5, 5))
    return rng.choice([sympy.oo, -sympy.oo, sympy.zoo, sympy.nan, sympy.S.Half, -sympy.S.Half])


def _formula(rng: random.Random, depth: int) -> sympy.Expr:
    if depth == 0:
        return rng.choice([N, M, K, P, X, _number(rng)])
    a, b = _formula(rng, depth - 1), _formula(rng, depth - 1)
    try:
        return _combined(rng, a, b)
    except (ValueError, TypeError):  # sympy refuses the combination (Max of nan): one of the parts
        return a


def _combined(rng: random.Random, a: sympy.Expr, b: sympy.Expr) -> sympy.Expr:
    kind = rng.randrange(9)
    if kind == 0:
        return a + b
    if kind == 1:
        return _number(rng) * a * b
    if kind == 2:
        return sympy.Max(0, a - b)
    if kind == 3:
        return sympy.Min(a, b) * _number(rng)
    if kind == 4:
        return sympy.floor(a / 4) - b
    if kind == 5:
        return sympy.Mod(N - b, 4) * a
    if kind == 6:
        return sympy.Piecewise((a, N > M), (b, True)) * _number(rng)
    if kind == 7:
        return sympy.Mul(_number(rng), a, _number(rng), evaluate=False)  # unevaluated: numbers after the first
    return a ** rng.choice([2, -1, sympy.S.Half]) - _number(rng) * b


@pytest.mark.parametrize("settings", [{}, {"order": "none"}, {"full_prec": False}])
def test_the_same_text_as_sympys_printer(settings):
    rng = random.Random(20261122)
    quick, plain = QuickStrPrinter(settings), StrPrinter(settings)
    checked = 0
    for _ in range(250):
        expr = _formula(rng, rng.randint(1, 3))
        assert quick.doprint(expr) == plain.doprint(expr), sympy.srepr(expr)
        checked += isinstance(expr, (sympy.Add, sympy.Mul))
    assert checked > 120  # most formulas are sums and products, the cases the quick rule answers


@pytest.mark.parametrize("coefficient", [sympy.Float(-2.5), sympy.Float(2.5), sympy.Rational(-3, 2), sympy.Integer(7),
                                         sympy.Float(0.0), sympy.oo, -sympy.oo, sympy.zoo, sympy.nan])
def test_the_same_precedence_as_sympys_rule(coefficient):
    product = sympy.Mul(coefficient, N, sympy.Max(0, M), evaluate=False)
    assert mul_precedence(product) == sympy_precedence.precedence_Mul(product)
    assert mul_precedence(-N * M) == sympy_precedence.precedence_Mul(-N * M) == sympy_precedence.PRECEDENCE["Add"]
    assert mul_precedence(N * M) == sympy_precedence.PRECEDENCE["Mul"]


@pytest.mark.parametrize("number", [-2.5, 2.5, 0.0, -0.0, -1e-300, 7e300, "-1.5e-400000"])
def test_a_floats_precedence_as_sympys_rule(number):
    """(sympy makes ±inf and nan objects of their own classes, not Floats.)"""
    value = sympy.Float(number)
    assert isinstance(value, sympy.Float)
    assert float_precedence(value) == sympy_precedence.precedence_Float(value)


def test_sympys_rule_is_back_after_printing():
    """The quick rule is in sympy's precedence table only while a quick printer prints."""
    QuickStrPrinter().doprint(-2.0 * N * M)
    assert sympy_precedence.PRECEDENCE_FUNCTIONS["Mul"] is sympy_precedence.precedence_Mul
    assert sympy_precedence.PRECEDENCE_FUNCTIONS["Float"] is sympy_precedence.precedence_Float


def test_threads_sharing_a_printer_get_sympys_text_and_leave_no_memo_behind():
    """One printer in several threads (a Dask worker's): each thread's memo of subexpressions is its own,
    and none is left in force once the printing is done (a stale memo keyed by object ids would print a
    new object as an old one's text)."""
    import threading

    printer = QuickStrPrinter({"order": "none"})
    n = sympy.Symbol("N", integer=True)
    formulas = [sum((1 - sympy.Piecewise((1, sympy.Eq(n, k)), (0, True))) * sympy.Float(k + 0.5) * n ** j
                    for j in range(4)) for k in range(40)]
    want = [StrPrinter({"order": "none"}).doprint(f) for f in formulas]
    got: dict[int, list[str]] = {}

    def work(t: int) -> None:
        got[t] = [printer.doprint(f) for f in formulas]

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(texts == want for texts in got.values())
    assert getattr(printer._local, "seen", None) is None


def test_a_printing_interrupted_in_its_clean_up_is_released():
    """An exception raised into the thread (the time limit's) inside the clean-up leaves a printing counted:
    release_thread, called by the time limit, puts sympy's rule back."""
    from sad.common import strprinter
    left_open = strprinter._quick_rule()
    left_open.__enter__()  # never exited, as when the clean-up was interrupted
    assert sympy_precedence.PRECEDENCE_FUNCTIONS["Mul"] is strprinter.mul_precedence
    strprinter.release_thread()
    assert sympy_precedence.PRECEDENCE_FUNCTIONS["Mul"] is sympy_precedence.precedence_Mul
    QuickStrPrinter().doprint(-2.0 * N * M)
    assert sympy_precedence.PRECEDENCE_FUNCTIONS["Mul"] is sympy_precedence.precedence_Mul
