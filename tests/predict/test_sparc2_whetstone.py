"""sparc2.yaml checked against the published SPARCstation 2 Whetstone time (Brehm 1999, Sec. 3.1.1).

One run of the Whetstone program with LOOP = 10 is 1 million Whetstone instructions; the SPARCstation 2 took
108 350 us for it unoptimized (GNU C 2.7, -O0), the optimization level sparc2.yaml models. The analyzer's
prediction must be within 25 %.

The unresolved parameters, derived by hand (corpus/whetstone/README.md) and checked against a real gcov
profile of the same program here:
- X_PA_L1 / X_pa_Llab1 = 5: PA makes six passes; the backward GOTO is taken after passes 1..5 (J = 1..5 < 6);
- P_..._IF2..IF4 = 1/2: in module 4 J alternates 1, 0, 1, ... so each IF takes its THEN arm every other trip;
- P_..._IF5 = 1: the rate is printed when the measured time is positive (the error branches of the C version
  are exits, assumed not taken);
- C_ETIME / C_clock = 0: the timer is outside the 1 MWI being timed (its cost is a few microseconds).
"""
from __future__ import annotations

from pathlib import Path

import pytest
import sympy

from sad.machine.model import load_machine
from sad.measure.validate import analyze_file, predict_seconds, profile_values

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED_O0 = 0.108350          # seconds per 1 MWI, SPARCstation 2, GNU C 2.7, no optimization
HAND = {
    "whetstone.f": {"LOOP": 10, "X_PA_L1": 5, "P_WHETST_IF2": 0.5, "P_WHETST_IF3": 0.5, "P_WHETST_IF4": 0.5,
                    "P_WHETST_IF5": 1, "C_ETIME": 0},
    "whetstone.c": {"loop": 10, "X_pa_Llab1": 5, "P_main_IF2": 0.5, "P_main_IF3": 0.5, "P_main_IF4": 0.5,
                    "P_main_IF5": 1, "C_clock": 0},
}


def _values(name: str) -> dict[str, sympy.Expr]:
    return {k: sympy.nsimplify(v) for k, v in HAND[name].items()}


@pytest.mark.parametrize("name", sorted(HAND))
def test_hand_values_match_gcov_profile(name: str):
    source = ROOT / "corpus" / "whetstone" / name
    size = "LOOP" if name.endswith(".f") else "loop"
    values = {size: sympy.Integer(10)}
    analysis = analyze_file(source, {}, values)
    measured = profile_values(source, analysis, values, {}, "./whetstone < corpus/whetstone/whetstone.in", ROOT)
    for key, value in HAND[name].items():
        if key in measured and not key.startswith("C_"):
            assert measured[key] == pytest.approx(value), key


@pytest.mark.parametrize("name", sorted(HAND))
def test_sparc2_whetstone_within_25_percent(name: str):
    source = ROOT / "corpus" / "whetstone" / name
    values = _values(name)
    analysis = analyze_file(source, {}, values)
    seconds, unbound = predict_seconds(analysis, load_machine("sparc2"), values)
    assert not unbound, unbound
    error = (seconds - PUBLISHED_O0) / PUBLISHED_O0
    assert abs(error) <= 0.25, f"{name}: predicted {seconds * 1e3:.1f} ms vs 108.35 ms ({error:+.1%})"
