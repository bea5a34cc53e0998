"""Stored constants (sad.analysis.storedconstants): a test of data is not decided for generic data where the
program itself may have stored the constant it compares with; where the elements that hold it are known
(sad.analysis.storedelements), the test is one of the element's index. The fixture is DLARFG/DLARFT's
shape: REFL leaves TAU = 0 where its length is 1 (the last call), APPLY tests the array later. Counts
against gcov."""
from __future__ import annotations

from pathlib import Path

import sympy

from sad.analysis import genericdata
from sad.analysis.journal import Journal
from sad.analysis.pipeline import analyze
from sad.analysis.storedconstants import StoredConstants
from sad.cli.main import main
from sad.frontends import load_file
from sad.ir import nodes as ir
from sad.ir.languages import resolve_name
from tests.analysis.fixtures import gcov_rows, line_of

FIXTURE = str(Path(__file__).resolve().parent / "blas" / "stored.f")


def _equals_gcov(capsys, fixture: str, binding: list[str], program: str, line: int, count: str) -> None:
    """`check-counts --require-bound` with the probabilities bound (`binding`: -D options): every line equal
    to gcov's, and the arm the rule is about counted `count` times by both."""
    assert gcov_rows(capsys, fixture, program, tuple(binding))[line] == [count, count]


def test_a_stored_zero_is_tested_by_element_and_a_data_guarded_one_is_decided(capsys):
    """`TAU(I).EQ.0` is the index test I >= 6: REFL stores 0 where M = N - I + 1 <= 1, the last of 6
    (sad.analysis.storedelements; before that rule, a probability; before stored constants, false for data:
    0 where gcov counts 1). `TAU(I).EQ.1` is still decided false (REFL's 1 is guarded by `ALPHA.EQ.0`, false
    for data), `A(I).NE.0` true (A holds no stored constant)."""
    analysis = analyze([FIXTURE])
    assert not analysis.table.unresolved()
    decided = [(loc.line, test, value) for loc, test, value in analysis.generic_decisions if loc.line >= 37]
    assert decided == [(40, "TAU(I).EQ.1.0", False), (43, "A(I).NE.0.0", True)]
    _equals_gcov(capsys, FIXTURE, [], "./stored", 38, "1")


def test_decided_only_where_each_stored_constant_agrees():
    x = genericdata.datum(ir.Var("X", type="double"))
    zero = frozenset({sympy.Integer(0)})
    held = genericdata.with_constants
    assert genericdata.decide("eq", held(x, frozenset()), 0, "double") is sympy.false
    assert genericdata.decide("eq", held(x, zero), 0, "double") is None
    assert genericdata.decide("eq", held(x, zero), 1, "double") is sympy.false    # 0 is not 1 either
    assert genericdata.decide("gt", held(sympy.Abs(x), zero), 0, "double") is None
    assert genericdata.decide("ne", 1, held(x, zero), "double") is sympy.true
    assert genericdata.decide("gt", held(sympy.Abs(x), frozenset({sympy.Integer(-1)})), 0, "double") \
        is sympy.true  # ABS(-1) > 0 as ABS(data) > 0: the constant stands inside the ABS


def test_in_c_a_zero_left_through_a_pointer_counts_and_one_left_in_a_value_parameter_does_not(capsys):
    """`*tau = 0.0` in refl leaves the zero in the caller's tau[i]: `tau[i] == 0.0` stays open (gcov: 1 of
    6); `x = 0.0` in leave assigns its own copy of y (C passes by value): nothing flows back."""
    fixture = str(Path(FIXTURE).with_name("cstored.c"))
    analysis = analyze([fixture])
    assert [p.name for p in analysis.table.unresolved()] == ["P_main_IF1"]
    assert [(loc.line, test, value) for loc, test, value in analysis.generic_decisions] == \
        [(16, "a[i] != 0.0", True)]
    _equals_gcov(capsys, fixture, ["-D", "P_main_IF1=0.16666666666666666"], "./cstored", 15, "1")


