"""`sad calibrate`: measure this machine and write a machine database for it.

Data flow: sad.machine.microbench generates one program of kernels → compiled here with the user's compiler and flags →
each kernel is run (a pilot run sizes it to a target duration, then REPS timed runs) → per-statement times,
minus the loop overhead and the statement's other operations (medians measured earlier) → figures; an empty
program compiled the same way is run ``startup_runs`` times (control.startup, median CPU time) → a YAML
machine database (machine_db/schema.json) with provenance: CPU, compiler version, flags, date, and the spread of
every figure as a comment. The file is loaded with sad.machine.model before it is written, so what is written loads.
"""
from __future__ import annotations

import datetime as _dt
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sad.machine import chainwait, hostspeed, libbench, mpibench
from sad.machine import hierarchy as hier
from sad.machine import microbench as mb
from sad.machine import unmeasured as um
from sad.machine.versions import FORMAT_VERSION

COMPILERS = {"gcc": "c", "gfortran": "fortran"}


class CalibrationError(Exception):
    """The calibration cannot run (no compiler, compile failure, a kernel that fails)."""


@dataclass(frozen=True)
class Settings:
    """How a calibration measures: run length, repetitions, memory sizes, budgets and spread targets."""
    target_s: float = 0.02      # duration of one timed run of a kernel
    reps: int = 7               # timed runs per kernel (the figure is their median)
    sizes_kb: tuple[int, ...] = mb.MEM_SIZES_KB
    startup_runs: int = 20      # runs of the empty program (control.startup is their median CPU time)
    hierarchy_budget_s: float = 40.0   # clock, forwarding and per-level line costs (sad.machine.hierarchy)
    spread_target: float = 0.10        # a figure whose runs spread more than this is measured again ...
    max_rounds: int = 3                # ... at most this many rounds in all; then it is marked unreliable
    budget_s: float = 120.0            # no further rounds once the operation figures have taken this long
    only: tuple[str, ...] = ()         # measure only these figures and those they subtract (a partial file)
    watch_host: bool = True            # time every figure between host-speed samples (sad.machine.hostspeed)

    @staticmethod
    def quick() -> Settings:
        """Settings for a fast, rough calibration (two memory sizes, few repetitions, 30 s budget)."""
        return Settings(target_s=0.002, reps=3, sizes_kb=mb.MEM_SIZES_KB[:2], startup_runs=5,
                        hierarchy_budget_s=15.0, spread_target=0.25, max_rounds=2, budget_s=30.0)


@dataclass
class Figure:
    """One calibrated figure: its median time, the spread of its runs, and whether it converged."""
    seconds: float               # median over the repeated runs, after subtractions (clamped at 0)
    spread: float                # (p75 - p25) / median of the repeated runs, relative; 0 if a single run
    raw: float                   # before clamping
    samples: int
    reliable: bool = True        # converged (spread below the target) and positive
    derived: str = ""            # not measurable (below the resolution): the rule that gave ``seconds``
    host_ratio: float = 0.0      # the host-speed sentinel around its slowest round kept (0: not watched)


@dataclass
class Calibration:
    """The result of a calibration: the toolchain and CPU measured and every figure, ready to render."""
    compiler: str
    compiler_version: str
    language: str
    flags: list[str]
    cpu: str
    clock_hz: float | None
    date: str
    figures: dict[str, Figure] = field(default_factory=dict)
    seconds_taken: float = 0.0
    hierarchy: hier.HierarchyCalibration | None = None
    mpi: mpibench.MPICalibration | None = None  # --mpi: the communication and programming-model levels
    library: libbench.LibraryCalibration | None = None  # C library routines: processor.library
    warnings: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    load_before: tuple[float, float, float] | None = None   # load averages (1, 5, 15 min) when it started ...
    load_after: tuple[float, float, float] | None = None    # ... and when it ended
    guard: hostspeed.Guard | None = None   # the host-speed sentinel the figures are timed between
    finished: list[str] = field(default_factory=list)   # hierarchy lines a caller's finishing step measured


# ------------------------------------------------------------------------------------------- toolchain


def find_compiler(compiler: str) -> str:
    """Path of the compiler, or CalibrationError with a message saying what to install."""
    if compiler not in COMPILERS:
        raise CalibrationError(f"unknown compiler '{compiler}' (choose gcc or gfortran)")
    path = shutil.which(compiler)
    if path is None:
        raise CalibrationError(f"no compiler '{compiler}' found on PATH; install it (Debian: apt-get install "
                               f"{compiler}) or choose another with --compiler")
    return path


