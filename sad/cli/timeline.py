"""`sad timeline` and `sad extrapolate`: an SPMD program's ranks simulated together on a machine.

Data flow: FILEs → IR (sad.analysis.pipeline.load_program) → every rank's events at -D NPROCS=P and the other
bindings (sad.predict.trace) → the discrete-event simulation with the machine's LogGP figures and collective
algorithms (sad.predict.timeline) → the time of the slowest rank, each rank's compute / communicate / wait
split (ranks with the same split shown as one class) and, with --explain, the critical path.

`sad extrapolate` first runs the program under mpirun at a small process count with a PMPI wrapper library
(sad.measure.mpitrace) and checks that the calls every rank makes (kind, partner, bytes) are the events sad
derives from the source at that count; it shows the measured compute between the calls (wall and CPU time)
beside sad's and the part of its cores' time the traced run got (other load, warned below 85 %), then
simulates the program at -D NPROCS=P on the target machine with sad's per-rank compute (ExtraP's method).
"""
from __future__ import annotations

import json
import os
import sys

from sad.cli.args import dash_values
from sad.common.exprparse import ExprError, parse_expr
from sad.predict import timelinetext


def register(sub, add_common) -> None:
    """Register `sad timeline` with the command-line parser."""
    p = sub.add_parser("timeline", help="simulate an MPI program's ranks together: waits, critical path")
    add_common(p)
    p.add_argument("--machine", "-m", required=True, metavar="NAME|PATH", help="machine database (ncube2, ...)")
    p.add_argument("--explain", action="store_true", help="show the critical path step by step")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_timeline)
    x = sub.add_parser("extrapolate", help="trace a small MPI run, check sad's events against it, simulate at "
                                           "NPROCS on a machine")
    add_common(x)
    x.add_argument("--machine", "-m", required=True, metavar="NAME|PATH", help="target machine database")
    x.add_argument("--trace-np", type=int, default=2, metavar="N", help="processes of the traced run (default 2)")
    x.add_argument("--input", metavar="FILE", help="standard input of the traced run")
    x.add_argument("--flags", metavar="FLAGS", help="compiler flags of the traced run, one string (default: those "
                   "of a host file written by sad calibrate, else -O2)")
    x.add_argument("--explain", action="store_true", help="show the critical path step by step")
    x.add_argument("--format", choices=("text", "json"), default="text")
    dash_values(x, "--flags")
    x.set_defaults(func=cmd_extrapolate)


def _bindings(defines: list[str]) -> dict[str, float]:
    values: dict[str, float] = {}
    for text in defines:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"-D {text}: expected NAME=VALUE")
        try:
            number = float(parse_expr(value.strip(), set()))
            values[name.strip().upper()] = int(number) if number.is_integer() else number
        except (ExprError, TypeError, ValueError):
            raise ValueError(f"-D {text}: the timeline needs a number") from None
    return values


