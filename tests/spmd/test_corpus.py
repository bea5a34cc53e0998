"""The SPMD corpus beside the ring multiply: CG with simple and tree global sums (corpus/spmd/cg.f), the
wavefront pipeline with a block size (pipeline.c) and the PVM master/worker (pvmmw.f). Their communication
formulas are checked against hand derivations on the Paragon's PerPreT model,

    send(b) = 45 µs + b/100 MB/s + b/40 MB/s,  recv(b) = 95 µs + b/100 MB/s,  comm(b) = send(b) + recv(b),
    bcast = allreduce = ceil(log2 P)·comm(b),  gather = (P − 1)·comm(b),

with the collective patterns' step counts (⌈log2 P⌉, P − 1) visible in the formulas; conditions on the rank
are decided per rank and the reported rank is the slowest. The programs are compiled with the real MPI
(mpif77, mpicc) and PVM (libfpvm3) and run: under mpirun -np 1 and -np 2 they print the same answer."""
from __future__ import annotations

import itertools
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import sympy

from sad.analysis.description import group_blocks
from sad.analysis.pipeline import analyze
from sad.machine.model import load_machine
from sad.predict.mapper import bind, predict

ROOT = Path(__file__).resolve().parents[2]
SPMD = ROOT / "corpus" / "spmd"
MPIRUN = ["mpirun", "--oversubscribe", "--allow-run-as-root"]
P, NITER, RANK = sympy.symbols("NPROCS NITER RANK", integer=True)
M, BLK = sympy.symbols("m blk", integer=True)
US = sympy.Rational(1, 10**6)


def send(b):
    return 45 * US + b / (100 * 10**6) + b / (40 * 10**6)


def recv(b):
    return 95 * US + b / (100 * 10**6)


def comm(b):
    return send(b) + recv(b)


def log2p():
    return sympy.ceiling(sympy.log(P) / sympy.log(2))


def _analysis(name: str):
    analysis = analyze([str(SPMD / name)])
    assert not analysis.errors
    return group_blocks(analysis.counts)


def _communication(blocks, **bound) -> sympy.Expr:
    prediction = predict(blocks, load_machine("paragon"), {k: sympy.Integer(v) for k, v in bound.items()})
    return bind(prediction.communication, {k: sympy.Integer(v) for k, v in bound.items()}), prediction


def _agree(formula: sympy.Expr, hand: sympy.Expr, points) -> None:
    for point in points:
        got, want = float(formula.subs(point)), float(hand.subs(point))
        assert got == pytest.approx(want, rel=1e-12), point


@pytest.fixture(scope="module")
def cg():
    return _analysis("cg.f")


CG_POINTS = [{P: p, NITER: n} for p, n in itertools.product((1, 2, 3, 8, 64), (1, 20))]


def test_cg_simple_collect_is_p_minus_1_messages_at_the_root(cg):
    bcasts, halo = 3 * log2p() * comm(4), 2 * NITER * comm(8)
    root, _ = _communication(cg, IGSUM=1, RANK=0)
    other, _ = _communication(cg, IGSUM=1, RANK=1)
    assert "Max(0, NPROCS - 1)" in str(root) and "ceiling(log(NPROCS)/log(2))" in str(root)
    _agree(root, bcasts + halo + (2 * NITER + 1) * (P - 1) * (recv(8) + send(8)), CG_POINTS)
    _agree(other, bcasts + halo + (2 * NITER + 1) * (send(8) + recv(8)), CG_POINTS)


def test_cg_tree_sums_take_ceil_log2_p_steps(cg):
    """MPI_ALLREDUCE on the Paragon is MPICH's reduce to rank 0 and broadcast: 2 ceil(log2 P) steps."""
    tree, _ = _communication(cg, IGSUM=2)
    assert "ceiling(log(NPROCS)/log(2))" in str(tree) and "RANK" not in str(tree)
    _agree(tree, 3 * log2p() * comm(4) + 2 * NITER * comm(8) + (2 * NITER + 1) * 2 * log2p() * comm(8),
           CG_POINTS)


def test_cg_slowest_rank_is_the_root_of_the_simple_collect(cg):
    _, prediction = _communication(cg, IGSUM=1, NPROCS=8, NITER=20, N=8000)
    assert prediction.rank.rank == 0 and prediction.rank.nprocs == 8
    assert prediction.rank.fastest < prediction.time_value
    _, tree = _communication(cg, IGSUM=2, NPROCS=8, NITER=20, N=8000)
    assert tree.rank.rank == 0 and tree.communication_value < prediction.communication_value