def compiler_version(path: str) -> str:
    """The first line of `COMPILER --version` (the file name if it prints nothing)."""
    out = subprocess.run([path, "--version"], capture_output=True, text=True, check=False).stdout
    return out.splitlines()[0].strip() if out else Path(path).name


def cpu_info() -> tuple[str, float | None]:
    """CPU model name and clock (Hz) from /proc/cpuinfo (Linux); platform names elsewhere."""
    model, mhz = platform.processor() or platform.machine(), None
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return model, None
    if m := re.search(r"^model name\s*:\s*(.+)$", text, re.M):
        model = m.group(1).strip()
    if m := re.search(r"^cpu MHz\s*:\s*([\d.]+)", text, re.M):
        mhz = float(m.group(1)) * 1e6
    cores = len(re.findall(r"^processor\s*:", text, re.M))
    return (f"{model} ({cores} logical CPUs)" if cores else model), mhz


def compile_bench(compiler: str, language: str, flags: list[str], workdir: Path,
                  items: list[mb.Bench]) -> Path:
    """Write the microbenchmarks' source for `items` (Fortran preprocessed: bench.F90) and the called routine
    (its own file, see microbench.helper_source) and compile them: the executable."""
    src = workdir / ("bench.c" if language == "c" else "bench.F90")
    src.write_text(mb.source(language, items), encoding="utf-8")
    helper = workdir / ("empty_routine.c" if language == "c" else "empty_routine.f90")
    helper.write_text(mb.helper_source(language), encoding="utf-8")
    exe = workdir / "bench"
    cmd = [compiler, *flags, str(src), str(helper), "-o", str(exe)] + (["-lm"] if language == "c" else [])
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise CalibrationError(f"compiling the microbenchmarks failed: {' '.join(cmd)}\n{proc.stderr[-2000:]}")
    return exe


# ------------------------------------------------------------------------------------------- running


def _run(exe: Path, k: int, n: int, reps: int, w: int) -> list[float]:
    cmd = hier.pin_command([str(exe), str(k), str(n), str(reps), "1", str(w)], hier.pinned_cpu())
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=120)
    if proc.returncode != 0:
        raise CalibrationError(f"microbenchmark {k} failed (exit {proc.returncode}): {failure_text(proc.stderr)}")
    return [float(x) for x in proc.stdout.split()]


def failure_text(stderr: str, tail: int = 500) -> str:
    """What a failed program said: its first line and first line naming an error (a run-time library says
    what went wrong first, then a long backtrace), then the last ``tail`` characters if they add anything."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    head = lines[:1] + [line for line in lines[1:] if re.search(r"error", line, re.I)][:1]
    text = "\n".join(head)
    rest = stderr.strip()[-tail:]
    return text if rest in text else (text + "\n...\n" + rest if text else rest)


def _elements(b: mb.Bench) -> int:
    return max(1, b.size_kb * 1024 // b.elem_bytes)


def _statements(b: mb.Bench, n: int) -> float:
    """How many timed statements a run of ``n`` trips executes."""
    if b.kind == "unrolled":
        return n * mb.UNROLL
    if b.kind == "array":
        return n * len(range(0, _elements(b), b.stride))
    if b.kind == "columns":
        return n * _elements(b)
    return n


def _measure(exe: Path, k: int, b: mb.Bench, s: Settings) -> list[float]:
    """Seconds per statement of kernel k (one value per timed run), loop overhead not yet subtracted."""
    w = _elements(b)
    n = 1
    while True:                                 # pilot: grow n until one run takes a measurable time
        t = min(_run(exe, k, n, 1, w))
        if t >= s.target_s / 20 or n >= mb.MAX_TRIPS:
            break
        n = min(mb.MAX_TRIPS, n * 100 if t < 1e-6 else int(n * s.target_s / 20 / t * 1.5) + 1)
    # capped: a kernel still too short at MAX_TRIPS had its work removed by the optimizer; its tiny figure is
    # below the resolution and derived (derive_unmeasured), never an overflowing trip count
    n = max(1, min(mb.MAX_TRIPS, round(n * s.target_s / max(t, 1e-9))))
    return [t / _statements(b, n) for t in _run(exe, k, n, s.reps, w)]


def _startup(compiler: str, language: str, flags: list[str], workdir: Path, runs: int) -> list[float]:
    """CPU seconds of running an empty program compiled like the user's (same compiler, flags, libraries):
    process creation, dynamic loading, run-time library start-up and exit. One untimed run first (page cache)."""
    src = workdir / ("empty.c" if language == "c" else "empty.f90")
    src.write_text(mb.empty_program(language), encoding="utf-8")
    exe = workdir / "empty"
    cmd = [compiler, *flags, str(src), "-o", str(exe)] + (["-lm"] if language == "c" else [])
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise CalibrationError(f"compiling the empty program failed: {' '.join(cmd)}\n{proc.stderr[-2000:]}")
    times = []
    for i in range(max(1, runs) + 1):
        # CPU time (user + system) of the child, like every other figure: on a shared machine the wall time
        # of a process start includes other processes' time slices (12 ms measured where 1 ms is real)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([str(exe)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        elapsed = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if done.returncode != 0:
            raise CalibrationError(f"the empty program failed (exit {done.returncode})")
        if i:
            times.append(elapsed)
    return times


def load_average() -> tuple[float, float, float] | None:
    """The OS's load averages over 1, 5 and 15 minutes (/proc/loadavg), None where there are none."""
    try:
        return os.getloadavg()
    except OSError:
        return None


