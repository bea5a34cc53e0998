#!/usr/bin/env python3
"""How fast is sad? Wall time and memory of the main job, throughput over the corpus, and the cost of using the
predicted-time formula afterwards.

Figures, not tests: it prints a table (figure, value, target, ok/MISSED) and always exits 0 unless it cannot run.

- md1 end to end in-process: sad.predict.job.run (analysis, blocks, prediction on sparc2) →
  sad.predict.report.to_text, with NPART bound to 500 (the C md1 calls it `npart`). Each in-process measurement runs in
  a fresh worker interpreter (this script with --worker) so that no run inherits another's caches: the time is
  measured after the imports, the memory is the worker's peak RSS (ru_maxrss: interpreter, numpy/sympy and
  sad included) and, in a separate traced run, the tracemalloc peak of the analysis alone. Targets: < 2 s,
  < 300 MB.
- md1 as a subprocess `sad analyze FILE -m sparc2 -D NPART=500` (interpreter start-up and imports included):
  wall time and the child's ru_maxrss (os.wait4). Same targets.
- lines per second over the Fortran corpus (md1.f, kernels/*.f, whetstone.f) and over the C corpus (c/*.c,
  whetstone.c): physical source lines / end-to-end time, each file its own program, in one fresh worker. Target
  ≥ 600 lines/s, md1.f's 1220 lines in 2 s.
- the final time formula of md1.f (prediction.time, a sympy expression): compiled once with
  sympy.lambdify(symbols sorted by name, expr, modules="math") (falling back to ["math", "mpmath"], then numpy,
  if that does not evaluate to the sympy value), one evaluation at a new point (NPART=864), target < 1 ms, and
  equal to float(expr.xreplace(point)) within 1e-9 relative.
- a 100 000-point sweep of that formula with modules="numpy": NPART from 100 to 16384, link cells per edge M
  and NCELL derived from NPART as md1.f does, branch probabilities around their suggested defaults (0.5, or
  1/3 for three-way decisions) ±50 %, loop counts 10 ± 5; target < 1 s. Five sweep points are checked
  against the scalar evaluation.

- `sad sweep`'s machinery (sad.predict.compare.build_table over a sad.predict.sweep.Grid): md1.f with its profiled
  parameters (corpus/md1/md1.params.yaml), NPART swept over 1000 values and NSTEP over 100 (10^5 points), the
  formula compiled once and evaluated; compile and evaluation timed apart, median of --repeat runs, target
  < 1 s for the evaluation; three grid points checked against `sad analyze`'s own evaluation.
- `sad tune`'s minimizer (sad.predict.tune.solve) on corpus/tuning/matmul_tiled.c (n = 1024, ts = 1 … 1024
  with n % ts == 0: exhaustive) and on a (NPROCS, grain, buffer) grid of 2.4·10^6 points of the pipeline
  model below (branch and bound), median of --repeat runs.

Usage: python3 benchmarks/speed.py [--repeat N]     (the median of N runs for the timed figures; default 3)

Takes about a minute: the two tracemalloc runs are ten times slower than untraced ones.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MACHINE = "sparc2"
MD1_F = "corpus/md1/md1.f"
MD1_C = "corpus/c/md1.c"
DEFINES = {MD1_F: ["NPART=500"], MD1_C: ["npart=500"]}  # md1.c's run-time value is named npart

TIME_S = 2.0
MEMORY_MB = 300.0
LINES_PER_S = 600.0
EVAL_S = 1e-3
SWEEP_S = 1.0
SWEEP_POINTS = 100_000
REL_TOL = 1e-9


def fortran_corpus() -> list[str]:
    return [MD1_F] + sorted(str(p.relative_to(ROOT)) for p in (ROOT / "corpus/kernels").glob("*.f")) + \
        ["corpus/whetstone/whetstone.f"]


def c_corpus() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "corpus/c").glob("*.c")) + \
        ["corpus/whetstone/whetstone.c"]


def maxrss_mb(ru_maxrss: int) -> float:
    """ru_maxrss is in KiB on Linux, in bytes on macOS."""
    return ru_maxrss / (1024 * 1024) if sys.platform == "darwin" else ru_maxrss / 1024


# --- the job, in-process ---

def end_to_end(path: str, defines: list[str]):
    """What `sad analyze PATH -m sparc2 -D ...` does: analysis, blocks, prediction, text report."""
    from sad.analysis.bindings import parse_defines
    from sad.machine.model import load_machine
    from sad.predict.job import Options, run
    from sad.predict.report import to_text

    raw, bindings = parse_defines(defines)
    result = run([path], Options([], raw, bindings), load_machine(MACHINE))
    text = to_text(result.analysis, result.prediction, result.machine, bindings, [])
    return result.analysis, result.prediction, text


def worker(files: list[str], defines: list[str], trace: bool) -> None:
    """Run end_to_end on each file (each its own program) in this fresh interpreter; print JSON figures."""
    import tracemalloc

    os.chdir(ROOT)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if trace:
        tracemalloc.start()
    seconds, lines, failed = [], [], []
    for path in files:
        t0 = time.perf_counter()
        analysis, _, text = end_to_end(path, defines)
        seconds.append(time.perf_counter() - t0)
        lines.append(len((ROOT / path).read_text(errors="replace").splitlines()))
        if analysis.failed_files or not text:
            failed.append(path)
    peak = tracemalloc.get_traced_memory()[1] if trace else None
    json.dump({"seconds": seconds, "lines": lines, "failed": failed, "tracemalloc_peak": peak,
               "maxrss_before": rss_before, "maxrss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss},
              sys.stdout)


def run_worker(files: list[str], defines: list[str], trace: bool = False) -> dict:
    argv = [sys.executable, str(Path(__file__).resolve()), "--worker", *(["--trace"] if trace else [])]
    for d in defines:
        argv += ["-D", d]
    res = subprocess.run(argv + ["--", *files], cwd=ROOT, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"worker failed ({res.returncode}): {res.stderr.strip()[-800:]}")
    return json.loads(res.stdout)


# --- the job, as a command ---

def sad_command() -> list[str]:
    """The `sad` entry point of this interpreter (not a version manager's shim in front of it), else PATH's."""
    beside = Path(sys.executable).parent / "sad"
    exe = str(beside) if beside.is_file() and os.access(beside, os.X_OK) else shutil.which("sad")
    return [exe] if exe else [sys.executable, "-c", "import sys; from sad.cli.main import main; sys.exit(main())"]


def run_cli(path: str, defines: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of `sad analyze PATH -m sparc2 -D ...` as a child process."""
    argv = sad_command() + ["analyze", path, "-m", MACHINE]
    for d in defines:
        argv += ["-D", d]
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {proc.returncode}")
    return seconds, maxrss_mb(usage.ru_maxrss)


# --- the table ---

ROWS: list[tuple[str, str, str, str]] = []


def row(figure: str, value: str, target: str, ok: bool | None) -> None:
    ROWS.append((figure, value, target, "" if ok is None else ("ok" if ok else "MISSED")))


def fail(figure: str, target: str, exc: BaseException) -> None:
    print(f"  {figure}: error: {exc}", file=sys.stderr)
    row(figure, f"error: {type(exc).__name__}", target, False)


def print_table() -> None:
    widths = [max(len(r[i]) for r in ROWS + [("figure", "value", "target", "status")]) for i in range(4)]
    print()
    print("  ".join(h.ljust(w) for h, w in zip(("figure", "value", "target", "status"), widths)).rstrip())
    print("  ".join("-" * w for w in widths))
    for r in ROWS:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())


