"""A select or IF whose arms cost the same leaves no probability in the time (issue 27 item 6): `x = a > b ? a :
b` is counted X·P and X·(1 - P) times at one price, so the time is the same for every P and must be bound
without it (P = 0 and P = 1 gave the same seconds, yet the time was reported unbound). The counts keep P."""
from __future__ import annotations

from pathlib import Path

import pytest
import sympy

from sad.analysis.pipeline import analyze
from sad.machine.model import load_machine
from sad.predict.idleprobabilities import without_idle_probabilities
from sad.predict.job import predict_analysis

SELECTS = """#include <stdio.h>
double a[100000], b[100000];
int main(void) {
  int i, n;
  double x = 0.0, y;
  if (scanf("%d", &n) != 1 || n > 100000) return 1;
  for (i = 0; i < n; i++) { a[i] = i; b[i] = n - i; }
  for (i = 0; i < n; i++) {
    y = a[i] > b[i] ? a[i] : b[i];
    x = x > y ? x : y;
  }
  printf("%f\\n", x);
  return 0;
}
"""


def test_select_only_kernel_has_a_bound_time(tmp_path: Path):
    src = tmp_path / "sel.c"
    src.write_text(SELECTS)
    analysis = analyze([str(src)])
    probabilities = {p.name for p in analysis.table.unresolved() if p.name.startswith("P_")}
    assert len(probabilities) == 2                                   # the counts keep them ...
    result = predict_analysis(analysis, load_machine("sparc2"), {"n": sympy.Integer(1000)})
    assert result.prediction.unbound == [] and result.prediction.time_value is not None     # ... the time not
    assert not {s.name for s in result.prediction.time.free_symbols} & probabilities
    assert any(probabilities & {s.name for s in e.free_symbols} for e in result.prediction.operations.values())
    # the same seconds as with either arm taken always: P = 0 and P = 1 price the same operations
    free = predict_analysis(analysis, load_machine("sparc2"), {}).prediction.time
    assert {s.name for s in free.free_symbols} == {"n"}


def test_only_probabilities_the_time_does_not_depend_on_are_taken_out():
    p, q, x = (sympy.Symbol(s, nonnegative=True) for s in ("P_f_IF1", "P_f_IF2", "X_f_DO1"))
    c, d = sympy.Float(4e-7, 15), sympy.Float(2e-7, 15)
    equal = c * p * x + c * (1 - p) * x + d * x
    assert without_idle_probabilities(equal) == c * x + d * x
    unequal = c * q * x + d * (1 - q) * x                           # arms of different cost: q stays
    assert without_idle_probabilities(unequal) == unequal
    inside = sympy.Max(c * p, d) * x                                # a loop priced as a whole: not linear, stays
    assert without_idle_probabilities(inside + c * (1 - q) * x + c * q * x) == inside + c * x


def test_a_probability_the_time_depends_on_is_shown_so_at_one_point():
    """The cheap proof before the exact test (expanding the derivative took 44 of the 45 s of `sad analyze
    strevc3.f`): two values at one point. The point must not hide a term: STREVC3's `(1 - P_9_1 - P_9_2)`
    vanished where the other probabilities were 2/7 and 5/7, and `Max(0, N - 5)` where N was 5."""
    from sad.predict.idleprobabilities import _depends_at_a_point
    p, q1, q2, n = (sympy.Symbol(s, nonnegative=True) for s in ("P_f_IF1", "P_f_IF2_1", "P_f_IF2_2", "N"))
    c = sympy.Float(1.5e-7, 15)
    assert _depends_at_a_point(c * p * (1 - q1 - q2) * sympy.Max(0, n - 5), p)
    # arms of one cost: the same value at every P, so no proof, and the exact test takes P out
    idle = c * p * (1 - q1) * n + c * (1 - p) * (1 - q1) * n
    assert not _depends_at_a_point(idle, p)
    assert sympy.expand(without_idle_probabilities(idle) - c * (1 - q1) * n) == 0
    assert p not in without_idle_probabilities(idle).free_symbols
    # the exact test multiplies out products, not choices: an idle P beside a choice of a quotient (IEEECK's
    # tests of ONE/ZERO took 117 s to expand inside) is taken out all the same
    one, zero = sympy.Symbol("IEEECK.ONE"), sympy.Symbol("IEEECK.ZERO")
    test = 1 - sympy.Piecewise((1, one >= one / (one / (one - one / zero) + zero)), (0, True))
    kept = without_idle_probabilities(c * p * test * (1 - q2) ** 3 + c * (1 - p) * test * (1 - q2) ** 3)
    at = {one: -1, zero: 2, q2: sympy.Rational(1, 2)}                # test = 1 there: 1.5e-7 / 8
    assert p not in kept.free_symbols and kept.xreplace(at) == pytest.approx(1.5e-7 / 8)
    # a LOGICAL formal as a choice's condition (DLASQ5's IEEE) is given a truth value, not a number (a crash)
    ieee = sympy.Symbol("DLASQ5.IEEE")
    assert _depends_at_a_point(c * p * (1 - sympy.Piecewise((1, ieee), (0, True))) * n
                               + c * p * sympy.Piecewise((1, ieee & (n > 3)), (0, True)), p)
    # a formula with no number at the point (an unpriced call's function) proves nothing either
    f = sympy.Function("ILAENV")(n)
    assert not _depends_at_a_point(c * p * f, p)
