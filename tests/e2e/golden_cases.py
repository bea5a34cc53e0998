"""The corpus programs whose `sad analyze --format json` output is kept byte for byte in tests/e2e/golden/.

Regenerate only on purpose, when a change is meant to change the output:
    python3 tests/e2e/golden_cases.py --write
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"

SOURCES = sorted([*ROOT.glob("corpus/kernels/*.f"), *ROOT.glob("corpus/c/*.c"),
                  ROOT / "corpus/whetstone/whetstone.f", ROOT / "corpus/whetstone/whetstone.c",
                  ROOT / "corpus/md1/md1.f", *ROOT.glob("corpus/spmd/*.[fc]"), *ROOT.glob("corpus/tuning/*.c")])


def cases() -> dict[str, list[str]]:
    """Golden file name → the `sad` arguments (paths relative to the repository root)."""
    found = {}
    for path in SOURCES:
        rel = str(path.relative_to(ROOT))
        found[rel.replace("/", "_") + ".json"] = ["analyze", rel, "-m", "sparc2", "--format", "json"]
    found["md1_params.json"] = ["analyze", "corpus/md1/md1.f", "-m", "sparc2", "--params",
                                "corpus/md1/md1.params.yaml", "--format", "json"]
    return found


def run_case(argv: list[str]) -> str:
    """The JSON `sad` prints for argv, run in this process from the repository root (once per process:
    tests.sad_runs). The checkout's own directory (in the machine file's resolved path) is cut out, so that
    any checkout compares equal."""
    from tests.sad_runs import sad_run
    return sad_run(*argv).stdout.replace(str(ROOT) + "/", "")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(__doc__)
    sys.path.insert(0, str(ROOT))  # this checkout's sad and tests packages
    GOLDEN.mkdir(exist_ok=True)
    for name, argv in cases().items():
        (GOLDEN / name).write_text(run_case(argv))
        print("wrote", GOLDEN / name)
