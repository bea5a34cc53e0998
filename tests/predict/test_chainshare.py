"""The share of a loop's core and its chain through memory: fitted by `sad calibrate` at -O0 on this host
(sad.predict.chainshare), read from the machine file, used by the composition (sad.predict.overlap.chained)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sad.cli.machine import chain_share_step
from sad.machine.calibrate import Calibration
from sad.machine.model import MachineError, load_machine
from sad.predict import chainshare
from sad.predict.overlap import CHAIN_SHARE, chain_share, chained, loop_seconds
from tests.predict.loop_nests import explain_compiled, host_machine

needs_mca = pytest.mark.skipif(shutil.which("llvm-mca") is None or shutil.which("gcc") is None,
                               reason="llvm-mca and gcc are needed")


def _rows(share: float, scale: float) -> list[tuple[float, float, float]]:
    """(measured, core, chain) of ten loops whose measured time is exactly scale x (longer + share x shorter)."""
    pairs = [(0.9, 3.8), (1.1, 3.8), (1.4, 1.3), (1.3, 1.3), (2.5, 1.3), (1.8, 1.3), (3.4, 1.3), (1.0, 1.3),
             (1.6, 3.8), (2.6, 3.8)]
    return [(scale * (max(c, h) + share * min(c, h)), c, h) for c, h in pairs]


def test_the_fit_finds_the_share_that_makes_the_ratios_even_whatever_their_level():
    # measured = 1.3 x (longer + 0.25 x shorter) for every loop: at 0.25 every ratio is 1.3, deviation 0
    found = chainshare.fit(_rows(0.25, 1.3))
    assert found is not None
    assert (found.share, found.loops) == (0.25, 10)
    assert found.ratio == pytest.approx(1.3) and found.deviation == pytest.approx(0.0, abs=1e-12)
    assert chainshare.fit(_rows(0.0, 0.8)).share == 0.0
    assert chainshare.fit(_rows(0.75, 1.0)).share == 0.75


def test_too_few_loops_or_a_loop_without_a_chain_give_no_fit():
    rows = _rows(0.25, 1.0)
    assert chainshare.fit(rows[:7]) is None                       # seven loops: too few to tell
    assert chainshare.fit(rows[:7] + [(2.0, 1.0, 0.0)]) is None   # a loop with no chain does not count


def test_the_composition_takes_the_machines_share():
    # core 2 ns, chain 1 ns: the longer + share x the shorter
    assert chained(2e-9, 1e-9, 0.25) == pytest.approx(2.25e-9)
    assert chained(2e-9, 1e-9) == pytest.approx(2e-9 + CHAIN_SHARE * 1e-9)
    assert float(loop_seconds(2e-9, 1e-9, 0, share=0.0)) == pytest.approx(2e-9)
    assert chained(2e-9, 0.0, 0.25) == 2e-9                        # no chain through memory: the core alone


STACK_C = """#include <stdio.h>
static double a[600], c[600];
int main(void) {
    int i, r;
    for (i = 0; i < 600; i++) a[i] = i * 1e-3;
    for (r = 0; r < 1000; r++)
        for (i = 0; i < 600; i++)
            c[i] = a[i] + a[i] + a[i] + a[i] + a[i] + a[i] + a[i] + a[i];
    printf("%g\\n", c[7]);
    return 0;
}
"""


def _host(tmp_path: Path, share: str | None) -> Path:
    """The test host compiled at -O0 (its loop_iter the index's chain), with or without a chain_share line."""
    return host_machine(tmp_path, "gcc -O0", f"  chain_share: {share}\n" if share is not None else "")


def _explain(tmp_path: Path, share: str | None) -> tuple[str, str]:
    return explain_compiled(tmp_path, "stack.c", STACK_C, "gcc -O0",
                            f"  chain_share: {share}\n" if share is not None else "")


@needs_mca
def test_a_measured_share_prices_the_loop_and_a_missing_one_is_said(tmp_path):
    assert chain_share(load_machine(_host(tmp_path, "0.25")).hierarchy) == 0.25
    assert load_machine(_host(tmp_path, None)).hierarchy.chain_share is None
    text, err = _explain(tmp_path, "0.25")
    assert "core and chain (the longer + 0.25 x the shorter)" in text and "chain_share" not in err
    text, err = _explain(tmp_path, None)
    assert "core and chain (the longer + 0.5 x the shorter, not measured on this machine)" in text
    assert "no hierarchy.chain_share" in err and "recalibrate" in err


def test_a_share_beyond_one_is_refused_with_its_line(tmp_path):
    with pytest.raises(MachineError, match=r"chain_share"):
        load_machine(_host(tmp_path, "1.5"))


def test_the_yaml_line_loads_as_the_fitted_share(tmp_path):
    line = chainshare.yaml_line(chainshare.Fit(0.35, 0.94, 0.031, 23))
    assert load_machine(host_machine(tmp_path, "gcc -O0", line + "\n")).hierarchy.chain_share == 0.35


def _calibration(flags: list[str]) -> Calibration:
    return Calibration("gcc", "gcc 12", "c", flags, "test cpu", 2.5e9, "2026-11-30")


def test_a_calibration_that_keeps_variables_in_registers_writes_no_share_and_says_why():
    cal = _calibration(["-O2"])
    chain_share_step(["-O2"], 3, cal)
    assert cal.finished == []
    assert any("hierarchy.chain_share not measured" in w and "-O2" in w for w in cal.warnings)


@needs_mca
def test_every_loop_of_the_program_is_timed_and_priced_from_its_compiled_code(tmp_path):
    """The calibration's step on a machine compiled at -O0: each of the 23 loops beside the empty one has a
    measured time, a core and a chain through memory (the index on the stack), so the fit rests on all of them."""
    found = chainshare.measure(str(_host(tmp_path, None)), "gcc", None, runs=1)
    assert found is not None
    assert found.loops == len(chainshare.LOOPS) - 1
    assert found.share in chainshare.SHARES and found.ratio > 0 and found.host_ratio == 1.0