def _figure(samples: list[float]) -> Figure:
    med = statistics.median(samples)
    spread = 0.0
    if len(samples) >= 3 and med > 0:
        q = statistics.quantiles(samples, n=4)
        spread = (q[2] - q[0]) / med
    return Figure(seconds=max(0.0, med), spread=spread, raw=med, samples=len(samples))


def calibrate(compiler: str = "gcc", flags: list[str] | None = None, settings: Settings = Settings(),
              progress: Callable[[str], None] | None = None,
              finish: Callable[[Calibration], None] | None = None) -> Calibration:
    """Compile and run every microbenchmark; the figures are keyed by microbench figure names. ``finish``: a
    later layer's measurement that needs the figures (sad.cli.machine: the chain share, priced by the
    prediction), run while the host-speed sentinel still runs; it adds its lines to ``cal.finished``."""
    started = time.monotonic()
    flags = list(flags) if flags is not None else ["-O0"]
    path = find_compiler(compiler)
    language = COMPILERS[compiler]
    cpu, clock = cpu_info()
    items = [b for b in mb.for_language(language) if b.kind not in ("array", "columns")
             or b.size_kb in settings.sizes_kb or b.figure in ("memory.index", "aux.load1.double")
             or b.figure.startswith(("memory.load_strided.", "memory.store_strided.")) and "@" not in b.figure]
    if settings.only:
        items = _with_minus(items, settings.only)
    cal = Calibration(compiler=compiler, compiler_version=compiler_version(path), language=language, flags=flags,
                      cpu=cpu, clock_hz=clock, date=_dt.datetime.now().astimezone().isoformat(timespec="seconds"),
                      load_before=load_average())
    with tempfile.TemporaryDirectory(prefix="sad-hostspeed-") as watch:   # the sentinel, for every figure
        cal.guard = watch_host(Path(watch), cal) if settings.watch_host else None
        _measure_figures(cal, path, language, flags, items, settings, progress)
        if finish is not None and cal.hierarchy is not None:
            finish(cal)
    cal.seconds_taken = time.monotonic() - started
    cal.load_after = load_average()
    return cal


def _measure_figures(cal: Calibration, path: str, language: str, flags: list[str], items: list[mb.Bench],
                     settings: Settings, progress: Callable[[str], None] | None) -> None:
    """The operation figures, control.startup, the library routines and the hierarchy, into ``cal``."""
    with tempfile.TemporaryDirectory(prefix="sad-calibrate-") as tmp:
        exe = compile_bench(path, language, flags, Path(tmp), items)
        for k, b in enumerate(items):
            cal.figures[b.figure] = _converged(exe, k, b, settings, cal)
            if progress:
                f = cal.figures[b.figure]
                progress(f"[{k + 1:3d}/{len(items)}] {b.figure:34s} {f.raw * 1e9:9.3f} ns  ±{f.spread * 50:.1f} %")
        cal.figures["control.startup"] = _figure(_startup(path, language, flags, Path(tmp), settings.startup_runs))
        if progress:
            f = cal.figures["control.startup"]
            progress(f"[  +] {'control.startup':34s} {f.raw * 1e6:9.1f} us  ±{f.spread * 50:.1f} %")
    try:
        cal.library = libbench.measure(flags)
    except (OSError, subprocess.SubprocessError) as exc:
        cal.warnings.append(f"C library routines (malloc, memcpy, qsort, ...) not measured: {exc}")
    try:
        cal.hierarchy = hier.measure(settings.hierarchy_budget_s, progress, cal.guard)
        chainwait.measure(cal.hierarchy, settings.hierarchy_budget_s / 4, progress)
        cal.warnings += cal.hierarchy.warnings
    except (OSError, subprocess.SubprocessError) as exc:
        cal.warnings.append(f"memory hierarchy not measured: {exc}")
    derive_unmeasured(cal)
    slowed = [k for k, f in sorted(cal.figures.items()) if f.host_ratio > hostspeed.SLOW and not f.derived]
    if slowed:
        cal.warnings.append(f"{len(slowed)} operation figure(s) measured while the host ran slower than "
                            f"{hostspeed.SLOW:.2f}x its fastest (host-speed sentinel) after "
                            f"{1 + hostspeed.RETRIES} tries, marked SLOW HOST: {', '.join(slowed[:8])}"
                            + (", ..." if len(slowed) > 8 else ""))


