"""Truncating corpus files at random points never produces an uncaught exception or an internal error:
whatever is left is analyzed and mapped, and what is broken is reported as file:line diagnostics."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from sad.analysis.description import group_blocks
from sad.analysis.pipeline import analyze
from sad.machine.model import load_machine
from sad.predict.mapper import predict

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "corpus" / "md1" / "md1.f", ROOT / "corpus" / "kernels" / "gotoloop.f",
           ROOT / "corpus" / "kernels" / "compgoto.f", ROOT / "corpus" / "kernels" / "commoncall.f"]


@pytest.mark.parametrize("source", [pytest.param(p, id=p.name, marks=[pytest.mark.heavy] if p.name == "md1.f" else [])
                                    for p in SOURCES])
def test_random_truncations_are_analyzed_without_internal_errors(source, tmp_path):
    text = source.read_text()
    rng = random.Random(20261120)
    points = sorted(rng.sample(range(1, len(text)), 4 if len(text) > 5000 else 20))   # md1: ~1 s per analysis
    machine = load_machine("sparc2")
    for cut in points:
        piece = tmp_path / source.name
        piece.write_text(text[:cut])
        analysis = analyze([str(piece)])
        internal = [d for d in analysis.diagnostics if "internal error" in d.message]
        assert not internal, f"cut at {cut}: {internal[0]}"
        for d in analysis.diagnostics:
            assert d.loc.file == str(piece) and d.loc.line >= 1
        predict(group_blocks(analysis.counts), machine, {})
