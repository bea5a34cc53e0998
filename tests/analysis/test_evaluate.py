"""Functions run on known arguments and values calls leave behind (issue 29): an ILAENV-like block-size
function with string options, evaluated exactly (result and lines); a routine whose data test reads what an
earlier call left (zero where its length is one) and a scan for the last non-zero element, exact against gcov."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from sad.analysis import evaluate
from sad.analysis.description import line_counts
from sad.analysis.pipeline import analyze, load_program
from sad.cli.main import main
from sad.ir.languages import resolve_name

BLAS = Path(__file__).resolve().parent / "blas"


def _procs(*names: str):
    program, _ = load_program([str(BLAS / n) for n in names], [], {})
    return {resolve_name(p.name): p for p in program.procedures}


def test_a_block_size_function_runs_on_strings():
    """NBLOCK upper-cases its NAME (ICHAR, CHAR, substring assignment), reads C1 = SUBNAM(1:1) and
    C2 = SUBNAM(2:3): 'dgetrf' is a GE routine of D, 'SPOTRF' a PO routine of S, 'zhetrd' none."""
    procs = _procs("blocks.f")
    run = evaluate.Evaluator(procs).call
    assert run("NBLOCK", [1, "dgetrf", 100]) == 64
    assert run("NBLOCK", [1, "SPOTRF", 100]) == 32
    assert run("NBLOCK", [1, "DSYTRD", 100]) == 8
    assert run("NBLOCK", [1, "zhetrd", 5]) == 1
    assert run("NBLOCK", [2, "X", 7]) == 2 and run("NBLOCK", [3, "D", 1]) == -1
    dlamch = _procs("dlamch.f", "lsame.f")
    assert evaluate.Evaluator(dlamch).call("DLAMCH", ["S"]) == Fraction(1, 2 ** 1022)
    assert evaluate.Evaluator(dlamch).call("DLAMCH", ["E"]) == Fraction(1, 2 ** 53)


def test_a_run_with_arguments_not_known_is_exact_where_no_decision_reads_them():
    """NBLOCK(1, NAME, N) decides on ISPEC and NAME only: with N not known (a caller's formal) the run still
    finishes, 32 for 'DPOTRF'. NBLOCK(2, ..., N) = MIN(N, 2) is as unknown as N; with ISPEC not known the
    first test cannot be taken."""
    procs = _procs("blocks.f")
    run = evaluate.Evaluator(procs).call
    assert run("NBLOCK", [1, "DPOTRF", evaluate.UNKNOWN]) == 32
    assert run("NBLOCK", [1, "zhetrd", evaluate.UNKNOWN]) == 1
    assert run("NBLOCK", [2, "X", evaluate.UNKNOWN]) is evaluate.UNKNOWN
    with pytest.raises(evaluate.Unevaluated, match="condition on an argument not known"):
        run("NBLOCK", [evaluate.UNKNOWN, "D", 5])


def test_a_run_that_cannot_finish_says_why():
    procs = _procs("blocks.f")
    with pytest.raises(evaluate.Unevaluated, match="takes 3 arguments"):
        evaluate.Evaluator(procs).call("NBLOCK", [1, "D"])
    with pytest.raises(evaluate.Unevaluated, match="not a function"):
        evaluate.Evaluator(procs).call("BLOCKS", [])


def test_a_search_on_logs_of_base_10_runs_as_gfortran_runs_it():
    """scipy's specfun MSTA1 (a secant search on 0.5 LOG10(6.28 N) - N LOG10(1.36 X / N)): the evaluator takes
    LOG10 and EXP in double precision, and its results are gfortran's (WRITE of MSTA1(3.5D0, 200),
    MSTA1(10D0, 15), MSTA1(0.5D0, 200): 136, 34, 92). RECUR's loop runs MAX(N, 136) times: with N and X
    bound, its time is a number (the next test)."""
    assert [evaluate.Evaluator(_procs("msta.f")).call("MSTA1", [x, mp])
            for x, mp in ((Fraction(7, 2), 200), (Fraction(10), 15), (Fraction(1, 2), 200))] == [136, 34, 92]
    assert evaluate.Evaluator(_procs("msta.f")).call("ENVJ", [3, 1.0]) == pytest.approx(
        0.5 * __import__("math").log10(6.28 * 3) - 3 * __import__("math").log10(1.36 / 3))

def test_a_loop_bound_by_such_a_search_has_its_count(capsys):
    src = str(BLAS / "msta.f")
    params = ["-D", "P_MSTA1_IF1_IN_RECUR_1=0.5", "-D", "X_MSTA1_DO1=3"]
    assert main(["analyze", src, "-m", "sparc2", "-D", "RECUR.N=100", "-D", "RECUR.X=3.5", *params]) == 0
    out = capsys.readouterr().out
    assert "(all parameters bound)" in out and "not evaluated" not in out
    loop = next(line for line in out.splitlines() if line.endswith("msta.f:8 RECUR (loop_iter)"))
    assert loop.split()[3] == "136"                 # share, time (two words), count: MAX(100, 136) trips


def test_a_bound_time_with_a_result_not_worked_out_says_so(capsys):
    """TURN's loop runs MAX(N, KTURN(X, 20)) times; KTURN searches on DATAN, which the evaluator does not run,
    so with N and X bound the time has no number, and the report names the reference instead of ending in
    sympy's "KTURN(7/2, 20) is not comparable" (as `sad analyze` of specfun's CJYVB did before LOG10 was
    taken). With X left unbound the reference has a free symbol: unbound, not "not evaluated"."""
    with pytest.raises(evaluate.Unevaluated, match="intrinsic ATAN"):
        evaluate.Evaluator(_procs("turns.f")).call("KTURN", [Fraction(7, 2), 20])
    src = str(BLAS / "turns.f")
    params = ["-D", "P_KTURN_IF1_IN_TURN_1=0.5", "-D", "X_KTURN_DO1=3"]
    assert main(["analyze", src, "-m", "sparc2", "-D", "TURN.N=100", "-D", "TURN.X=3.5", *params]) == 0
    out = capsys.readouterr().out
    assert "  not evaluated: KTURN(7/2, 20): a function's result sad could not work out at these values" in out
    assert main(["analyze", src, "-m", "sparc2", "-D", "TURN.N=100", *params, "--format", "json"]) == 0
    import json
    report = json.loads(capsys.readouterr().out)
    assert report["unbound"] == ["TURN.X"] and "unevaluated" not in report


def test_block_sizes_bound_loops_and_the_functions_lines_equal_gcov(capsys):
    """The loops run NBLOCK(1,'dgetrf',100) = 64 and 32 + 2 times; NBLOCK's own lines are counted as its
    runs on those arguments took them (its tests are no probabilities). In BLKED, NBLOCK(1,'DPOTRF',N) is 32
    for every N (no decision of NBLOCK reads N), and DO J = 1, N, NB runs twice at N = 50."""
    analysis = analyze([str(BLAS / "blocks.f")])
    assert not list(analysis.table.unresolved())
    # NBLOCK(1, 'DPOTRF', N) reads no N: 32 already in BLKED's own formula, before a call binds N
    assert analysis.table.get("BLKED.NB").value == 32
    counts = {line: c for (_, line), c in line_counts(analysis.counts).items()}
    assert counts[10] == 64 and counts[13] == 34
    text = (BLAS / "blocks.f").read_text().splitlines()
    blocked = next(k for k, t in enumerate(text, 1) if t.strip() == "T = T + 1")
    assert counts[blocked] == 2
    rc = main(["check-counts", str(BLAS / "blocks.f"), "--require-bound", "--", "./blocks"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out


def test_what_a_call_leaves_decides_the_test_that_reads_it(capsys):
    """MKTAU leaves TAU = 0 where its length N-I+1 is 1 (the last trip), data otherwise: APPLY's TAU.NE.0
    holds on 5 of the 6 calls, not on all (the generic-data assumption alone would say 6); its scans for a
    zero (DO WHILE, LASTNZ) stop at once on generic data: the loop to LAST runs 6+5+4+3+2 = 20 times."""
    analysis = analyze([str(BLAS / "reflect.f")])
    assert not list(analysis.table.unresolved())
    counts = {line: c for (_, line), c in line_counts(analysis.counts).items()}
    text = (BLAS / "reflect.f").read_text().splitlines()
    body = next(k for k, t in enumerate(text, 1) if t.strip() == "S = S + TAU*V(I)")
    scan = next(k for k, t in enumerate(text, 1) if t.strip() == "LAST = LASTNZ(LAST, V)")
    assert counts[body] == 20 and counts[scan] == 5
    rc = main(["check-counts", str(BLAS / "reflect.f"), "--require-bound", "--", "./reflect"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out
