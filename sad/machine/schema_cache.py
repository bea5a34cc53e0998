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

from sad.common.cachefiles import package_stamp, read_json, write_json

VALID_FILE = "valid-machines.json"
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
    write_json(VALID_FILE, {"valid": keys[-_KEEP:]})


def _read() -> list[str]:
    data = read_json(VALID_FILE)
    keys = data.get("valid") if isinstance(data, dict) else None
    return [k for k in keys if isinstance(k, str)] if isinstance(keys, list) else []


def _jsonschema_stamp() -> str:
    """Which jsonschema would validate: its package's path, size and time, found without importing it."""
    return package_stamp("jsonschema")