def watch_host(work: Path, cal: Calibration) -> hostspeed.Guard | None:
    """The host-speed sentinel (sad.machine.hostspeed) built in ``work`` and pinned where the figures are timed,
    settled on its first samples; None with a warning where it cannot be built or run."""
    try:
        guard = hostspeed.Guard(hostspeed.Sentinel.build(work, hier.pinned_cpu()))
        guard.settle()
    except (OSError, RuntimeError) as exc:
        cal.warnings.append(f"host-speed sentinel not run ({exc}): figures measured on a slowed host are not "
                            "detected")
        return None
    return guard


def derive_unmeasured(cal: Calibration) -> None:
    """Replace every figure below the resolution (sad.machine.unmeasured) by its derivation, with a warning:
    a figure is never written as 0 ns."""
    clock = um.clock_hz(cal.hierarchy, cal.clock_hz)
    floor = um.resolution_s(clock)
    for name, f in cal.figures.items():
        if f.derived or f.raw >= floor:
            continue
        d = um.derivation(name, cal.hierarchy, clock)
        cal.figures[name] = Figure(seconds=d.seconds, spread=f.spread, raw=f.raw, samples=f.samples,
                                   reliable=False, derived=d.how)
        cal.warnings.append(f"{name}: measured {f.raw * 1e9:.3g} ns after {f.samples} runs, below the resolution "
                            f"({floor * 1e9:.2g} ns): derived as {_ns(d.seconds)}, {d.how}")
    if "io.item1" in cal.figures and "io.item4" in cal.figures:
        stmt, how, _, _ = io_figures(cal)
        if how.startswith("one library call"):
            cal.warnings.append(f"io.statement: {how}: derived as {_ns(stmt)}")


def io_figures(cal: Calibration) -> tuple[float, str, float, str]:
    """(seconds per formatted write statement, how, seconds per item, how) from the writes of one and of four
    items. Where the statement's own part (one item's write minus an item) is below the resolution, as on a
    busy machine where the two writes' noise exceeds the statement's fixed cost, it is not written as 0 ns: a
    formatted write is at least one call into the library, so the statement gets ``control.call`` and the item
    what remains of the one-item write."""
    s = lambda key: cal.figures[key].seconds
    item = (s("io.item4") - s("io.item1")) / 3
    item_how = "(write of four items - write of one item) / 3"
    if item <= 0:   # noise: four items timed no longer than one
        item, item_how = s("io.item1") / 4, "a quarter of the write of one item (four items measured no longer)"
    stmt = s("io.item1") - item
    floor = um.resolution_s(um.clock_hz(cal.hierarchy, cal.clock_hz))
    if stmt >= floor or "control.call" not in cal.figures:
        return stmt, "write of one item minus one item", item, item_how
    call = s("control.call")
    return call, (f"one library call, control.call (write of one item minus one item: {stmt * 1e9:.3g} ns, below "
                  "the resolution)"), max(s("io.item1") - call, floor), "write of one item minus control.call"


def _with_minus(items: list[mb.Bench], only: tuple[str, ...]) -> list[mb.Bench]:
    """The benchmarks named in ``only`` and, transitively, those they subtract (and the loop), in order."""
    by_name = {b.figure: b for b in items}
    unknown = [n for n in only if n not in by_name]
    if unknown:
        raise CalibrationError(f"no microbenchmark {', '.join(unknown)}")
    keep, todo = {"control.loop_iter"}, list(only)
    while todo:
        name = todo.pop()
        if name not in keep:
            keep.add(name)
        todo += [m for m in by_name[name].minus if m not in keep]
    return [b for b in items if b.figure in keep]


