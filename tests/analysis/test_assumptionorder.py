"""sympy's assumption queries take their prerequisite facts in a fixed order (sad.analysis.assumptionorder)."""
import importlib

import sympy
import sympy.core.random

from sad.analysis import counting  # noqa: F401  (installs the fixed order)

# the module itself: `import sympy.core.assumptions as x` binds sympy.core's function of that name
assumptions = importlib.import_module("sympy.core.assumptions")


def test_prerequisite_facts_are_sorted_in_place_not_shuffled():
    # sympy's own shuffle would leave these eight in sorted order once in 40 320 runs
    facts = ["rational", "integer", "algebraic", "complex", "zero", "finite", "extended_real", "commutative"]
    assumptions.shuffle(facts)
    assert facts == ["algebraic", "commutative", "complex", "extended_real", "finite", "integer", "rational", "zero"]


def test_a_query_draws_nothing_from_sympys_generator():
    # sympy's _ask shuffles each batch of facts it queues with this generator: sorted, the query draws nothing
    generator = sympy.core.random._assumptions_rng
    before = generator.getstate()
    n, m = sympy.Symbol("n", integer=True), sympy.Symbol("m")
    assert (m * n + 3 * n ** 2 + 1).is_extended_nonnegative is None
    assert generator.getstate() == before
