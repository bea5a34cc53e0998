"""Conditions on formal arguments are exact indicators (BLAS's `IF (N .LE. 0) RETURN`, `IF (INCX.EQ.1 .AND.
INCY.EQ.1) GOTO 20`): a routine's counts are a formula in its arguments, a caller that binds them gets exact
counts (checked against gcov), a caller that passes data gets a probability."""
from __future__ import annotations

from pathlib import Path

import sympy

from sad.analysis.pipeline import analyze
from sad.cli.main import main

BLAS = Path(__file__).resolve().parent / "blas"


def _sym(name):
    return sympy.Symbol(name, integer=True)


def test_daxpy_count_is_a_formula_in_its_arguments():
    analysis = analyze([str(BLAS / "daxpy.f")])
    assert not [p for p in analysis.table if p.kind == "branch_probability"]
    n, incx, incy = _sym("DAXPY.N"), _sym("DAXPY.INCX"), _sym("DAXPY.INCY")
    da = sympy.Symbol("DAXPY.DA", real=True)
    line = {e.loc.line: c for e, c in analysis.counts.items() if e.role == "stmt"}
    strided, unrolled, rest = line[14], line[27], line[22]

    def at(expr, nv, ix, iy, a=2):
        return int(expr.subs({n: nv, incx: ix, incy: iy, da: a}))
    for nv in (-1, 0, 1, 3, 4, 7, 100, 101):
        for ix, iy in ((1, 1), (2, 1), (1, -1)):
            unit = ix == 1 and iy == 1
            go = nv > 0
            assert at(strided, nv, ix, iy) == (nv if go and not unit else 0)
            assert at(rest, nv, ix, iy) == (nv % 4 if go and unit else 0)
            assert at(unrolled, nv, ix, iy) == (len(range(nv % 4 + 1, nv + 1, 4)) if go and unit else 0)
        assert at(strided, nv, 2, 1, a=0) == 0  # DA = 0 returns at once


def test_caller_binding_the_arguments_gets_exact_counts_equal_to_gcov(capsys, tmp_path):
    analysis = analyze([str(BLAS / "caller.f"), str(BLAS / "daxpy.f")])
    assert [p.name for p in analysis.table.unresolved()] == ["N"]
    (tmp_path / "in.txt").write_text("50\n")
    rc = main(["check-counts", str(BLAS / "caller.f"), str(BLAS / "daxpy.f"), "-D", "N=50", "--require-bound",
               "--", f"./caller < {tmp_path / 'in.txt'}"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "MISMATCH" not in out
    row = next(r.split() for r in out.splitlines() if "daxpy.f:27 " in r)
    assert row[1:4] == ["26", "26", "ok"]   # DAXPY(100): 25 unrolled trips, DAXPY(7): 1


def test_a_call_passing_data_gets_a_probability(tmp_path):
    """N is a function's result (a routine not in the files): N <= 0 is data here, a probability."""
    source = tmp_path / "data.f"
    source.write_text("""      PROGRAM DATA
      INTEGER I, NGET
      EXTERNAL NGET
      DOUBLE PRECISION X(100), Y(100)
      DO 10 I = 1, 100
         X(I) = 1.0D0
         Y(I) = 1.0D0
   10 CONTINUE
      CALL DAXPY(NGET(3), 2.0D0, X, 1, Y, 1)
      END
""")
    analysis = analyze([str(source), str(BLAS / "daxpy.f")])
    probs = sorted(p.name for p in analysis.table if p.kind == "branch_probability")
    assert "P_DAXPY_IF1" in probs
    assert {"P_DAXPY_IF1", "P_DAXPY_IF6", "P_DAXPY_IF7"} <= set(probs)   # N <= 0, MOD(N, 4) = 0, N < 4
    conditions = [pw for c in analysis.counts.values() for pw in c.atoms(sympy.Piecewise)]
    assert not any(s.name.startswith("DAXPY.") for pw in conditions for s in pw.free_symbols)
    # (the trip count of DO 10 I = 1, N stays in the unbound formal DAXPY.N, as for any loop bound)


def test_sad_check_gives_the_routine_as_a_formula_in_its_arguments(capsys):
    import json
    rc = main(["check", str(BLAS / "daxpy.f"), "--format", "json"])
    out = capsys.readouterr().out
    assert rc == 0, out
    routine = json.loads(out)["routines"][0]
    assert routine["parameters"] == {"DAXPY.DA": "value", "DAXPY.INCX": "value", "DAXPY.INCY": "value",
                                     "DAXPY.N": "value"}
    assert "P_" not in routine["time"] and "Piecewise((1, DAXPY.N <= 0)" in routine["time"]


def test_a_logical_argument_decides_the_callees_tests(capsys):
    """tests/analysis/blas/logarg.f: SWEEP(UP, N, ...) called with .TRUE., .FALSE. and with BIG = N .GT. 3
    (true at N = 5), at N = 5, 5 and 3. `IF (UP)` and `IF (.NOT. UP .AND. N .GT. 2)` follow each call's value:
    by hand the forward loop runs 5 + 3 = 8 times (two calls), the backward one 5 (one call); gcov agrees.
    Before: a LOGICAL actual was not bound and `IF (UP)` was a probability (6 lines unbound)."""
    fixture = str(BLAS / "logarg.f")
    analysis = analyze([fixture])
    assert not analysis.table.unresolved()
    rc = main(["check-counts", fixture, "--require-bound", "--", "./logarg"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out, out
    rows = {row.split()[0]: row.split()[1:3] for row in out.splitlines() if row.startswith(fixture)}
    assert rows[f"{fixture}:27"] == ["8", "8"] and rows[f"{fixture}:32"] == ["5", "5"], out
