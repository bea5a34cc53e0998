"""Machine files found valid are remembered (sad.machine.schema_cache): a second load of the same bytes does
not import jsonschema; a changed file is validated again and its errors still come from the schema."""
from __future__ import annotations

import pytest

from sad.machine import model, schema_cache
from sad.machine_db import DB_DIR
from tests.machine.fresh_process import load_twice


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    model._load_cached.cache_clear()
    yield tmp_path / "cache"
    model._load_cached.cache_clear()


def test_valid_file_is_remembered_and_an_invalid_one_is_not(cache_home, tmp_path):
    text = (DB_DIR / "sparc2.yaml").read_text(encoding="utf-8")
    good = tmp_path / "good.yaml"
    good.write_text(text, encoding="utf-8")
    key = schema_cache.validity_key(text, model._schema_text())
    assert not schema_cache.known_valid(key)
    model.load_machine(good)
    assert schema_cache.known_valid(key)
    bad_text = text.replace("processor:", "processor:\n  frobnicate: 1", 1)
    bad = tmp_path / "bad.yaml"
    bad.write_text(bad_text, encoding="utf-8")
    for _ in range(2):  # never remembered: the schema's error both times
        with pytest.raises(model.MachineError, match=r"processor\.frobnicate: unknown key"):
            model.load_machine(bad)
        model._load_cached.cache_clear()
    assert not schema_cache.known_valid(schema_cache.validity_key(bad_text, model._schema_text()))


def test_the_key_depends_on_file_and_schema():
    assert schema_cache.validity_key("a", "s") != schema_cache.validity_key("b", "s")
    assert schema_cache.validity_key("a", "s") != schema_cache.validity_key("a", "t")
    assert schema_cache.validity_key("a", "s") == schema_cache.validity_key("a", "s")


def test_a_second_load_does_not_import_jsonschema(tmp_path):
    (first, first_figure), (second, second_figure) = load_twice(tmp_path, "jsonschema")
    assert first and not second
    assert first_figure == second_figure != "None"
