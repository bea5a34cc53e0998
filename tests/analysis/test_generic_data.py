"""The generic-data assumption (issue 29): tests of floating-point data decided as for data in general, each
with a note and listed; switched off, they are named probabilities; a probability the user binds wins. Counts
cross-checked against gcov."""
from __future__ import annotations

from pathlib import Path

import sympy

from sad.analysis import genericdata
from sad.analysis.pipeline import analyze
from sad.cli.main import main
from sad.ir import nodes as ir
from tests.analysis.fixtures import gcov_rows, line_of

FIXTURE = str(Path(__file__).resolve().parent / "blas" / "generic.f")


def _datum(name: str) -> sympy.Expr:
    return genericdata.datum(ir.Var(name, type="double"))


def test_the_model_on_comparisons():
    x, y = _datum("X"), _datum("Y")
    safmin = sympy.Integer(2) ** -1022
    bignum = 1 / (safmin / sympy.Integer(2) ** -53)
    assert genericdata.decide("eq", x, 0, "double") is sympy.false
    assert genericdata.decide("ne", x, 1, "double") is sympy.true
    assert genericdata.decide("eq", x, y, "double") is sympy.false
    assert genericdata.decide("ne", x, _datum("X"), "double") is sympy.false      # X.NE.X: no NaN
    assert genericdata.decide("lt", sympy.Abs(x), safmin, "double") is sympy.false
    assert genericdata.decide("gt", sympy.Abs(x), 0, "double") is sympy.true
    assert genericdata.decide("gt", x, bignum, "double") is sympy.false          # whatever its sign
    assert genericdata.decide("gt", x, -bignum, "double") is sympy.true
    assert genericdata.decide("lt", x, safmin, "double") is None                 # X may be negative
    assert genericdata.decide("gt", sympy.Abs(x), y, "double") is None           # a maximum search
    assert genericdata.decide("lt", sympy.Abs(x), sympy.Rational(1, 2), "double") is None
    eps = sympy.Integer(2) ** -53
    assert genericdata.decide("lt", sympy.Abs(x), eps, "double") is None         # a tolerance, not a threshold
    # single precision: SMLNUM = SQRT(SAFMIN)/EPS = 2**-39 is beyond the band (2**-31), 2**-24 is not
    assert genericdata.decide("lt", sympy.Abs(x), sympy.Integer(2) ** -39, "real") is sympy.false
    assert genericdata.decide("lt", sympy.Abs(x), sympy.Integer(2) ** -24, "real") is None
    assert genericdata.decide("lt", 1, 2, "double") is None                     # no data: not asked here


def test_a_comparison_asked_again_is_answered_from_memory():
    """A test of a large value of data against its own rewriting (DLAED6's secular equation) is expanded once;
    asked again, the same answer comes from memory. A Float 1.0 is not taken for the
    Integer 1 (sympy tells them apart), so X*1.0 - X stays a question of its own."""
    x, y = _datum("X"), _datum("Y")
    f = (x + 2 * y) ** 3 * (x - y) + x * y
    g = sympy.expand(f)
    genericdata.decide.cache_clear()
    assert genericdata.decide("eq", f, g, "double") is sympy.true
    assert genericdata.decide("ne", f, g + 1, "double") is sympy.true
    before = genericdata.decide.cache_info()
    assert genericdata.decide("eq", f, g, "double") is sympy.true
    after = genericdata.decide.cache_info()
    assert (after.hits, after.misses) == (before.hits + 1, before.misses)
    assert genericdata.decide("eq", x * sympy.Integer(1), x, "double") is sympy.true
    assert genericdata.decide("eq", sympy.Mul(x, sympy.Float(1.0), evaluate=False), 2 * x, "double") is sympy.false


