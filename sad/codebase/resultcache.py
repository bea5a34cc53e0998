"""The on-disk cache of `sad check` results (diskcache: a sqlite database `cache.db` under $XDG_CACHE_HOME/sad
or --cache-dir), kept disposable: a damaged database (a page overwritten after a crash or a full disk, which
sqlite reports as "database disk image is malformed") is set aside once, with a warning, and the run goes on
with a fresh cache, so that its output is a cold run's.

Data flow: sad.codebase.runner opens one `ResultCache` per run and asks it for results (`get`), stores new
ones (`set_many`, one transaction), culls and closes it; any of these that meets a damaged database moves
`cache.db` (and sqlite's -wal and -shm files) to `cache.db.damaged-<n>` and reopens an empty one; when that
fails too, the run goes on without a cache.
"""
from __future__ import annotations

import contextlib
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

DATABASE = "cache.db"  # diskcache's file name


def is_damage(exc: BaseException) -> bool:
    """A database that is not one any more (corrupt page, overwritten header); not a busy or locked one
    (sqlite3.OperationalError), which another process may be using as it should."""
    return isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError)


class ResultCache:
    """A diskcache.Cache (made by `opener`) that survives damage to its database: see the module docstring."""

    def __init__(self, directory: Path, opener: Callable[[], Any]) -> None:
        self.directory = directory
        self.opener = opener
        self.inner: Any = None
        try:
            self.inner = opener()
        except sqlite3.DatabaseError as exc:
            if not is_damage(exc):
                raise
            self._recover(exc)

    def get(self, key: str) -> Any:
        """The value stored under key, or None (also when the database proves damaged)."""
        return self._guarded(lambda cache: cache.get(key), None)

    def set(self, key: str, value: Any) -> None:
        """Store one value."""
        self.set_many({key: value})

    def set_many(self, items: dict[str, Any]) -> None:
        """Store the values in one transaction (again in the fresh cache if the database proves damaged)."""
        def store(cache: Any) -> None:
            with cache.transact():
                for key, value in items.items():
                    cache.set(key, value)
        if self._guarded(store, False) is False and self.inner is not None:
            self._guarded(store, None)

    def cull(self) -> None:
        """Evict entries past the size limit."""
        self._guarded(lambda cache: cache.cull(), None)

    def close(self) -> None:
        """Close the database."""
        self._guarded(lambda cache: cache.close(), None)

    def _guarded(self, action: Callable[[Any], Any], default: Any) -> Any:
        if self.inner is None:
            return default
        try:
            return action(self.inner)
        except sqlite3.DatabaseError as exc:
            if not is_damage(exc):
                raise
            self._recover(exc)
            return default

    def _recover(self, exc: BaseException) -> None:
        """Warn, set the damaged database aside and open a fresh one (or go on without)."""
        if self.inner is not None:
            with contextlib.suppress(sqlite3.Error):
                self.inner.close()
        self.inner = None
        aside = set_aside(self.directory)
        print(f"sad: warning: the cache {self.directory / DATABASE} is damaged ({exc}): moved to {aside.name}; "
              f"results are computed again", file=sys.stderr)
        try:
            self.inner = self.opener()
        except sqlite3.DatabaseError as again:
            if not is_damage(again):
                raise
            print(f"sad: warning: no cache for this run: a fresh {DATABASE} cannot be opened ({again})",
                  file=sys.stderr)


def set_aside(directory: Path) -> Path:
    """Rename the database (and its -wal and -shm files) to cache.db.damaged-<n>, n the first number free."""
    n = 1
    while (directory / f"{DATABASE}.damaged-{n}").exists():
        n += 1
    aside = directory / f"{DATABASE}.damaged-{n}"
    for suffix in ("", "-wal", "-shm"):
        source = directory / f"{DATABASE}{suffix}"
        if source.exists():
            source.rename(directory / f"{aside.name}{suffix}")
    return aside
