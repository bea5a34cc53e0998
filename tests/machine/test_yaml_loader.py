"""Machine files are read with libyaml's parser (yaml.CSafeLoader) when PyYAML has it: the same data and the
same line of every key as with the pure-Python yaml.SafeLoader, and the same error messages."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from sad.machine import model
from sad.machine.model import MachineError, load_machine
from sad.machine_db import DB_DIR

pytestmark = pytest.mark.skipif(not hasattr(yaml, "CSafeLoader"), reason="PyYAML built without libyaml")


def _read(path: Path, loader_class) -> tuple[dict, dict]:
    reader = model._Loader(path)
    reader.text = path.read_text(encoding="utf-8")
    data = reader.compose_and_construct(loader_class)
    return data, reader.lines


def test_the_fast_loader_is_libyamls():
    assert model._FAST_LOADER is yaml.CSafeLoader


@pytest.mark.parametrize("path", sorted(DB_DIR.glob("*.yaml")), ids=lambda p: p.name)
def test_same_data_and_key_lines_as_the_python_parser(path):
    fast, fast_lines = _read(path, yaml.CSafeLoader)
    slow, slow_lines = _read(path, yaml.SafeLoader)
    assert fast == slow and fast_lines == slow_lines
    assert len(fast_lines) > 20


def _message(tmp_path: Path, text: str) -> str:
    path = tmp_path / "m.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MachineError) as info:
        load_machine(str(path))
    return str(info.value)


@pytest.mark.parametrize("broken", [
    ("    goto: (1 + 1) cycles", "    goto: [1 + 1 cycles"),                             # parser error
    ("    goto: (1 + 1) cycles", "    goto: !!python/object/apply:os.system ['true']"),  # constructor error
    ("    goto: (1 + 1) cycles", "\tgoto: 2 cycles"),                                    # scanner error
], ids=["unclosed-flow", "python-tag", "tab"])
def test_errors_read_as_with_the_python_parser(tmp_path, monkeypatch, broken):
    text = (DB_DIR / "sparc2.yaml").read_text(encoding="utf-8").replace(*broken)
    assert text != (DB_DIR / "sparc2.yaml").read_text(encoding="utf-8")
    fast = _message(tmp_path, text)
    monkeypatch.setattr(model, "_FAST_LOADER", yaml.SafeLoader)
    assert fast == _message(tmp_path, text)
    assert "error: invalid YAML" in fast
