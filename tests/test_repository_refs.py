"""Nothing in the repository refers to the development environment: no absolute path of the machine it
was written on, no shared reference directory; sources are cited as publications."""
from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = ("/" + "work/", ".." + "/shared", "reference/" + "machines.md")


def test_no_development_paths_in_tracked_files():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    offenders = []
    for name in files:
        path = ROOT / name
        if not path.is_file() or path.suffix in (".png", ".pdf", ".gz"):
            continue
        text = path.read_text(errors="replace")
        offenders += [f"{name}: {bad}" for bad in FORBIDDEN if bad in text]
    assert not offenders, offenders


def test_machine_files_cite_the_publication():
    for name in ("ncube2", "paragon", "sparc2"):
        text = (ROOT / "machine_db" / f"{name}.yaml").read_text()
        assert "Brehm 1999" in text
