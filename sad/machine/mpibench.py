"""Calibrating the communication and programming-model levels with the real MPI of this machine.

Data flow: `sad calibrate --mpi` (sad.machine.calibrate) → `measure` generates one C program of MPI
microbenchmarks (ping-pong between ranks 0 and 1 over message sizes; bcast, reduce, allreduce, gather,
scatter, allgather, alltoall and barrier over sizes), builds it with mpicc, runs it under
`mpirun --oversubscribe` at each process count, and reads one line per figure (the median of repeated timed
loops, with the interquartile spread) → `fit` turns them into the machine's levels:

    communication:     latency + b / link_bandwidth, least squares over the ping-pong sizes (one-way time);
                       LogGP for the timeline: o_s + b·O_s, the time inside MPI_Send with the receive posted,
                       o_r + b·O_r, inside MPI_Recv with the message there (eager sizes), L + b·G the rest
                       of the one-way time
    programming_model: send = recv = (latency + b/link_bandwidth) / 2 (a matched pair is one message),
                       comm = send + recv; each collective s(P)·(α + β·b) with its step count s(P) chosen
                       between ceil(log2 P) (tree) and P − 1 (sequential) by the smaller relative error

→ `render_yaml` writes them with provenance (tools, date, every point measured) for the machine file.
Times are wall-clock (MPI_Wtime): communication waits, so CPU time would miss it.
"""
from __future__ import annotations

import math
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

SIZES = (8, 64, 512, 4096, 32768, 262144, 1048576)
COLLECTIVE_SIZES = (8, 4096, 65536)
COLLECTIVES = ("bcast", "reduce", "allreduce", "gather", "scatter", "allgather", "alltoall", "barrier")
MPIRUN = ("mpirun", "--oversubscribe", "--allow-run-as-root")


def mpirun_command(mpirun: str, nprocs: int) -> list[str]:
    """mpirun at nprocs processes, its ranks on the CPUs this process may use (`communication.cores`).

    Measured on a 2-core host (Open MPI 4.1, cgtree.f with 50 iterations, sad pinned to CPU 0): by default
    mpirun binds np <= 2 ranks one to each core of the machine, whatever the caller's affinity (rank 1 ran
    on CPU 1 although sad could use CPU 0 only), so the cores the calibration records would not be the ones
    the ranks used; hence `--bind-to none` (the ranks inherit the caller's affinity). Ranks that share a
    core while Open MPI does not know it spin in their progress loop through whole time slices: 2 ranks on
    one core took 3.9-5.0 s against 0.11-0.12 s with `mpi_yield_when_idle` (what Open MPI sets itself when
    it sees more ranks than slots), so that is set whenever nprocs exceeds those CPUs."""
    cpus = len(os.sched_getaffinity(0))
    shared = ["--mca", "mpi_yield_when_idle", "1"] if nprocs > cpus else []
    return [mpirun, *MPIRUN[1:], "--bind-to", "none", *shared, "-np", str(nprocs)]
EAGER = 4096
"""The LogGP overheads are measured up to this size: Open MPI's shared-memory eager limit (a larger send waits
for its receiver, and its time is no longer the sender's overhead alone)."""


class MPIBenchError(RuntimeError):
    """No MPI, a build or a run that failed: the message says which and what to install."""


@dataclass(frozen=True)
class Point:
    """One MPI timing: a ping-pong or collective at a process count and message size."""
    kind: str  # pingpong | a collective
    nprocs: int
    nbytes: int
    seconds: float  # median
    spread: float  # interquartile range / median


@dataclass
class MPICalibration:
    """Measured MPI points and the latency, bandwidth and collective models fitted to them."""
    points: list[Point]
    latency: float = 0.0
    bandwidth: float = 0.0
    collectives: dict[str, tuple[str, float, float]] = field(default_factory=dict)  # kind → (steps, α, β)
    loggp: dict[str, float] = field(default_factory=dict)  # o_s, O_s, o_r, O_r, L, G, g (sad.predict.timeline)
    tools: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    cores: int = 0  # the CPUs this process (and the mpirun it starts) may run on: the ranks share them


