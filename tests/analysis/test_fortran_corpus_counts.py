"""Exact symbolic counts for every Fortran kernel against hand-derived closed forms (corpus/kernels/
expected.yaml, whose static counts were checked against gcov by corpus/kernels/verify_counts.py)."""
from __future__ import annotations

import pytest
import sympy

from tests.corpus_expectations import ROOT, counts_by_line, evaluate, load_expected, value_points

KERNELS = ROOT / "corpus" / "kernels"
EXPECTED = load_expected(KERNELS / "expected.yaml")
UNRESOLVED_KINDS = {"loop_count": "X_", "branch_probability": "P_"}
pytestmark = pytest.mark.xdist_group(__name__)  # both tests of a kernel read its one analysis (counts_by_line)


@pytest.mark.parametrize("kernel", sorted(EXPECTED))
def test_static_counts_match_hand_derivation(kernel):
    spec = EXPECTED[kernel]
    ours, _ = counts_by_line(KERNELS / kernel)
    checked = 0
    for line, entry in spec["lines"].items():
        if entry.get("count") is None:
            continue
        assert line in ours, f"{kernel}:{line}: no count derived"
        expected = sympy.sympify(entry["count"], locals={n: sympy.Symbol(n) for n in spec["params"]})
        for point in value_points(spec["params"]):
            got = evaluate(ours[line], point)
            want = evaluate(expected, point)
            assert not got.free_symbols, f"{kernel}:{line}: {ours[line]} has unbound {got.free_symbols}"
            assert got == want, f"{kernel}:{line}: SAD {ours[line]} = {got}, hand-derived {expected} = {want} " \
                                f"at {point}"
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("kernel", sorted(EXPECTED))
def test_unresolved_lines_carry_a_named_parameter(kernel):
    spec = EXPECTED[kernel]
    ours, analysis = counts_by_line(KERNELS / kernel)
    for line, entry in spec["lines"].items():
        if entry.get("count") is not None:
            continue
        names = {s.name for s in ours[line].free_symbols}
        assert any(n.startswith(("X_", "P_")) for n in names), \
            f"{kernel}:{line}: count {ours[line]} should depend on an unresolved loop count or probability"
