"""Tracing a real MPI run: every message-passing call of every rank with its partner, bytes and times.

Data flow: the program's sources → built with mpif77 / mpicc together with a PMPI wrapper library written and
compiled here (WRAPPER: the Fortran bindings mpi_send_ … and the C functions MPI_Send …, each timing the call
around its PMPI twin, in wall time and in the rank's CPU time, and noting partner and count × datatype size)
→ run under `mpirun -np N` → one file per rank → `Call` lists. sad.cli.extrapolate compares them with the
events sad derives from the source (sad.predict.trace) at the same N, and reports the measured compute
between the calls beside sad's, before simulating the program at a large process count on a target machine
(ExtraP's method, Shanmugam, Malony and Mohr 1995, with the compute intervals taken from sad's per-rank prices
instead of the measured ones).
The CPU times tell a rank's own work from the time other processes had its core: on a host whose cores other
jobs share, the wall times are longer than the host's alone by the part of the cores' time the run got
(`core_share`), which no machine property describes.

Open MPI's Fortran bindings call the C PMPI_ functions directly, so the Fortran calls are wrapped by their
own symbols (mpi_send_ calling pmpi_send_), which the program's executable defines before the library.
"""
from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sad.machine.mpibench import mpi_tool, mpirun_command
from sad.predict.events import Op


class TraceRunError(RuntimeError):
    """No MPI, a build or run that failed: the message says which."""


@dataclass(frozen=True)
class Call:
    """One traced MPI call of a rank: kind (send, recv, bcast, …), partner or root (-1: none), bytes, wall times
    and the rank's CPU times at its start and end (seconds since MPI_Init)."""
    kind: str
    peer: int
    nbytes: int
    start: float
    end: float
    cpu_start: float = 0.0
    cpu_end: float = 0.0


# (Fortran name, C name, kind, C parameter list, the pmpi call's arguments, peer, bytes as count*type)
_CALLS = [
    ("send", "Send", "send", "const void *b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c", "b, n, t, d, tag, c",
     "d", "n, t"),
    ("recv", "Recv", "recv", "void *b, int n, MPI_Datatype t, int s, int tag, MPI_Comm c, MPI_Status *st",
     "b, n, t, s, tag, c, st", "s", "n, t"),
    ("bcast", "Bcast", "bcast", "void *b, int n, MPI_Datatype t, int r, MPI_Comm c", "b, n, t, r, c", "r", "n, t"),
    ("reduce", "Reduce", "reduce", "const void *s, void *b, int n, MPI_Datatype t, MPI_Op o, int r, MPI_Comm c",
     "s, b, n, t, o, r, c", "r", "n, t"),
    ("allreduce", "Allreduce", "allreduce", "const void *s, void *b, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c",
     "s, b, n, t, o, c", "-1", "n, t"),
    ("gather", "Gather", "gather", "const void *s, int n, MPI_Datatype t, void *b, int rn, MPI_Datatype rt, int r, "
     "MPI_Comm c", "s, n, t, b, rn, rt, r, c", "r", "n, t"),
    ("scatter", "Scatter", "scatter", "const void *s, int sn, MPI_Datatype st, void *b, int n, MPI_Datatype t, "
     "int r, MPI_Comm c", "s, sn, st, b, n, t, r, c", "r", "n, t"),
    ("allgather", "Allgather", "allgather", "const void *s, int n, MPI_Datatype t, void *b, int rn, "
     "MPI_Datatype rt, MPI_Comm c", "s, n, t, b, rn, rt, c", "-1", "n, t"),
    ("barrier", "Barrier", "barrier", "MPI_Comm c", "c", "-1", "0, MPI_BYTE"),
]

