"""Character options through calls (issue 29): a literal option at a call is a known value in the callee,
LSAME of known characters a known LOGICAL, so that the Reference BLAS's option tests are exact indicators each
call binds; a small function's result is a formula of its arguments. Counts cross-checked against gcov."""
from __future__ import annotations

from pathlib import Path

import sympy

from sad.analysis import characters
from sad.analysis.description import line_counts
from sad.analysis.pipeline import analyze
from sad.cli.main import main

BLAS = Path(__file__).resolve().parent / "blas"
LIBRARY = [str(BLAS / f) for f in ("dgemm.f", "dtrsm.f", "lsame.f", "xerbla.f")]


def test_character_codes_and_lsame():
    assert characters.code("L") == ord("L")
    assert characters.code("Upper  ") == characters.code("Upper")      # blank padding aside
    assert characters.truncated(characters.code("Transpose"), 1) == ord("T")
    assert characters.truncated(characters.code("Transpose"), None) == characters.code("Transpose")
    assert characters.lsame(sympy.Integer(ord("l")), sympy.Integer(ord("L"))) is sympy.true
    assert characters.lsame(sympy.Integer(ord("R")), sympy.Integer(ord("L"))) is sympy.false
    side = sympy.Symbol("SIDE", integer=True)
    assert characters.lsame(side, sympy.Integer(ord("L"))) == sympy.Or(sympy.Eq(side, 76), sympy.Eq(side, 108))
    assert characters.first(characters.code("No transpose"), False) == ord("N")
    assert characters.first(side, False) is None        # a longer string's first character is not its symbol


def test_dtrsm_options_are_indicators_in_its_formals():
    """Alone, DTRSM's option tests are conditions on its formals (no branch probability for them): only the
    data tests `IF (B(K,J).NE.ZERO)` and `IF (A(J,K).NE.ZERO)` are probabilities without the generic-data
    assumption; with it, they are taken as true (generic data are not zero) and listed."""
    files = [str(BLAS / "dtrsm.f"), str(BLAS / "lsame.f"), str(BLAS / "xerbla.f")]
    analysis = analyze(files, generic_data=False)
    source = (BLAS / "dtrsm.f").read_text().splitlines()
    probabilities = [p for p in analysis.table if p.kind == "branch_probability" and p.cls == "unresolved"]
    assert probabilities and all(".NE.ZERO" in source[p.line - 1] for p in probabilities), \
        [(p.name, source[p.line - 1]) for p in probabilities]
    assert not analysis.generic_decisions
    generic = analyze(files)
    assert not [p for p in generic.table if p.kind == "branch_probability" and p.cls == "unresolved"]
    assert sorted({(loc.line, value) for loc, _, value in generic.generic_decisions}) == \
        sorted((p.line, True) for p in probabilities)


def test_literal_options_give_exact_counts_for_every_call_equal_to_gcov(capsys):
    """DGEMM called with two option sets ('N','N' and 'Transpose','n': the formal is one character long, so
    it sees 'T'); DTRSM through SOLVE, whose own UPLO is the driver's literal ('Upper', 'l'), each call with
    two more. Before: most of DTRSM's and DGEMM's lines were unbound (their option tests were probabilities).
    Now the only unresolved values are DTRSM's four tests of data against zero, which this driver's data
    never meet (bound to 1); every line equals gcov's."""
    files = [str(BLAS / "options.f"), *LIBRARY]
    unresolved = sorted(p.name for p in analyze(files, generic_data=False).table.unresolved())
    assert unresolved == ["P_DTRSM_IF10", "P_DTRSM_IF13", "P_DTRSM_IF28", "P_DTRSM_IF31"]
    analysis = analyze(files)  # generic data: those four tests are taken as true, nothing is left to bind
    assert not list(analysis.table.unresolved())
    for defines in ([x for name in unresolved for x in ("-D", f"{name}=1")], []):
        rc = main(["check-counts", *files, *defines, "--require-bound", "--", "./options"])
        out = capsys.readouterr().out
        assert rc == 0 and "MISMATCH" not in out, out
        summary = out.splitlines()[-1]
        assert "unbound" not in summary and "ok" in summary, summary
    # the two DGEMM option sets, exactly: C = A*B (NN, beta = 0.5) scales the M*N = 30 elements of C
    # first; C = A**T*B (TN, beta = 0) writes its 4*6 elements once each, alpha*temp, after 5 products each
    counts = {line: c for (path, line), c in line_counts(analysis.counts).items() if path.endswith("dgemm.f")}
    text = (BLAS / "dgemm.f").read_text().splitlines()
    scaled = [k for k, t in enumerate(text, 1) if t.strip() == "C(I,J) = BETA*C(I,J)"]
    transposed = next(k for k, t in enumerate(text, 1) if t.strip() == "C(I,J) = ALPHA*S")
    product = next(k for k, t in enumerate(text, 1) if t.strip() == "S = S + A(L,I)*B(L,J)")
    assert [counts.get(k, 0) for k in scaled] == [0, 30, 0]
    assert counts[transposed] == 24 and counts[product] == 24 * 5