def cmd_extrapolate(args) -> int:
    """`sad extrapolate`: exit 0, 1 when the traced calls disagree with sad's events, 2 when it cannot run."""
    from pathlib import Path

    from sad.analysis.pipeline import load_program
    from sad.machine.model import MachineError, load_machine
    from sad.measure import mpitrace
    from sad.predict.timeline import DeadlockError, Network, simulate
    from sad.predict.trace import TraceError, traces
    try:
        values = _bindings(args.defines)
        values.pop("NPROCS", None)
        machine = load_machine(args.machine)
        net = Network.of(machine)
        stdin = Path(args.input).read_text() if args.input else ""
        program, failed = load_program(args.files, args.include, {})
        if _report_errors(program, failed):
            return 1  # nothing run: sad's events of a file it could not read would be checked against nothing
        flags, why = mpitrace.build_flags(machine, args.flags)
        calls = mpitrace.run(args.files, args.trace_np, stdin, include_dirs=tuple(args.include), flags=flags)
        derived, _ = traces(program, machine, args.trace_np, values, include_dirs=tuple(args.include))
        small = simulate(derived, net, path=False)
    except (ValueError, MachineError, OSError, mpitrace.TraceRunError, TraceError, DeadlockError) as exc:
        _error(exc)
        return 2
    agree = True
    print(f"sad extrapolate: {' '.join(args.files)} traced at {args.trace_np} processes on this host, built with "
          f"{' '.join(flags)} ({why})")
    stretch = net.share(args.trace_np)  # P / C: sad's compute of a rank alone on a core is the shared one / it
    print(f"  {'rank':>5} {'calls':>6} {'pattern':<34} {'wall compute':>13} {'CPU compute':>12} "
          f"{'sad compute':>12} {'CPU / sad':>9}")
    for rank, (traced, ops) in enumerate(zip(calls, derived)):
        diff = mpitrace.first_difference(mpitrace.traced_pattern(traced), mpitrace.derived_pattern(ops))
        tp, dp = mpitrace.traced_pattern(traced), mpitrace.derived_pattern(ops)
        if diff is None:
            pattern = "agrees with sad's events"
        else:
            agree = False
            got = tp[diff] if diff < len(tp) else "(none)"
            want = dp[diff] if diff < len(dp) else "(none)"
            pattern = f"call {diff + 1}: run {got}, sad {want}"
        wall, cpu, modelled = (mpitrace.compute_between(traced), mpitrace.cpu_compute_between(traced),
                               small.compute[rank] / stretch)
        ratio = f"{cpu / modelled:9.3f}" if modelled > 0 and cpu > 0 else f"{'-':>9}"
        print(f"  {rank:>5} {len(tp):>6} {pattern:<34} {_ms(wall):>13} {_ms(cpu):>12} {_ms(modelled):>12} {ratio}")
    print(f"  (wall: the time between the calls; CPU: the rank's own work in it, what other processes had of its "
          f"core left out;\n   sad: a rank alone on a core of {machine.name}; CPU / sad is this host's speed "
          "against it)")
    slow = max(range(len(calls)), key=lambda r: (mpitrace.run_time(calls[r]), -r))
    took = mpitrace.run_time(calls[slow])
    print(f"  the traced run took {_ms(took)} (rank {slow}, MPI_Init to MPI_Finalize); "
          f"sad on {machine.name} at {args.trace_np} processes: {_ms(small.time)}")
    cores = len(os.sched_getaffinity(0))
    share = mpitrace.core_share(calls, cores)
    if share is not None:
        used = min(args.trace_np, cores)
        print(f"  its ranks had {_ms(sum(mpitrace.cpu_time(c) for c in calls))} of CPU time on the {used} core(s) "
              f"they could use: {share * 100:.0f} % of those cores' time")
        if share < mpitrace.LOADED:
            print(f"  other load: other processes had {(1 - share) * 100:.0f} % of the cores; alone this host "
                  f"would have taken about {_ms(took * share)}")
            print(f"sad: warning: the traced run got {share * 100:.0f} % of its {used} core(s) (other processes "
                  f"had the rest): its measured times are {1 / share:.2g} x those of this host alone, which sad "
                  "predicts (other load is no machine property)", file=sys.stderr)
    calibrated = (getattr(machine, "models", None) or {}).get("tool") == "sad calibrate"
    if calibrated and net.cores and net.cores != cores:
        print(f"sad: warning: {machine.name} was calibrated on {net.cores} core(s) (communication.cores), this run "
              f"could use {cores}: its ranks share other cores than sad's timeline of this host assumes "
              f"(calibrate under the same taskset as the runs)", file=sys.stderr)
    if not agree:
        print("sad: warning: the traced calls differ from the events sad derives from the source: the "
              "extrapolation below rests on sad's", file=sys.stderr)
    print()
    status = cmd_timeline(args)
    return status if status else (0 if agree else 1)


