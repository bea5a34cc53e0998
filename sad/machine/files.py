"""Where a machine database is: a bundled name (sparc2) or a YAML file's path.

Kept apart from sad.machine.model (which validates and converts a database, importing jsonschema, sympy and
pint) so that a command can name the file — e.g. for a cache key — without loading it.
"""
from __future__ import annotations

from pathlib import Path

from sad.machine_db import DB_DIR


def resolve_path(name_or_path: str | Path) -> Path:
    """'sparc2' or 'sparc2.yaml' -> machine_db/sparc2.yaml; anything with a directory part is used as is."""
    text = str(name_or_path)
    if "/" in text or "\\" in text:
        return Path(text)
    file_name = text if text.endswith((".yaml", ".yml")) else text + ".yaml"
    in_db = DB_DIR / file_name
    if in_db.exists() or not Path(text).exists():
        return in_db
    return Path(text)


def available_machines() -> list[str]:
    """Names of the machine files shipped in machine_db/."""
    return sorted(p.stem for p in DB_DIR.glob("*.yaml"))