def test_a_function_result_is_a_formula_of_its_arguments(tmp_path, capsys):
    """An INTEGER FUNCTION whose result is one assignment (a block size MIN(NBMAX, N)) bounds a loop: its
    count is exact at each reference, no loop count to profile."""
    source = tmp_path / "blocks.f"
    source.write_text("""      PROGRAM BLOCKS
      INTEGER I, NB, NBLK, S
      EXTERNAL NB
      S = 0
      DO 10 I = 1, NB(100, 'S')
         S = S + I
   10 CONTINUE
      DO 20 I = 1, NB(7, 'D')
         S = S + I
   20 CONTINUE
      NBLK = NB(3, 'Single')
      WRITE (6, *) S, NBLK
      END
      INTEGER FUNCTION NB(N, PREC)
      INTEGER N
      CHARACTER PREC
      LOGICAL LSAME
      EXTERNAL LSAME
      NB = MIN(N, 32)
      END
""")
    analysis = analyze([str(source)])
    counts = {line: c for (_, line), c in line_counts(analysis.counts).items()}
    assert counts[6] == 32 and counts[9] == 7
    assert not list(analysis.table.unresolved())
    rc = main(["check-counts", str(source), "--require-bound", "--", "./blocks"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out


def test_strings_read_at_run_time_and_orderings_stay_probabilities(tmp_path):
    """A character value read at run time has no number a user would bind, and a lexical order of strings is
    not the order of their numbers: both tests stay named probabilities."""
    source = tmp_path / "answer.f"
    source.write_text("""      PROGRAM ANSWER
      CHARACTER C, D
      INTEGER K
      READ (5, '(A)') C
      D = 'M'
      K = 0
      IF (C .EQ. 'Y') K = 1
      IF (D .LT. 'N') K = K + 2
      WRITE (6, *) K
      END
""")
    analysis = analyze([str(source)])
    assert sorted(p.name for p in analysis.table.unresolved()) == ["P_ANSWER_IF1", "P_ANSWER_IF2"]


def test_per_call_clean_up_loops_summed_over_the_callers_loop_equal_gcov(capsys):
    """DDOT(N-I) and DAXPY(N-I), DAXPY(I) in a loop over I = N-1 .. 1 (DSYTD2's shape), from two calls of the
    caller (N = 13, 9): the callees' tests of their length (`IF (N.LE.0) RETURN`, `M = MOD(N,5)`, `IF
    (N.LT.5)`) are evaluated at each call's length and summed over I, not averaged into a probability. DDOT's
    clean-up loop runs sum over I of MOD(N-I, 5) = 23 + 16 times. DAXPY's DA is data (DDOT's result) in one
    of the calls: its `IF (DA .EQ. 0) RETURN` is the one probability (never taken here) without the
    generic-data assumption; with it, the test is false at that call (generic data are not zero)."""
    files = [str(BLAS / f) for f in ("tridiag.f", "daxpy.f", "ddot.f")]
    assert [p.name for p in analyze(files, generic_data=False).table.unresolved()] == ["P_DAXPY_IF2"]
    analysis = analyze(files)
    assert not list(analysis.table.unresolved())
    assert [(Path(loc.file).name, test, value) for loc, test, value in analysis.generic_decisions] == \
        [("tridiag.f", f"DAXPY's test Eq(DAXPY.DA, 0) at {BLAS / 'daxpy.f'}:7, on the data this call passes", False)]
    counts = {(Path(path).name, line): c for (path, line), c in line_counts(analysis.counts).items()}
    text = (BLAS / "ddot.f").read_text().splitlines()
    clean_up = next(k for k, t in enumerate(text, 1) if t.strip() == "ACC = ACC + DX(I)*DY(I)")
    assert counts[("ddot.f", clean_up)] == 23 + 16
    rc = main(["check-counts", *files, "--require-bound", "--", "./tridiag"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out


def test_dlamch_with_literal_options_is_exact(capsys):
    """DLAMCH's `IF (ONE.EQ.RND)` (RND = ONE: a copy, no rounding) and `IF (SMALL.GE.SFMIN)` (1/HUGE against
    TINY of double precision) are decided; each call's option picks its arm of the LSAME chain."""
    files = [str(BLAS / f) for f in ("machine.f", "dlamch.f", "lsame.f")]
    analysis = analyze(files)
    assert not list(analysis.table.unresolved())
    rc = main(["check-counts", *files, "--require-bound", "--", "./machine"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out


def test_a_failure_return_through_info_is_assumed_not_taken(capsys):
    """DPOTF2's `IF (AJJ.LE.ZERO) ... GO TO 30` (30: INFO = J, RETURN) tests data: assumed not taken, said
    in a note, so the loop keeps its N trips and DDOT(J-1) its per-call counts. Before: the loop was left
    early by a jump, X_POTF_DO1 trips, and every callee count a probability."""
    files = [str(BLAS / "cholesky.f"), str(BLAS / "ddot.f")]
    analysis = analyze(files)
    assert not list(analysis.table.unresolved())
    assert any("failure return" in d.message for d in analysis.diagnostics)
    rc = main(["check-counts", *files, "--require-bound", "--", "./cholesky"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out


_GATES = """      PROGRAM GATES
      INTEGER N
      PARAMETER (N = 8)
      CHARACTER EQ
      INTEGER K
      K = 0
      EQ = 'Y'
      CALL PICK('E', EQ, N, K)
      CALL PICK('N', EQ, N, K)
      WRITE (6, *) K
      END

      SUBROUTINE PICK(FACT, EQUED, N, K)
      CHARACTER FACT, EQUED
      INTEGER N, K, I
      LOGICAL LSAME, RCEQU, NOFACT, EQUIL
      EXTERNAL LSAME
      NOFACT = LSAME(FACT, 'N')
      EQUIL = LSAME(FACT, 'E')
      IF (NOFACT .OR. EQUIL) THEN
         EQUED = 'N'
         RCEQU = .FALSE.
      ELSE
         RCEQU = LSAME(EQUED, 'Y')
      END IF
      IF (.NOT.NOFACT .AND. .NOT.EQUIL .AND. .NOT.LSAME(FACT, 'F')) THEN
         K = -3
      ELSE IF (N .LT. 0) THEN
         K = -1
      ELSE IF (LSAME(FACT, 'F') .AND.
     $         .NOT.(RCEQU .OR. LSAME(EQUED, 'N'))) THEN
         K = -2
      ELSE
         DO 20 I = 1, N
            K = K + 1
   20    CONTINUE
      END IF
      IF (EQUIL) CALL SETEQ(EQUED)
      END

      SUBROUTINE SETEQ(EQUED)
      CHARACTER EQUED
      EQUED = 'Y'
      END
"""


def test_a_test_joined_to_a_known_option_is_decided_by_the_option(tmp_path):
    """DPOSVX's `ELSE IF (LSAME(FACT, 'F') .AND. .NOT.(RCEQU .OR. LSAME(EQUED, 'N')))`: the right side is not
    known (EQUED is set on some paths and passed to a routine that writes it), but the arm is taken only where
    FACT is 'F', so for 'E' and 'N' its ELSE runs every time: K = K + 1 counted 2 x 8 times, PICK's tests all
    exact. Before: the arm was a named probability (P_PICK_IF2) and the ELSE's loop unbound. (Not compared
    with gcov: gfortran skips the right side's LSAME call where the left is false, which these counts do not
    model.)"""
    source = tmp_path / "gates.f"
    source.write_text(_GATES)
    analysis = analyze([str(source), str(BLAS / "lsame.f")])
    counts = {line: c for (f, line), c in line_counts(analysis.counts).items() if f.endswith("gates.f")}
    # LSAME's own tests of the EQUED it is passed in the condition stay open (its call is counted there)
    assert [p.name for p in analysis.table.unresolved() if p.procedure == "PICK"] == []
    loop_body = _GATES.splitlines().index("            K = K + 1") + 1
    assert counts[loop_body] == 16
    assert counts.get(loop_body - 3, 0) == 0  # K = -2, never
