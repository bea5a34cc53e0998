"""`sad timeline`: an SPMD program's ranks simulated together on a machine (waits, overlap, critical path).

Data flow: FILEs → IR (sad.analysis.pipeline.load_program) → every rank's events at -D NPROCS=P and the other
bindings (sad.predict.trace) → the discrete-event simulation with the machine's LogGP figures and collective
algorithms (sad.predict.timeline) → the time of the slowest rank, each rank's compute / communicate / wait
split (ranks with the same split shown as one class) and, with --explain, the critical path.
"""
from __future__ import annotations

import json
import sys
from collections import defaultdict

from sad.common.exprparse import ExprError, parse_expr

CLASSES_SHOWN = 8


def register(sub, add_common) -> None:
    """Register `sad timeline` with the command-line parser."""
    p = sub.add_parser("timeline", help="simulate an MPI program's ranks together: waits, critical path")
    add_common(p)
    p.add_argument("--machine", "-m", required=True, metavar="NAME|PATH", help="machine database (ncube2, ...)")
    p.add_argument("--explain", action="store_true", help="show the critical path step by step")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_timeline)


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


def cmd_timeline(args) -> int:
    """`sad timeline`: exit 0, 1 when a file had errors, 2 when it cannot run (bad -D, no NPROCS, deadlock)."""
    from sad.analysis.pipeline import load_program
    from sad.machine.model import MachineError, load_machine
    from sad.predict.timeline import DeadlockError, Network, simulate
    from sad.predict.trace import TraceError, traces
    try:
        values = _bindings(args.defines)
        nprocs = int(values.pop("NPROCS", 0))
        if nprocs < 1:
            raise ValueError("bind the number of processes: -D NPROCS=P")
        machine = load_machine(args.machine)
        net = Network.of(machine)
    except (ValueError, MachineError) as exc:
        print(f"sad: error: {exc}", file=sys.stderr)
        return 2
    program, failed = load_program(args.files, args.include, {})
    for diag in program.diagnostics:
        if diag.severity == "error":
            print(f"{diag.loc.file}:{diag.loc.line}: error: {diag.message}", file=sys.stderr)
    try:
        events, shared = traces(program, machine, nprocs, values)
        result = simulate(events, net, path=True)
    except (TraceError, DeadlockError) as exc:
        print(f"sad: error: {exc}", file=sys.stderr)
        return 2
    notes = sorted(shared.notes) + ([f"operations not priced by {machine.name} (left out): "
                                      f"{', '.join(sorted(shared.missing))}"] if shared.missing else [])
    for note in notes:
        print(f"sad: warning: {note}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps(_document(args, machine, nprocs, result, notes), indent=2))
    else:
        print("\n".join(_text(args, machine, nprocs, result, net)))
    return 1 if failed else 0


def _classes(result) -> list[tuple[list[int], float, float, float, float]]:
    """Ranks with the same end, compute, communicate and wait (to the nanosecond): one class each."""
    groups: dict[tuple, list[int]] = defaultdict(list)
    for r in range(len(result.end)):
        key = tuple(round(x[r], 9) for x in (result.end, result.compute, result.communicate, result.wait))
        groups[key].append(r)
    return sorted(((ranks, *key) for key, ranks in groups.items()), key=lambda c: (-c[1], c[0][0]))


def _ranks_text(ranks: list[int]) -> str:
    parts: list[str] = []
    start = ranks[0]
    for i, a in enumerate(ranks):
        if i + 1 == len(ranks) or ranks[i + 1] != a + 1:
            parts.append(f"{start}" if start == a else f"{start}-{a}")
            start = ranks[i + 1] if i + 1 < len(ranks) else a
    text = ", ".join(parts[:4]) + (", ..." if len(parts) > 4 else "")
    return f"rank {text}" if len(ranks) == 1 else f"ranks {text} ({len(ranks)})"


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms"


def _text(args, machine, nprocs: int, result, net) -> list[str]:
    slow = result.slowest
    lines = [f"sad timeline: {' '.join(args.files)} on {machine.name}, {nprocs} ranks, {result.messages} messages",
             f"LogGP: o_s {_ms(net.o_s)} + b·{net.O_s * 1e6:.4g} us, o_r {_ms(net.o_r)} + b·{net.O_r * 1e6:.4g} us, "
             f"G {net.G * 1e6:.4g} us/B, L {_ms(net.L)}, g {_ms(net.g)}; DMA: {'yes' if net.dma else 'no'}; "
             f"channels: {'one per hypercube dimension' if net.hypercube else 'one per node'}",
             "",
             f"T = {_ms(result.time)}  (slowest: rank {slow}; compute {_ms(result.compute[slow])}, communicate "
             f"{_ms(result.communicate[slow])}, wait {_ms(result.wait[slow])})",
             "", "Ranks (ranks with the same split are one class):",
             f"  {'ranks':<28} {'end':>12} {'compute':>12} {'communicate':>12} {'wait':>12}"]
    classes = _classes(result)
    for ranks, end, comp, comm, wait in classes[:CLASSES_SHOWN]:
        lines.append(f"  {_ranks_text(ranks):<28} {_ms(end):>12} {_ms(comp):>12} {_ms(comm):>12} {_ms(wait):>12}")
    if len(classes) > CLASSES_SHOWN:
        lines.append(f"  ... {len(classes) - CLASSES_SHOWN} more classes")
    if args.explain:
        lines += ["", f"Critical path (ends at rank {slow}; compute, send / recv overheads, transfers, link queues):"]
        for step in result.path:
            if step.end - step.start < 1e-9:
                continue
            peer = f" {'to' if step.kind in ('send', 'link') else 'from'} rank {step.peer}" if step.peer >= 0 else ""
            lines.append(f"  {_ms(step.start):>12} {_ms(step.end - step.start):>12}  rank {step.rank:<5} "
                         f"{step.kind:<9}{peer:<14} {step.where}")
    return lines


def _document(args, machine, nprocs: int, result, notes: list[str]) -> dict:
    return {"files": args.files, "machine": machine.name, "nprocs": nprocs, "time": result.time,
            "slowest": result.slowest, "messages": result.messages,
            "classes": [{"ranks": ranks, "end": end, "compute": comp, "communicate": comm, "wait": wait}
                        for ranks, end, comp, comm, wait in _classes(result)],
            "critical_path": [{"rank": s.rank, "kind": s.kind, "start": s.start, "end": s.end, "where": s.where,
                               "peer": s.peer} for s in result.path],
            "notes": notes}
