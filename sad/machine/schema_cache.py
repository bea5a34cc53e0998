"""Machine files already found valid against the schema, remembered so that `sad analyze` need not import
jsonschema (a tenth of a second of every start-up) to check the same bytes again.

Data flow: ``sad.machine.model._Loader.validate`` asks ``known_valid(key)`` with ``validity_key(text)`` (a
digest of the file's text, the schema's text and the jsonschema installation); only when the answer is no
does it import jsonschema and validate, and then ``remember_valid(key)`` if there were no errors. Invalid
files are never remembered: their errors come from jsonschema every time. The keys live in
``$XDG_CACHE_HOME/sad/valid-machines.json`` (default ``~/.cache/sad``) beside the unit table of
``sad.machine.units``; an unreadable or unwritable cache only means validating every time.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import tempfile
from pathlib import Path

_KEEP = 64  # distinct valid machine texts remembered (the newest kept)


def validity_key(text: str, schema_text: str) -> str:
    """The digest that identifies one check: the file, the schema and the validator that passed them."""
    digest = hashlib.sha256()
    for part in (text, schema_text, _jsonschema_stamp()):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


def known_valid(key: str) -> bool:
    """True when this key was remembered as valid."""
    return key in _read()


def remember_valid(key: str) -> None:
    """Add a key (the newest last, the oldest dropped past _KEEP); failures are ignored."""
    keys = [k for k in _read() if k != key] + [key]
    path = _cache_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, prefix=".valid-",
                                         suffix=".json", delete=False) as out:
            json.dump({"valid": keys[-_KEEP:]}, out, indent=1)
        os.replace(out.name, path)
    except OSError:
        pass


def _read() -> list[str]:
    try:
        keys = json.loads(_cache_file().read_text(encoding="utf-8")).get("valid")
    except (OSError, ValueError, AttributeError):
        return []
    return [k for k in keys if isinstance(k, str)] if isinstance(keys, list) else []


def _jsonschema_stamp() -> str:
    """Which jsonschema would validate: its package's path, size and time, found without importing it."""
    spec = importlib.util.find_spec("jsonschema")
    if spec is None or spec.origin is None:
        return ""
    try:
        info = Path(spec.origin).stat()
    except OSError:
        return str(spec.origin)
    return f"{spec.origin}:{info.st_size}:{info.st_mtime_ns}"


def _cache_file() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sad" / "valid-machines.json"