# --- the figures ---

def bench_md1(label: str, path: str, repeat: int) -> None:
    defines = DEFINES[path]
    dflags = " ".join(f"-D {d}" for d in defines)
    print(f"{label}: {path} {dflags}")
    try:
        runs = [run_worker([path], defines) for _ in range(repeat)]
        secs = [r["seconds"][0] for r in runs]
        rss = max(maxrss_mb(r["maxrss"]) for r in runs)
        base = min(maxrss_mb(r["maxrss_before"]) for r in runs)
        print(f"  in-process: {', '.join(f'{s:.3f}' for s in secs)} s; worker peak RSS {rss:.0f} MB "
              f"({base:.0f} MB after imports)")
        t = statistics.median(secs)
        row(f"{label} in-process time", f"{t:.3f} s", f"< {TIME_S:g} s", t < TIME_S)
        row(f"{label} in-process peak RSS", f"{rss:.0f} MB", f"< {MEMORY_MB:g} MB", rss < MEMORY_MB)
    except Exception as exc:
        fail(f"{label} in-process time", f"< {TIME_S:g} s", exc)
    try:
        traced = run_worker([path], defines, trace=True)
        peak = traced["tracemalloc_peak"] / 2**20
        print(f"  traced run: {traced['seconds'][0]:.3f} s, tracemalloc peak {peak:.1f} MB")
        row(f"{label} in-process tracemalloc peak", f"{peak:.1f} MB", f"< {MEMORY_MB:g} MB", peak < MEMORY_MB)
    except Exception as exc:
        fail(f"{label} in-process tracemalloc peak", f"< {MEMORY_MB:g} MB", exc)
    try:
        cli = [run_cli(path, defines) for _ in range(repeat)]
        secs = [c[0] for c in cli]
        rss = max(c[1] for c in cli)
        command = " ".join(sad_command())
        print(f"  {command} analyze {path} -m {MACHINE} {dflags}: {', '.join(f'{s:.3f}' for s in secs)} s; "
              f"peak RSS {rss:.0f} MB")
        t = statistics.median(secs)
        row(f"{label} `sad analyze` time", f"{t:.3f} s", f"< {TIME_S:g} s", t < TIME_S)
        row(f"{label} `sad analyze` peak RSS", f"{rss:.0f} MB", f"< {MEMORY_MB:g} MB", rss < MEMORY_MB)
    except Exception as exc:
        fail(f"{label} `sad analyze` time", f"< {TIME_S:g} s", exc)