_PROGRAM = r"""
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* median and interquartile spread of `rounds` timings (rank 0's view, the maximum over ranks) */
static void report(const char *kind, int np, int bytes, double *t, int rounds) {
    qsort(t, rounds, sizeof(double), cmp);
    double med = t[rounds / 2], iqr = t[(3 * rounds) / 4] - t[rounds / 4];
    printf("%s %d %d %.9e %.4f\n", kind, np, bytes, med, med > 0 ? iqr / med : 0.0);
}

int main(int argc, char **argv) {
    int me, np, reps = atoi(argv[1]), rounds = atoi(argv[2]);
    static const int sizes[] = {{SIZES}}, csizes[] = {{CSIZES}};
    int nsizes = sizeof(sizes) / sizeof(sizes[0]), ncs = sizeof(csizes) / sizeof(csizes[0]);
    double t[64];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    char *a = malloc(1048576 * (size_t)np + 64), *b = malloc(1048576 * (size_t)np + 64);
    memset(a, 1, 1048576 * (size_t)np + 64);
    memset(b, 0, 1048576 * (size_t)np + 64);
    if (np == 2) {
        for (int s = 0; s < nsizes; s++) {
            int n = sizes[s], k = n >= 262144 ? (reps + 9) / 10 : reps;
            for (int r = 0; r < rounds; r++) {
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                for (int i = 0; i < k; i++) {
                    if (me == 0) {
                        MPI_Send(a, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                        MPI_Recv(b, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    } else {
                        MPI_Recv(b, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                        MPI_Send(a, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
                    }
                }
                t[r] = (MPI_Wtime() - t0) / (2.0 * k);   /* one way */
            }
            if (me == 0) report("pingpong", np, n, t, rounds);
        }
        /* LogGP overheads (eager sizes): the time inside MPI_Send with the receive already posted, and inside
           MPI_Recv with the message already there (sent 200 us before the receive is called) */
        for (int s = 0; s < nsizes && sizes[s] <= {{EAGER}}; s++) {
            int n = sizes[s], k = (reps + 9) / 10;
            double tr[64];
            for (int r = 0; r < rounds; r++) {
                double sum_s = 0.0, sum_r = 0.0;
                for (int i = 0; i < k; i++) {
                    MPI_Request req;
                    if (me == 1) MPI_Irecv(b, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &req);
                    MPI_Barrier(MPI_COMM_WORLD);
                    if (me == 0) {
                        double t0 = MPI_Wtime();
                        MPI_Send(a, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                        sum_s += MPI_Wtime() - t0;
                    } else {
                        MPI_Wait(&req, MPI_STATUS_IGNORE);
                    }
                    MPI_Barrier(MPI_COMM_WORLD);
                    if (me == 0) {
                        MPI_Send(a, n, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
                    } else {
                        double t0 = MPI_Wtime();
                        while (MPI_Wtime() - t0 < 2e-4) {}
                        t0 = MPI_Wtime();
                        MPI_Recv(b, n, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                        sum_r += MPI_Wtime() - t0;
                    }
                }
                t[r] = sum_s / k;
                tr[r] = sum_r / k;
            }
            if (me == 1) {
                MPI_Send(tr, rounds, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD);
            } else {
                report("osend", np, n, t, rounds);
                MPI_Recv(tr, rounds, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                report("orecv", np, n, tr, rounds);
            }
        }
    }
    const char *names[] = {{COLLECTIVES}};
    for (int c = 0; c < 8; c++) {
        for (int s = 0; s < ncs; s++) {
            int n = csizes[s], k = n >= 65536 ? (reps + 9) / 10 : reps;
            if (c == 7 && s > 0) break;                      /* barrier: no size */
            for (int r = 0; r < rounds; r++) {
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                for (int i = 0; i < k; i++) {
                    switch (c) {
                    case 0: MPI_Bcast(a, n, MPI_BYTE, 0, MPI_COMM_WORLD); break;
                    case 1: MPI_Reduce(a, b, n / 8, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD); break;
                    case 2: MPI_Allreduce(a, b, n / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
                    case 3: MPI_Gather(a, n, MPI_BYTE, b, n, MPI_BYTE, 0, MPI_COMM_WORLD); break;
                    case 4: MPI_Scatter(a, n, MPI_BYTE, b, n, MPI_BYTE, 0, MPI_COMM_WORLD); break;
                    case 5: MPI_Allgather(a, n, MPI_BYTE, b, n, MPI_BYTE, MPI_COMM_WORLD); break;
                    case 6: MPI_Alltoall(a, n, MPI_BYTE, b, n, MPI_BYTE, MPI_COMM_WORLD); break;
                    case 7: MPI_Barrier(MPI_COMM_WORLD); break;
                    }
                }
                double local = (MPI_Wtime() - t0) / k, slowest;
                MPI_Reduce(&local, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
                t[r] = slowest;
            }
            if (me == 0) report(names[c], np, c == 7 ? 0 : n, t, rounds);
        }
    }
    MPI_Finalize();
    return 0;
}
"""


