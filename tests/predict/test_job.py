"""The one entry point (sad.predict.job.run): files, options and a machine → analysis, blocks, prediction."""
from __future__ import annotations

from pathlib import Path

import sympy

from sad.machine.model import load_machine
from sad.predict.job import Options, predict_analysis, run

ROOT = Path(__file__).resolve().parents[2]
TRIANGULAR = str(ROOT / "corpus/kernels/triangular.f")


def test_run_counts_the_triangular_nests_and_prices_them() -> None:
    result = run([TRIANGULAR], Options(), load_machine("sparc2"))
    counts = {b.first_line: b.count for b in result.blocks if b.kind == "code"}
    # ISUM = ISUM + I*J (line 11) runs N(N+1)/2 times, JSUM = JSUM + J (line 20) N(N+3)/2 times
    n = next(iter(counts[11].free_symbols))
    assert (counts[11].subs(n, 10), counts[20].subs(n, 10)) == (55, 65)
    assert counts[11].subs(n, -3) == 0
    assert result.prediction.unbound == ["N"]
    assert result.blocks is result.analysis.blocks


def test_bindings_reach_analysis_and_mapper() -> None:
    machine = load_machine("sparc2")
    bound = run([TRIANGULAR], Options(bindings={"N": sympy.Integer(10)}), machine)
    free = run([TRIANGULAR], Options(), machine)
    assert bound.prediction.unbound == []
    n = next(s for s in free.prediction.time.free_symbols if s.name == "N")
    assert abs(float(free.prediction.time.subs(n, 10)) - bound.prediction.time_value) < 1e-15
    again = predict_analysis(free.analysis, machine, {"N": sympy.Integer(10)})
    assert again.prediction.time_value == bound.prediction.time_value


def test_a_block_price_is_the_sum_of_its_operations_at_the_machines_figures() -> None:
    from collections import Counter

    from sad.predict.mapper import price
    machine = load_machine("sparc2")
    add, mul = machine.op_cost("add.double"), machine.op_cost("mul.double")
    assert add is not None and mul is not None
    expected = 2 * sympy.Float(add, 15) + sympy.Float(0.5) * sympy.Float(mul, 15)
    for n in (2, 2.0):   # the remembered terms: an integer count given either way, a fraction of a block
        assert price(Counter({"add.double": n, "mul.double": 0.5}), machine, set()) == expected
    assert price(Counter({"add.double": 3}), machine, set()) == 3 * sympy.Float(add, 15)
    assert float(price(Counter({"add.double": 3}), machine, set())) == 3 * add
