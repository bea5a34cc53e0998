"""The remembered unit table (sad.machine.units): pint is asked once per unit text, later runs read its
answers from $XDG_CACHE_HOME/sad/units.json without importing pint; a table from another pint is ignored."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest

from sad.machine import units
from tests.machine.fresh_process import load_twice


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    units._known_units.cache_clear()
    yield tmp_path
    units._known_units.cache_clear()


def test_pint_answers_are_remembered(cache_home):
    assert units.parse_time("25 ns") == Fraction(25, 10**9)
    assert units.parse_bandwidth("1.67 MB/s") == Fraction(1_670_000)
    table = json.loads((cache_home / "sad" / "units.json").read_text())
    assert table["units"]["ns"] == ["1e-09", "second"]
    assert table["units"]["MB/s"] == ["8000000.0", "bit / second"]  # bytes are 8 bits in pint's roots


def test_a_table_from_another_pint_is_ignored(cache_home):
    path = cache_home / "sad" / "units.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"pint": "another pint", "units": {"ns": ["5", "second"]}}))
    assert units.parse_time("2 ns") == Fraction(2, 10**9)
    units._known_units.cache_clear()
    path.write_text(json.dumps({"pint": units._pint_stamp(), "units": {"ns": ["5", "second"]}}))
    assert units.parse_time("2 ns") == 10  # this pint's stamp: the remembered answer is used as is


def test_unknown_units_still_fail_and_are_not_remembered(cache_home):
    with pytest.raises(units.UnitError, match="unknown unit 'blorps'"):
        units.parse_time("3 blorps")
    with pytest.raises(units.UnitError, match="is a bandwidth, expected a time"):
        units.parse_time("3 MB/s")
    assert "blorps" not in units._known_units()["units"]


def test_a_second_run_does_not_import_pint(tmp_path):
    (first, first_figure), (second, second_figure) = load_twice(tmp_path, "pint")
    assert first and not second
    assert first_figure == second_figure != "None"  # the same figure either way


def test_a_cache_folder_that_cannot_be_made_only_costs_time(tmp_path, monkeypatch):
    # XDG_CACHE_HOME names a file: neither pint's cache folder nor sad's table can be written, and units are
    # still read (pint asked each time)
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    units._known_units.cache_clear()
    units._registry.cache_clear()
    try:
        assert units.parse_time("25 ns") == Fraction(25, 10**9)
        assert units.parse_bandwidth("1.67 MB/s") == Fraction(1_670_000)
    finally:
        units._known_units.cache_clear()
        units._registry.cache_clear()