def program_text() -> str:
    """The C source of the MPI microbenchmarks, with the sizes and collectives of this module filled in."""
    return (_PROGRAM.replace("{{SIZES}}", "{" + ", ".join(map(str, SIZES)) + "}")
            .replace("{{CSIZES}}", "{" + ", ".join(map(str, COLLECTIVE_SIZES)) + "}")
            .replace("{{COLLECTIVES}}", "{" + ", ".join(f'"{c}"' for c in COLLECTIVES) + "}")
            .replace("{{EAGER}}", str(EAGER)))


def mpi_tool(name: str, needed_by: str, error: type[Exception]) -> str:
    """The path of an MPI command (mpicc, mpirun), or `error` saying what needs it and how to install one."""
    path = shutil.which(name)
    if path is None:
        raise error(f"{name} not found on PATH: {needed_by} needs an MPI "
                    "(Debian: apt-get install -y openmpi-bin libopenmpi-dev)")
    return path


def _tool(name: str) -> str:
    return mpi_tool(name, "sad calibrate --mpi", MPIBenchError)


def _version(cmd: list[str]) -> str:
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    lines = (out.stdout or out.stderr).strip().splitlines()
    return lines[0].strip() if lines else cmd[0]


def measure(nprocs: tuple[int, ...] = (2, 4), reps: int = 200, rounds: int = 9, progress=None) -> MPICalibration:
    """Build and run the microbenchmarks; every point measured (nothing fitted yet)."""
    mpicc, mpirun = _tool("mpicc"), _tool("mpirun")
    tools = {"mpicc": _version([mpicc, "--version"]), "mpirun": _version([mpirun, "--version"])}
    points: list[Point] = []
    with tempfile.TemporaryDirectory(prefix="sad-mpibench-") as tmp:
        src, exe = Path(tmp) / "mpibench.c", Path(tmp) / "mpibench"
        src.write_text(program_text())
        built = subprocess.run([mpicc, "-O2", "-std=c99", "-o", str(exe), str(src)], capture_output=True,
                               text=True, timeout=300)
        if built.returncode != 0:
            raise MPIBenchError(f"mpicc failed:\n{built.stderr.strip()[-2000:]}")
        for p in nprocs:
            if progress:
                progress(f"sad calibrate: MPI microbenchmarks on {p} processes")
            run = subprocess.run([*mpirun_command(mpirun, p), str(exe), str(reps), str(rounds)],
                                 capture_output=True, text=True, timeout=1800)
            if run.returncode != 0:
                raise MPIBenchError(f"mpirun -np {p} failed (exit {run.returncode}):\n"
                                    f"{(run.stderr or run.stdout).strip()[-2000:]}")
            for line in run.stdout.splitlines():
                parts = line.split()
                if len(parts) == 5 and (parts[0] in ("pingpong", "osend", "orecv") or parts[0] in COLLECTIVES):
                    points.append(Point(parts[0], int(parts[1]), int(parts[2]), float(parts[3]), float(parts[4])))
    cal = MPICalibration(points, tools=tools, cores=len(os.sched_getaffinity(0)))
    fit(cal)
    noisy = [f"{p.kind} P={p.nprocs} {p.nbytes} B ({p.spread * 100:.0f} %)" for p in points if p.spread > 0.5]
    if noisy:
        cal.warnings.append(f"{len(noisy)} MPI figure(s) vary by more than 50 % between rounds (a busy machine, "
                            f"or more processes than cores): " + ", ".join(noisy[:6]) + (", …" if len(noisy) > 6
                                                                                        else ""))
    return cal


