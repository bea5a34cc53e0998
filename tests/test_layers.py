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
LAYERS = ["sad.common", "sad.ir", "sad.frontends", "sad.analysis", "sad.machine", "sad.predict", "sad.measure",
          "sad.codebase", "sad.cli"]
# Data and the package root (its version string) sit below every layer.
BASE = {"sad", "sad.machine_db"}


def layer_of(module: str) -> int | None:
    for index, name in enumerate(LAYERS):
        if module == name or module.startswith(name + "."):
            return index
    return None


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    if parts[0] in ("frontends", "machine_db"):  # installed as sad.frontends, sad.machine_db (pyproject.toml)
        parts.insert(0, "sad")
    return ".".join(parts)


def imported_modules(path: Path, module: str | None = None) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the file; relative imports are resolved against
    `module` (the file's own dotted name, by default from its place under the repository)."""
    tree = ast.parse(path.read_text(), str(path))
    if module is None:
        module = module_name(path)
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            target = ".".join([*base, *([node.module] if node.module else [])])
            found.append((node.lineno, target))
            # `from sad import ir` (or `from . import rewrite`) imports the sad.ir (rewrite) module
            if node.module in ("sad", None):
                found.extend((node.lineno, f"{target}.{alias.name}") for alias in node.names)
    return found


SOURCES = sorted([*ROOT.joinpath("sad").rglob("*.py"), *ROOT.joinpath("frontends").rglob("*.py")])


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_go_downward(path: Path) -> None:
    own = layer_of(module_name(path))
    if own is None:  # sad/__init__.py, sad/__main__.py
        return
    bad = []
    for line, target in imported_modules(path):
        if target in BASE or not target.startswith("sad"):
            continue
        theirs = layer_of(target)
        if theirs is not None and theirs > own:
            bad.append(f"{path.relative_to(ROOT)}:{line}: {module_name(path)} imports {target} "
                       f"(layer {LAYERS[theirs]} is above {LAYERS[own]})")
    assert not bad, "\n".join(bad)


def test_every_module_is_in_a_layer() -> None:
    # a module outside every layer would escape the check above
    outside = [module_name(p) for p in SOURCES if layer_of(module_name(p)) is None]
    assert outside == ["sad", "sad.__main__"]


def test_the_frontends_import_only_the_ir() -> None:
    own = ("sad.ir", "sad.frontends")
    bad = [f"{path.relative_to(ROOT)}:{line}: {target}" for path in SOURCES
           if module_name(path).startswith("sad.frontends") for line, target in imported_modules(path)
           if target.startswith("sad.") and not any(target == o or target.startswith(o + ".") for o in own)]
    assert not bad, "\n".join(bad)


def test_only_the_pipeline_calls_the_frontends() -> None:
    callers = {module_name(path) for path in ROOT.joinpath("sad").rglob("*.py")
               if any(t == "sad.frontends" or t.startswith("sad.frontends.") for _, t in imported_modules(path))}
    assert callers == {"sad.analysis.pipeline"}


def test_the_checker_sees_a_violation(tmp_path: Path) -> None:
    # The test above must be able to fail: a lower layer importing a higher one is found.
    source = tmp_path / "x.py"
    source.write_text("def f():\n    from sad.cli.main import main\n    from ..predict import job\n")
    found = imported_modules(source, "sad.analysis.cost")
    assert (2, "sad.cli.main") in found and (3, "sad.predict") in found
    assert layer_of("sad.cli.main") > layer_of("sad.analysis.cost") < layer_of("sad.predict")
