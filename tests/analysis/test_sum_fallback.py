"""A DO loop whose sum over its bounds sympy cannot form (it met nan: DORGQR's `DO I = KI + 1, 1, -NB` with
NB = ILAENV(...) and 1/floor(LWORK/N) among its choices stopped the whole routine with an internal error)
gets a named trip count and a warning; the routine is still analyzed and its other counts stay exact."""
from __future__ import annotations

import sympy

from sad.analysis import builder
from sad.analysis.description import line_counts
from sad.analysis.pipeline import analyze

SOURCE = """\
      SUBROUTINE WALK(N, K, A)
      INTEGER N, K, I, J
      DOUBLE PRECISION A(*)
      DO 10 J = 1, N
         A(J) = 0.0D0
   10 CONTINUE
      DO 20 I = K, 1, -2
         A(I) = A(I) + 1.0D0
   20 CONTINUE
      END
"""


def test_failed_sum_gives_a_named_trip_count(tmp_path, monkeypatch):
    path = tmp_path / "walk.f"
    path.write_text(SOURCE)
    real = builder.sum_over_index

    def failing(count, idx, lo, hi, step):
        if step == -2:
            raise ValueError("The argument 'nan' is not comparable.")
        return real(count, idx, lo, hi, step)

    monkeypatch.setattr(builder, "sum_over_index", failing)
    analysis = analyze([str(path)])
    warnings = [d.message for d in analysis.diagnostics if d.severity == "warning"]
    assert any(m.startswith("DO I: the sum over its bounds failed") for m in warnings), warnings
    assert not [d for d in analysis.diagnostics if d.severity == "error"]
    counts = {line: sympy.sympify(c) for (_, line), c in line_counts(analysis.counts).items()}
    assert str(counts[5]) == "Max(0, WALK.N)"                       # the first loop is still exact
    (x,) = counts[8].free_symbols                                   # the second: X trips, no index left
    assert x.name.startswith("X_WALK")
