"""check-counts and profile on an MPI program run with mpirun -np 2: the program is built with mpif77 and
--coverage, every rank writes its own gcov data (GCOV_PREFIX = rank<r>/ through the ./STEM wrapper) and the
counts are compared rank by rank with the SAD at RANK = r, NPROCS = 2 (corpus/spmd/cg.f, input cg.in:
N = 1000, NITER = 20, IGSUM = 1, the simple-collect global sum)."""
from __future__ import annotations

import contextlib
import io
import shutil
from pathlib import Path

import yaml

from sad.cli.main import main

SPMD = Path(__file__).resolve().parents[2] / "corpus" / "spmd"
RUN = "mpirun --oversubscribe --allow-run-as-root -np 2 ./cg < cg.in"


def _sad(tmp_path: Path, *argv: str) -> tuple[int, str, str]:
    for name in ("cg.f", "cg.in"):
        shutil.copyfile(SPMD / name, tmp_path / name)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(tmp_path), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def _row(section: str, line: int) -> list[str]:
    return next(r.split() for r in section.splitlines() if r.startswith(f"cg.f:{line} "))


def test_check_counts_rank_by_rank(tmp_path):
    status, out, err = _sad(tmp_path, "check-counts", "cg.f", "-D", "N=1000", "-D", "NITER=20", "-D", "IGSUM=1",
                            "--", RUN)
    assert status == 0, err
    rank0, rank1 = out.split("rank 0 of 2 (RANK=0, NPROCS=2):")[1].split("rank 1 of 2 (RANK=1, NPROCS=2):")
    for section in (rank0, rank1):
        assert "MISMATCH" not in section and "unbound" not in section
    # GSUM runs 2·NITER + 1 = 41 times; at rank 0 its DO I = 1, NPROCS - 1 line counts entries + iterations
    assert _row(rank0, 80)[1:4] == ["82", "82", "ok"]
    assert _row(rank1, 80)[1:4] == ["0", "0", "ok"]
    assert _row(rank0, 83)[1:4] == ["41", "41", "ok"]      # S = S + T: one partial sum received per call
    assert _row(rank1, 83)[1:4] == ["0", "0", "ok"]


def test_profile_derives_the_run_time_values(tmp_path):
    status, _, err = _sad(tmp_path, "profile", "cg.f", "-o", "cg.params.yaml", "--", RUN)
    assert status == 0, err
    assert "0 line(s) disagree after binding" in err
    params = yaml.safe_load((tmp_path / "cg.params.yaml").read_text())["parameters"]
    assert (params["N"]["value"], params["NITER"]["value"], params["IGSUM"]["value"]) == (1000.0, 20.0, 1.0)