def _converged(exe: Path, k: int, b: mb.Bench, settings: Settings, cal: Calibration) -> Figure:
    """Measure a kernel in rounds until its figure is positive and its spread below the target (a busy core
    gives noisy, even negative, differences); after ``max_rounds`` keep it, marked unreliable and named."""
    samples: list[float] = []
    floor = um.resolution_s(cal.clock_hz or 1e9)
    host = 0.0
    for _ in range(max(1, settings.max_rounds)):
        if cal.guard is None:
            samples += _subtract(_measure(exe, k, b, settings), b, cal.figures)
        else:   # a round timed on a slowed host is timed again (hostspeed.Guard)
            watched = cal.guard.measure(b.figure, lambda: _measure(exe, k, b, settings), slowed_by(b))
            samples += _subtract(watched.value, b, cal.figures)
            host = max(host, watched.ratio)
        fig = _figure(samples)
        fig.host_ratio = host
        if fig.host_ratio > hostspeed.SLOW:
            fig.reliable = False
        if fig.raw >= floor and fig.spread <= settings.spread_target:
            return fig
        if time.monotonic() - cal.started > settings.budget_s:
            break
    fig.reliable = False
    if fig.raw >= floor:   # below it: derive_unmeasured replaces the figure and says so
        cal.warnings.append(f"{b.figure}: spread {fig.spread:.0%} (target {settings.spread_target:.0%}) after "
                            f"{fig.samples} runs: unreliable, the machine is busy")
    return fig


def slowed_by(b: mb.Bench) -> tuple[str, ...]:
    """The host-speed sentinel's parts an operation figure is judged on (sad.machine.hierarchy.CORE ...): every
    part for the memory figures (arrays of several sizes, up to memory), the core's chain for the others."""
    return hostspeed.PARTS if b.figure.startswith("memory.") else hier.CORE


def _subtract(per_stmt: list[float], b: mb.Bench, known: dict[str, Figure]) -> list[float]:
    """Remove the loop overhead and the statement's other operations (their medians)."""
    loop = known["control.loop_iter"].seconds if "control.loop_iter" in known else 0.0
    # one loop trip per statement of an unrolled kernel / UNROLL, one per element visited by a memory kernel
    overhead = {"unrolled": loop / mb.UNROLL, "array": loop, "columns": loop, "io": loop, "empty": 0.0}[b.kind]
    other = sum(known[m].raw for m in b.minus)
    return [(x - overhead - other) / b.scale for x in per_stmt]


# ------------------------------------------------------------------------------------------- database


def _ns(seconds: float) -> str:
    return f"{seconds * 1e9:.4g} ns"


class _Writer:
    """Collects YAML lines with a comment per figure (median, spread, how it was derived)."""

    def __init__(self, cal: Calibration):
        self.cal = cal
        self.lines: list[str] = []

    def get(self, key: str) -> Figure:
        return self.cal.figures[key]

    def comment_for(self, f: Figure, how: str = "") -> str:
        if f.derived:
            return (f"derived: {f.derived} (measured {f.raw * 1e9:.3g} ns, median of {f.samples}: below the "
                    "resolution)" + (f"; {how}" if how else ""))
        text = f"median of {f.samples}, spread {f.spread * 100:.1f} %"
        if f.host_ratio > hostspeed.SLOW:
            text += f", UNRELIABLE SLOW HOST (measured while the host ran x{f.host_ratio:.2f} slower than its fastest)"
        elif not f.reliable:
            text += ", UNRELIABLE (did not converge; see the calibration's warnings)"
        return text + (f"; {how}" if how else "")

    def fig(self, indent: int, name: str, key: str, how: str = "") -> None:
        f = self.get(key)
        if f.seconds <= 0:    # derive_unmeasured runs on every calibration: only a hand-made one gets here
            raise CalibrationError(f"{key}: {f.raw * 1e9:.3g} ns measured and not derived; a figure is never 0 ns")
        self.lines.append(f"{' ' * indent}{name}: {_ns(f.seconds):<14s} # {self.comment_for(f, how)}")

    def derived(self, indent: int, name: str, seconds: float, how: str) -> None:
        self.lines.append(f"{' ' * indent}{name}: {_ns(max(0.0, seconds)):<14s} # derived: {how}")

    def raw(self, line: str) -> None:
        self.lines.append(line)