def steps(kind: str, nprocs: int) -> float:
    """The step count of a collective pattern at nprocs processes."""
    return math.ceil(math.log2(nprocs)) if kind == "tree" else float(nprocs - 1)


def fit(cal: MPICalibration) -> None:
    """Latency and bandwidth from the ping-pong (least squares, one-way time = latency + b/bandwidth), and
    each collective as s(P)·(α + β·b), s the pattern (tree or sequential) that fits with less error."""
    pp = [p for p in cal.points if p.kind == "pingpong"]
    if len(pp) < 2:
        raise MPIBenchError("the ping-pong gave fewer than two sizes: nothing to fit")
    coef = _line([p.nbytes for p in pp], [p.seconds for p in pp], [1.0] * len(pp))
    largest = max(pp, key=lambda p: p.nbytes)
    smallest = min(pp, key=lambda p: p.nbytes)
    # a slope at or below 0 (times that do not grow with the size: noise from other load) has no bandwidth;
    # the largest message's own rate b / time is a measured lower bound, and a machine file can hold it
    cal.bandwidth = 1.0 / coef[1] if coef[1] > 0 else largest.nbytes / largest.seconds
    # an intercept at or below 0 (noise from other load: a real run on a busy two-core host fitted one and
    # wrote latency 0) is no latency; the smallest message's time less its bytes at that bandwidth is (its own
    # time where that is not positive): never a 0 in the machine file
    own = smallest.seconds - smallest.nbytes / cal.bandwidth
    cal.latency = coef[0] if coef[0] > 0 else own if own > 0 else smallest.seconds
    instead = ([] if coef[0] > 0 else [f"latency from the {smallest.nbytes} B message's time, {cal.latency:.3g} s"]) \
        + ([] if coef[1] > 0 else [f"bandwidth the {largest.nbytes} B message's own rate"])
    if instead:
        cal.warnings.append(f"ping-pong fit gave latency {coef[0]:.3g} s, {coef[1]:.3g} s/byte: " + ", ".join(instead))
    _fit_loggp(cal, pp)
    for kind in COLLECTIVES:
        pts = [p for p in cal.points if p.kind == kind]
        if not pts:
            continue
        best = None
        for pattern in ("tree", "sequential"):
            scale = [steps(pattern, p.nprocs) or 1.0 for p in pts]
            a, b = _line([p.nbytes for p in pts], [p.seconds for p in pts], scale)
            err = max(abs(s * (a + b * p.nbytes) - p.seconds) / p.seconds for s, p in zip(scale, pts))
            if best is None or err < best[0]:
                best = (err, pattern, max(a, 0.0), max(b, 0.0))
        assert best is not None                       # two patterns were tried
        cal.collectives[kind] = best[1:]


def _fit_loggp(cal: MPICalibration, pingpong: list[Point]) -> None:
    """o_s + b·O_s from the send overheads, o_r + b·O_r from the receive overheads, and L + b·G from what the
    one-way ping-pong time leaves: T(b) = o_s + b·O_s + L + b·G + o_r + b·O_r (g is not measured: 0)."""
    sends = [p for p in cal.points if p.kind == "osend"]
    recvs = [p for p in cal.points if p.kind == "orecv"]
    if len(sends) < 2 or len(recvs) < 2:
        return
    o_s, per_send = _line([p.nbytes for p in sends], [p.seconds for p in sends], [1.0] * len(sends))
    o_r, per_recv = _line([p.nbytes for p in recvs], [p.seconds for p in recvs], [1.0] * len(recvs))
    o_s, per_send, o_r, per_recv = (max(v, 0.0) for v in (o_s, per_send, o_r, per_recv))
    rest = [p.seconds - o_s - o_r - p.nbytes * (per_send + per_recv) for p in pingpong]
    latency, per_link = _line([p.nbytes for p in pingpong], [max(r, 1e-12) for r in rest], [1.0] * len(rest))
    if latency < 0 or per_link < 0:
        cal.warnings.append(f"LogGP fit gave L {latency:.3g} s, G {per_link:.3g} s/byte: clamped to 0")
    cal.loggp = {"o_s": o_s, "O_s": per_send, "o_r": o_r, "O_r": per_recv, "L": max(latency, 0.0),
                 "G": max(per_link, 0.0), "g": 0.0}


