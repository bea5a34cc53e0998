"""Loading sparc2 in two fresh processes that share one cache directory: which modules each imported."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_twice(cache_home: Path, module: str) -> list[tuple[bool, str]]:
    """For a first and a second process: (was `module` imported, sparc2's add.double figure)."""
    code = ("import sys; from sad.machine.model import load_machine; m = load_machine('sparc2'); "
            f"print({module!r} in sys.modules, m.op_cost('add.double'))")
    env = {"XDG_CACHE_HOME": str(cache_home), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    runs = []
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
        imported, figure = out.stdout.split()
        runs.append((imported == "True", figure))
    return runs
