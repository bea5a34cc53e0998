"""sad calibrate --mpi: the fit of the communication level from ping-pong and collective timings, and a real
run of the MPI microbenchmarks (mpicc, mpirun --oversubscribe) whose levels load as a machine database."""
from __future__ import annotations

import math
import os
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


def test_times_that_do_not_grow_with_the_size_keep_a_finite_bandwidth(tmp_path):
    """Ping-pong times that fall with the size (other load on the host: one such run wrote `inf MB/s`,
    which no machine file accepts): the bandwidth is the largest message's own rate, 1 MiB in 1.95 us, with a
    warning, and the levels load."""
    points = [mpibench.Point("pingpong", 2, b, 3e-6 - 1e-12 * b, 0.0) for b in mpibench.SIZES]
    cal = mpibench.MPICalibration(points)
    mpibench.fit(cal)
    largest = max(mpibench.SIZES)
    assert cal.bandwidth == pytest.approx(largest / (3e-6 - 1e-12 * largest), rel=1e-12)
    assert any("own rate" in w for w in cal.warnings)
    base = yaml.safe_load((ROOT / "machine_db" / "paragon.yaml").read_text())
    base.pop("communication"), base.pop("programming_model")
    path = tmp_path / "noisy.yaml"
    path.write_text(yaml.safe_dump(base) + "\n".join(mpibench.render_yaml(cal)) + "\n")
    assert float(load_machine(path).message_time("send", 0, 2)) > 0


def test_a_fit_with_no_positive_latency_takes_the_smallest_messages_time():
    """Ping-pong times proportional to the size, 1 ns a byte, but 8 B in 4 ns: the line's intercept is
    below 0 (-4.1 ns). A real run on a busy two-core host fitted such a line and wrote latency 0; now the
    latency is the 8 B message's own time (less its bytes at the fitted 1.01 ns a byte would be below 0),
    with a warning that says so."""
    times = {b: 1e-9 * b for b in mpibench.SIZES}
    times[8] = 4e-9
    cal = mpibench.MPICalibration([mpibench.Point("pingpong", 2, b, t, 0.0) for b, t in times.items()])
    mpibench.fit(cal)
    assert cal.latency == pytest.approx(4e-9, rel=1e-12)
    assert cal.bandwidth == pytest.approx(1 / 1.0110445731e-9, rel=1e-6)
    assert any("latency from the 8 B message's time" in w for w in cal.warnings)


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


def test_loggp_fit_recovers_the_overheads_and_the_link():
    """Synthetic: o_s = 1 µs + b·0.1 ns, o_r = 2 µs + b·0.2 ns, L = 0.5 µs, G = 0.3 ns/B: one-way ping-pong
    = their sum; the fit gives each back."""
    def one_way(b):
        return 1e-6 + 0.1e-9 * b + 2e-6 + 0.2e-9 * b + 0.5e-6 + 0.3e-9 * b
    points = [mpibench.Point("pingpong", 2, b, one_way(b), 0.0) for b in mpibench.SIZES]
    points += [mpibench.Point("osend", 2, b, 1e-6 + 0.1e-9 * b, 0.0) for b in (8, 64, 512, 4096)]
    points += [mpibench.Point("orecv", 2, b, 2e-6 + 0.2e-9 * b, 0.0) for b in (8, 64, 512, 4096)]
    cal = mpibench.MPICalibration(points)
    mpibench.fit(cal)
    want = {"o_s": 1e-6, "O_s": 0.1e-9, "o_r": 2e-6, "O_r": 0.2e-9, "L": 0.5e-6, "G": 0.3e-9}
    for key, value in want.items():
        assert cal.loggp[key] == pytest.approx(value, rel=1e-6), key


def test_real_mpi_loggp_loads_for_the_timeline(tmp_path):
    from sad.predict.timeline import Network
    cal = mpibench.measure(nprocs=(2,), reps=20, rounds=3)
    assert {("osend", b) for b in (8, 64, 512, 4096)} <= {(p.kind, p.nbytes) for p in cal.points}
    assert all(p.seconds > 0 for p in cal.points if p.kind in ("osend", "orecv"))
    assert min(cal.loggp.values()) >= 0 and cal.loggp["o_s"] + cal.loggp["o_r"] + cal.loggp["L"] > 0
    base = yaml.safe_load((ROOT / "machine_db" / "paragon.yaml").read_text())
    base.pop("communication"), base.pop("programming_model")
    path = tmp_path / "here.yaml"
    path.write_text(yaml.safe_dump(base) + "\n".join(mpibench.render_yaml(cal)) + "\n")
    net = Network.of(load_machine(path))
    assert net.o_s == pytest.approx(cal.loggp["o_s"], rel=1e-5) and net.dma
    # the CPUs the calibration could run on (taskset / cgroup affinity): more ranks than these share them
    assert net.cores == len(os.sched_getaffinity(0)) == cal.cores
    assert net.share(4 * net.cores) == 4.0 and net.share(net.cores) == 1.0
