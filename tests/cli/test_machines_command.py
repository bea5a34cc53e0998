"""`sad machines`: every bundled machine database with its description, levels, models and source."""
from __future__ import annotations

import io
import json

from sad.cli.main import run
from sad.machine_db import DB_DIR


def _sad(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = run(list(argv), out, io.StringIO())
    return code, out.getvalue()


def test_machines_json_lists_every_bundled_file_with_its_levels():
    code, out = _sad("machines", "--format", "json")
    assert code == 0
    entries = {e["name"]: e for e in json.loads(out)}
    assert sorted(entries) == sorted(p.stem for p in DB_DIR.glob("*.yaml")) == ["ncube2", "paragon", "sparc2"]
    assert entries["sparc2"]["levels"] == ["processor"]
    assert entries["paragon"]["levels"] == ["processor", "communication", "programming model"]
    assert entries["sparc2"]["models"]["optimization"] == "-O0"
    assert "J. Brehm 1999, Sec. 3.1.1" in entries["sparc2"]["source"]
    assert entries["ncube2"]["description"].startswith("nCUBE/2, 128 nodes")


def test_machines_text_one_entry_per_machine():
    code, out = _sad("machines")
    assert code == 0
    names = [line.split()[0] for line in out.splitlines() if not line.startswith(" ")]
    assert names == ["ncube2", "paragon", "sparc2"]
    assert "         levels: processor, communication, programming model" in out
