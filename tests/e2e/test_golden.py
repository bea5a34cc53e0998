"""Refactorings keep behaviour: every corpus program's JSON prediction equals the stored one, byte for byte."""
from __future__ import annotations

import pytest

from tests.e2e.golden_cases import GOLDEN, cases, run_case

CASES = cases()
# md1's unbound analysis is also read by tests of its report (tests.sad_runs.md1_json): one run, one worker
MARKS = {"corpus_md1_md1.f.json": [pytest.mark.xdist_group("md1"), pytest.mark.heavy],
         "md1_params.json": [pytest.mark.heavy], "corpus_c_md1.c.json": [pytest.mark.heavy]}


@pytest.mark.parametrize("name", [pytest.param(name, marks=MARKS.get(name, [])) for name in sorted(CASES)])
def test_json_output_is_unchanged(name: str) -> None:
    expected = (GOLDEN / name).read_text()
    assert run_case(CASES[name]) == expected, (f"{name} changed; if that is intended, regenerate with "
                                               "python3 tests/e2e/golden_cases.py --write")
