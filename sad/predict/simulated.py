"""`sad analyze`'s time of an SPMD program whose process count is bound: the ranks simulated together.

Data flow: the program's IR, the machine and the bound values (-D, --params) → every rank's events at
NPROCS (sad.predict.trace) → the discrete-event simulation with the machine's LogGP figures
(sad.predict.timeline.simulate_folded, as `sad timeline` runs it) → `Simulated`: the slowest rank's end,
its compute / communicate / wait split, the critical path → the reports (sad.predict.report).

Why: each rank priced alone (the per-rank formula) has no waits, no overlap of transfers and prices a
collective as its programming-model expression; on a tree or a root that collects, the waits set the time
(issue 28: CG-Simple +142 %, CG-Tree −41 % at P = 128 on the nCUBE/2 priced alone). The simulation is the
prediction wherever it runs. Where it cannot (a value only a run can tell, a construct the tracer does not
follow, a machine without LogGP figures, a deadlock), `Simulated.failure` says why and the per-rank
formula stays the prediction; the CLI warns and the report names the model that priced the time.
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

from sad import ir
from sad.ir import msgcalls
from sad.predict.alone import Alone
from sad.predict.timeline import Result


@dataclass
class Simulated:
    """The simulation at NPROCS = `nprocs`: its `result`, or the `failure` that kept it from running (with
    the traced ranks priced alone in `alone` when the traces were found but could not be simulated)."""
    nprocs: int
    result: Result | None = None
    notes: list[str] = field(default_factory=list)
    failure: str | None = None
    alone: Alone | None = None
    startup: float = 0.0  # the machine's start-up of a run, once (control.startup), added to the end

    @property
    def time(self) -> float | None:
        """The predicted time: the slowest rank's end (plus the start-up); None when not simulated."""
        return None if self.result is None else self.result.time + self.startup

    def split(self) -> tuple[float, float, float] | None:
        """The slowest rank's computation (start-up included), communication and wait; they add up to time."""
        if self.result is None:
            return None
        slow = self.result.slowest
        return (self.result.compute[slow] + self.startup, self.result.communicate[slow], self.result.wait[slow])


def libraries(program: ir.Program) -> set[str]:
    """The message-passing libraries (MPI, PVM) the program exchanges messages with (not only asks for its
    rank or the time)."""
    return {s.library for p in program.procedures for s in ir.walk_stmts(p.body)
            if isinstance(s, ir.Message) and s.kind not in msgcalls.LOCAL}


def numbers(values: dict) -> dict[str, float]:
    """The bound values that are numbers, by upper-case name (integers as int)."""
    out: dict[str, float] = {}
    for name, value in values.items():
        try:
            number = float(value)
        except (TypeError, ValueError):
            continue
        out[name.upper()] = int(number) if number.is_integer() else number
    return out


def simulate_bound(program: ir.Program, machine, values: dict, startup: float = 0.0) -> Simulated | None:
    """The ranks simulated together at the bound NPROCS; None when the program sends no MPI message, NPROCS
    is not bound to a positive integer, or RANK is bound (the user asks for one rank's formula): the per-rank
    formula is then the prediction."""
    from sad.predict.alone import PriceError, price_alone
    from sad.predict.timeline import DeadlockError, Network, simulate_folded
    from sad.predict.trace import TraceError, traces
    bound = numbers(values)
    nprocs = bound.pop("NPROCS", None)
    used = libraries(program)
    if not isinstance(nprocs, int) or nprocs < 1 or "RANK" in bound or not used:
        return None
    out = Simulated(nprocs, startup=startup)
    if used != {"MPI"}:
        out.failure = f"the timeline follows MPI programs only, not {', '.join(sorted(used - {'MPI'}))}"
        return out
    try:
        net = Network.of(machine)
    except ValueError as exc:
        out.failure = f"machine {machine.name}: {str(exc).split('error: ', 1)[-1]}"
        return out
    try:
        events, shared = traces(program, machine, nprocs, bound)
    except TraceError as exc:
        out.failure = str(exc)
        return out
    out.notes = sorted(shared.notes) + ([f"operations not priced by {machine.name} (left out): "
                                         f"{', '.join(sorted(shared.missing))}"] if shared.missing else [])
    out.notes += net.sharing(nprocs)
    try:
        out.result = simulate_folded(events, shared.repeats, net, path=True)
    except DeadlockError as exc:
        out.failure = str(exc)
        with contextlib.suppress(PriceError):  # no number from the traces: the formula's, and the failure says why
            out.alone = price_alone(events, machine)
    return out
