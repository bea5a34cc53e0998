"""A loop count left as an open Sum is the same under every hash seed: building a Sum folds the summand's
Piecewise that hold the index after masking the others with Dummy symbols numbered in a set's iteration
order, so the pieces of DLATRD's count (two DGEMV calls' error tests) came out in an order that followed
PYTHONHASHSEED (4 of 6 seeds one way, 2 the other, for the summand below); sad check's output changed with it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import sympy

from sad.analysis.counting import open_sum, resum

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import sympy
from sympy import Piecewise, Eq, Symbol
from sad.analysis.counting import open_sum
k = Symbol("k", integer=True)
a, b, n = Symbol("A.LDA", integer=True), Symbol("A.LDW", integer=True), Symbol("A.N", integer=True)
f = ((1 - Piecewise((1, a > 0), (0, True))) * Piecewise((1, Eq(k, 0) | (n - k < 0) | (b < n - k)), (0, True))
     + (1 - Piecewise((1, b > 0), (0, True))) * Piecewise((1, Eq(k, 0) | (n - k < 0) | (a < n - k)), (0, True)))
print(sympy.srepr(open_sum(f, (k, 0, n - 1))))
"""


def test_open_sum_is_the_same_under_every_hash_seed():
    outputs = set()
    for seed in ("1", "2", "3", "4", "5", "6"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        proc = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        outputs.add(proc.stdout)
    assert len(outputs) == 1


def test_open_sum_keeps_the_value():
    k, n, a = sympy.Symbol("k", integer=True), sympy.Symbol("N", integer=True), sympy.Symbol("A", integer=True)
    f = (1 - sympy.Piecewise((1, a > 0), (0, True))) * sympy.Piecewise((1, sympy.Eq(k, 0)), (0, True)) + k
    total = open_sum(f, (k, 0, n - 1))
    assert total.subs({n: 4, a: -1}).doit() == 1 + 6   # k = 0 counts once where A <= 0, plus 0 + 1 + 2 + 3
    assert total.subs({n: 4, a: 2}).doit() == 6


def test_one_product_of_many_index_tests_is_summed_by_groups():
    """A callee's body under its caller's probability is one product holding every test of the index:
    summed as one Sum, its tests folded into one Piecewise of every combination (CTPMLQT's loop over
    CTPRFB: 7 tests, 9 CPU s for one sum). Expanded, it is summed by groups of terms with the same tests.
    The value by hand over k = 0 … 7 with p = 1/2, q = 1, r = 2: 2·[1 ≤ k < 3] gives 4, [2 ≤ k < 5] 3, 57
    each trip 456; r·([k < 6, k ≠ 1] + 1) gives 2·(5 + 8) = 26; p·(463 + 26) = 489/2."""
    from sad.analysis.counting import _K as k
    from sad.analysis.counting import _open_sum, evaluate_sums

    p, q, r, n = (sympy.Symbol(s) for s in ("P", "Q", "R", "N"))

    def ind(c):
        return sympy.Piecewise((1, c), (0, True))

    f = p * (q * (2 * (1 - ind(k >= 3)) * (1 - ind(sympy.Eq(k, 0))) + (1 - ind(k >= 5)) * (1 - ind(k < 2)) + 57)
             + r * ((1 - ind(k >= 6)) * (1 - ind(sympy.Eq(k, 1))) + 1))
    total = _open_sum(f, n)
    sums = total.atoms(sympy.Sum)
    assert len(sums) > 1
    assert all(sum(1 for pw in s.atoms(sympy.Piecewise) if pw.has(k)) <= 1 for s in sums)  # two tests fold into one
    assert evaluate_sums(total.subs({p: sympy.Rational(1, 2), q: 1, r: 2, n: 8})) == sympy.Rational(489, 2)


def test_resum_closes_each_distinct_sum_once_and_matches_sympys_replace():
    """resum walks the graph of an expression, not its tree: a Sum repeated in many places (a callee's loop
    in every piece of a bound count) is closed once, and the result is what sympy's replace builds."""
    from sad.analysis import counting

    k, j = sympy.Symbol("k", integer=True), sympy.Symbol("j", integer=True)
    n, m = sympy.Symbol("N", integer=True), sympy.Symbol("M", integer=True)
    numeric = sympy.Sum(k * sympy.Piecewise((1, k > 2), (0, True)), (k, 0, 5))    # closes to 3 + 4 + 5 = 12
    kept = sympy.Sum(sympy.Piecewise((1, j > m), (0, True)), (j, 0, n))             # bounds not numbers: stays
    shared = sympy.Max(0, n - 1) * (numeric + kept)
    expr = sum((shared + i) * sympy.Symbol(f"P{i}") for i in range(40))
    counting._resummed.cache_clear()
    closed = counting.resum(expr)
    assert closed == expr.replace(lambda e: isinstance(e, sympy.Sum), counting._resummed.__wrapped__)
    assert closed.subs({n: 3, m: 1, **{sympy.Symbol(f"P{i}"): 1 for i in range(40)}}).doit() == \
        sum((2 * (12 + 2) + i) for i in range(40))
    info = counting._resummed.cache_info()
    assert (info.misses, info.hits) == (2, 0)  # each distinct Sum closed once, not 40 times


def test_an_inner_sum_bounded_by_the_outer_index_closes_term_by_term():
    """Σ_{k=1..4} Σ_{j=1..k} min(j, 3) = 1 + 3 + 6 + 9: the inner sum stays open while k is a symbol; once the
    outer sum is written out term by term its bounds are numbers, and it closes too (left open, a count bound
    at a call kept sums of numbers that no later step adds up, and a report printed them as formulas)."""
    j, k = sympy.Symbol("j", integer=True), sympy.Symbol("k", integer=True)
    inner = open_sum(sympy.Min(j, 3), (j, 1, k))
    assert resum(inner).has(sympy.Sum)
    assert resum(open_sum(inner, (k, 1, 4))) == 19


def test_a_sum_closes_whichever_object_its_index_is():
    """The index of a sum and the one in its summand can be equal symbols but two objects: sympy's cache of
    symbols keeps so many, and one made again after it dropped the first is new. A test of identity took
    the summand 30k + 30 for no polynomial in k, and the sum stayed open, Σ_{k=0}^{6} (30k + 30) as a
    count, in whichever test ran after the cache had turned over (one full run in three)."""
    from sympy.core.cache import clear_cache
    k_summand = sympy.Symbol("k_open", integer=True, nonnegative=True)
    clear_cache()
    k_index = sympy.Symbol("k_open", integer=True, nonnegative=True)
    assert k_summand == k_index and k_summand is not k_index
    n = sympy.Symbol("NN_open", integer=True)
    closed = resum(sympy.Sum(30 * k_summand + 30, (k_index, 0, n - 1)))
    assert not closed.has(sympy.Sum)
    assert closed.subs(n, 7) == sum(30 * k + 30 for k in range(7)) == 840
