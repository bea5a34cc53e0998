"""A damaged cache (a page of cache.db overwritten, as after a crash or a full disk) does not stop `sad check`
(issue 30, item 11): one warning, the file set aside as cache.db.damaged-<n>, the output of a cold run."""
from __future__ import annotations

import io
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from sad.cli.main import run

ROOT = Path(__file__).resolve().parents[2]
FILES = ("triangular.f", "matmul.f", "commoncall.f")


def _check(tree: Path, cache: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(["check", str(tree), "-m", "sparc2", "-j", "1", "--cache-dir", str(cache)], out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("tree")
    for name in FILES:
        shutil.copy(ROOT / "corpus/kernels" / name, path / name)
    return path


@pytest.mark.parametrize("page", ["header", "results"])
def test_damaged_cache_is_set_aside_and_the_run_is_a_cold_one(tree: Path, tmp_path: Path, page: str):
    cache = tmp_path / "cache"
    cold = _check(tree, cache)
    assert cold[0] == 0 and (cache / "cache.db").is_file()
    assert _check(tree, cache)[2].count("3 cached") == 1  # the cache answers before it is damaged
    db = cache / "cache.db"
    with sqlite3.connect(db) as con:  # every page in the file itself (none left in the write-ahead log)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = db.stat().st_size
    assert size >= 3 * 4096
    data = db.read_bytes()
    # one 4 KiB page overwritten: the header page, or a page that holds stored results (names a checked file)
    start = 0 if page == "header" else data.index(b"triangular.f") // 4096 * 4096
    assert page == "header" or start > 0
    with open(db, "r+b") as handle:
        handle.seek(start)
        handle.write(b"\xde\xad\xbe\xef" * 1024)
        handle.flush()
        os.fsync(handle.fileno())
    code, out, err = _check(tree, cache)
    assert (code, out) == cold[:2]
    assert err.count("warning: the cache") == 1 and "is damaged (" in err and "moved to cache.db.damaged-1" in err
    assert "Traceback" not in err and "0 cached, 3 analyzed" in err
    assert (cache / "cache.db.damaged-1").is_file()
    again = _check(tree, cache)  # the fresh cache works: every result cached, no warning
    assert again[:2] == cold[:2] and "3 cached" in again[2] and "warning: the cache" not in again[2]