def cmd_timeline(args) -> int:
    """`sad timeline`: exit 0, 1 when a file had errors, 2 when it cannot run (bad -D, no NPROCS, deadlock)."""
    from sad.analysis.pipeline import load_program
    from sad.machine.model import MachineError, load_machine
    from sad.predict.timeline import DeadlockError, Network, simulate_folded
    from sad.predict.trace import TraceError, traces
    try:
        values = _bindings(args.defines)
        nprocs = int(values.pop("NPROCS", 0))
        if nprocs < 1:
            raise ValueError("bind the number of processes: -D NPROCS=P")
        machine = load_machine(args.machine)
        net = Network.of(machine)
    except (ValueError, MachineError) as exc:
        _error(exc)
        return 2
    program, failed = load_program(args.files, args.include, {})
    if _report_errors(program, failed):
        return 1  # no timeline of a program partly unread: its ranks would be priced without that code
    try:
        events, shared = traces(program, machine, nprocs, values, include_dirs=tuple(args.include))
        result = simulate_folded(events, shared.repeats, net, path=True)
    except (TraceError, DeadlockError) as exc:
        _error(exc)
        return 2
    notes = sorted(shared.notes) + ([f"operations not priced by {machine.name} (left out): "
                                      f"{', '.join(sorted(shared.missing))}"] if shared.missing else [])
    notes += net.sharing(nprocs)
    for note in notes:
        print(f"sad: warning: {note}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps(_document(args, machine, nprocs, result, notes), indent=2))
    else:
        print("\n".join(_text(args, machine, nprocs, result, net, shared.reused, shared.classed)))
    return 0


def _error(exc: Exception) -> None:
    """`sad: error: …` on stderr (a machine file's errors carry that prefix already)."""
    text = str(exc)
    print(text if text.startswith("sad: error:") else f"sad: error: {text}", file=sys.stderr)


def _report_errors(program, failed) -> bool:
    """Print the program's errors as `file:line: error:`; whether there were any (or a file failed to load)."""
    errors = [d for d in program.diagnostics if d.severity == "error"]
    for diag in errors:
        print(f"{diag.loc.file}:{diag.loc.line}: error: {diag.message}", file=sys.stderr)
    return bool(errors or failed)


def _ms(seconds: float) -> str:
    return timelinetext.ms(seconds)


def _text(args, machine, nprocs: int, result, net, reused: int = 0, classed: int = 0) -> list[str]:
    slow = result.slowest
    lines = [f"sad timeline: {' '.join(args.files)} on {machine.name}, {nprocs} ranks, {result.messages} messages",
             f"LogGP: o_s {_ms(net.o_s)} + b·{net.O_s * 1e6:.4g} us, o_r {_ms(net.o_r)} + b·{net.O_r * 1e6:.4g} us, "
             f"G {net.G * 1e6:.4g} us/B, L {_ms(net.L)}, g {_ms(net.g)}; DMA: {'yes' if net.dma else 'no'}; "
             f"{'send copy and transfer pipelined; ' if net.pipelined else ''}"
             f"channels: {'one per hypercube dimension' if net.hypercube else 'one per node'}",
             "",
             f"T = {_ms(result.time)}  (slowest: rank {slow}; compute {_ms(result.compute[slow])}, communicate "
             f"{_ms(result.communicate[slow])}, wait {_ms(result.wait[slow])})",
             "", "Ranks (ranks with the same split are one class; its representative: its lowest rank):"]
    lines += timelinetext.class_lines(result)
    if result.folded:
        done, trips = result.folded
        lines += ["", f"(a loop's {trips} equal trips: {done} simulated, every rank settled into the same step; the "
                      "rest added step by step)"]
    if args.explain and reused:
        lines += ["", f"(tracing: {reused} message-free loops replayed from a rank or trip that started them with the "
                      "same values, not followed again)"]
    if args.explain and classed:
        lines += ["", f"(tracing: {classed} of {nprocs} ranks took the events of a traced rank whose decisions "
                      "came out the same there, not traced again)"]
    if args.explain:
        lines += ["", f"Critical path (ends at rank {slow}; compute, send / recv overheads, transfers, link queues"
                      + (f"; the run with {result.folded[0]} trips" if result.folded else "") + "):"]
        lines += timelinetext.path_lines(result)
    return lines


def _document(args, machine, nprocs: int, result, notes: list[str]) -> dict:
    return {"files": args.files, "machine": machine.name, "nprocs": nprocs, "time": result.time,
            "slowest": result.slowest, "messages": result.messages,
            "classes": timelinetext.classes_json(result),
            "critical_path": timelinetext.path_json(result),
            "notes": notes}
