"""Products of counts (sad.analysis.products.mul): built like sympy's own product, byte for byte, but a
new factor is inserted in order instead of every factor sorted again (counts nested k IFs deep are
products of k probabilities), and the substitution of a call's actuals (sad.analysis.counting.substitute)
gives xreplace's result."""
from __future__ import annotations

import random

import sympy

from sad.analysis.counting import substitute
from sad.analysis.products import mul, times, total

P = sympy.symbols("P_A_IF1 P_A_IF2 P_Z_IF9 X_B_L3 N M K")


def _factor(rng: random.Random) -> sympy.Expr:
    s = rng.choice(P)
    return rng.choice([s, 1 - s, s ** rng.randint(-2, 3), sympy.Integer(rng.randint(-3, 5)),
                       sympy.Rational(1, rng.randint(2, 5)), sympy.Max(0, s - 1), s + rng.choice(P),
                       sympy.Float(rng.choice([2.5e-7, -1.0, 3.0])), sympy.Max(0, s) ** 2])


def test_products_are_sympys_own():
    rng = random.Random(11)
    for _ in range(600):
        product = sympy.Integer(1)
        for _ in range(rng.randint(1, 6)):
            product *= _factor(rng)
        factor = _factor(rng)
        for a, b in ((factor, product), (product, factor)):
            want, got = a * b, mul(a, b)
            assert (got, type(got), got.args, str(got)) == (want, type(want), want.args, str(want))


def test_a_deep_product_of_probabilities():
    count = sympy.Integer(1)
    for p in reversed(P[:3]):
        count = mul(p, count)
    count = mul(1 - P[3], count)
    assert count == P[0] * P[1] * P[2] * (1 - P[3])
    assert mul(P[0], count) == P[0] ** 2 * P[1] * P[2] * (1 - P[3])  # a repeated factor combines


def test_substitution_is_xreplace():
    n, m, i = sympy.symbols("GEMM.N GEMM.M I")
    count = sympy.Max(0, n) * sympy.Max(0, m - 1) + sympy.Max(0, n - i) + P[0] * sympy.Max(0, n)
    for subs in ({n: sympy.Integer(5)}, {n: m + 1}, {n: sympy.Integer(-3), m: sympy.Integer(4)}, {}):
        want, got = count.xreplace(subs), substitute(count, subs)
        assert got == want and str(got) == str(want)
    assert substitute(count, {n: sympy.Integer(5), m: sympy.Integer(4)}) == 15 + sympy.Max(0, 5 - i) + 5 * P[0]


def test_an_interned_float_is_the_first_equal_one():
    """products.interned gives the Float met first with the same binary value and precision (whose
    assumptions sympy has deduced already), the value itself for anything else; a Float of the same value
    at another precision, or of another value, is its own."""
    from sad.analysis.products import interned
    first = sympy.Float(0.123456789012345) * 7  # a value no other test meets
    again = sympy.Float._new(first._mpf_, first._prec)  # equal, another object
    assert again is not first and interned(first) is first and interned(again) is first
    assert interned(sympy.Float(str(first), 30)) is not first
    assert interned(sympy.Float(float(first) * (1 + 1e-15))) is not first
    n = sympy.Symbol("N")
    assert interned(n) is n and interned(sympy.Integer(3)) is sympy.Integer(3)
    assert sympy.srepr(interned(again) * n) == sympy.srepr(again * n)


def test_edge_weights_already_expanded_are_sympys_expansion():
    """buildstate.expanded and products.expand give sympy.expand's tree, also when they skip sympy for a
    sum of products of numbers, symbols and their integer powers (an IF arm's 1 - P), on random weights."""
    from sad.analysis.buildstate import expanded
    from sad.analysis.products import expand, multiplied_out
    rng = random.Random(3)
    shortcut = 0
    for _ in range(400):
        weight = sympy.Integer(rng.randint(-2, 2))
        for _ in range(rng.randint(1, 4)):
            term = sympy.Integer(rng.randint(-3, 3)) * rng.choice(P) ** rng.randint(-1, 3) * \
                rng.choice([1, rng.choice(P), sympy.Rational(1, 3), sympy.Float(0.5), sympy.Max(0, P[5] - 1)])
            weight = weight + term if rng.random() < 0.7 else weight * (1 - term)
        assert sympy.srepr(expanded(weight)) == sympy.srepr(sympy.expand(weight)), weight
        assert sympy.srepr(expand(weight)) == sympy.srepr(sympy.expand(weight)), weight
        shortcut += multiplied_out(weight)
    assert 100 < shortcut < 400  # both ways taken