def test_data_tests_are_decided_with_notes_and_equal_gcov(capsys):
    """NORMAL's `X(I).NE.0` (true), `S.EQ.0` and `ABS(S).LT.SAFMIN` (false) and SCALE's `DA.EQ.1` at the
    call passing X(3) (false) are decided; at the call passing 1.0 it is exact (true). The maximum search
    `ABS(X(I)).GT.BIG` compares two data values: it stays a probability (taken at I = 1 of 10)."""
    analysis = analyze([FIXTURE])
    assert [p.name for p in analysis.table.unresolved()] == ["P_NORMAL_IF4"]
    decided = [(loc.line, test, value) for loc, test, value in analysis.generic_decisions]
    assert decided == [(31, "X(I).NE.0.0", True), (34, "S.EQ.0.0", False), (37, "ABS(S).LT.SAFMIN", False),
                       (13, f"SCALE's test Eq(SCALE.DA, 1) at {FIXTURE}:20, on the data this call passes", False)]
    notes = [d for d in analysis.diagnostics if "generic data" in d.message]
    assert sorted(d.loc.line for d in notes) == [13, 31, 34, 37]
    assert all(d.severity == "note" for d in notes)
    rc = main(["check-counts", FIXTURE, "-D", "P_NORMAL_IF4=0.1", "--require-bound", "--", "./generic"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out and "unbound" not in out.splitlines()[-1], out


def test_switched_off_the_tests_are_probabilities_and_a_bound_one_wins(capsys):
    off = analyze([FIXTURE], generic_data=False)
    assert sorted(p.name for p in off.table.unresolved()) == \
        ["P_NORMAL_IF1", "P_NORMAL_IF2", "P_NORMAL_IF3", "P_NORMAL_IF4", "P_SCALE_IF1"]
    assert not off.generic_decisions
    # a value the user binds (a profile's) is used instead of the assumption, for that test only
    bound = analyze([FIXTURE], overrides={"P_NORMAL_IF2": sympy.Rational(1, 2), "P_SCALE_IF1": sympy.Integer(0)})
    names = {p.name for p in bound.table if p.kind == "branch_probability"}
    assert {"P_NORMAL_IF2", "P_SCALE_IF1"} <= names and "P_NORMAL_IF3" not in names
    tests = [test for _, test, _ in bound.generic_decisions]
    assert "ABS(S).LT.SAFMIN" in tests and not any(test.startswith("SCALE's") for test in tests)
    rc = main(["check-counts", FIXTURE, "--no-generic-data", "--require-bound", "-q", "--", "./generic"])
    out = capsys.readouterr()
    assert rc == 1 and "unbound" in out.out.splitlines()[-1], out


def test_a_module_functions_result_through_its_generic_name(capsys):
    """LAPACK 3.11's DLASSQ tests `LA_ISNAN(scl) .or. LA_ISNAN(sumsq)`: the generic's DISNAN, a module
    procedure (linked as XNAN_MP_DXNAN), assigns its result to DXNAN, the name it is declared with, from
    an internal function's `x .ne. y` on the same datum: false. Before, the result variable was looked for
    under the linkage name: no value, the test a probability and 3 lines unbound (DLANGE('F')'s 29 lines of
    DLASSQ in a driver)."""
    fixture = str(Path(FIXTURE).with_name("isnan.f90"))
    analysis = analyze([fixture])
    assert not [p.name for p in analysis.table.unresolved()]
    assert gcov_rows(capsys, fixture, "./isnan")[27] == ["12", "12"]


def test_two_comparisons_of_one_datum_are_decided_together():
    """`X > 0 .AND. X < 2**-969` asks for positive data below the ordinary magnitudes: false, though neither
    comparison is decided alone (X's sign is unknown); joined by .OR. with `X > -1` it is open."""
    x = _datum("X")
    smlnum = sympy.Integer(2) ** -969
    assert genericdata.decide_jointly("and", [("gt", x, 0, "double"), ("lt", x, smlnum, "double")]) is sympy.false
    assert genericdata.decide_jointly("or", [("le", x, 0, "double"), ("ge", x, smlnum, "double")]) is sympy.true
    assert genericdata.decide_jointly("or", [("gt", x, 0, "double"), ("gt", x, -1, "double")]) is None
    assert genericdata.decide_jointly("and", [("gt", x, 0, "double"), ("lt", _datum("Y"), 1, "double")]) is None


def test_scaling_thresholds_through_a_routine_that_keeps_them(capsys):
    """tests/analysis/blas/scaled.f: LABAD's `LOG10(LARGE).GT.2000` is decided on the value passed (its
    LARGE is assigned only after the test), what it leaves in SMALL and LARGE is the value passed, and the
    norm's `ANRM.GT.ZERO .AND. ANRM.LT.S` and `ANRM.GT.B` are decided for generic data: only the maximum
    search stays a probability; bound, every line equals gcov's."""
    fixture = str(Path(__file__).resolve().parent / "blas" / "scaled.f")
    analysis = analyze([fixture])
    assert [p.name for p in analysis.table.unresolved()] == ["P_XNORM_IF1"]
    decided = {(loc.line, test): value for loc, test, value in analysis.generic_decisions}
    assert decided[(16, "(ANRM.GT.0.0.AND.ANRM.LT.S)")] is False
    gcov_rows(capsys, fixture, "./scaled", ("-D", "P_XNORM_IF1=0.7"))  # every line equal to gcov's


def test_loops_left_by_a_test_of_data_have_exact_trips_and_indices(capsys):
    """tests/analysis/blas/leave.f: `IF (V(L).NE.0) EXIT` holds on every pass for generic data, so its loop
    runs once and leaves L = 50, its first value; `IF (V(M).EQ.0) EXIT` never holds, so M = N + 1 = 51 past
    the end. The callee's loop over L + M runs 101 times; no named trip count, every line equals gcov's."""
    fixture = str(Path(__file__).resolve().parent / "blas" / "leave.f")
    analysis = analyze([fixture])
    assert not analysis.table.unresolved()
    line = line_of(fixture, "S = S + V(1)")
    assert [c for e, c in analysis.counts.items() if e.loc.line == line and e.role == "stmt"] == [101]
    gcov_rows(capsys, fixture, "./leave")  # every line equal to gcov's


def test_the_least_of_a_fixed_value_and_a_running_maximum_is_the_fixed_value(capsys):
    """tests/analysis/blas/runmax.f, DLARFT's sizes: LASTV left by its search loop on the first pass (N),
    PREVLV a running maximum that starts at N (MAX of itself, or LASTV): J = MIN(LASTV, PREVLV) is N on
    every pass, so WORK(J - I) runs 8 + 7 + 6 + 5 = 26 times for N = 9, K = 4. Every line equals gcov's."""
    fixture = str(Path(__file__).resolve().parent / "blas" / "runmax.f")
    analysis = analyze([fixture])
    assert not analysis.table.unresolved()
    line = line_of(fixture, "S = S + V(L)")
    assert [c for e, c in analysis.counts.items() if e.loc.line == line and e.role == "stmt"] == [26]
    gcov_rows(capsys, fixture, "./runmax")  # every line equal to gcov's


def test_a_pivot_tested_in_the_loop_that_sets_it_is_followed_once(capsys):
    """tests/analysis/blas/band.f, DPBTF2's shape: each triangle's loop leaves by `GO TO 30` where the
    pivot AJJ is not positive, and J is read after the loops. Whether a loop leaves early asks for AJJ's
    value at its test, which is followed through the loop that sets it, whose index J is read after it:
    that asked for AJJ again, without end (an internal error, "recursion too deep", DPBTF2 and DPBTRF
    unanalyzed). Now the second request has no answer, the pivot test is decided for generic data (AJJ =
    AB(.,J) > 0: the loops run to the end), and every line equals gcov's: 2 x 8 pivots, 2 x 13 scalings."""
    fixture = str(Path(FIXTURE).with_name("band.f"))
    analysis = analyze([fixture])
    assert not [d for d in analysis.diagnostics if d.severity == "error"]
    assert not analysis.table.unresolved()
    rows = gcov_rows(capsys, fixture, "./band")
    assert rows[32] == ["8", "8"] and rows[61] == ["26", "26"], rows


def test_a_relation_sympy_decides_once_the_calls_values_go_in():
    # AMOS's AZABS(ZR, ZI) called with ZR = 1, ZI = 0 known: ABS(ZR) + ABS(ZI) .EQ. 0 becomes False itself
    # (it was an internal error: the bound relation has no sides to decide for data)
    zr, zi = sympy.Symbol("AZABS.ZR", real=True), sympy.Symbol("AZABS.ZI", real=True)
    zero = sympy.Eq(sympy.Abs(zr) + sympy.Abs(zi), 0)
    smaller = sympy.Abs(zi) < sympy.Abs(zr)
    found = genericdata.decide_relations(zero & smaller, {zr: "double", zi: "double"},
                                         {zr: sympy.Integer(1), zi: sympy.Integer(0)})
    assert found == {zero: sympy.false, smaller: sympy.true}


def test_min_of_a_function_result_kept_as_its_call_is_untraced(tmp_path):
    # cdflib's PSI: XMAX = IPMPAR(3); XMAX = DMIN1(XMAX, 1/SPMPAR(1)), IPMPAR's result kept as its call
    # (its RETURN before END): sympy cannot order IPMPAR(3), and the routine was an internal error
    files = {
        "top.f": "      DOUBLE PRECISION FUNCTION TOP(X)\n      DOUBLE PRECISION X, XMAX, TINY\n"
                 "      INTEGER MPAR\n      EXTERNAL TINY, MPAR\n      XMAX = MPAR(3)\n"
                 "      XMAX = DMIN1(XMAX, 1.0D0/TINY(1))\n      TOP = 0.0D0\n"
                 "      IF (X .GE. XMAX) RETURN\n      TOP = X\n      END\n",
        "mpar.f": "      INTEGER FUNCTION MPAR(I)\n      INTEGER I, TABLE(4)\n"
                  "      DATA TABLE / 2, 53, 2147483647, -1021 /\n      MPAR = TABLE(I)\n      RETURN\n      END\n",
        "tiny.f": "      DOUBLE PRECISION FUNCTION TINY(I)\n      INTEGER I, MPAR, M\n      DOUBLE PRECISION B\n"
                  "      EXTERNAL MPAR\n      IF (I .GT. 1) GO TO 10\n      B = MPAR(1)\n      M = MPAR(2)\n"
                  "      TINY = B**(1 - M)\n      RETURN\n   10 TINY = 1.0D0\n      END\n"}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    sad = analyze([str(tmp_path / name) for name in files])
    assert sad.internal_errors == [] and sad.errors == []
    assert "TOP" in {event.procedure for event in sad.counts}


def test_a_variable_that_may_hold_an_assigned_constant_is_not_data_alone(capsys):
    """tests/analysis/blas/tscalopen.f: T is ONE or a quotient of data, and its value is not followed to the
    test (a search loop jumps into the routine's middle): `T.NE.1.0` is a choice of data and ONE, open, not
    decided true as for data alone (which counted the loop the run takes 0 times: DLATRS in DGECON and
    DTRCON, 17 and 11 lines differing from gcov). With its probability bound as the run takes it, every line
    equals gcov's."""
    fixture = str(Path(FIXTURE).with_name("tscalopen.f"))
    analysis = analyze([fixture])
    decided = line_of(fixture, "IF (X(I) .GT. 1.0D100)")
    assert [(loc.line, text) for loc, text, _ in analysis.generic_decisions] == [(decided, "X(I).GT.1e+100")]
    assert [p.name for p in analysis.table.unresolved()] == ["P_SCALO_IF2"]
    rows = gcov_rows(capsys, fixture, "./tscalopen", ("-D", "P_SCALO_IF2=0"))
    assert rows[line_of(fixture, "S = S + X(I)")] == ["5", "5"]


def test_a_value_chosen_past_jumps_is_followed_to_its_test(capsys):
    """tests/analysis/blas/tscal.f: DLATRS's TSCAL, ONE on data, in two forms whose value the conditional
    run now follows: a test in the ELSE arm of `IF (UP)` (a LOGICAL argument) whose THEN arm jumps to a
    label of its own, and Fortran 66's ELSE (`IF (TM.LE.1.0D100) GO TO 40` over the quotient). T is ONE at
    both tests, copied (the quotient never runs), so `T.NE.1.0` is false: nothing is left unbound, every
    line equals gcov's (the loops run 5 times each)."""
    fixture = str(Path(FIXTURE).with_name("tscal.f"))
    analysis = analyze([fixture])
    assert sorted(text for _, text, _ in analysis.generic_decisions) == ["TM.LE.1e+100"] * 2
    assert analysis.table.unresolved() == []
    rows = gcov_rows(capsys, fixture, "./tscal")
    assert rows[line_of(fixture, "S = S + X(I)")] == ["5", "5"]
    assert rows[line_of(fixture, "   70 CONTINUE") - 1] == ["5", "5"]
    assert rows[line_of(fixture, "T = 1.0D0 / TM")] == ["0", "0"]


def test_a_stored_constant_that_leaves_a_side_undefined_leaves_the_test_open():
    """A side that is data or a stored ZERO, in a quotient: with ZERO put in, 1/0 is zoo and 0/0 nan,
    which sympy refuses to order (DBDSQR in a DGESVD driver stopped on `Invalid NaN comparison`). The test
    is open (None), and one whose every choice has a value is still decided."""
    x = genericdata.Either(genericdata.formal_datum("X"), sympy.Integer(0))
    assert genericdata.decide("gt", 1 / x, sympy.Integer(1), "double") is None
    assert genericdata.decide("eq", x / x, sympy.Integer(1), "double") is None
    assert genericdata.decide("lt", x, sympy.Integer(10) ** 400, "double") is sympy.true


def test_a_function_that_returns_zero_for_some_arguments_is_not_data_alone(capsys):
    """tests/analysis/blas/fnzero.f: XNRM (DNRM2's shape) returns ZERO where its N <= 0, else a norm of
    data, and REFL tests `XNORM.EQ.ZERO` on XNRM(N - 1, X) (DLARFGP's test in DGEQR2P, 54 lines differing
    from gcov there). The test is `N - 1 <= 0`, exact at each call: the THEN arm once (N = 1), the ELSE
    four times, every line equal to gcov's with nothing bound."""
    fixture = str(Path(FIXTURE).with_name("fnzero.f"))
    analysis = analyze([fixture])
    assert analysis.table.unresolved() == []
    rows = gcov_rows(capsys, fixture, "./fnzero")
    assert rows[line_of(fixture, "S = S + 1.0D0")] == ["1", "1"]
    assert rows[line_of(fixture, "S = S + XNORM")] == ["4", "4"]


def test_a_callees_data_test_is_multiplied_out_only_where_it_is_small():
    """sad.analysis.calls._expanded: DLASQ5's `TAU < EPS*(SIGMA + TAU)/2` is also replaced in the form counts
    multiply it into (its sides expanded); a test of DLAED6's size (a rational function of eight data under
    ABS, hundreds of nodes) stays as it is: expanding it took DLASD4's file past the time limit."""
    from sad.analysis.calls import _EXPAND_NODES, _expanded
    from sad.analysis.products import larger_than
    tau, eps, sigma = sympy.symbols("TAU EPS SIGMA", positive=True)
    small = sympy.Piecewise((1, tau < eps * (sigma + tau) / 2), (0, True))
    assert _expanded(small) == sympy.Piecewise((1, sympy.StrictLessThan(tau, eps * sigma / 2 + eps * tau / 2,
                                                                        evaluate=False)), (0, True))
    d = sympy.symbols("D1:5", positive=True)
    z = sympy.symbols("Z1:5", positive=True)
    side = sum((z[i] + z[j]) * (d[i] - d[j]) / (d[i] + d[j] + z[i]) for i in range(4) for j in range(4) if i != j)
    large = sympy.Piecewise((1, sympy.Abs(side) < sympy.Abs(side * (d[0] + z[0]))), (0, True))
    assert larger_than(large.args[0][1], _EXPAND_NODES)
    assert _expanded(large) is large
