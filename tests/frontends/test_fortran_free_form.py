"""Free-form Fortran 90 (.f90, .F90): the line reader (frontends.fortran.freeform), the Fortran 90 the
library code of LAPACK 3.10 and later uses (`::` declarations with attributes, kind parameters, PARAMETER
values from the model numbers, MODULE / USE / CONTAINS), and counts equal gcov's on a program written here."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from sad.cli.main import main
from sad.frontends import load_file
from sad.frontends.fortran.freeform import statements
from sad.ir import CallStmt, Const, Diagnostic, FuncCall, If, Loc, walk_stmts

HERE = Path(__file__).resolve().parent / "freeform"


def _statements(text: str) -> tuple[list[tuple[str, str | None, int]], list[Diagnostic]]:
    diags: list[Diagnostic] = []
    lines = [(line, Loc("t.f90", i + 1)) for i, line in enumerate(text.splitlines())]
    return [(s.text, s.label, s.loc.line) for s in statements(lines, diags)], diags


def test_the_reader_joins_continuations_and_splits_statements():
    found, diags = _statements(
        "x = a + &   ! comment after the &\n"
        "\n"
        "  ! a comment line between continuation lines\n"
        "      & b\n"
        "c = 'it''s ! no comment; no split' ; d = 1 ! a comment; not a statement\n"
        "10 continue\n"
        "s = 'split &\n"
        "     &here'\n")
    assert not diags
    assert found == [("x = a + b", None, 1), ("c = 'it''s ! no comment; no split'", None, 5), ("d = 1", None, 5),
                     ("continue", "10", 6), ("s = 'split here'", None, 7)]


def test_a_continuation_at_the_end_of_the_file_is_an_error_at_its_line():
    found, diags = _statements("y = 1\nx = 2 + &\n")
    assert found[0] == ("y = 1", None, 1)
    assert [(d.loc.line, d.severity) for d in diags] == [(2, "error")]


def test_parameters_from_model_numbers_are_folded_per_kind(tmp_path):
    """DNRM2's thresholds (Anderson 2017; BLAS/SRC/dnrm2.f90): TSML = 2**CEILING((MINEXPONENT-1)/2),
    TBIG = 2**FLOOR((MAXEXPONENT-DIGITS+1)/2) for binary64 (-1021, 1024, 53) and binary32 (-125, 128, 24)."""
    source = tmp_path / "f.f90"
    source.write_text("""\
function f(x)
   integer, parameter :: wp = kind(1.d0), sp = kind(1.0)
   real(wp) :: f
   real(wp), intent(in) :: x
   real(wp), parameter :: tsml = real(radix(0._wp), wp)**ceiling((minexponent(0._wp) - 1) * 0.5_wp)
   real(wp), parameter :: tbig = real(radix(0._wp), wp)**floor( &
       (maxexponent(0._wp) - digits(0._wp) + 1) * 0.5_wp)
   real(sp), parameter :: stbig = real(radix(0._sp), sp)**floor( &
       (maxexponent(0._sp) - digits(0._sp) + 1) * 0.5_sp)
   real(wp), parameter :: big = huge(0.0_wp), eps = epsilon(0._wp), small = tiny(1.0_sp)
   f = x * tsml
