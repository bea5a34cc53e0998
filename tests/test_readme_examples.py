"""The README's example outputs are what `sad` prints today (tools/readme_examples.py generates them)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("readme_examples", ROOT / "tools" / "readme_examples.py")
readme_examples = importlib.util.module_from_spec(spec)
sys.modules["readme_examples"] = readme_examples  # dataclasses look their module up there
spec.loader.exec_module(readme_examples)


@pytest.mark.heavy
def test_readme_examples_are_current():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    examples = readme_examples.find_examples(text.split("\n"))
    assert len(examples) >= 3
    assert readme_examples.generate(text) == text, (
        "README.md examples are stale: run python3 tools/readme_examples.py")


def test_marker_options_trim_output():
    lines = ["<!-- example: from='Predicted time:' head=2 -->", "```",
             "$ sad analyze corpus/kernels/triangular.f \\", "  --machine sparc2 -D N=10", "old", "```"]
    (example,) = readme_examples.find_examples(lines)
    assert example.argv == ["analyze", "corpus/kernels/triangular.f", "--machine", "sparc2", "-D", "N=10"]
    rendered = readme_examples.render(example)
    assert rendered[:2] == lines[2:4] and rendered[2] == "..." and rendered[3] == "Predicted time:"
    assert rendered[-1] == "..." and len(rendered) == 6
