"""A block size from a function of the sizes, reset where it does not fit, and the argument checks that follow
it (LAPACK's DGELQ, written anew in tests/analysis/blas/blocksize.f): a MOD on NB - M guarded by NB > M, a
workspace size chosen on NB, INFO from a chain of checks on both. Counts cross-checked against gcov."""
from __future__ import annotations

from pathlib import Path

import sympy

from sad.analysis.pipeline import analyze
from tests.analysis.fixtures import gcov_rows, line_of

FIXTURE = str(Path(__file__).resolve().parent / "blas" / "blocksize.f")


def test_a_mod_guarded_against_a_zero_divisor_is_no_internal_error():
    """`MOD(N - M, NB - M)` under `NB.GT.M`, where NB may be M: folded with that piece, sympy's Mod by 0
    raised, and both routines were internal errors (DGELQ in every caller)."""
    analysis = analyze([FIXTURE])
    assert [d.message for d in analysis.diagnostics if d.severity == "error"] == []
    assert not analysis.table.unresolved()


def test_the_header_stored_after_the_checks_and_the_work_have_exact_counts(capsys):
    """FACT(40, 40): NB = 40 is reset to N = 40, INFO = 0, the work loop runs 40 trips; FACT(40, 120): NB =
    40 <= M is reset to 120, INFO = 0, 120 trips, and T(3) = 120 bounds the caller's loop. Before: INFO past
    its checks (LWORK against LWREQ, LWREQ chosen on NB, NB on the function's value) was past the depth the
    values are followed to, the header and the work unbound."""
    rows = gcov_rows(capsys, FIXTURE, "./blocksize")
    assert rows[line_of(FIXTURE, "T(3) = NB")] == ["2", "2"]
    assert rows[line_of(FIXTURE, "WORK(MIN(I, LWORK)) = WORK")] == ["160", "160"]
    assert rows[line_of(FIXTURE, "S = S + 1.0D0")] == ["120", "120"]


def test_a_conjunction_of_tests_on_different_choices_folds_operand_by_operand():
    """Clauses on two choices with different tests: each clause becomes an if-then-else of its own (as many
    operands as before, no choice left), true exactly where sympy's fold over every combination is."""
    from sad.analysis.sumfold import _fold, _sympy_fold
    m, n, nb, k = (sympy.Symbol(s, integer=True) for s in ("M", "N", "NB", "K"))
    block = sympy.Piecewise((m, m * n <= 131072), (32768 / m, True))
    need = sympy.Piecewise((n, (n <= m) | (nb >= n)), (m, True))
    test = sympy.And(block > k, k < need, sympy.Ne(m, 3), need > block, evaluate=False)
    folded = _fold(test)
    assert isinstance(folded, sympy.And) and not folded.has(sympy.Piecewise)
    theirs = _sympy_fold(test)
    for values in ({m: 40, n: 40, nb: 40, k: 10}, {m: 40, n: 120, nb: 60, k: 50}, {m: 9000, n: 20, nb: 1, k: 2},
                   {m: 3, n: 4, nb: 9, k: 0}, {m: 40, n: 20, nb: 30, k: 39}):
        assert folded.subs(values) == theirs.subs(values)


def test_a_piece_dividing_by_zero_folds_to_undefined():
    """Mod(N - M, NB - M) with NB a choice whose second piece is M: that piece is undefined (nan), not an
    exception, and the other piece keeps its value."""
    from sad.analysis.sumfold import _fold
    m, n, k = (sympy.Symbol(s, integer=True, positive=True) for s in ("M", "N", "K"))
    nb = sympy.Piecewise((n, k > 2), (m, True))
    folded = _fold(sympy.Mod(n - m, nb - m, evaluate=False) + 1)
    assert folded.subs({k: 3, m: 4, n: 10}) == 1
    assert folded.subs({k: 1, m: 4, n: 10}) is sympy.nan
