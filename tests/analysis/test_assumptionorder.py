"""sympy's assumption queries take their prerequisite facts in a fixed order (sad.analysis.assumptionorder)."""
import sympy.core.assumptions as assumptions

from sad.analysis import counting  # noqa: F401  (installs the fixed order)


def test_prerequisite_facts_are_sorted_in_place_not_shuffled():
    # sympy's own shuffle would leave these eight in sorted order once in 40 320 runs
    facts = ["rational", "integer", "algebraic", "complex", "zero", "finite", "extended_real", "commutative"]
    assumptions.shuffle(facts)
    assert facts == ["algebraic", "commutative", "complex", "extended_real", "finite", "integer", "rational", "zero"]
