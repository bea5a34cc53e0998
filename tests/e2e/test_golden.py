"""Refactorings keep behaviour: every corpus program's JSON prediction equals the stored one, byte for byte."""
from __future__ import annotations

import pytest

from tests.e2e.golden_cases import GOLDEN, cases, run_case

CASES = cases()


@pytest.mark.parametrize("name", sorted(CASES))
def test_json_output_is_unchanged(name: str) -> None:
    expected = (GOLDEN / name).read_text()
    assert run_case(CASES[name]) == expected, (f"{name} changed; if that is intended, regenerate with "
                                               "python3 tests/e2e/golden_cases.py --write")
