"""The share of a loop's core and its chain through memory: fitted by `sad calibrate` at -O0 on this host
(sad.predict.chainshare), read from the machine file, used by the composition (sad.predict.overlap.chained)."""
from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from sad.cli.machine import _probe_calibration, _slowed_shares, chain_share_step
from sad.machine.calibrate import render_yaml
from sad.machine.model import MachineError, load_machine
from sad.predict import chainshare
from sad.predict.overlap import CHAIN_SHARE, chain_share, chained, loop_seconds
from tests.machine.test_calibrate import chosen_calibration
from tests.machine.test_calibrate_unmeasured import hand_hierarchy
from tests.predict.loop_nests import explain_compiled, host_machine

needs_mca = pytest.mark.skipif(shutil.which("llvm-mca") is None or shutil.which("gcc") is None,
                               reason="llvm-mca and gcc are needed")


def _rows(share: float, scale: float) -> list[chainshare.Row]:
    """(measured, core, chain, index chain) of ten loops, each measured exactly scale x its core & chain with
    ``share``: six whose only chain through memory is their index's (1.3 ns: the longer of core and index +
    share x the shorter), four with an accumulator's chain of 3.8 ns beside the index's (the longer of that and
    the core & index)."""
    pairs = [(0.9, 3.8), (1.1, 3.8), (1.4, 1.3), (1.3, 1.3), (2.5, 1.3), (1.8, 1.3), (3.4, 1.3), (1.0, 1.3),
             (1.6, 3.8), (2.6, 3.8)]
    return [(scale * max(h, max(c, 1.3) + share * min(c, 1.3)), c, h, 1.3) for c, h in pairs]


def test_the_fit_finds_the_share_that_makes_the_ratios_even_whatever_their_level():
    # measured = 1.3 x core & chain at 0.25 for every loop: at 0.25 every ratio is 1.3, deviation 0
    found = chainshare.fit(_rows(0.25, 1.3))
    assert found is not None
    assert (found.share, found.loops) == (0.25, 10)
    assert found.ratio == pytest.approx(1.3) and found.deviation == pytest.approx(0.0, abs=1e-12)
    assert chainshare.fit(_rows(0.0, 0.8)).share == 0.0
    assert chainshare.fit(_rows(0.75, 1.0)).share == 0.75


def test_an_accumulator_chain_runs_beside_the_core_and_the_index_gates_it():
    # sum at -O0 on an Intel Xeon VM (2026-12-01): core 0.77 ns, the sum's chain 3.01, the index's 1.37;
    # measured 2.86-2.95 ns: the chain alone, where the earlier rule (longer + share x shorter of core and the
    # longest chain) gave 3.01 + share x 0.77
    assert chained(0.77, 3.01, 0.6, 1.37) == pytest.approx(3.01)
    # column: core 2.62 beside the same chain: 2.62 + 0.6 x 1.37 = 3.442 (measured 3.27-3.92)
    assert chained(2.62, 3.01, 0.6, 1.37) == pytest.approx(3.442)
    # the index's chain alone (div, 2.64-2.65 ns measured): the longer of core and index + share x the shorter
    assert chained(1.37, 1.37, 0.9, 1.37) == pytest.approx(2.603)


def test_too_few_loops_or_a_loop_without_a_chain_give_no_fit():
    rows = _rows(0.25, 1.0)
    assert chainshare.fit(rows[:7]) is None                            # seven loops: too few to tell
    assert chainshare.fit(rows[:7] + [(2.0, 1.0, 0.0, 0.0)]) is None   # a loop with no chain does not count


def _walks(walk_share: float, level: float) -> list[tuple[float, float, float, float]]:
    """(measured, core & chain, every other term, fills) of six walks measured exactly level x max(every other
    term, core & chain + walk_share x fills)."""
    parts = [(4.0, 4.0, 1.2), (3.1, 3.0, 1.2), (4.1, 4.1, 0.6), (2.6, 2.7, 0.7), (1.9, 1.9, 0.6), (3.9, 4.2, 1.3)]
    return [(level * max(rest, chain + walk_share * fills), chain, rest, fills) for chain, rest, fills in parts]


def test_the_walks_share_brings_their_ratios_to_the_l1_loops_level():
    # every walk measured at 0.95 x its model with 0.4 of its fills added: at 0.4 each ratio is the level's
    share, deviation = chainshare.fit_walks(_walks(0.4, 0.95), 0.95)
    assert share == 0.4 and deviation == pytest.approx(0.0, abs=1e-12)
    assert chainshare.fit_walks(_walks(0.0, 1.1), 1.1)[0] == 0.0
    assert chainshare.fit_walks(_walks(1.0, 1.0), 1.0)[0] == 1.0
    # the level is the L1 loops': the same walks judged against a level 10 % higher need a larger share
    assert chainshare.fit_walks(_walks(0.4, 1.0), 0.9)[0] > 0.4


def test_too_few_walks_with_fills_give_no_walk_share():
    rows = _walks(0.4, 1.0)
    assert chainshare.fit_walks(rows[:3], 1.0) is None
    assert chainshare.fit_walks(rows[:3] + [(2.0, 2.0, 2.0, 0.0)], 1.0) is None   # no fills: nothing to share


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
    assert "core and index chain (the longer + 0.25 x the shorter)" in text and "chain_share" not in err
    text, err = _explain(tmp_path, None)
    assert "core and index chain (the longer + 0.5 x the shorter, not measured on this machine)" in text
    assert "no hierarchy.chain_share" in err and "recalibrate" in err