def bench_lines(label: str, files: list[str]) -> None:
    try:
        res = run_worker(files, [])
        lines, seconds = sum(res["lines"]), sum(res["seconds"])
        print(f"{label} corpus: {len(files)} programs, {lines} lines in {seconds:.3f} s")
        for path, n, s in sorted(zip(files, res["lines"], res["seconds"]), key=lambda x: -x[2])[:3]:
            print(f"  slowest: {path} {n} lines {s:.3f} s")
        if res["failed"]:
            print(f"  analysis errors in: {', '.join(res['failed'])}")
        rate = lines / seconds
        row(f"{label} corpus lines/s", f"{rate:.0f} lines/s", f">= {LINES_PER_S:g} lines/s", rate >= LINES_PER_S)
    except Exception as exc:
        fail(f"{label} corpus lines/s", f">= {LINES_PER_S:g} lines/s", exc)


def md1_point(symbols, npart: float) -> dict:
    """A plausible parameter point of md1.f (its 500-particle inputs, M and NCELL derived as md1.f does)."""
    boxl = (npart / 0.8442) ** (1 / 3)
    m = min(40, int(boxl / 2.5))
    fixed = {"NSTEP": 10, "DT": 0.005, "RHO": 0.8442, "TREQ": 0.722, "NPART": npart, "M": m,
             "NCELL": m ** 3 if m >= 3 else 0}
    point = {}
    for s in symbols:
        if s.name in fixed:
            point[s] = fixed[s.name]
        elif s.name.startswith("P_"):
            point[s] = 0.5
        elif s.name.startswith("X_"):
            point[s] = 10
        else:
            raise KeyError(f"no plausible value for parameter {s.name}")
    return point