def test_a_constant_the_caller_set_before_its_loop_of_calls_keeps_the_callees_test_open(capsys):
    """DLANGE's shape: `SCALE = 0` and `SUM = 1` before a loop of SSQ calls that pass on what the last one
    left. SSQ's `SCL.EQ.0` holds at the first call only (gcov: 1 of 4): a probability, not false for data;
    `SUMSQ.EQ.0` is false for 1 and for data alike: still decided. Without the rule: 0 against gcov's 1."""
    fixture = str(Path(FIXTURE).with_name("reaching.f"))
    analysis = analyze([fixture])
    assert [p.name for p in analysis.table.unresolved()] == ["P_SSQ_IF2"]
    assert [(loc.line, value) for loc, _, value in analysis.generic_decisions] == [(14, False)]
    _equals_gcov(capsys, fixture, ["-D", "P_SSQ_IF2=0.25"], "./reaching", 26, "1")


def test_either_is_decided_only_where_data_and_each_constant_agree():
    x = genericdata.datum(ir.Var("X", type="double"))
    assert genericdata.decide("eq", genericdata.Either(x, 0), 0, "double") is None
    assert genericdata.decide("eq", genericdata.Either(x, 1), 0, "double") is sympy.false
    assert genericdata.decide("ne", 0, genericdata.Either(x, -1, 2), "double") is sympy.true