def test_a_share_beyond_one_is_refused_with_its_line(tmp_path):
    with pytest.raises(MachineError, match=r"chain_share"):
        load_machine(_host(tmp_path, "1.5"))


def test_the_yaml_lines_load_as_the_fitted_shares(tmp_path):
    lines = chainshare.yaml_lines(chainshare.Fit(0.35, 0.94, 0.031, 23, walk_share=0.45, walk_loops=8))
    hierarchy = load_machine(host_machine(tmp_path, "gcc -O0", "\n".join(lines) + "\n")).hierarchy
    assert (hierarchy.chain_share, hierarchy.walk_share) == (0.35, 0.45)
    lines = chainshare.yaml_lines(chainshare.Fit(0.35, 0.94, 0.031, 23))   # no walks fitted: no walk_share line
    assert len(lines) == 1
    assert load_machine(host_machine(tmp_path, "gcc -O0", lines[0] + "\n")).hierarchy.walk_share is None


def test_a_walk_share_beyond_one_is_refused(tmp_path):
    with pytest.raises(MachineError, match=r"walk_share"):
        load_machine(host_machine(tmp_path, "gcc -O0", "  walk_share: 1.5\n"))


def test_shares_timed_on_a_slowed_host_are_kept_marked_and_said(tmp_path):
    slowed = chainshare.Fit(0.05, 0.95, 0.03, 23, host_ratio=1.26, walk_share=0.9, walk_loops=8,
                            walk_host_ratio=1.4)
    warnings = _slowed_shares(slowed)
    assert [w.split(":")[0] for w in warnings] == ["hierarchy.chain_share UNRELIABLE",
                                                   "hierarchy.walk_share UNRELIABLE"]
    assert "x1.26" in warnings[0] and "x1.40" in warnings[1]
    lines = chainshare.yaml_lines(slowed)
    assert lines[0].endswith("UNRELIABLE SLOW HOST x1.26") and lines[1].endswith("UNRELIABLE SLOW HOST x1.40")
    hierarchy = load_machine(host_machine(tmp_path, "gcc -O0", "\n".join(lines) + "\n")).hierarchy
    assert (hierarchy.chain_share, hierarchy.walk_share) == (0.05, 0.9)
    quiet = dataclasses.replace(slowed, host_ratio=1.02, walk_host_ratio=1.05)
    assert _slowed_shares(quiet) == [] and "UNRELIABLE" not in "".join(chainshare.yaml_lines(quiet))


def test_a_calibration_at_O2_fits_the_shares_on_the_probe_compiled_at_O0():
    """The shares are the core's: a -O2 calibration prices its probe as a -O0 build with its own figures (before,
    -O2 files had no chain_share and took the default 0.5 where this host's is 0.05-0.25), and keeps its own
    flags for the file it writes."""
    cal = chosen_calibration("c")
    cal.flags = ["-O2", "-march=native"]
    probe = _probe_calibration(cal)
    assert probe.flags == ["-march=native", "-O0"] and cal.flags == ["-O2", "-march=native"]
    assert 'compile: "gcc -march=native -O0"' in render_yaml(probe, "probe")
    assert 'compile: "gcc -O2 -march=native"' in render_yaml(cal, "cal")


@needs_mca
def test_the_step_of_a_calibration_at_O2_writes_the_chain_share():
    cal = chosen_calibration("c")
    cal.flags, cal.hierarchy = ["-O2"], hand_hierarchy()
    chain_share_step(1, cal)
    assert not [w for w in cal.warnings if "chain_share not measured" in w], cal.warnings
    assert cal.finished[0].startswith("  chain_share: ") and "loops compiled at -O0" in cal.finished[0]


@needs_mca
def test_every_loop_of_the_program_is_timed_and_priced_from_its_compiled_code(tmp_path):
    """The calibration's step on a machine compiled at -O0: each of the 23 loops beside the empty one has a
    measured time, a core and a chain through memory (the index on the stack), so the fit rests on all of them;
    each of the 8 column walks (rows 4 000 bytes apart, beyond the host's 32 KiB L1) brings lines into L1
    behind that chain, so the walks' share rests on all of them."""
    machine = _host(tmp_path, None)
    machine.write_text(machine.read_text().replace(
        "    - {name: memory, read: 6 ns, write: 8 ns}\n",
        "    - {name: L2, size: 512 KiB, read: 1 ns, write: 1 ns, column_read: 3.3 ns, column_update: 3.3 ns}\n"
        "    - {name: memory, read: 6 ns, write: 8 ns, column_read: 12 ns, column_update: 14 ns}\n"))
    found = chainshare.measure(str(machine), "gcc", None, runs=1)
    assert found is not None
    assert found.loops == len(chainshare.LOOPS) - 1
    assert found.share in chainshare.SHARES and found.ratio > 0 and found.host_ratio == 1.0
    assert found.walk_loops == len(chainshare.WALKS) and found.walk_share in chainshare.SHARES
