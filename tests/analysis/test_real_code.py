"""Coverage of real code (issue 11, item 6): each shape that real libraries and benchmarks showed, reproduced
on a few lines (tests/analysis/realcode/), with counts derived by hand and, where the program runs, checked line by
line against gcov (gfortran/gcc --coverage -O0) through `sad check-counts`."""
from __future__ import annotations

from pathlib import Path

import pytest
import sympy

from sad.analysis.description import line_counts
from sad.analysis.pipeline import analyze
from sad.cli.main import main

HERE = Path(__file__).resolve().parent / "realcode"


def counts_of(path: Path, **kwargs) -> tuple[dict[int, sympy.Expr], object]:
    analysis = analyze([str(path)], **kwargs)
    return {line: c for (_, line), c in line_counts(analysis.counts).items()}, analysis


def sym(name: str, kind: str = "count") -> sympy.Symbol:
    return sympy.Symbol(name, nonnegative=True) if kind == "count" else sympy.Symbol(name, integer=True)


def check_counts(capsys, tmp_path: Path, source: Path, values: dict[str, str], stdin: str = "") -> str:
    """`sad check-counts` on a real run: every line's SAD count must equal gcov's."""
    feed = tmp_path / "stdin.txt"
    feed.write_text(stdin)
    defines = [x for k, v in values.items() for x in ("-D", f"{k}={v}")]
    rc = main(["check-counts", str(source), *defines, "--", f"./{source.stem} < {feed}"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out and "unbound" not in out.splitlines()[-1], out
    return out


# ---------------------------------------------------------------------------- GOTO loops, several exits
def test_goto_loop_with_back_jumps_from_a_nested_do_is_solved_by_structure():
    """The issue's 12-line routine (three back jumps, one from inside a DO) gave no result in 600 s."""
    counts, analysis = counts_of(HERE / "sparse.f")
    x = sym("X_SPRS_L100")
    assert counts[6] == x + 1            # the exit test runs at each of the 1 + X visits of the header
    assert counts[16] == 1               # RETURN: once per call
    assert analysis.table.get("P_SPRS_IF1") is None   # the one exit decision became X


def test_goto_loop_with_two_exits_keeps_one_named_count(capsys, tmp_path):
    counts, analysis = counts_of(HERE / "gotos.f")
    x, p1, p2 = sym("X_GOTOS_L100"), sym("P_GOTOS_IF1"), sym("P_GOTOS_IF2")
    assert counts[7] == x + 1            # the header, not 1/(P1*P2 - P2 + 1)
    assert sympy.simplify(counts[8] - (x + 1) * (1 - p1)) == 0
    # every entry leaves once: the two exits split it in the body's proportions
    assert counts[20] == 1               # after label 120, reached by both exits: once per entry
    assert sympy.simplify(counts[18] - p1 / (p1 + p2 - p1 * p2)) == 0
    # N=30, NZ=5: I = 1..7, I = 3, 6 jump back, five values are added: 7 back jumps, one exit at 110
    check_counts(capsys, tmp_path, HERE / "gotos.f",
                 {"X_GOTOS_L100": "7", "P_GOTOS_IF1": "1/8", "P_GOTOS_IF2": "0", "P_GOTOS_IF3": "2/7",
                  "X_GOTOS_DO1": "2", "P_GOTOS_IF4": "0"}, "30 5\n")
    # N=4, NZ=5: I = 1..5, I = 3 jumps back, three are added, I = 5 leaves at 120
    check_counts(capsys, tmp_path, HERE / "gotos.f",
                 {"X_GOTOS_L100": "4", "P_GOTOS_IF1": "0", "P_GOTOS_IF2": "1/5", "P_GOTOS_IF3": "1/4",
                  "X_GOTOS_DO1": "1", "P_GOTOS_IF4": "0"}, "4 5\n")


def test_a_row_of_exact_guards_is_not_multiplied_out(capsys, tmp_path):
    """24 guards `IF (N .EQ. k) RETURN` in a row: the fall-through is a product of 24 factors (1 - [N = k]),
    2**24 terms multiplied out, which expand/cancel/factor took minutes over. The counts stay exact (the
    program calls CHECKS with N = 30 and N = 5) and equal gcov's."""
    counts, analysis = counts_of(HERE / "guards.f")
    guard, assign = (lambda k: 14 + 2 * k), (lambda k: 15 + 2 * k)
    assert [counts[guard(k)] for k in range(24)] == [2] * 6 + [1] * 18   # N = 5 returns at the sixth
    assert [counts[assign(k)] for k in range(24)] == [2] * 5 + [1] * 19
    assert counts[63] == 30 and counts[64] == 30                           # the loop: the N = 30 call only
    assert not [p.name for p in analysis.table if p.cls == "unresolved"]
    check_counts(capsys, tmp_path, HERE / "guards.f", {})


def test_nested_if_blocks_whose_else_arms_return_are_not_multiplied_out():
    """20 nested IF blocks: IF (N .GT. d) THEN ... ELSE, IF (M .EQ. d) RETURN, and the next level. The
    fall-through of level d is [N > d] + (1 - [N > d])(1 - [M = d]) times the level below, 4**d terms
    multiplied out (each level's edge weight was expanded: no result in 120 s). The counts stay exact."""
    counts, analysis = counts_of(HERE / "nestedifs.f")
    n, m = sympy.Symbol("NIF.N", integer=True), sympy.Symbol("NIF.M", integer=True)
    returns = [counts[8 + 4 * d] for d in range(20)]            # IF (M .EQ. d) RETURN, level d
    after = counts[105]                                            # DO 10: reached when nothing returned
    assert [r.subs({n: 0, m: 3}) for r in returns] == [1] * 4 + [0] * 16   # returns at the fourth level
    assert after.subs({n: 0, m: 3}) == 0 and after.subs({n: 0, m: 25}) == 1 and after.subs({n: 7, m: 0}) == 1
    assert [r.subs({n: 7, m: 0}) for r in returns] == [0] * 20           # N > 0: the first THEN arm
    assert counts[106].subs({n: 7, m: 0}) == 7
    assert sorted(p.name for p in analysis.table if p.cls == "unresolved") == ["NIF.M", "NIF.N"]  # no P, no X


def test_tidy_leaves_counts_alone_that_would_multiply_out_to_many_terms():
    from sad.analysis.buildstate import expanded
    from sad.analysis.cfg import tidy
    from sad.analysis.products import EXPANSION_LIMIT, expanded_terms
    n, p, x = sympy.Symbol("C.N", integer=True), sympy.Symbol("P"), sympy.Symbol("X")
    guards = [1 - sympy.Piecewise((1, sympy.Eq(n, k)), (0, True)) for k in range(24)]
    assert expanded_terms(sympy.Mul(*guards[:3]), EXPANSION_LIMIT) == 8
    assert expanded_terms((1 + x) ** 2 * (1 - p) + p, EXPANSION_LIMIT) == 9   # (2 * 2) * 2 + 1, an upper bound
    assert expanded_terms(1 / (1 - p + p * x), EXPANSION_LIMIT) == 3
    assert expanded_terms(sympy.Mul(*guards), EXPANSION_LIMIT) > EXPANSION_LIMIT   # stops counting past the cap
    product = sympy.Mul(*guards)
    assert tidy(product) is product and expanded(product) is product
    small = sympy.Mul(*guards[:2]) + sympy.Piecewise((1, sympy.Eq(n, 0)), (0, True)) * (1 - guards[1]) \
        + sympy.Piecewise((1, sympy.Eq(n, 1)), (0, True))
    assert tidy(small) != small     # below the cap tidy still works: here the flows of two guards add up


def test_tidy_small_sizes_a_large_count_without_walking_all_of_it():
    """A statement's visits in a large GOTO region (LSODA's driver) share subexpressions: 2^40 nodes as a
    tree. count_ops walks the tree; tidy_small stops counting nodes past its cap and leaves it as it is."""
    from sympy.core.basic import Basic

    from sad.analysis.cfg import tidy_small
    p, x = sympy.Symbol("P"), sympy.Symbol("X")
    shared = x
    for _ in range(40):  # raw trees: sympy's constructors would walk the whole tree too
        shared = sympy.Add._from_args((sympy.Mul._from_args((p, shared)), Basic.__new__(sympy.Max, shared, x)))
    assert tidy_small(shared) is shared
    assert tidy_small((1 - p) * x + p * x) == x   # small counts are still tidied


# ---------------------------------------------------------------------------- internal errors, EPSLON
def test_epslon_idiom_is_not_folded_in_exact_arithmetic(capsys, tmp_path):
    """4/3 - 1 times 3 is 1 in rationals but not in doubles: the loop is a named count, not 'never'."""
    counts, analysis = counts_of(HERE / "epslon.f")
    x = sym("X_EPS_L10")
    assert counts[4] == x + 1 and counts[8] == 1
    assert not analysis.errors
    check_counts(capsys, tmp_path, HERE / "epslon.f", {"X_EPS_L10": "0"})  # doubles: E > 0 at once


def test_internal_error_exits_non_zero_without_a_time(capsys, monkeypatch):
    from sad.analysis import builder

    def broken(self):
        raise RuntimeError("injected defect")
    monkeypatch.setattr(builder.ProcedureBuilder, "build", broken)
    rc = main(["analyze", str(HERE / "negative.f"), "-m", "sparc2"])
    captured = capsys.readouterr()
    assert rc == 3
    assert "T =" not in captured.out
    assert "internal error while analyzing NEG: RuntimeError: injected defect" in captured.err


# ---------------------------------------------------------------------------- negative operands
def test_mod_and_division_truncate_toward_zero(capsys, tmp_path):
    counts, _ = counts_of(HERE / "negative.f")
    assert counts.get(6, 0) == 0   # N = -5: MOD(N, 4) = -1, not 3: no trip
    assert counts[9] == 3   # N/2 = -2, not -3: I = -2, -1, 0
    check_counts(capsys, tmp_path, HERE / "negative.f", {})


NOTE = "operands of unknown sign taken as non-negative (floor), as for sizes and counts"


@pytest.mark.parametrize("name, expected", [
    ("signs.f", [(4, "HALF.N/2"), (13, "MOD(HALF.M, 4)"), (17, "HALF.N/2")]),
    ("signs.c", [(4, "half.n/2"), (10, "half.m % 4")])])
def test_quotients_of_unknown_sign_are_noted_once_per_statement(name, expected):
    """Run-time operands of unknown sign are taken as non-negative (floor): a note says so at the statement
    that divides, once however often its value is used (K = N/2 bounds two loops). Not for operands of known
    sign: a DO index from 1 or a for index from 0 (MOD(I, 3), i % 3), a constant (L/2)."""
    counts, analysis = counts_of(HERE / name)
    notes = [(d.loc.file, d.loc.line, d.severity, d.message) for d in analysis.diagnostics]
    assert notes == [(str(HERE / name), line, "note", f"{text}: {NOTE}") for line, text in expected]
    n = sympy.Symbol("HALF.N" if name == "signs.f" else "half.n", integer=True)
    assert counts[6] == sympy.Max(0, sympy.floor(n / 2))  # the floor the note announces


@pytest.mark.parametrize("a, b, quotient, remainder", [(-5, 2, -2, -1), (5, -2, -2, 1), (-5, -2, 2, -1),
                                                       (5, 2, 2, 1), (-5, 4, -1, -1)])
def test_truncation_of_numbers(a, b, quotient, remainder):
    from sad.analysis.values import _truncated_mod, _truncated_quotient
    assert _truncated_quotient(sympy.Integer(a), sympy.Integer(b)) == quotient
    assert _truncated_mod(sympy.Integer(a), sympy.Integer(b)) == remainder


# ---------------------------------------------------------------------------- EXIT and CYCLE
def test_exit_and_cycle_are_jumps(capsys, tmp_path):
    counts, analysis = counts_of(HERE / "exitcycle.f")
    x, p = sym("X_CY_DO1"), sym("P_CY_IF1")
    assert counts[6] == x                     # EXIT: the trips are a named count
    assert counts[12] == 7                    # CYCLE: I = 1..10 but 3, 6, 9
    assert not [d for d in analysis.diagnostics if "EXIT" in d.message or "CYCLE" in d.message]
    # I = 1..8, the EXIT is taken at I = 8; I = 2, 4, 6 cycle
    assert sympy.simplify(counts[8] - x * (1 - p) * (1 - sym("P_CY_IF2"))) == 0
    check_counts(capsys, tmp_path, HERE / "exitcycle.f", {"X_CY_DO1": "8", "P_CY_IF1": "1/8", "P_CY_IF2": "3/7"})


def test_a_loop_left_early_on_data_sums_its_body_over_its_first_trips(capsys, tmp_path):
    """X trips of I = 1, 2, …: the callee's size I and the inner loop's bound I are summed over them, exact
    for every X (at the run's X = 8: 68 inner trips, 36 of TRI), instead of TRI.M left open in the caller
    and an unknown inner count."""
    counts, analysis = counts_of(HERE / "search.f")
    x = sym("X_SEARCH_DO2")
    assert counts[14] == x and counts[18] == x
    assert counts[28] == x * (x + 1) / 2                  # TRI's S = S + A(L), M = I over the trips
    m = sympy.Min(12, x)                                  # J = I … 12: 12 + 11 + … over min(X, 12) trips
    assert sympy.expand(counts[16] - (12 * m - m * (m - 1) / 2)) == 0
    assert counts[16].subs(x, 8) == 68 and counts[16].subs(x, 20) == 78
    assert not [s for s in analysis.table if s.name.startswith(("X_SEARCH_DO3", "TRI."))]
    check_counts(capsys, tmp_path, HERE / "search.f", {"X_SEARCH_DO2": "8", "P_SEARCH_IF1": "1/8"})


def test_loops_left_early_down_and_by_break_sum_their_first_trips(capsys, tmp_path):
    """The same for a DO running down (I = 10, 9, …: the inner DO J = 1, I over the first X values) and for a
    C for loop left by break (the callee's size i = 0, 1, …); both as gcov counts them at the run's X."""
    x = sym("X_NEGST_DO2")
    counts, _ = counts_of(HERE / "negstep.f")
    m = sympy.Min(10, x)                                                       # I = 10 - k, k < min(X, 10)
    assert sympy.expand(counts[14] - (10 * m - m * (m - 1) / 2)) == 0
    assert counts[14].subs(x, 5) == 40                                         # 10 + 9 + 8 + 7 + 6
    check_counts(capsys, tmp_path, HERE / "negstep.f", {"X_NEGST_DO2": "5", "P_NEGST_IF1": "1/5"})
    xc = sym("X_main_DO2")
    counts, _ = counts_of(HERE / "searchbrk.c")
    assert counts[10] == xc * (xc - 1) / 2                                     # tri's s += a[l], m = i
    check_counts(capsys, tmp_path, HERE / "searchbrk.c", {"X_main_DO2": "9", "P_main_IF1": "1/9"})


def test_an_argument_is_passed_with_its_value_before_the_call(capsys, tmp_path):
    """WORK passes N on to a dummy procedure, which may write it: the first call still passes the N = 50 set
    before it (the call's own write comes after its arguments are read), the second one an unknown N."""
    counts, _ = counts_of(HERE / "callsite.f")
    assert counts[17] == 50 + sympy.Max(0, sym("WORK.N", "value"))
    check_counts(capsys, tmp_path, HERE / "callsite.f", {"WORK.N": "50"})


# ---------------------------------------------------------------------------- Fortran 90 in fixed form
def test_f90_features_of_f77_libraries_parse(capsys, tmp_path):
    """RECURSIVE SUBROUTINE, an INTERFACE block, VOLATILE, an array named SCALE (an F90 intrinsic) and an
    inline `!` comment on a line that is continued (the multigrid benchmark lost MAXLEVEL's continuation)."""
    counts, analysis = counts_of(HERE / "f90features.f")
    assert not analysis.errors, analysis.errors
    assert not [d for d in analysis.diagnostics if "unsupported" in d.message]
    assert counts[14] == 10                               # SCALE(I) = SCALE(I)*F, NX = 10 times
    assert analysis.table.get("NX").value == 10           # the continuation line after `! the finest level`
    # FACT(5): five activations, unrolled on the known argument (sad.analysis.recursion); the last one takes
    # the N <= 1 arm, the other four call the next
    assert (counts[3], counts[4], counts[6], counts[7]) == (5, 1, 4, 4)
    check_counts(capsys, tmp_path, HERE / "f90features.f", {})


# ---------------------------------------------------------------------------- two main programs, sums
def test_two_main_programs_are_an_error(capsys):
    rc = main(["analyze", str(HERE / "twomains.f"), "-m", "sparc2"])
    err = capsys.readouterr().err
    assert rc == 1
    assert "twomains.f:4: error: a second main program TWO" in err


def test_sums_close_once_a_call_binds_the_bounds(capsys, tmp_path):
    """WORK(N, M) sums M*I over I = 1..N, open while M's sign is unknown; bound by the calls it is 30*210
    for N = 20 and 15*NN*(NN + 1) for N = NN (not `Sum(30*k + 30, (k, 0, 19))`)."""
    counts, analysis = counts_of(HERE / "callsums.f")
    nn = sympy.Max(0, sym("NN", "value"))
    assert not any(c.has(sympy.Sum) for c in analysis.counts.values())
    assert sympy.expand(counts[5] - (6300 + 15 * nn * (nn + 1))) == 0
    check_counts(capsys, tmp_path, HERE / "callsums.f", {"NN": "7"}, "7\n")


# ---------------------------------------------------------------------------- C constants
def test_c_enum_and_static_const_bound_loops(capsys, tmp_path):
    counts, analysis = counts_of(HERE / "enums.c")
    assert not analysis.table.unresolved()
    assert counts.get(19, 0) == 0      # for (i = M; i < 3; i++): M = 7, no trip
    assert counts[21] == 7             # for (k = 1; k <= M; k++)
    assert counts[9] == 5 * 20 + 7     # work(steps, a) 20 times, work(M, a) once: the formal n is bound
    check_counts(capsys, tmp_path, HERE / "enums.c", {})


# ---------------------------------------------------------------------------- deep nesting
def _nest(path: Path, depth: int) -> Path:
    lines = ["      PROGRAM DEEP", "      INTEGER K", "      K = 0"]
    lines += [f"      DO I{d} = 1, 2" for d in range(depth)] + ["      K = K + 1"] + ["      END DO"] * depth
    path.write_text("\n".join(lines + ["      PRINT *, K", "      END"]) + "\n")
    return path


def test_deep_nesting_is_analyzed_or_refused_with_an_error(capsys, tmp_path):
    counts, analysis = counts_of(_nest(tmp_path / "deep60.f", 60))
    assert counts[3 + 60 + 1] == 2 ** 60 and not analysis.errors    # 60 loops of two trips
    rc = main(["analyze", str(_nest(tmp_path / "deep300.f", 300)), "-m", "sparc2"])
    captured = capsys.readouterr()
    assert rc == 3 and "T =" not in captured.out
    assert "DEEP not analyzed: statements nested 300 deep" in captured.err


# ---------------------------------------------------------------------------- array elements as bounds
def test_array_element_bounds_are_backtraced_or_named(capsys, tmp_path):
    """GP(1) = 12 then DO I = 1, GP(1) - 2; DATA GRID /8, 16, 32/ then DO I = 1, GRID(3) - 2; NX read at
    run time: DO I = 1, NX(2) is a named value NX_2, not an anonymous loop count."""
    counts, analysis = counts_of(HERE / "arrays.f")
    assert counts[8] == 10 and counts[11] == 30
    nx2 = sym("NX_2", "value")
    assert counts[14] == sympy.Max(0, nx2)
    assert analysis.table.get("GP_1").value == 12 and analysis.table.get("GRID_3").value == 32
    assert analysis.table.get("NX_2").cls == "unresolved"
    assert not [p for p in analysis.table.unresolved() if p.kind == "loop_count"]
    check_counts(capsys, tmp_path, HERE / "arrays.f", {"NX_2": "9"}, "5 9\n")


# ---------------------------------------------------------------------------- calls after the loop
def test_a_call_after_the_loop_or_on_a_stopping_path_does_not_unbind_its_bound():
    """N = 40 bounds the loop; N is passed to unseen routines only in an arm that STOPs and after the
    loop: the loop runs 40 times (it was Max(0, N) with N unresolved)."""
    counts, analysis = counts_of(HERE / "callafter.f")
    assert counts[11] == 40
    assert analysis.table.get("N").value == 40


# ---------------------------------------------------------------------------- strip mining
def test_strip_mined_inner_loop_sums_to_the_range(capsys, tmp_path):
    """DO IV = 1, N, 64 / IL = MIN(64, N-IV+1) / DO I = 1, IL: the inner body runs N times in all."""
    counts, _ = counts_of(HERE / "stripmine.f")
    n = sympy.Max(0, sym("N", "value"))
    assert counts[8] == n
    feed = tmp_path / "in.txt"
    feed.write_text("200\n")
    main(["check-counts", str(HERE / "stripmine.f"), "-D", "N=200", "--", f"./stripmine < {feed}"])
    out = capsys.readouterr().out
    for line, count in ((6, 4), (7, 204), (8, 200)):   # ceil(200/64) = 4 strips; 200 + 4 inner tests
        row = next(r for r in out.splitlines() if r.split()[:1] and r.split()[0].endswith(f"stripmine.f:{line}"))
        assert row.split()[1:4] == [str(count), str(count), "ok"], row


def test_sums_of_polynomials_close_whatever_the_bounds(capsys, tmp_path):
    """L-BFGS-B's FORMT: K = 1, MIN(I, J) - 1 under J = I, N is I - 1 trips whatever J is, and the nest sums
    to a cubic (checked against gcov at N = 10); an inner bound I running in steps of 3 sums to a closed form
    too. Both were open Sums."""
    counts, _ = counts_of(HERE / "triangle.f")
    m = sympy.Max(0, sym("N", "value") - 1)
    assert sympy.expand(counts[10] - m * (m + 1) * (m + 2) / 6) == 0     # Σ_{I=2}^{N} (N - I + 1)(I - 1)
    assert not any(c.has(sympy.Sum) for c in counts.values())
    out = check_counts(capsys, tmp_path, HERE / "triangle.f", {"N": "10"}, stdin="10\n")
    row = next(r for r in out.splitlines() if r.split()[:1] and r.split()[0].endswith("triangle.f:10"))
    assert row.split()[1:4] == ["165", "165", "ok"], row                # 1·9 + 2·8 + … + 9·1
    counts, _ = counts_of(HERE / "stepsum.f")
    n = sym("STEPS.N", "value")
    trips = sympy.Max(0, sympy.floor(n / 3 + sympy.Rational(2, 3)))
    assert sympy.expand(counts[7] - trips * (3 * trips - 1) / 2) == 0    # Σ_k (1 + 3k) over the trips
    assert counts[7].subs(n, 10) == 22                                    # I = 1, 4, 7, 10


# ---------------------------------------------------------------------------- shapes of scipy's libraries
def test_library_shapes_parse_and_count():
    """RECURSIVE on one line and `*subroutine` on its continuation, `recursivedouble precision function`,
    PARAMETER names with blanks (`er 1`), a dummy procedure declared only EXTERNAL under IMPLICIT NONE, an
    array named INDEX in a DO WHILE condition: each was an error before. TRI's count is an open sum of an
    open sum, bound by LIBDRV's loop into a Sum with three limits (sympy merges them), which the binding used
    to fail on; ISINF divides by its formal ZERO, passed as 0: its test becomes its probability. At N = 5,
    M = 2 the program (gcov) adds 15 times. LIBDRV passes N on to a dummy procedure (which may write it),
    but the main program's call passes the N it READ: LIBDRV.N is that N."""
    from sad.analysis.counting import evaluate_sums
    counts, analysis = counts_of(HERE / "libstyle.f")
    assert not analysis.errors, analysis.errors
    assert not [d for d in analysis.diagnostics if d.severity == "error" or "unsupported" in d.message]
    point = {sym("N", "value"): 5, sym("M", "value"): 2}    # as the main program READs them
    assert counts[53].has(sympy.Sum)
    assert evaluate_sums(counts[53].xreplace(point)) == 15  # Σ_{I=1}^{5} Σ_{K=1}^{I} Σ_{J=1}^{K} max(0, J - 2)
    assert counts[55].xreplace(point) == 35                  # Σ_{I=1}^{5} I (I + 1) / 2
    assert counts[65] == 1 - sym("P_ISINF_IF1")              # POSINF = ONE/0 is no exact number


def test_callees_past_the_expansion_budget_are_named_call_costs(monkeypatch):
    """A procedure takes in at most EXPANSION_BUDGET nodes of callee counts, bound to each call's arguments;
    the next callee is a named call cost with a warning at its first call, and is still analyzed on its own
    (cdflib's CDFBET expanded 5.8 million nodes of CUMBET at each of four calls). WORK's formula has 58
    nodes; bound, CALL WORK(20, 30) takes in 7 (numbers), each call on a value read 49: with a budget of
    60 the third call is the one past it."""
    from sad.analysis import calls
    monkeypatch.setattr(calls, "EXPANSION_BUDGET", 60)
    counts, analysis = counts_of(HERE / "budgetcalls.f")
    warned = [d for d in analysis.diagnostics if "not expanded" in d.message]
    assert [d.loc.line for d in warned] == [16]                   # CALL WORK(MM, 30)
    assert "C_WORK" in warned[0].message
    assert analysis.table.get("C_WORK").kind == "call_cost"
    at7 = counts[5].xreplace({s: 7 for s in counts[5].free_symbols if s.name == "NN"})
    assert at7 == 20 * 30 * 21 // 2 + 30 * 7 * 8 // 2              # the first two calls, expanded


def test_a_call_past_the_budget_stops_binding_when_its_callee_defers_a_function(monkeypatch):
    """WORK's block size IBLK(N) is run where a call binds N (a reference WORK defers to its callers), and
    DRV passes its own formals: WORK's counts bound there are past a budget of 30 nodes and the call is a
    named cost. The budget is tested as the counts are bound, each with the deferred reference's
    probabilities put in as the call would put them, so the binding stops at the count that crosses it;
    before, such a call bound every count of its callee first (DORCSD2BY1 bound DORGQR's and DORGLQ's
    counts 24 times, 28 CPU s, to throw them away)."""
    from sad.analysis import calls
    bound: list[int] = []
    plain = calls._bound

    def counted(count, subs, binding, shared):
        if any(s.name == "DRV.K" for s in subs.values() if isinstance(s, sympy.Symbol)):
            bound.append(1)
        return plain(count, subs, binding, shared)

    monkeypatch.setattr(calls, "_bound", counted)
    files = [str(HERE / "deferbudget.f"), str(HERE / "iblk.f")]
    analyze(files)
    every = len(bound)  # with the default budget: each distinct count of WORK, bound to DRV's K and L
    bound.clear()
    monkeypatch.setattr(calls, "EXPANSION_BUDGET", 30)
    analysis = analyze(files)
    warned = [d for d in analysis.diagnostics if "not expanded" in d.message]
    assert [d.loc.line for d in warned] == [19] and "C_WORK" in warned[0].message
    assert every == 7 and 0 < len(bound) < every


def test_cycle_entered_at_two_places_names_visits_and_leaves_once(capsys, tmp_path):
    """A GOTO loop also entered in its middle (IOPT > 0) is irreducible; past eight statements each gets a
    named visit count, with one warning for the cycle (a FITPACK routine gave 46 warnings), and what enters
    leaves once: the RETURN runs once per call, not P·X times. With IOPT = 1 the run enters at 80, passes
    it 11 times (T(5) = 1 … 11) and restarts at 40 ten times."""
    counts, analysis = counts_of(HERE / "restart.f")
    warned = [d for d in analysis.diagnostics if "irreducible" in d.message]
    assert [(d.loc.line, "a cycle of 12 statements, lines 7-18" in d.message) for d in warned] == [(7, True)]
    assert counts[7] == sym("X_RESTRT_L40_VISITS") and counts[12] == sym("X_RESTRT_L80_VISITS")
    assert counts[19] == 1
    visits = {"X_RESTRT_L40_VISITS": "10", "X_RESTRT_L80_VISITS": "11", "P_RESTRT_IF1": "1",
              "P_RESTRT_IF2": "1/11", "X_RESTRT_NODE13_18_VISITS": "10", "X_RESTRT_NODE12_17_VISITS": "10"}
    visits.update({f"X_RESTRT_NODE{k}_{k + 5}_VISITS": "10" for k in range(3, 7)})
    visits.update({f"X_RESTRT_NODE{k}_{k + 5}_VISITS": "11" for k in range(8, 12)})
    check_counts(capsys, tmp_path, HERE / "restart.f", visits, "1\n")
