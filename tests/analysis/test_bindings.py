"""bindings.bind: substitution by name, chained values, bound variables left alone, and the memo shared
between calls giving what a fresh xreplace gives."""
from __future__ import annotations

import sympy

from sad.analysis import extremes
from sad.analysis.bindings import bind, evaluate

N = sympy.Symbol("N", integer=True, positive=True)
N_PLAIN = sympy.Symbol("N")  # same name, other assumptions: bound by name all the same
M = sympy.Symbol("M", integer=True, positive=True)
RCUT = sympy.Symbol("RCUT", positive=True)
BOXL = (N / sympy.Rational(4, 5)) ** sympy.Rational(1, 3)
CELLS = sympy.Min(40, sympy.floor(BOXL / sympy.Min(RCUT, BOXL / 2)))


def test_binds_by_name_whatever_the_assumptions():
    assert bind(N + N_PLAIN + M, {"N": sympy.Integer(3)}) == 6 + M


def test_a_value_may_name_other_bound_parameters():
    assert bind(N * M, {"N": 2 * M + 1, "M": sympy.Integer(5)}) == 55


def test_min_of_numbers_is_the_number_and_symbolic_min_stays():
    assert bind(CELLS, {"N": sympy.Integer(500), "RCUT": sympy.Rational(5, 2)}) == 3  # floor(8.549/2.5)
    assert bind(CELLS, {"N": sympy.Integer(864000), "RCUT": sympy.Integer(1)}) == 40  # floor(102.6) > 40
    partly = bind(CELLS, {"N": sympy.Integer(500)})
    assert partly.free_symbols == {RCUT}
    assert partly == CELLS.xreplace({N: sympy.Integer(500)})


def test_piecewise_picks_its_arm():
    ncell = sympy.Piecewise((M**3, M >= 3), (0, True))
    assert bind(ncell, {"M": sympy.Integer(4)}) == 64
    assert bind(ncell, {"M": sympy.Integer(2)}) == 0


def test_a_sums_index_is_not_a_parameter():
    i = sympy.Symbol("N")  # the index has the bound name: it must stay the index
    total = sympy.Sum(i * M, (i, 1, 3))
    assert evaluate(bind(total, {"N": sympy.Integer(100), "M": sympy.Integer(2)})) == 12.0


def test_shared_memo_gives_fresh_results_for_changed_bindings():
    values = {"N": sympy.Integer(500), "RCUT": sympy.Rational(5, 2)}
    assert bind(CELLS * M, values) == 3 * M
    values["RCUT"] = sympy.Integer(1)  # the same dict, changed: not the memo of the old content
    assert bind(CELLS * M, values) == 8 * M
    for n in (100, 500, 2000, 8000, 100000):  # many sets of bindings (more than the memo keeps)
        point = {"N": sympy.Integer(n), "RCUT": sympy.Integer(2)}
        assert bind(CELLS, point) == CELLS.xreplace({N: n, RCUT: 2})
        assert bind(CELLS + M, point) == CELLS.xreplace({N: n, RCUT: 2}) + M


def test_remembered_extremes_are_sympys_own():
    x = sympy.Symbol("x")
    assert extremes.minimum(2, x) == sympy.Min(2, x)
    assert extremes.minimum(2.0, x) == sympy.Min(sympy.Float(2.0), x)  # 2 and 2.0 are different keys
    assert extremes.minimum(2.0, x) != extremes.minimum(2, x)
    assert extremes.maximum(0, N - 3, N - 5) == sympy.Max(0, N - 3)  # N - 5 dominated
    assert extremes.minimum(CELLS, 40) == CELLS  # the same as building it again
    pieces = ((M**3, M >= 3), (0, True))
    assert extremes.build(sympy.Piecewise, pieces) == sympy.Piecewise(*pieces)
    assert extremes.rebuild(sympy.Add, (N, M)) == N + M


def test_a_sum_with_whole_float_bounds_is_added_up_exactly():
    k = sympy.Symbol("k", integer=True)
    # sympy's float() of this Sum fails (Euler-Maclaurin on floor); a fitted NSTEP of 10.0 gives such bounds
    assert evaluate(sympy.Sum(sympy.floor(k / 3), (k, 0, sympy.Float(10.0)))) == 15.0  # 0,0,0,1,1,1,2,2,2,3,3
    ncell = sympy.Piecewise((864, sympy.Eq(k, 4)), (0, True))
    assert evaluate(sympy.Sum(ncell, (k, sympy.Float(0.0), sympy.Float(9.0)))) == 864.0


def test_an_untouched_subexpression_is_returned_as_itself():
    from sympy.core.cache import clear_cache
    first = CELLS * M + 1
    clear_cache()
    second = sympy.Min(40, sympy.floor(BOXL / sympy.Min(RCUT, BOXL / 2))) * M + 1   # equal, another object
    assert first == second and first is not second
    values = {"Q": sympy.Integer(2)}
    assert bind(first, values) is first and bind(second, values) is second
    q = sympy.Symbol("Q")
    assert bind(second * q, {"Q": sympy.Integer(3)}) == 3 * second