_HEAD = r"""
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static FILE *out;
static double origin, cpu_origin, cpu_start;

/* the CPU time of the calling thread (the rank's own work and its polling, not the time other processes
   had the core) */
static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* a call begins: its CPU time noted, its wall time returned (calls do not nest) */
static double started(void) { cpu_start = cpu_now(); return PMPI_Wtime(); }

static void note(const char *kind, int peer, int n, MPI_Datatype t, double t0) {
    int size = 0;
    double t1 = PMPI_Wtime(), c1 = cpu_now();
    if (!out) return;
    if (t != MPI_DATATYPE_NULL) PMPI_Type_size(t, &size);
    fprintf(out, "%s %d %ld %.9f %.9f %.9f %.9f\n", kind, peer, (long)n * size, t0 - origin, t1 - origin,
            cpu_start - cpu_origin, c1 - cpu_origin);
}

static void opened(void) {
    int me;
    char path[4096];
    const char *dir = getenv("SAD_MPITRACE_DIR");
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    snprintf(path, sizeof path, "%s/rank%d.txt", dir ? dir : ".", me);
    out = fopen(path, "w");
    origin = PMPI_Wtime();
    cpu_origin = cpu_now();
}

static void closed(void) {
    double now = PMPI_Wtime() - origin, cpu = cpu_now() - cpu_origin;
    if (out) { fprintf(out, "end -1 0 %.9f %.9f %.9f %.9f\n", now, now, cpu, cpu); fclose(out); }
    out = NULL;
}

int MPI_Init(int *argc, char ***argv) { int e = PMPI_Init(argc, argv); opened(); return e; }
int MPI_Finalize(void) { closed(); return PMPI_Finalize(); }
/* the Fortran PMPI symbols are weak: a C program links without libmpi_mpifh and never calls mpi_*_ */
void pmpi_init_(MPI_Fint *ierr) __attribute__((weak));
void mpi_init_(MPI_Fint *ierr) { pmpi_init_(ierr); opened(); }
void pmpi_finalize_(MPI_Fint *ierr) __attribute__((weak));
void mpi_finalize_(MPI_Fint *ierr) { closed(); pmpi_finalize_(ierr); }
int MPI_Sendrecv(const void *sb, int sn, MPI_Datatype st, int d, int stag, void *rb, int rn, MPI_Datatype rt,
                 int s, int rtag, MPI_Comm c, MPI_Status *status) {
    double t0 = started();
    int e = PMPI_Sendrecv(sb, sn, st, d, stag, rb, rn, rt, s, rtag, c, status);
    note("send", d, sn, st, t0); note("recv", s, rn, rt, t0);
    return e;
}
int MPI_Sendrecv_replace(void *b, int n, MPI_Datatype t, int d, int stag, int s, int rtag, MPI_Comm c,
                         MPI_Status *status) {
    double t0 = started();
    int e = PMPI_Sendrecv_replace(b, n, t, d, stag, s, rtag, c, status);
    note("send", d, n, t, t0); note("recv", s, n, t, t0);
    return e;
}
void pmpi_sendrecv_(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *, MPI_Fint *,
                    MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *) __attribute__((weak));
void mpi_sendrecv_(void *sb, MPI_Fint *sn, MPI_Fint *st, MPI_Fint *d, MPI_Fint *stag, void *rb, MPI_Fint *rn,
                   MPI_Fint *rt, MPI_Fint *s, MPI_Fint *rtag, MPI_Fint *c, MPI_Fint *status, MPI_Fint *ierr) {
    double t0 = started();
    pmpi_sendrecv_(sb, sn, st, d, stag, rb, rn, rt, s, rtag, c, status, ierr);
    note("send", *d, *sn, MPI_Type_f2c(*st), t0); note("recv", *s, *rn, MPI_Type_f2c(*rt), t0);
}
void pmpi_sendrecv_replace_(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *,
                            MPI_Fint *, MPI_Fint *, MPI_Fint *) __attribute__((weak));
void mpi_sendrecv_replace_(void *b, MPI_Fint *n, MPI_Fint *t, MPI_Fint *d, MPI_Fint *stag, MPI_Fint *s,
                           MPI_Fint *rtag, MPI_Fint *c, MPI_Fint *status, MPI_Fint *ierr) {
    double t0 = started();
    pmpi_sendrecv_replace_(b, n, t, d, stag, s, rtag, c, status, ierr);
    note("send", *d, *n, MPI_Type_f2c(*t), t0); note("recv", *s, *n, MPI_Type_f2c(*t), t0);
}
/* the gathers: a rank that sends from MPI_IN_PLACE contributes its receive-side block (the send count and type
   are ignored by MPI); the v forms' block is the rank's element of the counts */
static int rank_of(MPI_Comm c) { int me; PMPI_Comm_rank(c, &me); return me; }
int MPI_Gather(const void *s, int n, MPI_Datatype t, void *b, int rn, MPI_Datatype rt, int r, MPI_Comm c) {
    double t0 = started();
    int e = PMPI_Gather(s, n, t, b, rn, rt, r, c);
    if (s == MPI_IN_PLACE) note("gather", r, rn, rt, t0); else note("gather", r, n, t, t0);
    return e;
}
int MPI_Allgather(const void *s, int n, MPI_Datatype t, void *b, int rn, MPI_Datatype rt, MPI_Comm c) {
    double t0 = started();
    int e = PMPI_Allgather(s, n, t, b, rn, rt, c);
    if (s == MPI_IN_PLACE) note("allgather", -1, rn, rt, t0); else note("allgather", -1, n, t, t0);
    return e;
}
int MPI_Gatherv(const void *s, int n, MPI_Datatype t, void *b, const int *rn, const int *d, MPI_Datatype rt,
                int r, MPI_Comm c) {
    double t0 = started();
    int e = PMPI_Gatherv(s, n, t, b, rn, d, rt, r, c);
    if (s == MPI_IN_PLACE) note("gather", r, rn[rank_of(c)], rt, t0); else note("gather", r, n, t, t0);
    return e;
}
int MPI_Allgatherv(const void *s, int n, MPI_Datatype t, void *b, const int *rn, const int *d, MPI_Datatype rt,
                   MPI_Comm c) {
    double t0 = started();
    int e = PMPI_Allgatherv(s, n, t, b, rn, d, rt, c);
    if (s == MPI_IN_PLACE) note("allgather", -1, rn[rank_of(c)], rt, t0); else note("allgather", -1, n, t, t0);
    return e;
}
/* the same in Fortran, where MPI_IN_PLACE is Open MPI's common block mpi_fortran_in_place */
extern int mpi_fortran_in_place_ __attribute__((weak));
#define F_IN_PLACE(s) ((void *)(s) == (void *)&mpi_fortran_in_place_)
#define F_NOTE(kind, root, in_place_count) \
    note(kind, root, F_IN_PLACE(s) ? (in_place_count) : *n, MPI_Type_f2c(F_IN_PLACE(s) ? *rt : *t), t0)
void pmpi_gather_() __attribute__((weak));
void mpi_gather_(void *s, MPI_Fint *n, MPI_Fint *t, void *b, MPI_Fint *rn, MPI_Fint *rt, MPI_Fint *r,
                 MPI_Fint *c, MPI_Fint *ierr) {
    double t0 = started();
    pmpi_gather_(s, n, t, b, rn, rt, r, c, ierr);
    F_NOTE("gather", *r, *rn);
}
void pmpi_allgather_() __attribute__((weak));
void mpi_allgather_(void *s, MPI_Fint *n, MPI_Fint *t, void *b, MPI_Fint *rn, MPI_Fint *rt, MPI_Fint *c,
                    MPI_Fint *ierr) {
    double t0 = started();
    pmpi_allgather_(s, n, t, b, rn, rt, c, ierr);
    F_NOTE("allgather", -1, *rn);
}
void pmpi_gatherv_() __attribute__((weak));
void mpi_gatherv_(void *s, MPI_Fint *n, MPI_Fint *t, void *b, MPI_Fint *rn, MPI_Fint *d, MPI_Fint *rt,
                  MPI_Fint *r, MPI_Fint *c, MPI_Fint *ierr) {
    double t0 = started();
    pmpi_gatherv_(s, n, t, b, rn, d, rt, r, c, ierr);
    F_NOTE("gather", *r, rn[rank_of(MPI_Comm_f2c(*c))]);
}
void pmpi_allgatherv_() __attribute__((weak));
void mpi_allgatherv_(void *s, MPI_Fint *n, MPI_Fint *t, void *b, MPI_Fint *rn, MPI_Fint *d, MPI_Fint *rt,
                     MPI_Fint *c, MPI_Fint *ierr) {
    double t0 = started();
    pmpi_allgatherv_(s, n, t, b, rn, d, rt, c, ierr);
    F_NOTE("allgather", -1, rn[rank_of(MPI_Comm_f2c(*c))]);
}
"""
_C_BY_HAND = {"Gather", "Allgather"}
"""Calls whose C and Fortran wrappers are written in _HEAD (MPI_IN_PLACE) rather than generated from _CALLS."""