end function f
""")
    program = load_file(str(source))
    assert not program.diagnostics
    (proc,) = program.procedures
    values = {n: v.value for n, v in proc.variables.items() if v.storage == "parameter"}
    assert values["WP"] == Const(8, type="integer") and values["SP"] == Const(4, type="integer")
    assert values["TSML"] == Const(2.0 ** -511, type="double")
    assert values["TBIG"] == Const(2.0 ** 486, type="double")
    assert values["STBIG"] == Const(2.0 ** 52, type="real")
    assert values["BIG"] == Const(math.ldexp(1 - 2.0 ** -53, 1024), type="double")
    assert values["EPS"] == Const(2.0 ** -52, type="double")
    assert values["SMALL"] == Const(2.0 ** -126, type="double")   # TINY of binary32, stored in a double
    assert proc.result_type == "double" and proc.variables["X"].type == "double"


def test_a_module_in_another_file_is_used_with_only_and_renames():
    program = load_file(str(HERE / "main.f90"))
    assert not [d for d in program.diagnostics if d.severity == "error"], program.diagnostics
    main_, sumsq = program.procedures
    assert sumsq.name == "SUMSQ"  # an external function, after the program: its own name
    assert main_.variables["UNIT"].value == Const(1.0, type="double")     # `unit => one`
    assert main_.variables["NMAX"].value == Const(40, type="integer")
    assert "TBIG" not in main_.variables                                  # not in the ONLY list
    assert sumsq.variables["TBIG"].value == Const(2.0 ** 486, type="double")
    assert sumsq.result_type == "double"


def test_a_module_not_found_and_a_bad_statement_are_errors_at_their_lines(tmp_path):
    source = tmp_path / "bad.f90"
    source.write_text("subroutine a(x)\n   use nowhere\n   real :: x\n   x = = 1\nend subroutine a\n"
                      "subroutine b(y)\n   real, intent(out) :: y\n   y = 2.0\nend subroutine\n")
    program = load_file(str(source))
    errors = [(d.loc.line, d.message.split(":")[0]) for d in program.diagnostics if d.severity == "error"]
    assert errors == [(4, "syntax error"), (2, "module NOWHERE not found (looked in this file and in the "
                                              "free-form sources of " + str(tmp_path) + ")")]
    assert [p.name for p in program.procedures] == ["A", "B"]


def test_sad_reports_the_errors_as_file_line_error(tmp_path, capsys):
    source = tmp_path / "bad.f90"
    source.write_text("program p\n   x = (1 + &\n")
    rc = main(["analyze", str(source), "-m", "sparc2"])
    err = capsys.readouterr().err
    assert rc != 0 and f"{source}:2: error:" in err, err


@pytest.mark.heavy
def test_counts_equal_gcov_with_nothing_bound(capsys, tmp_path):
    """The module is compiled before its user; DNRM2-like tests on data are decided by the generic-data
    model (no value bound); the DO WHILE's trip count is exact."""
    for name in ("main.f90", "consts.f90"):
        (tmp_path / name).write_text((HERE / name).read_text())
    rc = main(["check-counts", str(tmp_path / "main.f90"), str(tmp_path / "consts.f90"), "--require-bound",
               "--", "./main"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out and "unbound" not in out.splitlines()[-1], out
    assert "23 ok" in out.splitlines()[-1], out


def test_module_procedures_results_and_internal_procedures(tmp_path):
    """A module's procedures are routines that see its constants and variables (the variables as one storage
    block); a RESULT variable is the function's value; an internal procedure that uses its host's variables
    gets a warning naming them."""
    source = tmp_path / "m.f90"
    source.write_text("""\
module mm
   implicit none
   integer, parameter :: dp = kind(1.d0)
   real(dp), parameter :: two = 2.0_dp
   integer :: calls = 0
contains
   function twice(x) result(y)
      real(dp), intent(in) :: x
      real(dp) :: y
      y = two * x
   end function twice
   subroutine host(n)
      integer, intent(in) :: n
      integer :: i
      do i = 1, n
         call inner(i)
      end do
   contains
      subroutine inner(k)
         integer :: k
         calls = calls + k + n
      end subroutine inner
   end subroutine host
end module mm
""")
    program = load_file(str(source))
    procs = {p.name: p for p in program.procedures}
    # named as they link: no external routine TWICE or INNER is taken for them, nor they for one
    assert list(procs) == ["MM_MP_TWICE", "MM_MP_HOST", "MM_MP_HOST_IP_INNER"]
    twice = procs["MM_MP_TWICE"]
    assert twice.result_type == "double" and "Y" not in twice.variables
    assert twice.variables["TWO"].value == Const(2.0, type="double")
    (call,) = [s for s in walk_stmts(procs["MM_MP_HOST"].body) if isinstance(s, CallStmt)]
    assert call.name == "MM_MP_HOST_IP_INNER"
    assert {p.variables["CALLS"].common_block for p in procs.values()} == {"MODULE MM"}
    warnings = [(d.loc.line, d.message) for d in program.diagnostics]
    assert warnings == [(21, "INNER uses N of its host: host association of variables is not modelled, each is "
                             "taken as a variable of INNER")]


def _condition(directory: Path, text: str):
    """The condition of the one IF of the one routine of a file user.f90 with `text`."""
    user = directory / "user.f90"
    user.write_text(text)
    (proc,) = load_file(str(user)).procedures
    (test,) = [s for s in walk_stmts(proc.body) if isinstance(s, If)]
    return test.arms[0].cond


def test_a_module_function_used_from_another_file_is_called_by_its_linkage_name(tmp_path):
    (tmp_path / "iso.f90").write_text("module iso\ncontains\n   logical function isnan2(x)\n      double precision "
                                      ":: x\n      isnan2 = x /= x\n   end function\nend module iso\n")
    call = _condition(tmp_path, "subroutine s(x, n)\n   use iso, only: nanq => isnan2\n   double precision :: x\n"
                                "   integer :: n\n   if (nanq(x)) n = 0\nend subroutine s\n")
    assert isinstance(call, FuncCall) and call.name == "ISO_MP_ISNAN2" and call.type == "logical"


def test_a_generic_interface_calls_the_specific_for_the_argument_types(tmp_path):
    """LAPACK's LA_XISNAN: INTERFACE LA_ISNAN / MODULE PROCEDURE SISNAN, DISNAN; DLASSQ calls LA_ISNAN(SCL)
    with a double precision SCL, which is DISNAN."""
    (tmp_path / "gen.F90").write_text("""\
module gen
   interface isnan_g
      module procedure sisnan, disnan
   end interface
contains
   logical function sisnan(x)
      real :: x
      sisnan = x /= x
   end function sisnan
   logical function disnan(x)
      double precision :: x
#ifdef NEVER
      disnan = .true.
#else
      disnan = x /= x
#endif
   end function disnan
end module gen
""")
    cond = _condition(tmp_path, "subroutine s(x, y, n)\n   use gen\n   double precision :: x\n   real :: y\n"
                                "   integer :: n\n   if (isnan_g(x) .or. isnan_g(y)) n = 0\nend subroutine s\n")
    assert [(c.name, c.type) for c in (cond.left, cond.right)] == [("GEN_MP_DISNAN", "logical"),
                                                                   ("GEN_MP_SISNAN", "logical")]
    (disnan,) = [p for p in load_file(str(tmp_path / "gen.F90")).procedures if p.name == "GEN_MP_DISNAN"]
    assert len(disnan.body) == 1  # cpp ran: one branch of the #ifdef


SELECT = """\
program p
  implicit none
  integer :: i, k, n
  real :: x
  x = 0.0
  n = 0
  do i = 1, 100
    select case (mod(i, 10))
    case (0)
      x = x + 1.0
    case default
      n = n + 1
    case (1:3, 7)
      x = x - 1.0
    end select
  end do
  k = 0
  do i = 1, 50
    select case (i)
    case (:10)
      k = k + 1
    case (41:)
      k = k + 2
    end select
  end do
  print *, x, n, k
end program
"""


def test_select_case_arms_are_exact_and_the_selector_runs_once(tmp_path):
    """MOD(I, 10) over I = 1..100 is 0 ten times, in {1, 2, 3, 7} forty times, else fifty (CASE DEFAULT
    between the cases); I = 1..50 is at most 10 ten times and at least 41 ten times. The selector is
    evaluated once per SELECT (100 MODs), not once per CASE tested."""
    from sad.analysis.description import line_counts
    from sad.analysis.pipeline import analyze
    source = tmp_path / "select.f90"
    source.write_text(SELECT)
    analysis = analyze([str(source)])
    lines = {line: int(c) for (_, line), c in line_counts(analysis.counts).items()}
    assert not [d for d in analysis.program.diagnostics if d.severity == "error"]
    assert (lines[10], lines[12], lines[14], lines[21], lines[23]) == (10, 50, 40, 10, 10)
    assert (lines[8], lines[19]) == (100, 50)  # the first test runs at each entry, on the SELECT's line
    mods = sum(c * e.cost.get("intrinsic.MOD.integer", 0) for e, c in analysis.counts.items())
    assert mods == 100


def test_select_case_errors_are_at_their_lines(tmp_path):
    source = tmp_path / "bad.f90"
    source.write_text("subroutine s(n, x)\n  integer :: n\n  real :: x\n  case (1)\n    x = 1.0\n"
                      "  select case (n)\n  case default\n    x = 5.0\n  end select\n"
                      "  select case (n)\n  case (2)\n    x = 6.0\nend subroutine\n")
    program = load_file(str(source))
    errors = [(d.loc.line, d.message) for d in program.diagnostics if d.severity == "error"]
    assert errors == [(4, "CASE without a SELECT CASE"), (10, "SELECT CASE is not closed before END")]