def test_a_shared_count_expands_as_sympy_expands_it():
    """products.expand walks each distinct subexpression once per hint, and gives sympy.expand's tree: a
    callee's body under its caller's probability, whose indicators of tests on the index occur in many
    terms, with products inside Max and Piecewise (sympy expands those too) and a power of a sum."""
    from sad.analysis import products
    n, k = sympy.symbols("N k", integer=True)
    tests = [sympy.Piecewise((1, sympy.Le(k + j, n * (n - 1))), (0, True)) for j in range(3)]
    count = (1 - P[0]) * (P[1] * (2 * (1 - tests[0]) * (1 - tests[1]) + tests[2] * sympy.Max(0, (n - k) * (n + 1)))
                          + (1 - P[1]) * (tests[0] + 3) * (P[2] - tests[1]) ** 2)
    for weight in (count, count * (k + 1), sympy.Max(0, count * (n - 1))):
        assert sympy.srepr(products.expand(weight)) == sympy.srepr(sympy.expand(weight)), weight
    assert "(N - 1)*N" not in str(products.expand(count))  # expanded inside the indicators' conditions too


def test_a_sum_of_priced_terms_is_sympys_own():
    """total(terms) is sympy.Add(*terms), tree for tree: counts times seconds, some with the same count (their
    coefficients add up, in Add.flatten's order), sums among them (their terms collected), numbers, a term
    that cancels another, and terms sympy must handle itself (a number to a power, infinity)."""
    rng = random.Random(3)
    for _ in range(250):
        terms = []
        for _ in range(rng.randint(1, 9)):
            count = sympy.Integer(1)
            for _ in range(rng.randint(0, 3)):
                count *= _factor(rng)
            seconds = sympy.Float(rng.choice([2.5e-7, 1.0e-6, 3.25e-8, 0.1]))
            terms.append(times(count, seconds))
        if rng.random() < 0.3:
            terms.append(-terms[0])
        if rng.random() < 0.2:
            terms.append(rng.choice([sympy.Float(1.5e-6), sympy.Integer(2) ** sympy.Rational(1, 2), sympy.oo]))
        want, got = sympy.Add(*terms), total(list(terms))
        assert sympy.srepr(got) == sympy.srepr(want), terms
    assert total([]) == 0 and total([sympy.Integer(0), P[0]]) is P[0]


def test_a_free_block_costs_nothing_without_walking_shared_subtrees():
    """times(count, 0) is 0 unless the count holds an infinity; the check visits each distinct subexpression
    once (sympy's has() visits a shared one at each occurrence: 2^40 visits here)."""
    from sympy.core.basic import Basic
    p, x = sympy.Symbol("P"), sympy.Symbol("X")
    shared = x
    for _ in range(40):  # raw trees: sympy's constructors would walk the whole tree too
        shared = sympy.Add._from_args((sympy.Mul._from_args((p, shared)), Basic.__new__(sympy.Max, shared, x)))
    assert times(shared, sympy.S.Zero) == 0
    assert times(x + sympy.oo, sympy.S.Zero) is sympy.nan     # 0 × ∞ stays sympy's answer


def test_expansions_share_their_subexpressions_across_calls(monkeypatch):
    """The hints' answers for subexpressions are kept from one expansion to the next (counts of one loop
    body share their factors), each expansion still sympy.expand's tree; the memo is emptied past its
    limit and expansions go on the same."""
    from sad.analysis import products
    n, k = sympy.symbols("N k", integer=True)
    shared = (1 - P[0]) * (P[1] + sympy.Piecewise((1, sympy.Le(k, n)), (0, True))) * (n - k + 2)
    products._HINT_MEMOS.clear()
    for j in range(6):
        weight = (shared + P[2] * j) * (k + j) ** 2
        assert sympy.srepr(products._expanded(weight)) == sympy.srepr(sympy.expand(weight))
    kept = products._HINT_MEMOS["_eval_expand_basic"]  # the first hint: its keys are the formulas as given
    assert shared in kept  # the shared factor's answer, kept for the next count
    before = len(kept)
    monkeypatch.setattr(products, "_HINT_MEMO_LIMIT", 3)
    weight = shared * (P[3] - 1) + k
    assert sympy.srepr(products._expanded(weight)) == sympy.srepr(sympy.expand(weight))
    assert len(products._HINT_MEMOS["_eval_expand_basic"]) < before  # emptied, then filled again
