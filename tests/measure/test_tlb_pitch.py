"""benchmarks/tlb_pitch.py: the onset of TLB misses per pitch is the last row count before the first walk
slower than ONSET x the smallest walk; the walk program builds and gives a positive cost."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.measure.benchmark_scripts import load

tlb_pitch = load("tlb_pitch")


def test_the_onset_is_the_last_walk_before_the_first_slow_one():
    # measured at 8256 B: 1024 rows cost 1.756 ns > 1.25 x 0.586 (0.73 ns); 1280 rows back to 1.191 does not count
    costs = {64: 0.586, 512: 0.590, 768: 0.622, 1024: 1.756, 1280: 1.191, 1536: 7.916}
    assert tlb_pitch.onset(costs) == 768
    assert tlb_pitch.onset({64: 1.0, 512: 1.25, 1024: 1.26}) == 512     # 1.25x is still within
    assert tlb_pitch.onset({64: 1.0, 512: 1.1}) == 512                  # no miss in range: the largest walk


@pytest.mark.skipif(shutil.which("gcc") is None, reason="the walk is compiled with gcc")
def test_the_walk_program_runs(tmp_path):
    src, exe = tmp_path / "walk.c", tmp_path / "walk"
    src.write_text(tlb_pitch.SOURCE)
    subprocess.run(["gcc", "-O2", str(src), "-o", str(exe)], check=True)
    assert 0.05 < tlb_pitch.ns_per_access(exe, 4160, 64, None, 1) < 100   # 64 rows: L1 and the first-level TLB
