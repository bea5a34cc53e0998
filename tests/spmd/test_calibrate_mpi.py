"""sad calibrate --mpi: the fit of the communication level from ping-pong and collective timings, and a real
run of the MPI microbenchmarks (mpicc, mpirun --oversubscribe) whose levels load as a machine database."""
from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

from sad.machine import mpibench
from sad.machine.model import load_machine

ROOT = Path(__file__).resolve().parents[2]


def test_fit_recovers_latency_bandwidth_and_the_tree_pattern():
    """Synthetic points: one-way time 3 µs + b / 2 GB/s; allreduce ceil(log2 P)·(5 µs + 1 ns·b);
    gather (P − 1)·(2 µs + 0.5 ns·b): the fit gives the figures back and picks each pattern."""
    points = [mpibench.Point("pingpong", 2, b, 3e-6 + b / 2e9, 0.0) for b in mpibench.SIZES]
    for p in (2, 4, 8):
        for b in mpibench.COLLECTIVE_SIZES:
            points.append(mpibench.Point("allreduce", p, b, math.ceil(math.log2(p)) * (5e-6 + 1e-9 * b), 0.0))
            points.append(mpibench.Point("gather", p, b, (p - 1) * (2e-6 + 0.5e-9 * b), 0.0))
    cal = mpibench.MPICalibration(points)
    mpibench.fit(cal)
    assert cal.latency == pytest.approx(3e-6, rel=1e-9) and cal.bandwidth == pytest.approx(2e9, rel=1e-9)
    pattern, alpha, beta = cal.collectives["allreduce"]
    assert pattern == "tree" and alpha == pytest.approx(5e-6, rel=1e-9) and beta == pytest.approx(1e-9, rel=1e-9)
    pattern, alpha, beta = cal.collectives["gather"]
    assert pattern == "sequential" and alpha == pytest.approx(2e-6, rel=1e-9)


def test_real_mpi_levels_load_and_price_messages(tmp_path):
    cal = mpibench.measure(nprocs=(2,), reps=20, rounds=3)
    kinds = {(p.kind, p.nbytes) for p in cal.points}
    assert {("pingpong", b) for b in mpibench.SIZES} <= kinds
    assert {("allreduce", b) for b in mpibench.COLLECTIVE_SIZES} <= kinds and ("barrier", 0) in kinds
    assert cal.latency > 0 and cal.bandwidth > 0 and "Open MPI" in cal.tools["mpirun"]
    # the levels below a processor level (paragon's) make a machine file the loader accepts
    base = yaml.safe_load((ROOT / "machine_db" / "paragon.yaml").read_text())
    base.pop("communication"), base.pop("programming_model")
    text = yaml.safe_dump(base) + "\n".join(mpibench.render_yaml(cal)) + "\n"
    path = tmp_path / "here.yaml"
    path.write_text(text)
    machine = load_machine(path)
    send = float(machine.message_time("send", 1000, 2))
    assert send == pytest.approx((cal.latency + 1000 / cal.bandwidth) / 2, rel=1e-5)
    assert float(machine.message_time("comm", 1000, 2)) == pytest.approx(2 * send, rel=1e-9)
    assert float(machine.message_time("allreduce", 8, 2)) > 0