def bench_formula() -> None:
    import numpy
    import sympy

    try:
        analysis, prediction, _ = end_to_end(MD1_F, DEFINES[MD1_F])
        expr = prediction.time
        symbols = sorted(expr.free_symbols, key=lambda s: s.name)
        print(f"md1.f time formula: {len(symbols)} symbols, {sympy.count_ops(expr)} operations")
    except Exception as exc:
        fail("md1.f formula", "", exc)
        return

    # scalar: compile once, evaluate once at a new point
    point = md1_point(symbols, 864)
    exact = float(expr.xreplace({s: sympy.sympify(v) for s, v in point.items()}))
    args = [point[s] for s in symbols]
    scalar = None
    for modules in ("math", ["math", "mpmath"], "numpy"):
        try:
            t0 = time.perf_counter()
            f = sympy.lambdify(symbols, expr, modules=modules)
            compile_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            value = f(*args)
            once = time.perf_counter() - t0
            value = float(value)
        except Exception as exc:
            print(f"  lambdify modules={modules!r}: {type(exc).__name__}: {exc}")
            continue
        rel = abs(value - exact) / abs(exact)
        if rel <= REL_TOL:
            scalar = f
            break
        print(f"  lambdify modules={modules!r}: {value!r} vs sympy {exact!r} (rel {rel:.2e})")
    if scalar is None:
        row("md1.f formula, one evaluation", "no lambdify agrees with sympy", f"< {EVAL_S * 1e3:g} ms", False)
        return
    many = []
    for n in range(1000):
        a = [md1_point(symbols, 100 + 16 * n)[s] for s in symbols]
        t0 = time.perf_counter()
        scalar(*a)
        many.append(time.perf_counter() - t0)
    print(f"  lambdify(modules={modules!r}) compiled in {compile_s * 1e3:.1f} ms; at NPART=864: {value:.9g} s, "
          f"sympy {exact:.9g} s, relative difference {rel:.1e}; median of 1000 evaluations "
          f"{statistics.median(many) * 1e6:.1f} µs")
    row("md1.f formula, one evaluation", f"{once * 1e6:.1f} µs", f"< {EVAL_S * 1e3:g} ms", once < EVAL_S)
    row("md1.f formula = sympy value", f"rel {rel:.1e}", f"<= {REL_TOL:g}", rel <= REL_TOL)

    # vectorized sweep
    try:
        t0 = time.perf_counter()
        fv = sympy.lambdify(symbols, expr, modules="numpy")
        compile_s = time.perf_counter() - t0
        defaults = {p.name: p.default for p in analysis.table}
        rng = numpy.random.default_rng(1)
        npart = numpy.round(numpy.linspace(100, 16384, SWEEP_POINTS))
        m = numpy.minimum(40, numpy.floor((npart / 0.8442) ** (1 / 3) / 2.5))
        values = {"NPART": npart, "M": m, "NCELL": numpy.where(m >= 3, m ** 3, 0.0), "NSTEP": 10, "DT": 0.005,
                  "RHO": 0.8442, "TREQ": 0.722}
        for s in symbols:
            if s.name.startswith("P_"):
                values[s.name] = (defaults.get(s.name) or 0.5) * rng.uniform(0.5, 1.5, SWEEP_POINTS)
            elif s.name.startswith("X_"):
                values[s.name] = rng.integers(5, 16, SWEEP_POINTS).astype(float)
        arrays = [values[s.name] for s in symbols]
        t0 = time.perf_counter()
        times = numpy.asarray(fv(*arrays), dtype=float)
        sweep_s = time.perf_counter() - t0
        assert times.shape == (SWEEP_POINTS,), times.shape
        worst = 0.0
        for i in (0, 1, SWEEP_POINTS // 3, SWEEP_POINTS // 2, SWEEP_POINTS - 1):
            a = [float(numpy.broadcast_to(values[s.name], (SWEEP_POINTS,))[i]) for s in symbols]
            ref = float(scalar(*a))
            worst = max(worst, abs(float(times[i]) - ref) / abs(ref))
        print(f"  sweep: lambdify(modules='numpy') compiled in {compile_s * 1e3:.1f} ms; {SWEEP_POINTS} points, "
              f"NPART 100..16384: T from {times.min():.4g} s to {times.max():.4g} s, all finite "
              f"{bool(numpy.isfinite(times).all())}; 5 points vs scalar: worst relative difference {worst:.1e}")
        ok = sweep_s < SWEEP_S and bool(numpy.isfinite(times).all()) and worst <= REL_TOL
        row(f"md1.f formula, {SWEEP_POINTS} point sweep", f"{sweep_s * 1e3:.1f} ms", f"< {SWEEP_S:g} s", ok)
    except Exception as exc:
        fail(f"md1.f formula, {SWEEP_POINTS} point sweep", f"< {SWEEP_S:g} s", exc)


def _md1_formula():
    import sympy

    from sad.analysis.pipeline import analyze
    from sad.machine.model import load_machine
    from sad.measure.params_io import load
    from sad.predict.job import predict_analysis
    from sad.predict.mapper import bind

    values = load("corpus/md1/md1.params.yaml").values()
    for name in ("NPART", "NSTEP"):
        values.pop(name, None)
    symbols = {"NPART": sympy.Symbol("NPART"), "NSTEP": sympy.Symbol("NSTEP")}
    analysis = analyze([MD1_F], overrides={**values, **symbols})
    prediction = predict_analysis(analysis, load_machine(MACHINE), values).prediction
    return bind(prediction.time, values), values


def bench_sweep(repeat: int) -> None:
    import sympy

    from sad.predict.compare import Series, build_table
    from sad.predict.mapper import bind, evaluate
    from sad.predict.sweep import Grid, parse_range

    figure = f"sad sweep, md1.f, {SWEEP_POINTS} points"
    try:
        formula, values = _md1_formula()
        grid = Grid([parse_range("NPART", "100-16384:1000"), parse_range("NSTEP", "1:100")])
        compile_s, eval_s = [], []
        for _ in range(repeat):
            series = Series("sparc2", MD1_F, MACHINE, {"TOTAL": formula})
            t0 = time.perf_counter()
            series.compile()
            compile_s.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            table = build_table([series], grid, {})
            eval_s.append(time.perf_counter() - t0)
        worst = 0.0
        for i in (0, grid.size // 2, grid.size - 1):
            point = {n: sympy.Integer(int(table.columns[n][i])) for n in grid.names}
            single = evaluate(bind(formula, point))
            worst = max(worst, abs(table.columns["TOTAL"][i] - single) / single)
        t = statistics.median(eval_s)
        print(f"{figure}: NPART 100..16384 x NSTEP 1..100 = {grid.size} points; compiled in "
              f"{statistics.median(compile_s) * 1e3:.0f} ms, evaluated in {', '.join(f'{x * 1e3:.0f}' for x in eval_s)}"
              f" ms; 3 points vs single evaluations: worst relative difference {worst:.1e}")
        row(figure, f"{t * 1e3:.0f} ms", f"< {SWEEP_S:g} s", t < SWEEP_S and grid.size == SWEEP_POINTS
            and worst <= REL_TOL)
    except Exception as exc:
        fail(figure, f"< {SWEEP_S:g} s", exc)


PIPELINE = ("2e-8*N*N/P*ceil(N/(G*P))*G + 5e-5*(P - 1 + ceil(N/G))*(1 + ceil(G*N/B)*1e-3) "
            "+ 1e-7*B + 2e-9*G*B")
"""A pipeline's cost in the shape of the La Laguna tool's model: P stages, grain G, buffer B over N items."""


def bench_tune(repeat: int) -> None:
    from sad.analysis.pipeline import analyze
    from sad.common.exprparse import parse_condition, parse_expr
    from sad.machine.model import load_machine
    from sad.predict.job import predict_analysis
    from sad.predict.sweep import parse_range
    from sad.predict.tune import Problem, solve

    figure = "sad tune, matmul_tiled.c, ts = 1..1024"
    try:
        analysis = analyze(["corpus/tuning/matmul_tiled.c"])
        time_expr = predict_analysis(analysis, load_machine(MACHINE), {}).prediction.time
        problem = Problem(time_expr, [parse_range("ts", "1:1024")], {"n": 1024.0}, [parse_condition("n % ts == 0")])
        secs = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            result = solve(problem)
            secs.append(time.perf_counter() - t0)
        print(f"{figure}: optimum ts = {int(result.best['ts'])}, {result.method}, "
              f"{', '.join(f'{x:.3f}' for x in secs)} s")
        row(figure, f"{statistics.median(secs):.3f} s", "", None)
    except Exception as exc:
        fail(figure, "", exc)
    figure = "sad tune, pipeline model, 2.4e6 points, branch and bound"
    try:
        axes = [parse_range("P", "1:64"), parse_range("G", "1:200"), parse_range("B", "1:192")]
        problem = Problem(parse_expr(PIPELINE), axes, {"N": 20000.0}, [parse_condition("1 <= G <= N/P")])
        secs = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            result = solve(problem, method="bnb")
            secs.append(time.perf_counter() - t0)
        best = ", ".join(f"{k}={int(v)}" for k, v in result.best.items())
        print(f"{figure}: optimum {best}, {result.evaluated} of {result.grid_points} points evaluated, "
              f"{', '.join(f'{x:.3f}' for x in secs)} s")
        row(figure, f"{statistics.median(secs):.3f} s", "", None)
    except Exception as exc:
        fail(figure, "", exc)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per timed figure (the median is reported)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("-D", dest="defines", action="append", default=[], help=argparse.SUPPRESS)
    ap.add_argument("files", nargs="*", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker(args.files, args.defines, args.trace)
        return 0

    os.chdir(ROOT)
    print(f"sad speed: python {sys.version.split()[0]}, {os.cpu_count()} CPUs, machine {MACHINE}, "
          f"median of {args.repeat} runs per timed figure")
    bench_md1("md1.f", MD1_F, args.repeat)
    bench_md1("md1.c", MD1_C, args.repeat)
    bench_lines("Fortran", fortran_corpus())
    bench_lines("C", c_corpus())
    bench_formula()
    bench_sweep(args.repeat)
    bench_tune(args.repeat)
    print_table()
    return 0


if __name__ == "__main__":
    sys.exit(main())