def render_yaml(cal: Calibration, name: str) -> str:
    """The machine database text for a calibration."""
    w = _Writer(cal)
    s = lambda key: cal.figures[key].seconds
    has = lambda key: key in cal.figures
    flags = " ".join(cal.flags) or "(none)"
    model_kb = mb.MEM_MODEL_KB
    w.raw(f"# Machine database measured by `sad calibrate` ({cal.compiler}, {flags}) on {cal.date}.")
    w.raw(f"# CPU: {cal.cpu}. Compiler: {cal.compiler_version}.")
    w.raw("# Every figure is the median of repeated timed runs of a microbenchmark (sad/machine/microbench.py): one")
    w.raw("# statement repeated in a counted loop, minus the loop overhead and minus the statement's other")
    w.raw("# operations (the assignment storing the result etc.), as the SAD counts them. 'spread' is the")
    w.raw("# interquartile range of the runs relative to the median. Figures of dependent chains: latencies.")
    for said in conditions(cal):
        w.raw(f"# {said}")
    w.raw(f"format_version: {FORMAT_VERSION}")
    w.raw(f"name: {name}")
    w.raw(f"description: {platform.node() or 'this machine'} measured with {cal.compiler} {flags}")
    w.raw(f"source: >-\n  sad calibrate: microbenchmarks compiled with {cal.compiler_version} {flags} and timed on"
          f"\n  {cal.cpu}, {cal.date}")
    w.raw("models:")
    for k, v in (("compiler", cal.compiler_version), ("optimization", flags),
                 ("compile", " ".join([cal.compiler, *cal.flags])), ("cpu", cal.cpu),
                 ("date", cal.date), ("os", f"{platform.system()} {platform.release()}"),
                 ("language", cal.language), ("tool", "sad calibrate")):
        w.raw(f"  {k}: {_quote(v)}")
    w.raw("processor:")
    clock = cal.clock_hz or 1e9
    w.raw(f"  clock: {clock / 1e6:.0f} MHz" + ("" if cal.clock_hz else "   # unknown: /proc/cpuinfo has no cpu MHz"))
    w.raw("  ops:")
    for t in ("integer", "real", "double"):
        w.raw(f"    {t}:")
        for op in ("add", "sub", "mul", "div", "pow", "mod", "neg", "assign", "compare", "convert"):
            key = f"ops.{t}.{op}"
            if has(key):
                w.fig(6, op, key)
            elif key == "ops.integer.pow":
                w.derived(6, op, s("ops.double.pow") + 2 * s("ops.double.convert"),
                          "no integer power in C: pow.double + 2 convert.double")
    r = {op: s(f"ops.real.{op}") for op in ("add", "sub", "mul", "div", "neg", "assign", "compare", "pow")}
    w.raw("    complex:                       # derived from the real figures (two single-precision parts)")
    w.derived(6, "add", 2 * r["add"], "2 add.real")
    w.derived(6, "sub", 2 * r["sub"], "2 sub.real")
    w.derived(6, "mul", 4 * r["mul"] + 2 * r["add"], "4 mul.real + 2 add.real")
    w.derived(6, "div", 6 * r["mul"] + 3 * r["add"] + 2 * r["div"], "6 mul.real + 3 add.real + 2 div.real")
    w.derived(6, "pow", 4 * r["pow"], "4 pow.real")
    w.derived(6, "neg", 2 * r["neg"], "2 neg.real")
    w.derived(6, "assign", 2 * r["assign"], "2 assign.real")
    w.derived(6, "compare", 2 * r["compare"], "2 compare.real")
    w.derived(6, "convert", r["assign"] + s("ops.real.convert"), "assign.real + convert.real")
    w.raw("    logical:")
    w.fig(6, "assign", "ops.logical.assign")
    w.fig(6, "compare", "ops.logical.compare")
    w.fig(2, "logical", "logical")
    w.fig(2, "bitop", "bitop")
    _intrinsics(w, cal)
    w.raw("  memory:")
    w.fig(4, "index", "memory.index", "second subscript of B2(J, I1) minus the 1-D reference A(J)")
    for kind in ("load", "store"):
        w.raw(f"    {kind}:")
        w.fig(6, "double", f"memory.{kind}.double@{model_kb}", f"sequential, working set {model_kb} KB")
        w.fig(6, "integer", f"memory.{kind}.integer", f"sequential, working set {model_kb // 2} KB")
        w.fig(6, "default", f"memory.{kind}.double@{model_kb}", "as double")
    if has("memory.load_strided.double"):
        kb, line = mb.STRIDED_KB, mb.LINE_BYTES
        for kind in ("load_strided", "store_strided"):
            w.raw(f"    {kind}:")
            for t in ("integer", "real", "double"):
                if has(f"memory.{kind}.{t}"):
                    w.fig(6, t, f"memory.{kind}.{t}", f"one element per {line}-byte line, one pass over {kb} KB")
            w.fig(6, "default", f"memory.{kind}.double", "as double")
    w.raw("    # double-precision references by working set (sequential unless noted; not used by the mapper):")
    for key in sorted(k for k in cal.figures if "@" in k):
        w.raw(f"    #   {key:36s} {_ns(s(key))}  ({w.comment_for(cal.figures[key])})")
    w.raw("  control:")
    w.fig(4, "loop_start", "control.loop_start", "an inner loop of one trip, minus that trip")
    w.fig(4, "loop_iter", "control.loop_iter", "an empty counted loop, per trip")
    w.fig(4, "branch", "control.branch", "IF (D0 .LT. D1) ..., predictable, minus compare.double")
    w.fig(4, "goto", "control.goto")
    w.fig(4, "call", "control.call", "two arguments, empty body")
    if has("control.startup"):
        f = cal.figures["control.startup"]
        how = w.comment_for(f, "CPU time (user + system) of running an empty program compiled with these flags")
        value = f"{f.seconds * 1e6:.4g} us"
        w.raw(f"    startup: {value:<14s} # {how}")
    stmt, stmt_how, item, item_how = io_figures(cal)
    w.raw("  io:                             # formatted writes to /dev/null")
    w.derived(4, "statement", stmt, stmt_how)
    w.derived(4, "item", item, item_how)
    w.derived(4, "write", stmt, "as statement")
    w.derived(4, "print", stmt, "as statement")
    w.derived(4, "read", stmt, "not measured: as a write statement")
    if cal.library is not None:
        w.lines += libbench.render_yaml(cal.library)
    if cal.hierarchy is not None:
        w.lines += hier.render_yaml(cal.hierarchy)
        w.lines += chainwait.render_yaml(cal.hierarchy)
        w.lines += cal.finished
    if cal.mpi is not None:
        w.lines += mpibench.render_yaml(cal.mpi)
    return "\n".join(w.lines) + "\n"


