"""check-counts says in its exit status what it could not check (--require-bound) and accepts counts from
fitted values within a tolerance (--rtol; 0.05 by default with --params)."""
from __future__ import annotations

import io
from pathlib import Path

from sad.cli.main import run

ROOT = Path(__file__).resolve().parents[2]
TRIANG = ROOT / "corpus" / "kernels" / "triangular.f"
INPUT = ROOT / "corpus" / "kernels" / "triangular.in"  # N = 50


def _check(*extra: str) -> tuple[int, str]:
    out = io.StringIO()
    code = run(["check-counts", str(TRIANG), *extra, "--", f"./triangular < {INPUT}"], out, io.StringIO())
    return code, out.getvalue()


def test_unbound_lines_fail_only_with_require_bound():
    code, out = _check()
    assert code == 0 and "unbound" in out
    code, out = _check("--require-bound")
    assert code == 1


def test_tolerance_turns_near_counts_into_close():
    code, out = _check("-D", "N=49")  # 49*50/2 = 1225 against 50*51/2 = 1275: 3.9 % off
    assert code == 1 and "MISMATCH" in out
    code, out = _check("-D", "N=49", "--rtol", "0.1")
    assert code == 0 and " close " in out and "MISMATCH" not in out
    code, out = _check("-D", "N=50")
    assert code == 0 and " close " not in out
