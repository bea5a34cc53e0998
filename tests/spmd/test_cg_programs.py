"""The conjugate-gradient programs of Brehm 1999, Fig. 6.17 (corpus/spmd/cgsimple.f, cgtree.f, cgcube.f:
psize 1024, one iteration, matrix in row blocks, the search vector collected at rank 0 and broadcast, two
global sums; Simple: rank 0 receives and sends one after another; Tree: a heap-numbered binary tree; cgcube.f:
the tree as a hypercube, IEOR partners; cgcoll.f: MPI_GATHER, MPI_BCAST and MPI_ALLREDUCE) compile with mpif77
and run under mpirun at 1, 2 and 4 processes with the same residual."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SPMD = Path(__file__).resolve().parents[2] / "corpus" / "spmd"
MPIRUN = ["mpirun", "--oversubscribe", "--allow-run-as-root"]


def _residual(exe: Path, nprocs: int) -> float:
    run = subprocess.run(MPIRUN + ["-np", str(nprocs), str(exe)], capture_output=True, text=True, timeout=120,
                         check=True)
    label, value = run.stdout.split()
    assert label == "residual"
    return float(value)


@pytest.mark.parametrize("name", ["cgsimple.f", "cgtree.f", "cgcoll.f", "cgcube.f"])
def test_cg_runs_at_1_2_and_4_processes(name, tmp_path):
    exe = tmp_path / name.removesuffix(".f")
    subprocess.run([shutil.which("mpif77") or "mpif77", "-O0", "-o", str(exe), str(SPMD / name)], check=True,
                   timeout=120)
    one = _residual(exe, 1)
    assert one == pytest.approx(3.1193e-2, rel=1e-4)  # one CG step on A = ones + diag(1024 + MOD(i, 7)), b = ones
    assert _residual(exe, 2) == pytest.approx(one, rel=1e-9)
    assert _residual(exe, 4) == pytest.approx(one, rel=1e-9)