def conditions(cal: Calibration) -> list[str]:
    """How the calibration went, for the file's header: time taken, the load it saw, the spread of the repeated
    measurements and how many figures were unreliable or derived."""
    def load(avg: tuple[float, float, float] | None) -> str:
        return "unknown" if avg is None else " ".join(f"{x:.2f}" for x in avg)
    out = [f"Calibration took {cal.seconds_taken:.0f} s on {os.cpu_count() or '?'} logical CPUs; load average "
           f"(1, 5, 15 min) {load(cal.load_before)} before, {load(cal.load_after)} after."]
    measured = [f.spread for f in cal.figures.values() if not f.derived and f.samples >= 3]
    if measured:
        q = statistics.quantiles(measured, n=10) if len(measured) >= 2 else measured * 9
        out.append(f"Spread of the repeated runs over {len(measured)} figures: median "
                   f"{statistics.median(measured):.1%}, 90th percentile {q[-1]:.1%}, largest {max(measured):.1%}.")
    if cal.guard is not None and cal.guard.sentinel.samples:
        out.append(cal.guard.sentinel.spread_text() + f"; {len(cal.guard.slowed)} figure(s) still timed on a host "
                   f"slower than {hostspeed.SLOW:.2f}x its fastest after {1 + hostspeed.RETRIES} tries.")
    unreliable = sum(1 for f in cal.figures.values() if not f.reliable and not f.derived)
    derived = sorted(k for k, f in cal.figures.items() if f.derived)
    out.append(f"{unreliable} figure(s) UNRELIABLE; {len(derived)} below the resolution and derived"
               + (f" ({', '.join(derived[:6])}{', ...' if len(derived) > 6 else ''})." if derived else "."))
    return out


