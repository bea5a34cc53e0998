"""What holds past a routine's argument checks (sad.analysis.callsite: the IFs before a call whose arms return):
`IF (INFO.NE.0) RETURN` after a chain of checks that set INFO means every check passed, in the form the
choices of a value at the call test (DGETSLS' workspace sizes at its factoring call)."""
from __future__ import annotations

import sympy

from sad.analysis.callsite import negated

M, N, LDA, LWORK = (sympy.Symbol(s, integer=True) for s in ("M", "N", "LDA", "LWORK"))

# INFO as DGETSLS' checks leave it: -10 where they pass and the workspace is short, -2, -3, -6 where one fails
INFO = sympy.Piecewise((sympy.Piecewise((-10, LWORK < N + 5), (0, True)), (M >= 0) & (N >= 0) & (LDA >= M)),
                       (-2, M < 0), (-3, N < 0), (-6, LDA < M), (0, True))


def test_past_a_return_on_a_failed_check_every_check_passed():
    """`INFO.NE.0` false: INFO is 0, taken either in the first piece (where M >= 0, N >= 0, LDA >= M hold and
    the workspace is not short) or in the last (where M < 0, N < 0 and LDA < M all failed): both say the
    same of the checks, noted with their negations; of the workspace only the first says anything, so
    nothing is noted of it."""
    known: dict = {}
    negated(sympy.Ne(INFO, 0), known)
    assert known[M >= 0] is sympy.true and known[M < 0] is sympy.false
    assert known[N >= 0] is sympy.true and known[LDA >= M] is sympy.true
    assert (LWORK < N + 5) not in known and (LWORK >= N + 5) not in known
    size = sympy.Piecewise((M * N + 5, (M >= 0) & (N >= 0) & (LDA >= M)), (sympy.Symbol("T_1"), True))
    assert size.xreplace(known) == M * N + 5


def test_a_disjunction_that_failed_fails_in_every_part():
    """`IF (LQUERY) RETURN` with LQUERY = (LWORK.EQ.-1 .OR. LWORK.EQ.-2): both comparisons are false past it,
    their negations true."""
    known: dict = {}
    negated(sympy.Eq(LWORK, -1) | sympy.Eq(LWORK, -2), known)
    assert known == {sympy.Eq(LWORK, -1): sympy.false, sympy.Ne(LWORK, -1): sympy.true,
                     sympy.Eq(LWORK, -2): sympy.false, sympy.Ne(LWORK, -2): sympy.true}


def test_a_choice_with_a_value_not_a_number_tells_nothing_of_the_pieces_it_may_be():
    """INFO = K (a run-time value) where M < 0: INFO = 0 may come from that piece, so nothing is known of M."""
    info = sympy.Piecewise((sympy.Symbol("K"), M < 0), (0, True))
    known: dict = {}
    negated(sympy.Ne(info, 0), known)
    assert (M < 0) not in known and (M >= 0) not in known
