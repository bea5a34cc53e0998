"""Where sad keeps what it may recompute, and how it writes it: `$XDG_CACHE_HOME/sad` (default `~/.cache/sad`).

Used by sad.machine.units (pint's answers per unit text), sad.machine.schema_cache (machine files found valid),
sad.codebase.runner (`sad check` results) and sad.machine.walkprobe (its probe programs, built once per source
and compiler: a temporary directory per process was left behind by every worker that exits without running
its finalizers, as multiprocessing's do). Everything there only saves time: deleting the directory is
harmless, and a file that cannot be read or written means recomputing.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path


def cache_home() -> Path:
    """$XDG_CACHE_HOME/sad, or ~/.cache/sad."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sad"


def read_json(name: str) -> object:
    """The JSON document cache_home()/name, or None when it is missing or unreadable."""
    try:
        return json.loads((cache_home() / name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write_json(name: str, data: object) -> None:
    """Write cache_home()/name atomically (a concurrent reader sees the old or the new document); failures are
    ignored: the cache only saves time."""
    path = cache_home() / name
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, prefix=f".{path.stem}-",
                                         suffix=path.suffix, delete=False) as out:
            json.dump(data, out, indent=1, sort_keys=True)
        os.replace(out.name, path)
    except OSError:
        pass


def package_stamp(package: str, file: str | None = None) -> str:
    """Which installation of a package answers: the path, size and modification time of its `file` (its
    `__init__` by default), found without importing it; "" when it is not installed."""
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        return ""
    path = Path(spec.origin) if file is None else Path(spec.origin).with_name(file)
    try:
        info = path.stat()
    except OSError:
        return str(spec.origin)
    return f"{path}:{info.st_size}:{info.st_mtime_ns}"


def built_directory(name: str, key: str, build: Callable[[Path], str]) -> tuple[Path | None, str]:
    """A directory cache_home()/name-HASH (HASH of ``key``: what the contents are made from) in which
    ``build(directory)`` made its files, returning "" or why it failed; (directory, "") once it holds them,
    (None, why) where the build failed or nothing could be written. Built in a private directory beside it and
    renamed into place, so that two processes building at once both end with one complete directory."""
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]
    final = cache_home() / f"{name}-{digest}"
    if final.is_dir():
        return final, ""
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(dir=final.parent, prefix=f".{name}-"))
    except OSError as exc:
        return None, f"cannot write {final.parent}: {exc.strerror or exc}"
    try:
        failed = build(work)
        if failed:
            return None, failed
        try:
            os.replace(work, final)
        except OSError:
            if not final.is_dir():   # not another process's finished directory: a real failure
                raise
        return final, ""
    except OSError as exc:
        return None, f"cannot write {final}: {exc.strerror or exc}"
    finally:
        shutil.rmtree(work, ignore_errors=True)