def _intrinsics(w: _Writer, cal: Calibration) -> None:
    s = lambda key: cal.figures[key].seconds
    transcendental = [s(f"intrinsics.{n}.double") for n in ("EXP", "LOG", "SIN", "COS", "TAN", "ATAN")]
    w.raw("  intrinsics:")
    w.derived(4, "default", statistics.median(transcendental), "median of the double EXP LOG SIN COS TAN ATAN")
    names = sorted({k.split(".")[1] for k in cal.figures if k.startswith("intrinsics.")})
    for name in names:
        w.raw(f"    {name}:")
        types = [t for t in ("integer", "real", "double") if f"intrinsics.{name}.{t}" in cal.figures]
        for t in types:
            w.fig(6, t, f"intrinsics.{name}.{t}")
        fallback = "double" if "double" in types else types[-1]
        w.fig(6, "default", f"intrinsics.{name}.{fallback}", f"as {fallback}")
    w.raw("    MOD:")
    for t in ("integer", "real", "double"):
        w.fig(6, t, f"ops.{t}.mod", f"as mod.{t}")
    w.raw("    DBLE:")
    w.fig(6, "default", "ops.double.convert", "as convert.double")
    w.raw("    REAL:")
    w.fig(6, "default", "ops.real.convert", "as convert.real")
    w.raw("    INT:")
    w.fig(6, "default", "ops.integer.convert", "as convert.integer")


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_database(cal: Calibration, out: Path, force: bool = False) -> None:
    """Render, check by loading it with sad.machine.model, then write ``out`` (never over a file unless force)."""
    from sad.machine.model import load_machine
    if out.exists() and not force:
        raise CalibrationError(f"{out} exists; use --force to overwrite it")
    name = re.sub(r"[^A-Za-z0-9_.+-]", "-", out.stem) or "calibrated"
    text = render_yaml(cal, name)
    with tempfile.TemporaryDirectory(prefix="sad-calibrate-") as tmp:
        probe = Path(tmp) / "probe.yaml"
        probe.write_text(text, encoding="utf-8")
        load_machine(probe)                        # raises MachineError if anything is wrong
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".part")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, out)


MAX_SPREAD = 0.5  # a figure whose interquartile range exceeds half its median is not a measurement to trust


def warnings_of(cal: Calibration) -> list[str]:
    """What a user must hear about the figures written: too much spread (a busy machine, frequency
    scaling) and measurements below the resolution (derived instead, or, on a calibration not derived, 0)."""
    spread = sorted((name, f) for name, f in cal.figures.items() if f.spread > MAX_SPREAD and not f.derived)
    clamped = sorted((name, f) for name, f in cal.figures.items() if f.raw < 0 and not f.derived)
    derived = sorted((name, f) for name, f in cal.figures.items() if f.derived)
    out = []
    if spread:
        shown = ", ".join(f"{n} ({f.spread * 100:.0f} %)" for n, f in spread[:8]) + (", …" if len(spread) > 8 else "")
        out.append(f"{len(spread)} figure(s) vary by more than {MAX_SPREAD * 100:.0f} % between runs (a busy "
                   f"machine? re-run on an idle one): {shown}")
    if clamped:
        shown = ", ".join(f"{n} ({f.raw * 1e9:.3g} ns)" for n, f in clamped[:8]) + (", …" if len(clamped) > 8 else "")
        out.append(f"{len(clamped)} figure(s) measured negative and not derived: {shown}")
    if derived:
        shown = ", ".join(n for n, _ in derived[:8]) + (", …" if len(derived) > 8 else "")
        out.append(f"{len(derived)} figure(s) below the resolution of the measurement (a busy machine, or work the "
                   f"optimizer removed), derived from the hierarchy instead (each named below): {shown}")
    return out


def main_calibrate(compiler: str, flags: list[str], quick: bool, out: Path, force: bool, mpi: bool = False,
                   finish: Callable[[Calibration], None] | None = None) -> int:
    """The command: exit 0 written, 2 refused (no compiler, existing file, failure)."""
    from sad.machine.model import MachineError
    if out.exists() and not force:
        print(f"sad calibrate: error: {out} exists; use --force to overwrite it", file=sys.stderr)
        return 2
    try:
        find_compiler(compiler)
        settings = Settings.quick() if quick else Settings()
        print(f"sad calibrate: {compiler} {' '.join(flags)}, {'quick' if quick else 'default'} settings",
              file=sys.stderr)
        cal = calibrate(compiler, flags, settings, progress=lambda m: print(m, file=sys.stderr, flush=True),
                        finish=finish)
        if mpi:  # the communication and programming-model levels, with the real MPI (sad.machine.mpibench)
            cal.mpi = mpibench.measure(reps=50 if quick else 200, rounds=5 if quick else 9,
                                       progress=lambda m: print(m, file=sys.stderr, flush=True))
            cal.warnings.extend(cal.mpi.warnings)
        write_database(cal, out, force)
        for warning in warnings_of(cal) + cal.warnings:   # busy-machine summary, then each figure
            print(f"sad calibrate: warning: {warning}", file=sys.stderr)
    except (CalibrationError, MachineError, mpibench.MPIBenchError) as exc:
        print(f"sad calibrate: error: {exc}", file=sys.stderr)
        return 2
    print(f"sad calibrate: wrote {out} in {cal.seconds_taken:.0f} s", file=sys.stderr)
    return 0