def test_a_constant_stored_where_a_stored_constant_leads_is_stored_too(capsys):
    """DLARFT's shape: FORM stores T's column I as zeros where TAU(I) is REFL's exact zero (the last one),
    MULT tests T(I,J).NE.0 as DTRMM tests its triangular factor. The zeros are the program's, in the columns
    from TAU's first zero on (sad.analysis.storedelements): MULT's test is the index test J < 5, 10 of 15 as
    gcov counts (before the element rules, a probability; before stored constants, 15 for data, a
    MISMATCH). FILL writes T before it tests it: its test is of its own data, decided (the zero goes down
    only into routines that read T and never write it)."""
    fixture = str(Path(FIXTURE).with_name("factor.f"))
    analysis = analyze([fixture])
    assert not analysis.table.unresolved()
    rc = main(["check-counts", fixture, "--require-bound", "--", "./factor"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out
    rows = [row.split() for row in out.splitlines() if "factor.f:55 arm" in row]
    assert rows and rows[0][2:4] == ["10", "10"], out
    filled = [row.split() for row in out.splitlines() if "factor.f:70 arm" in row]
    assert filled and filled[0][2:4] == ["15", "15"], out


def test_the_elements_holding_a_stored_zero_are_followed_through_blocks(capsys):
    """tests/analysis/blas/elements.f, DGEQRF's and DORMQR's shape at N = 7 in blocks of 3: FACT2 leaves
    TAU(7) = 0 (REFL's M - I + 1 <= 1); FACT passes TAU(I) per block to FACT2, then to FORMT, whose
    `TAU(I).EQ.0` is I >= FORMT.TAU@zero, bound at each call: M - I + 1 in FACT (7, 4, 1 for the blocks at
    1, 4, 7), APPLYB's own symbol - I + 1 in APPLYB, which the program binds to 7. By hand: 7 tests per
    pass, the zero once (the third block's first element), twice in all; gcov agrees. FORMU is also called
    with TAU2, zero at its even elements (no rule: MOD(I, 2) + 1 <= 1 is neither "from B on" nor "up to
    B"): its test stays a probability at both its calls (3 of 7 and 1 of 7: 4 of 14 bound)."""
    fixture = str(Path(FIXTURE).with_name("elements.f"))
    analysis = analyze([fixture])
    assert [p.name for p in analysis.table.unresolved()] == ["P_FORMU_IF1"]
    formt = line_of(fixture, "SUBROUTINE FORMT")
    zero_arm = formt + 5  # S = S + 1.0D0 in FORMT
    assert "S = S + 1.0D0" in Path(fixture).read_text().splitlines()[zero_arm - 1]
    assert [c for e, c in analysis.counts.items() if e.loc.line == zero_arm and e.role == "stmt"] == [2]
    assert not any(loc.line == formt + 4 for loc, _, _ in analysis.generic_decisions)  # an index test
    _equals_gcov(capsys, fixture, ["-D", "P_FORMU_IF1=0.2857142857142857"], "./elements", zero_arm, "2")


def test_a_stored_zero_passed_as_an_element_to_a_scalar_formal_is_not_data(capsys):
    """tests/analysis/blas/element.f, DORG2L's DLARF(..., TAU(I), ...) after DSYTD2's upper reduction: REFL
    leaves 0 in UP(1) (its length I <= 1, I running down) and in DN(5) (N - I <= 1); USE passes each element
    to SCALE, whose `TAU.NE.0` is false for those two of its 10 calls (gcov: 8 of 10). The calls from USE
    differ (no one rule for its TAU), so the test stays the arm's probability: 0.8 bound by hand, every line
    equals gcov's. Before: taken as true for generic data, 10 where gcov counts 8."""
    fixture = str(Path(FIXTURE).with_name("element.f"))
    analysis = analyze([fixture])
    assert [p.name for p in analysis.table.unresolved()] == ["P_SCALE_IF1"]
    test_line = line_of(fixture, "IF (TAU .NE. 0.0D0)")
    assert not any(loc.line == test_line for loc, _, _ in analysis.generic_decisions)
    _equals_gcov(capsys, fixture, ["-D", "P_SCALE_IF1=0.8"], "./element", test_line + 1, "8")


def test_a_fill_outside_any_test_leaves_the_element_rule(capsys):
    """tests/analysis/blas/fill.f, DGEHRD then DORGHR's DORG2R: FACT fills TAU(1:ILO-1) with zeros outside
    any test (no source of a stored constant, as storedconstants has it) and REFL leaves TAU(6) = 0; GEN
    passes TAU(1) to TAU(5) to SCALE, never the zero. The rule "zero from element 6 on" still holds for
    FACT's TAU, so SCALE's `TAU.NE.0` is the index test, true at all 5 calls; gcov agrees. Without the fill
    ignored there is no rule, and the test (no longer taken as true for any data) stays a probability."""
    fixture = str(Path(FIXTURE).with_name("fill.f"))
    analysis = analyze([fixture])
    assert not analysis.table.unresolved()
    _equals_gcov(capsys, fixture, [], "./fill", 53, "5")


def test_a_stored_zero_up_to_an_element_is_tested_going_down(capsys):
    """tests/analysis/blas/backward.f, DGERQF then DLARFT('Backward') and DTRMM('Lower'): REFL leaves 0
    where its length N - K + I <= 1, so FACTB's TAU holds it up to element K - N + 1 = 1. FORMT's
    `TAU(I).EQ.0` is then I <= 1: once in 6 (gcov agrees); its zeroed column 1 of T makes 5 of TRM's 15
    tests of T(L, J) fail (gcov: 10 taken). FORMT's `J = MAX(LASTV, PREVLV)` is 1 for the direction the
    call takes, PREVLV's forward definitions (the other arm of `IF (FWD)`) not reaching it: WORK's size is
    known. Before: the test and all that follows it were probabilities, 13 lines unbound."""
    fixture = str(Path(FIXTURE).with_name("backward.f"))
    analysis = analyze([fixture])
    assert not analysis.table.unresolved()
    zero_arm = line_of(fixture, "T(J, I) = 0.0D0")
    assert [c for e, c in analysis.counts.items() if e.loc.line == zero_arm and e.role == "stmt"] == [6]
    taken = line_of(fixture, "S = S + T(L, J)")
    _equals_gcov(capsys, fixture, [], "./backward", taken, "10")


def test_a_blocked_factorization_leaves_the_rule_of_its_unblocked_one(capsys):
    """tests/analysis/blas/blocked.f, DGERQF's shape: FACTBL calls FACTB on blocks going down, then on what
    is left with MU and NU set in either arm. Each block's bound, Min(IB, N - K + I + IB - 1) - (N - K + I +
    IB - 1) + 1 shifted by I - 1, is K - N + 1 on every trip (I >= 1 for TAU(I), MIN(M, N) <= N), and the
    last call's, with MU and NU as they are at the call, is K - N + 1 in both arms: one rule, "up to 1".
    USE's `TAU(I).EQ.0` after a blocked and an unblocked factorization: once in 6 each, as gcov counts.
    Before: FACTBL had no rule and the test was a probability (2 lines unbound)."""
    fixture = str(Path(FIXTURE).with_name("blocked.f"))
    zero_arm = line_of(fixture, "S = S + 1.0D0")
    _equals_gcov(capsys, fixture, [], "./blocked", zero_arm, "2")


def test_the_elements_holding_a_stored_zero_may_start_where_an_arm_says(capsys):
    """tests/analysis/blas/bidiag.f, DGEBRD's shape: PANEL and BIDIAG leave REFL's zero in TAUP from N - 1
    on where M >= N and from N on where M < N, each arm's writes agreeing: one rule, its bound chosen by
    the arm (a Piecewise of M >= N). BIDBLK's calls bind it at M - I + 1, N - I + 1, the same on every
    block once the test is written as M - N >= 0. USE's `TAUP(I).EQ.0`: twice after the square call, never
    after the wide one (gcov agrees). Before: the arms' rules differed, so none, and the test stayed open."""
    fixture = str(Path(FIXTURE).with_name("bidiag.f"))
    analysis = analyze([fixture])
    assert not analysis.table.unresolved()
    zero_arm = line_of(fixture, "S = S + 1.0D0")
    _equals_gcov(capsys, fixture, [], "./bidiag", zero_arm, "2")


def test_an_array_and_its_first_element_are_the_same_start(capsys):
    """tests/analysis/blas/firstel.f, DGGLSE's shape: WRAP fills WORK (passed whole) with FACT's rule, "from
    M on"; USE reads it as WORK(1), and ZAP writes another part after, so LSE has no rule of its own. WORK and
    WORK(1) pass the same storage from the same element: USE's `TAU(I).EQ.0` holds once in 6 (gcov agrees).
    Before: they were different actuals, no earlier call had filled WORK(1), and the test stayed open."""
    fixture = str(Path(FIXTURE).with_name("firstel.f"))
    analysis = analyze([fixture])
    assert not analysis.table.unresolved()
    zero_arm = line_of(fixture, "S = S + 1.0D0")
    _equals_gcov(capsys, fixture, [], "./firstel", zero_arm, "1")


def test_a_stored_zero_copied_from_a_scalar_into_an_element_has_a_rule(capsys):
    """tests/analysis/blas/copied.f, DSYTD2's upper reduction: REFL leaves 0 in the scalar TAUI where its
    length I <= 1, and RED copies TAUI into TAU(I) going down, so the zero is in element 1 (a rule "up to
    1", as if REFL had been passed TAU(I)). USE's `TAU(I).EQ.0` for I = 1 to 5 is then I <= 1: once, as
    gcov counts. Before: the copy was taken as data, RED's TAU had no rule and the test stayed open."""
    fixture = str(Path(FIXTURE).with_name("copied.f"))
    analysis = analyze([fixture])
    assert not analysis.table.unresolved()
    zero_arm = line_of(fixture, "S = S + 1.0D0")
    _equals_gcov(capsys, fixture, [], "./copied", zero_arm, "1")


def test_the_elements_holding_a_stored_zero_follow_the_option_a_call_passes(capsys):
    """tests/analysis/blas/triangle.f, DSYTRD('U') then DORGTR's DORG2L: RED's TAU holds REFL's zero in
    element 1 where UPLO = 'U' (TAU(I - 1) passed going down, as DLATRD does) and in element N - 1 where
    'L' (TAUI copied into TAU(I), as DSYTD2 does): no rule for both arms, one for each option. The program
    passes 'U', so USE's `TAU(I).EQ.0` is I <= 1: once in 5, as gcov counts. Before: open, 2 lines unbound."""
    fixture = str(Path(FIXTURE).with_name("triangle.f"))
    analysis = analyze([fixture])
    assert not analysis.table.unresolved()
    zero_arm = line_of(fixture, "S = S + 1.0D0")
    _equals_gcov(capsys, fixture, [], "./triangle", zero_arm, "1")


LAZY = """\
      SUBROUTINE REFL(N, T)
      INTEGER N
      DOUBLE PRECISION T
      IF (N .LE. 1) T = 0.0D0
      END

      SUBROUTINE ONE(U)
      DOUBLE PRECISION U
      U = 1.0D0
      END

      SUBROUTINE FORM(N, W, Z)
      INTEGER N, I
      DOUBLE PRECISION W(N), Z(N)
      DO 10 I = 1, N
         IF (W(I) .EQ. 0.0D0) THEN
            Z(I) = 0.0D0
         ELSE
            Z(I) = W(I)
         END IF
   10 CONTINUE
      END

      SUBROUTINE USE(N, Z)
      INTEGER N
      DOUBLE PRECISION Z(N)
      IF (Z(1) .NE. 0.0D0) PRINT *, N
      END

      SUBROUTINE MAIN(N, W, Z, V)
      INTEGER N
      DOUBLE PRECISION W(N), Z(N), V
      CALL REFL(N, W(N))
      CALL ONE(V)
      CALL FORM(N, W, Z)
      CALL USE(N, Z)
      END
"""


def test_stored_constants_follow_only_the_sources_an_asked_storage_depends_on(tmp_path):
    """Following a source to its routine's exit is a routine's whole value analysis (scipy's specfun.f
    followed all 127 of its candidate sources for its first question, 12 s): only the sources the asked
    storage depends on are followed. USE's Z holds FORM's guarded zero, stored where W(I) holds REFL's zero:
    asking for it follows REFL (through the guarded store's test), never ONE, which reaches neither."""
    source = tmp_path / "lazy.f"
    source.write_text(LAZY)
    program = load_file(str(source))
    procs = {resolve_name(p.name): p for p in program.procedures}  # by linkage name, as the analysis keys them
    followed: list[str] = []

    def exit_constants(proc, formal):
        followed.append(f"{proc.name}.{formal}")
        return None  # not followed: every constant written counts

    stored = StoredConstants(program, procs, lambda proc, name: f"{proc.name}.{name}", exit_constants, Journal())
    assert stored.of(procs[resolve_name("USE")], "Z") == {0}
    assert followed == ["REFL.T"]
    assert stored.of(procs[resolve_name("FORM")], "W") == {0} and stored.left(procs[resolve_name("MAIN")], "W") == {0}
    assert followed == ["REFL.T"]  # FORM's W depends on REFL's T alone, followed already
    assert stored.of(procs[resolve_name("MAIN")], "V") == {1}
    assert followed == ["REFL.T", "ONE.U"]
    assert stored.of(procs[resolve_name("USE")], "N") == frozenset()


def _stored(source: Path) -> tuple[StoredConstants, dict[str, ir.Procedure]]:
    program = load_file(str(source))
    procs = {resolve_name(p.name): p for p in program.procedures}
    return StoredConstants(program, procs, lambda proc, name: f"{proc.name}.{name}", lambda proc, formal: None,
                           Journal()), procs


def test_a_work_array_passed_at_two_starts_is_two_parts(capsys):
    """SOLVE passes WORK(1) to FACTOR as its TAU (REFL's zero lands there) and WORK(K+1) to APPLY as its
    workspace: the zero stays in the first part, so APPLY's `W(I).NE.0` is decided true for data (5 of 5, as
    gcov counts), where following the whole array left it a probability (DGELS's DGER and DTRMV tests in
    LAPACK). What FACTOR left is not handed back to SOLVE by the main program's one call either."""
    fixture = Path(FIXTURE).with_name("parts.f")
    stored, procs = _stored(fixture)
    assert stored.of(procs[resolve_name("APPLY")], "W") == frozenset()
    assert stored.of(procs[resolve_name("SOLVE")], "WORK") == {0}  # SOLVE's own tests see both parts
    assert stored.left(procs[resolve_name("SOLVE")], "WORK") == {0}
    assert stored.of(procs[resolve_name("PARTS")], "WORK") == {0}
    tested = line_of(str(fixture), "IF (W(I) .NE. 0.0D0)")
    _equals_gcov(capsys, str(fixture), [], "./parts", tested, "5")


def test_a_part_called_again_in_a_loop_may_get_back_what_it_left(tmp_path):
    """Called in a loop, SOLVE's second call may see in its WORK what the first left there (a flow-insensitive
    analysis does not know which part): APPLY's test stays open, the safe side."""
    fixture = Path(FIXTURE).with_name("parts.f").read_text().replace(
        "      CALL SOLVE(N, X, WORK)\n", "      DO 20 I = 1, 2\n      CALL SOLVE(N, X, WORK)\n   20 CONTINUE\n")
    source = tmp_path / "looped.f"
    source.write_text(fixture)
    stored, procs = _stored(source)
    assert stored.of(procs[resolve_name("APPLY")], "W") == {0}


def test_a_reader_called_with_both_options_binds_each_calls_rule(capsys):
    """tests/analysis/blas/orgtr.f, DSYTD2 then DORGTR with 'U' and again with 'L' in one program: GEN's
    TAU holds the zero in element 1 after RED('U') and from element N - 1 on after RED('L'), so the calls of
    GEN carry rules of two forms. GEN's call of USEUP runs only where UPLO = 'U', so it carries the rule of
    the 'U' call, USELO's that of the 'L' call; each call of GEN binds GEN's symbol by its own rule. Both
    tests are exact: once in 5 each, as gcov counts. Before: no rule for GEN's TAU (its calls differ), and
    both tests stayed open (DORGTR after DSYTD2 in both options: 77 lines unbound)."""
    fixture = str(Path(FIXTURE).with_name("orgtr.f"))
    analysis = analyze([fixture])
    assert not analysis.table.unresolved()
    _equals_gcov(capsys, fixture, [], "./orgtr", line_of(fixture, "S = S + 1.0D0"), "1")
    _equals_gcov(capsys, fixture, [], "./orgtr", line_of(fixture, "S = S + 2.0D0"), "1")


def test_a_copy_of_a_negated_element_that_may_hold_a_stored_zero_is_not_decided(capsys):
    """tests/analysis/blas/negcopy.f, DGEQRT2's `ALPHA = -T(I, 1)` passed to DGEMV: T(6, 1) holds REFL's
    zero, so ADDTO's `ALPHA.EQ.0` holds once in 6. A copy of an element, or of its negation, holds what the
    array may hold (with either sign): the test stays open, a probability to bind, where it was decided false
    for generic data and the line after it counted 6 times where gcov counts 5."""
    fixture = str(Path(FIXTURE).with_name("negcopy.f"))
    rc = main(["check-counts", fixture, "--", "./negcopy"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out
    line = line_of(fixture, "S = S + ALPHA")
    row = next(r for r in out.splitlines() if r.split() and r.split()[0].endswith(f"negcopy.f:{line}"))
    assert "P_ADDTO_IF1" in row and "unbound" in row, row
    _equals_gcov(capsys, fixture, ["-D", "P_ADDTO_IF1=1/6"], "./negcopy", line, "5")  # the RETURN: 1 in 6