def _c_wrapper(fname: str, cname: str, kind: str, params: str, args: str, peer: str, nbytes: str) -> str:
    return (f"int MPI_{cname}({params}) {{\n    double t0 = started();\n    int e = PMPI_{cname}({args});\n"
            f"    note(\"{kind}\", {peer}, {nbytes}, t0);\n    return e;\n}}\n")


def _fortran_wrapper(fname: str, kind: str, params: str, peer: str, nbytes: str) -> str:
    """The Fortran binding: every argument by reference, IERROR last, handles as MPI_Fint."""
    names = [p.strip().split()[-1].lstrip("*") for p in params.split(",")]
    formal = ", ".join(f"void *{n}" if n in ("b", "s") and "void" in p else f"MPI_Fint *{n}"
                       for n, p in zip(names, params.split(",")))
    if kind == "recv":
        formal = formal.replace("MPI_Fint *st", "MPI_Fint *st")
    actual = ", ".join(names)
    count, dtype = (x.strip() for x in nbytes.split(","))
    size = f"*{count}" if count != "0" else "0"
    typ = f"MPI_Type_f2c(*{dtype})" if dtype != "MPI_BYTE" else "MPI_BYTE"
    who = f"*{peer}" if peer != "-1" else "-1"
    return (f"void pmpi_{fname}_({', '.join(['void *'] * (len(names) + 1))}) __attribute__((weak));\n"
            f"void mpi_{fname}_({formal}, MPI_Fint *ierr) {{\n    double t0 = started();\n"
            f"    pmpi_{fname}_({actual}, ierr);\n    note(\"{kind}\", {who}, {size}, {typ}, t0);\n}}\n")


