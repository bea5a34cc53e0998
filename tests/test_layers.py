"""The layout is the data flow: imports go from a later layer to an earlier one, never back.

Every ``import`` and ``from … import`` in sad/ and frontends/ is read with ``ast`` (function-level imports
included, since a lazy import is still a dependency) and checked against the order below.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Earlier layers first. A module may import its own layer and any earlier one.
LAYERS = ["sad.common", "sad.ir", "frontends", "sad.analysis", "sad.machine", "sad.predict", "sad.measure",
          "sad.codebase", "sad.cli"]
# Data and the package root (its version string) sit below every layer.
BASE = {"sad", "machine_db"}


def layer_of(module: str) -> int | None:
    for index, name in enumerate(LAYERS):
        if module == name or module.startswith(name + "."):
            return index
    return None


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            # `from sad import ir` imports the sad.ir package
            found.extend((node.lineno, f"{node.module}.{alias.name}") for alias in node.names
                         if node.module in ("sad",))
    return found


SOURCES = sorted([*ROOT.joinpath("sad").rglob("*.py"), *ROOT.joinpath("frontends").rglob("*.py")])


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_go_downward(path: Path) -> None:
    own = layer_of(module_name(path))
    if own is None:  # sad/__init__.py, sad/__main__.py
        return
    bad = []
    for line, target in imported_modules(path):
        if target in BASE or not (target.startswith("sad") or target.startswith("frontends")):
            continue
        theirs = layer_of(target)
        if theirs is not None and theirs > own:
            bad.append(f"{path.relative_to(ROOT)}:{line}: {module_name(path)} imports {target} "
                       f"(layer {LAYERS[theirs]} is above {LAYERS[own]})")
    assert not bad, "\n".join(bad)


def test_only_the_pipeline_calls_the_frontends() -> None:
    callers = {module_name(path) for path in ROOT.joinpath("sad").rglob("*.py")
               if any(t == "frontends" or t.startswith("frontends.") for _, t in imported_modules(path))}
    assert callers == {"sad.analysis.pipeline"}


def test_the_checker_sees_a_violation(tmp_path: Path) -> None:
    # The test above must be able to fail: a lower layer importing a higher one is found.
    source = tmp_path / "x.py"
    source.write_text("def f():\n    from sad.cli.main import main\n")
    assert (2, "sad.cli.main") in imported_modules(source)
    assert layer_of("sad.cli.main") > layer_of("sad.analysis.cost")
