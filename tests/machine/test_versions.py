"""Machine file format versions (sad.machine.versions): current and older files load, newer and malformed
versions are refused with the file, the line and the versions this sad reads."""
from __future__ import annotations

from pathlib import Path

import pytest

from sad.machine.model import MachineError, load_machine
from sad.machine.versions import CHANGES, FORMAT_VERSION
from sad.machine_db import DB_DIR

SPARC2_TEXT = (DB_DIR / "sparc2.yaml").read_text(encoding="utf-8")
VERSION_LINE = f"format_version: {FORMAT_VERSION}  # sad.machine.versions\n"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "m.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def line_of(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(fragment))


def test_changelog_ends_at_the_current_version() -> None:
    assert [v for v, _ in CHANGES] == list(range(1, FORMAT_VERSION + 1))


def test_bundled_files_carry_the_current_version() -> None:
    for path in sorted(DB_DIR.glob("*.yaml")):
        assert VERSION_LINE in path.read_text(encoding="utf-8"), path.name
        assert load_machine(path).format_version == FORMAT_VERSION


def test_unversioned_file_is_version_1_and_prices_the_same(tmp_path: Path) -> None:
    old = load_machine(write(tmp_path, SPARC2_TEXT.replace(VERSION_LINE, "")))
    assert old.format_version == 1
    current = load_machine(DB_DIR / "sparc2.yaml")
    assert dict(old.figures) == dict(current.figures)
    assert old.op_cost("mul.double") == pytest.approx(13 * 25e-9)  # (3 + 1 + 9) cycles at 40 MHz


@pytest.mark.parametrize("value, words", [
    ("9", "9 is newer than this sad reads (versions 1 to 8); use a newer sad"),
    ("0", "0 is not a format version (this sad reads versions 1 to 8)"),
    ("two", "'two' is not a format version (this sad reads versions 1 to 8)"),
    ("true", "True is not a format version"),
])
def test_unreadable_versions_are_refused(tmp_path: Path, value: str, words: str) -> None:
    text = SPARC2_TEXT.replace(VERSION_LINE, f"format_version: {value}\n")
    path = write(tmp_path, text)
    with pytest.raises(MachineError) as info:
        load_machine(path)
    line = line_of(text, "format_version:")
    assert str(info.value).startswith(f"{path}:{line}: error: format_version: {words}")


def test_newer_file_is_refused_before_its_unknown_keys(tmp_path: Path) -> None:
    text = SPARC2_TEXT.replace(VERSION_LINE, "format_version: 9\nvector_units: {width: 8}\n")
    with pytest.raises(MachineError, match="format_version: 9 is newer") as info:
        load_machine(write(tmp_path, text))
    assert "unknown key" not in str(info.value)


def test_a_version_7_files_shares_fitted_by_the_earlier_rule_are_dropped() -> None:
    # version 8 changed what chain_share means (the index's chain, sad.predict.overlap.chained): a version 7
    # file's shares, fitted by the earlier rule, would price -O0 loops by the wrong one; the file's other
    # hierarchy figures stay
    from sad.machine.versions import upgrade
    old = {"format_version": 7, "hierarchy": {"line_bytes": 64, "chain_share": 1.0, "walk_share": 0.0}}
    assert upgrade(old)["hierarchy"] == {"line_bytes": 64}
    current = {"format_version": 8, "hierarchy": {"line_bytes": 64, "chain_share": 0.6, "walk_share": 0.3}}
    assert upgrade(current)["hierarchy"] == current["hierarchy"]