def wrapper_source() -> str:
    """The C source of the PMPI wrapper library."""
    parts = [_HEAD]
    for fname, cname, kind, params, args, peer, nbytes in _CALLS:
        if cname not in _C_BY_HAND:
            parts.append(_c_wrapper(fname, cname, kind, params, args, peer, nbytes))
            parts.append(_fortran_wrapper(fname, kind, params, peer, nbytes))
    return "\n".join(parts)


def _tool(name: str) -> str:
    return mpi_tool(name, "tracing", TraceRunError)


def run(files: list[str], nprocs: int, stdin: str = "", timeout: int = 600,
        include_dirs: tuple[str, ...] = (), flags: tuple[str, ...] = ("-O2",)) -> list[list[Call]]:
    """Build the program with the wrapper (compiled with ``flags``; the -I directories searched; the math
    library linked, as a C program calling sqrt needs), run it at nprocs processes, read every rank's calls."""
    fortran = any(Path(f).suffix.lower() in (".f", ".for", ".f77", ".fpp") for f in files)
    compiler = _tool("mpif77" if fortran else "mpicc")
    mpicc, mpirun = _tool("mpicc"), _tool("mpirun")
    with tempfile.TemporaryDirectory(prefix="sad-mpitrace-") as tmp:
        work = Path(tmp)
        (work / "wrap.c").write_text(wrapper_source())
        built = subprocess.run([mpicc, "-O2", "-c", "-o", str(work / "wrap.o"), str(work / "wrap.c")],
                               capture_output=True, text=True, timeout=300)
        if built.returncode != 0:
            raise TraceRunError(f"mpicc (the wrapper library) failed:\n{built.stderr.strip()[-2000:]}")
        exe = work / "traced"
        dialect = ["-std=legacy", "-w"] if fortran else []
        includes = [f"-I{d}" for d in include_dirs]
        built = subprocess.run([compiler, *flags, *dialect, *includes, "-o", str(exe), *map(str, files),
                                str(work / "wrap.o"), "-lm"],
                               capture_output=True, text=True, timeout=300)
        if built.returncode != 0:
            raise TraceRunError(f"{Path(compiler).name} failed:\n{built.stderr.strip()[-2000:]}")
        env = dict(os.environ, SAD_MPITRACE_DIR=str(work))
        done = subprocess.run([*mpirun_command(mpirun, nprocs), str(exe)], input=stdin, env=env,
                              capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise TraceRunError(f"mpirun -np {nprocs} failed (exit {done.returncode}):\n"
                                f"{(done.stderr or done.stdout).strip()[-2000:]}")
        return [_read(work / f"rank{r}.txt") for r in range(nprocs)]


def build_flags(machine, given: str | None) -> tuple[tuple[str, ...], str]:
    """The flags the traced program is built with, and why: ``given`` (--flags) if any; else the flags a host
    file written by `sad calibrate` was measured with, so that the run's compute intervals and sad's are the
    same code (built with -O2 against a file calibrated at -O0, cgsimple.f's compute ran at 0.55x sad's);
    else -O2, as a production build would be, the target machine's figures then being another machine's."""
    if given is not None:
        return tuple(shlex.split(given)), "--flags"
    models = getattr(machine, "models", None) or {}
    calibrated = str(models.get("optimization", ""))
    if models.get("tool") == "sad calibrate" and calibrated.startswith("-"):
        return tuple(shlex.split(calibrated)), f"the flags {machine.name} was calibrated with"
    return ("-O2",), f"{machine.name} was not calibrated on this host"


def _read(path: Path) -> list[Call]:
    if not path.exists():
        raise TraceRunError(f"{path.name}: no trace written (did the program call MPI_Finalize?)")
    calls = []
    for line in path.read_text().splitlines():
        kind, peer, nbytes, *times = line.split()
        calls.append(Call(kind, int(peer), int(nbytes), *map(float, times)))
    return calls


def run_time(calls: list[Call]) -> float:
    """Seconds of a rank from MPI_Init to MPI_Finalize (its `end` record; its last call if it has none)."""
    return max((call.end for call in calls), default=0.0)


def cpu_time(calls: list[Call]) -> float:
    """CPU seconds of a rank from MPI_Init to MPI_Finalize (its `end` record; 0 for a trace without CPU
    times)."""
    return max((call.cpu_end for call in calls), default=0.0)


def cpu_compute_between(calls: list[Call]) -> float:
    """CPU seconds of a rank outside the traced calls: its own work, whatever other processes took of its core."""
    inside = sum(c.cpu_end - c.cpu_start for c in calls if c.kind != "end")
    return max(0.0, cpu_time(calls) - inside)


LOADED = 0.85
"""A traced run whose ranks got less than this part of their cores' time shared them with other jobs: on a
quiet host ranks that poll use their whole core, and ranks that share one keep it busy between them (a waiting
rank yields it to a rank that computes), so the part is close to 1."""


def core_share(calls: list[list[Call]], cores: int) -> float | None:
    """The part of its cores' time a run got: the ranks' CPU seconds over the run's wall time × the cores its
    ranks could use (min(ranks, cores)); None for a trace without CPU times."""
    wall = max((run_time(c) for c in calls), default=0.0)
    cpu = sum(cpu_time(c) for c in calls)
    if wall <= 0 or cpu <= 0:
        return None
    return cpu / (wall * max(1, min(len(calls), cores)))


def compute_between(calls: list[Call]) -> float:
    """Seconds of a rank spent outside the traced calls, from MPI_Init to MPI_Finalize."""
    total, last = 0.0, 0.0
    for call in calls:
        total += max(0.0, call.start - last)
        last = max(last, call.end)
    return total


_ROOTED = {"bcast", "reduce", "gather", "scatter"}


def traced_pattern(calls: list[Call]) -> list[tuple[str, int, int]]:
    """A rank's calls as (kind, partner or root, bytes), MPI_Finalize left out."""
    return [(c.kind, c.peer if c.kind in _ROOTED or c.kind in ("send", "recv") else -1, c.nbytes)
            for c in calls if c.kind != "end"]


def derived_pattern(ops: list[Op]) -> list[tuple[str, int, int]]:
    """sad's events of a rank in the same form: point-to-point messages one by one, a collective's messages
    (one negative tag per call) as one call, its root -1 (a collective is compared on kind and bytes)."""
    out: list[tuple[str, int, int]] = []
    seen: set[int] = set()
    for op in ops:
        if op.kind == "comp":
            continue
        if not op.call:
            out.append((op.kind, op.peer, op.nbytes))
        elif op.tag not in seen:
            seen.add(op.tag)
            out.append((op.call, -1, op.nbytes))
    return out


def first_difference(traced: list[tuple[str, int, int]], derived: list[tuple[str, int, int]]) -> int | None:
    """The index of the first call where the run and sad's events disagree (a root of -1 in sad's matches
    any), or None when they agree."""
    for i, (a, b) in enumerate(zip(traced, derived)):
        if a[0] != b[0] or a[2] != b[2] or (b[1] != -1 and a[1] != b[1]):
            return i
    return None if len(traced) == len(derived) else min(len(traced), len(derived))