def test_pipeline_stages_and_block_size(tmp_path):
    blocks = _analysis("pipeline.c")
    stages = sympy.Max(0, sympy.floor(M / BLK))
    head = 3 * log2p() * comm(4) + (P - 1) * comm(8)            # three broadcasts, the gather
    points = [{P: p, M: m, BLK: b} for p, m, b in itertools.product((3, 8), (512, 100), (1, 16, 7))]
    first, _ = _communication(blocks, RANK=0)
    middle, _ = _communication(blocks, RANK=1)
    last = bind(_communication(blocks)[0], {"RANK": P - 1})
    assert "ceiling(log(NPROCS)/log(2))" in str(first) and "floor(m/blk)" in str(first)
    _agree(first, head + stages * send(8 * BLK), points)
    _agree(middle, head + stages * (recv(8 * BLK) + send(8 * BLK)), points)
    _agree(last, head + stages * recv(8 * BLK), points)
    _, prediction = _communication(blocks, NPROCS=8, m=512, n=256, blk=16)
    assert prediction.rank.rank == 1  # the first rank that both receives and sends: the slowest


def test_pvm_master_worker():
    blocks = _analysis("pvmmw.f")
    spawn = sympy.Symbol("T_msg_spawn", nonnegative=True)
    master, _ = _communication(blocks, RANK=0)
    worker, _ = _communication(blocks, RANK=2)
    points = [{P: p} for p in (2, 4, 17)]
    _agree(master.subs(spawn, 0), (P - 1) * (send(8) + recv(8)), points)   # 2 INTEGER4 out, 1 REAL8 back
    assert master.coeff(spawn) == 1
    _agree(worker, recv(8) + send(8), points)


def _mpi_run(source: Path, tmp_path: Path, nprocs: int) -> str:
    exe = tmp_path / source.stem
    if not exe.exists():
        wrapper = "mpif77" if source.suffix == ".f" else "mpicc"
        subprocess.run([shutil.which(wrapper) or wrapper, "-O0", "-o", str(exe), str(source)], check=True,
                       timeout=120)
    run = subprocess.run(MPIRUN + ["-np", str(nprocs), str(exe)], input=source.with_suffix(".in").read_text(),
                         capture_output=True, text=True, timeout=120, check=True)
    return run.stdout


@pytest.mark.parametrize("name", ["cg.f", "pipeline.c"])
def test_mpi_programs_run_under_mpirun(name, tmp_path):
    one, two = _mpi_run(SPMD / name, tmp_path, 1), _mpi_run(SPMD / name, tmp_path, 2)
    assert one.split()[0] in ("residual", "total") and one.split()[0] == two.split()[0]
    assert float(one.split()[1]) == pytest.approx(float(two.split()[1]), rel=1e-9)


def test_pvm_program_runs_under_a_pvm_daemon(tmp_path):
    """PVM 3 from Debian (pvm, pvm-dev): a private daemon whose executable path is tmp_path."""
    for tool in ("gfortran", "pvmd", "pvm"):
        assert shutil.which(tool), f"{tool} not found (Debian: apt-get install -y gfortran pvm pvm-dev)"
    exe = tmp_path / "pvmmw"
    subprocess.run(["gfortran", "-std=legacy", "-O0", "-w", "-I/usr/include", "-o", str(exe),
                    str(SPMD / "pvmmw.f"), "-lfpvm3", "-lgpvm3", "-lpvm3"], check=True, timeout=120)
    env = dict(os.environ, PVM_ROOT="/usr/lib/pvm3", PVM_ALLOW_ROOT="yes", PVM_TMP=str(tmp_path))
    hostfile = tmp_path / "hostfile"
    hostfile.write_text(f"* ep={tmp_path}:/usr/bin wd={tmp_path}\n{subprocess.check_output(['hostname'], text=True)}")
    daemon = subprocess.Popen(["pvmd", str(hostfile)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        daemon.stdout.readline()  # the daemon's contact line: it is ready
        run = subprocess.run([str(exe)], input=(SPMD / "pvmmw.in").read_text(), env=env, capture_output=True,
                             text=True, timeout=60, check=True)
    finally:
        subprocess.run(["pvm"], input="halt\n", env=env, capture_output=True, text=True, timeout=30)
        daemon.wait(timeout=30)
    label, value = run.stdout.split()
    assert label == "sum" and float(value) == pytest.approx(sum(1.0 / k**2 for k in range(1, 99_999 + 1)), rel=1e-10)