def _line(x: list[int], y: list[float], scale: list[float]) -> tuple[float, float]:
    """(α, β) minimizing the relative error of scale·(α + β·x) against y (large messages do not swamp
    the latency)."""
    xs, ys, ss = np.array(x, float), np.array(y, float), np.array(scale, float)
    w = 1.0 / np.maximum(ys, 1e-12)
    a = np.column_stack([ss * w, ss * xs * w])
    if np.all(xs == xs[0]):
        return float(np.sum(ys * w) / np.sum(ss * w)), 0.0
    sol, *_ = np.linalg.lstsq(a, ys * w, rcond=None)
    return float(sol[0]), float(sol[1])


def render_yaml(cal: MPICalibration) -> list[str]:
    """The communication and programming_model levels, with provenance comments."""
    lines = ["# COMMUNICATION and PROGRAMMING MODEL measured by `sad calibrate --mpi` (sad/machine/mpibench.py)",
             f"# with {cal.tools.get('mpirun', 'mpirun')} / {cal.tools.get('mpicc', 'mpicc')}: wall time (MPI_Wtime),",
             "# median of repeated timed loops; spread = interquartile range / median. Processes share this",
             "# machine's cores (mpirun --oversubscribe): figures of an SMP node, not of a network.",
             "# ping-pong, one-way time by message size (the bandwidth by size is b / (time - latency)):"]
    for p in (q for q in cal.points if q.kind == "pingpong"):
        bw = (f"{p.nbytes / (p.seconds - cal.latency) / 1e6:10.1f} MB/s" if p.seconds > 2 * cal.latency
              else "   (latency-bound)")
        lines.append(f"#   {p.nbytes:>8d} B  {p.seconds * 1e6:12.3f} us  spread {p.spread * 100:5.1f} %  {bw}")
    lines.append("# collectives (P, bytes, time):")
    for kind in COLLECTIVES:
        pts = [p for p in cal.points if p.kind == kind]
        if pts:
            lines.append(f"#   {kind:9s} " + ", ".join(f"P={p.nprocs} {p.nbytes} B {p.seconds * 1e6:.2f} us "
                                                        f"({p.spread * 100:.0f} %)" for p in pts))
    nodes = max((p.nprocs for p in cal.points), default=2)
    lines += ["communication:",
              f"  topology: {{kind: fully_connected, nodes: {nodes}}}   # processes of one shared-memory node",
              f"  latency: {cal.latency:.6e}                        # fitted: one-way time at 0 bytes (s)",
              f"  link_bandwidth: {cal.bandwidth / 1e6:.6g} MB/s              # fitted: 1 / slope of the one-way time",
              *_loggp_lines(cal),
              *([f"  cores: {cal.cores}                                         # the CPUs the calibration ran on "
                 "(affinity): more ranks share them"] if cal.cores else []),
              "programming_model:                                  # b = message bytes, P = processes",
              "  send: (latency + b/link_bandwidth)/2              # a matched send/recv pair is one message",
              "  recv: (latency + b/link_bandwidth)/2",
              "  comm: send + recv"]
    for kind, (pattern, alpha, beta) in sorted(cal.collectives.items()):
        count = "ceil(log2(P))" if pattern == "tree" else "(P - 1)"
        size = f" + {beta:.6e}*b" if kind != "barrier" else ""
        lines.append(f"  {kind}: {count} * ({alpha:.6e}{size})   # fitted, {pattern} pattern")
    return lines


def _loggp_lines(cal: MPICalibration) -> list[str]:
    if not cal.loggp:
        return []
    figures = ", ".join(f"{k}: {cal.loggp[k]:.6e}" for k in ("o_s", "O_s", "o_r", "O_r", "L", "G", "g"))
    return ["  # LogGP (sad.predict.timeline), fitted: o_s + b O_s inside MPI_Send with the receive posted,",
            f"  # o_r + b O_r inside MPI_Recv with the message there (sizes up to {EAGER} B), L + b G the rest",
            f"  loggp: {{{figures}}}",
            "  dma: true                                        # ASSUMED: an eager send returns before the copy out"]
