"""A Sum is normalized once per process for each summand and limits (sad.analysis.summemo): the second
build of the same Sum takes the first's normal form, tree for tree, without sympy's fold."""
from __future__ import annotations

import sympy

import sad.analysis.counting  # noqa: F401  (installs the memo, as every build does)
from sad.analysis import summemo


def _summand():
    k, n = sympy.symbols("k n", integer=True)
    return sympy.Piecewise((k, k > 2), (0, True)) * n + sympy.Piecewise((1, n > 0), (0, True)), (k, 1, n)


def test_the_second_build_is_remembered_and_equal():
    summand, limits = _summand()
    summemo._normalized.cache_clear()
    first = sympy.Sum(summand, limits)
    again = sympy.Sum(summand, limits)
    info = summemo._normalized.cache_info()
    assert (info.hits, info.misses) == (1, 1)
    assert sympy.srepr(again) == sympy.srepr(first)


def test_the_normal_form_is_sympys_own():
    summand, limits = _summand()
    summemo._normalized.cache_clear()
    ours = sympy.Sum(summand, limits)
    summemo._with_limits._common_new = summemo._sympy_common_new
    try:
        theirs = sympy.Sum(summand, limits)
    finally:
        summemo.install()
    assert sympy.srepr(ours) == sympy.srepr(theirs)
    # sympy's fold: the choice on the index k taken to the top of the summand, the one on n kept whole
    assert str(ours) == ("Sum(Piecewise((k*n + Piecewise((1, n > 0), (0, True)), k > 2), "
                         "(Piecewise((1, n > 0), (0, True)), True)), (k, 1, n))")


def test_each_build_gets_its_own_list_of_limits():
    summand, limits = _summand()
    first = summemo.common_new(sympy.Sum, summand, limits, discrete=True)
    second = summemo.common_new(sympy.Sum, summand, limits, discrete=True)
    assert first[1] == second[1] and first[1] is not second[1]


def _sympys(summand, limits):
    """sympy's own normal form of the summand (its _common_new, no memo, no skipping)."""
    return summemo._sympy_common_new(sympy.Sum, summand, limits, discrete=True)[0]


def test_a_summand_sympy_would_leave_as_it_is_is_not_normalized():
    k, n, m = sympy.symbols("k n m", integer=True)
    limits = (k, 1, n)
    # no choice on k (the one on n is masked by sympy): not walked by the fold at all
    plain = k * n + sympy.Piecewise((1, n > m), (0, True))
    # a choice on k at the top, its values free of choices on k, its conditions free of ITE
    top = sympy.Piecewise((k * sympy.Piecewise((1, n > 0), (0, True)), k < m), (0, True))
    for summand in (plain, top):
        assert summemo._normal(summand, frozenset({k}))
        summemo._normalized.cache_clear()
        ours = sympy.Sum(summand, limits)
        assert ours.function is summand and ours.limits == (sympy.Tuple(k, 1, n),)
        assert sympy.srepr(_sympys(summand, limits)) == sympy.srepr(summand)


def test_a_summand_the_fold_changes_goes_to_sympy():
    k, n, m = sympy.symbols("k n m", integer=True)
    limits = (k, 1, n)
    inside = n * sympy.Piecewise((k, k > 2), (0, True))  # taken to the top by the fold
    ite = sympy.Piecewise((1, sympy.ITE(n > m, k < n, k < m)), (0, True))  # its ITE condition rewritten
    for summand, folded in ((inside, "Piecewise((k*n, k > 2), (0, True))"),
                            (ite, "Piecewise((1, ((m >= n) | (k < n)) & ((k < m) | (m < n))), (0, True))")):
        assert not summemo._normal(summand, frozenset({k}))
        summemo._normalized.cache_clear()
        ours = sympy.Sum(summand, limits)
        assert str(ours.function) == folded and sympy.srepr(ours.function) == sympy.srepr(_sympys(summand, limits))
