"""Routine summaries reused across the units of `sad check` (sad.analysis.summaries): a routine built by one
unit is taken in by the later units calling it, with the same result as a fresh build, and each call binds
the summary to its own actual values (per-call counts, not an average)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import sympy

from sad.analysis.description import line_counts
from sad.analysis.pipeline import build_procedures, load_program
from sad.analysis.summaries import SummaryStore
from sad.codebase import routines
from sad.codebase.points import point_set
from sad.codebase.results import Options
from sad.codebase.runner import plan
from sad.machine.files import resolve_path

BLAS = Path(__file__).resolve().parents[1] / "analysis" / "blas"

# A library routine (no main program) in DSYTD2's shape: a loop over I calling DDOT and DAXPY with a length
# that depends on I, so that their `IF (N.LE.0) RETURN` and MOD(N,5)/MOD(N,4) clean-up loops take each
# call's length.
REDUCE = """\
      SUBROUTINE REDUCE(N, A, LDA, W)
      INTEGER N, LDA, I
      DOUBLE PRECISION A(LDA,*), W(*), ALPHA, DDOT
      EXTERNAL DDOT
      DO 10 I = N - 1, 1, -1
         ALPHA = -0.5D0*DDOT(N - I, A(I+1,I), 1, W(I+1), 1)
         CALL DAXPY(N - I, 2.0D0, A(I+1,I), 1, W(I+1), 1)
   10 CONTINUE
      END
"""

# A routine whose clean-up loop depends on its formal N, called at two sites with different lengths.
CLEAN = """\
      SUBROUTINE CLEAN(N, X)
      INTEGER N, I, M
      DOUBLE PRECISION X(*)
      IF (N .LE. 0) RETURN
      M = MOD(N, 4)
      DO 10 I = 1, M
         X(I) = 2.0D0*X(I)
   10 CONTINUE
      DO 20 I = M + 1, N, 4
         X(I) = 3.0D0*X(I)
   20 CONTINUE
      END
"""
TWO_CALLS = """\
      SUBROUTINE TWICE(X)
      DOUBLE PRECISION X(*)
      CALL CLEAN(5, X)
      CALL CLEAN(2, X)
      END
"""


def _build(files: list[str], store: SummaryStore | None, fresh: str):
    program, failed = load_program(files, [], {})
    assert not failed
    digests = {path: Path(path).read_text() for path in files}
    return build_procedures(program, summaries=(store, digests, {fresh}) if store is not None else None)[0]


def _lines(ctx, routine: str, file: str) -> dict[int, sympy.Expr]:
    return {line: count for (path, line), count in line_counts(ctx.built[routine.lower()].counts).items()
            if Path(path).name == file}


def test_a_summary_bound_at_two_calls_gives_each_calls_counts(tmp_path):
    """CLEAN built alone, then taken from the store into TWICE: CLEAN(5) runs its clean-up loop MOD(5,4) = 1
    time and its main loop (I = 2, 5, 4) once; CLEAN(2) the clean-up twice and the main loop not at all
    (I = 3, 2, 4). Summed: 3 and 1, not two averages."""
    (tmp_path / "clean.f").write_text(CLEAN)
    (tmp_path / "twice.f").write_text(TWO_CALLS)
    clean, twice = str(tmp_path / "clean.f"), str(tmp_path / "twice.f")
    store = SummaryStore()
    _build([clean], store, clean)
    ctx = _build([twice, clean], store, twice)
    assert store.reused == 1
    counts = _lines(ctx, "TWICE", "clean.f")
    assert counts[7] == 3 and counts[10] == 1  # X(I) = 2*X(I); X(I) = 3*X(I)
    assert counts[4] == 2  # the IF of each call
    fresh = _build([twice, clean], None, twice)
    assert _lines(fresh, "TWICE", "clean.f") == counts


def test_per_call_clean_up_loops_summed_over_the_callers_loop_with_reused_callees(tmp_path):
    """DDOT's and DAXPY's summaries (built by their own units) bound in REDUCE's loop: DDOT's clean-up loop
    runs sum over I = 1 .. N-1 of MOD(N-I, 5) times: 23 at N = 13 (1+2+3+4+0+1+2+3+4+0+1+2), as gcov counts
    in tests/analysis/test_options.py's driver; DAXPY's MOD(N-I, 4) clean-up 1+2+3+0+1+2+3+0+1+2+3+0 = 18."""
    for name in ("ddot.f", "daxpy.f"):
        shutil.copy(BLAS / name, tmp_path / name)
    (tmp_path / "reduce.f").write_text(REDUCE)
    ddot, daxpy, reduce = (str(tmp_path / n) for n in ("ddot.f", "daxpy.f", "reduce.f"))
    store = SummaryStore()
    _build([ddot], store, ddot)
    _build([daxpy], store, daxpy)
    ctx = _build([reduce, ddot, daxpy], store, reduce)
    assert store.reused == 2
    n = next(s for s in ctx.table.entries() if s[0].name == "REDUCE.N")[1]
    text = (BLAS / "ddot.f").read_text().splitlines()
    dot_clean = next(k for k, t in enumerate(text, 1) if t.strip() == "ACC = ACC + DX(I)*DY(I)")
    counts = _lines(ctx, "REDUCE", "ddot.f")
    assert counts[dot_clean].subs(n, 13).doit() == 23
    fresh = _build([reduce, ddot, daxpy], None, reduce)
    assert _lines(fresh, "REDUCE", "ddot.f") == counts
    assert _lines(fresh, "REDUCE", "daxpy.f") == _lines(ctx, "REDUCE", "daxpy.f")
    axpy = (BLAS / "daxpy.f").read_text().splitlines()
    axpy_clean = [k for k, t in enumerate(axpy, 1) if t.strip().startswith("DY(I) = DY(I) + DA*DX(I)")]
    assert any(_lines(ctx, "REDUCE", "daxpy.f")[k].subs(n, 13).doit() == 18 for k in axpy_clean)


def test_units_in_one_process_give_the_results_of_units_alone(tmp_path, monkeypatch):
    """The units of a codebase analyzed one after the other in one process (summaries reused) report
    exactly, byte for byte, what each unit analyzed in a fresh process reports."""
    for name in ("ddot.f", "daxpy.f", "dtrsm.f", "lsame.f", "xerbla.f"):
        shutil.copy(BLAS / name, tmp_path / name)
    (tmp_path / "reduce.f").write_text(REDUCE)
    (tmp_path / "clean.f").write_text(CLEAN)
    (tmp_path / "twice.f").write_text(TWO_CALLS)
    options = Options(str(resolve_path("sparc2").resolve()), point_set([], None, [str(tmp_path)]), (), ())
    units, _ = plan([str(tmp_path)], [], options)
    monkeypatch.setattr(routines, "_SUMMARIES", {})
    together = {u.path: json.dumps(routines.analyze_unit(u, options).to_jsonable(), sort_keys=True)
                for u in sorted(units, key=lambda u: u.path)}
    # REDUCE takes DDOT and DAXPY in, TWICE takes CLEAN (DTRSM comes before LSAME and XERBLA by path)
    assert sum(store.reused for store in routines._SUMMARIES.values()) == 3
    for unit in units:
        monkeypatch.setattr(routines, "_SUMMARIES", {})
        assert json.dumps(routines.analyze_unit(unit, options).to_jsonable(), sort_keys=True) == together[unit.path]
