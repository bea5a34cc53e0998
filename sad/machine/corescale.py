"""llvm-mca's scheduling model against this core: measured cycles / the model's, per resource class.

Data flow: `sad calibrate` on an x86-64 host with llvm-mca, against the model it prices this host's loops with
(sad.machine.mcacpu.host_model: a stand-in where it does not know the core, else the one it names) → ``measure``:
a C program of small loops written in x86-64 assembly (inline), each bound by one class of the core's resources
(integer ALUs, floating-point pipes, loads, stores), and a chain of dependent 1-cycle adds for the clock, run
pinned to the calibration CPU → cycles per iteration measured; the same instructions through llvm-mca with the
stand-in ``-mcpu`` → the model's cycles; per class the ratio of the two → the ``mca_scale`` entry of the
machine's ``hierarchy`` (machine_db/schema.json) → ``from_database`` → ``CoreScale`` on the loaded Hierarchy →
sad.predict.incore prices a compiled loop with ``scaled_cycles``.

Why: a stand-in model has another core's ports. On an earlier host (AMD family 26, Zen 5; LLVM 14's newest model of
the line is znver3) four independent stores run in 2.0 cycles where znver3 says 4.0 (Zen 5 does two stores a
cycle, znver3's model one), eight integer loads in 2.0 where it says 2.7 and eight independent integer adds in
1.84 where it says 2.27 (more load ports and ALUs), while floating-point adds, multiplies and loads into xmm
registers are within 2 % of the model. One scalar does not fit: the ratio is kept
per class, and a loop is priced by the busiest of the model's resources once each one's pressure is scaled by
its class's ratio. Two mixed loops (a scalar -O2 stream update, a -O0 style body with its index on the stack)
check the rule at calibration time: their measured cycles and the scaled model's are written side by side.
A model LLVM names for the host is measured too: its host detection names the nearest core it knows without
saying so (LLVM 14 calls a Zen 4, AMD family 25 model 17, "znver3"; there four stores ran in 2.3 cycles where
the model says 4.0, ratio 0.57), and a model that fits its core comes out near 1 in every class. On a
virtual machine the ratios also carry what a busy sibling hyperthread of another guest takes from the core's
throughput (that Zen 4 guest: the dispatch loop 0.97 one minute, 1.72 the next, while a dependent chain kept
its time; an Emerald Rapids guest: 0.84, 1.62 and 0.90 in three measurements within one minute). Such a
neighbour comes and goes within seconds, so the loops are timed in interleaved passes spread over several
seconds (``MIN_SPAN_S``) and each figure is the fastest pass: a host cannot run a fixed loop faster than its
core can (the host-speed sentinel's rule, sad.machine.hostspeed), while a figure of whatever state one moment
was in made every compiled loop's core time wrong by that factor (a calibration that met the neighbour at
the dispatch loop alone wrote 1.85 with a spread of 1.4 %, and -O2 dscal came out +147 % against a run
minutes later). The spread written is how much slower the median pass ran.
The loops are the calibration's own, not any kernel's. The ratios are for throughput: a loop that llvm-mca finds
bound by a latency chain (its cycles more than ``THROUGHPUT_SLACK`` above its busiest resource) keeps its cycles;
its chain is timed with the host's measured latencies elsewhere (sad.predict.regchain).
"""
from __future__ import annotations

import functools
import platform
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from sad.machine import mcacpu

CLASSES = ("alu", "fp", "fp_move", "load", "store", "dispatch")
"""Resource classes of a core the calibration loops bind one at a time; ``dispatch`` is the front end's width
(micro-operations per cycle), not a unit."""

_RESOURCE_CLASS = ((re.compile(r"Store|FPSt|StoreData|STD", re.I), "store"),
                   (re.compile(r"FPP45", re.I), "fp_move"),
                   (re.compile(r"Load|AGU|LSU", re.I), "load"),
                   (re.compile(r"ALU|BRU", re.I), "alu"),
                   (re.compile(r"FP", re.I), "fp"))
"""llvm-mca resource names → class, where the model's own answer on the calibration loops (``model_classes``)
does not say: AMD's models name their units so (Zn3Store, Zn3FPSt, Zn3Load, Zn3AGU0, Zn3ALU0, Zn3FPP0; Zn3FPP45
the floating-point pipes that take loaded values and store data, ``fp_move``); a resource neither names keeps
the model's figure (ratio 1). Stores first: Zn3FPSt is the floating-point store-data unit."""

THROUGHPUT_SLACK = 0.10
"""A loop whose llvm-mca cycles exceed its busiest resource's pressure by more than this share is bound by
something else (a latency chain, the dispatch width): the throughput ratios do not apply to it."""

_XMM = [f"%xmm{i}" for i in range(8)]
LOOPS: dict[str, tuple[str, ...]] = {
    "alu": tuple(f"addq $1, {r}" for r in ("%r8", "%r9", "%r10", "%r11", "%rax", "%rdx", "%rsi", "%rdi")),
    "fp": tuple(f"addsd %xmm8, {x}" for x in _XMM),
    "fp_move": tuple(f"movsd {8 * i}(%rbx), {x}" for i, x in enumerate(_XMM[:4]))
    + ("movsd %xmm5, 64(%rbx)", "movsd %xmm6, 72(%rbx)"),
    "load": tuple(f"movq {8 * i}(%rbx), %r{8 + i % 4}" for i in range(8)),
    "store": tuple(f"movq %r8, {8 * i}(%rbx)" for i in range(4)),
    "dispatch": ("addq $1, %r8", "addq $1, %r9", "addq $1, %r10", "movq (%rbx), %rax", "movq 8(%rbx), %rax",
                 "movq 16(%rbx), %rax", "movq %rdx, 64(%rbx)", "movq %r8, %rsi", "movq %r9, %rdi",
                 "movl %r10d, %edx", "movq %r11, %rdi", "movq %r8, %rsi"),
}
"""Per class, a loop body of independent instructions that keeps that class's units busy (no chain but the
loop counter's; eight accumulators for the adds, more than their latency x throughput); the counter
``dec %rcx; jnz`` closes each. ``dispatch``: cheap operations spread over every kind of unit, more of them than
the model's dispatch width lets through in the time any unit needs (on this host 1.85 cycles where znver3's
six-wide dispatch says 2.37: Zen 5 dispatches eight). ``fp_move``: floating-point loads and stores two to one,
as scalar compiled code moves them (on this host eight such loads alone run as the model says, 1.0; with stores
among them 0.84)."""
CHECKS: dict[str, tuple[str, ...]] = {
    "stream": ("movsd (%rbx,%rax,8), %xmm0", "mulsd %xmm8, %xmm0", "addsd 64(%rbx,%rax,8), %xmm0",
               "movsd %xmm0, 128(%rbx,%rax,8)", "movsd 8(%rbx,%rax,8), %xmm1", "mulsd %xmm8, %xmm1",
               "addsd 72(%rbx,%rax,8), %xmm1", "movsd %xmm1, 136(%rbx,%rax,8)"),
    "stack_indexed": ("movl -8(%rbx), %eax", "cltq", "leaq 0(,%rax,8), %rdx", "movsd 64(%rbx,%rdx), %xmm0",
                      "addsd 128(%rbx,%rdx), %xmm0", "movsd %xmm0, 192(%rbx,%rdx)", "movl -16(%rbx), %esi",
                      "movsd %xmm0, -32(%rbx)"),
}
"""Mixed loops that check the per-class rule (not used to derive it): an unrolled scalar stream update as -O2
compiles one, and a -O0 style body (index loaded from the stack, sign-extended, scaled; a result stored)."""
_CLOBBERS = ("rcx", "rbx", "rax", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", *(x[1:] for x in _XMM), "xmm8",
             "cc", "memory")
CLOCK_ADDS = 16


@dataclass(frozen=True)
class LoopFigure:
    """One calibration loop: cycles per iteration measured on this core and in the model; spread of the runs."""
    measured: float
    model: float
    spread: float


@dataclass(frozen=True)
class CoreScale:
    """The stand-in model's cycles against this core's: per class the ratio measured / model."""
    mcpu: str
    ratios: Mapping[str, float]
    loops: Mapping[str, LoopFigure] = field(default_factory=dict)
    checks: Mapping[str, tuple[float, float]] = field(default_factory=dict)   # name → (measured, scaled model)
    clock_hz: float = 0.0   # the clock chain's fastest pass (sad calibrate's clock takes it where faster; 0: not timed)

    def ratio_of(self, resource: str) -> float:
        """The ratio of the class a model's resource belongs to, 1 for a resource of no class."""
        name = self.class_of(resource)
        return self.ratios.get(name, 1.0) if name else 1.0

    def class_of(self, resource: str) -> str | None:
        """The class of one of this model's resources: the model's own answer (``model_classes``), else its
        name (``resource_class``)."""
        return model_classes(self.mcpu).get(resource) or resource_class(resource)


def resource_class(resource: str) -> str | None:
    """'Zn3Store' → 'store', 'Zn3AGU0' → 'load', 'Zn3ALU1' → 'alu', 'Zn3FPP2' → 'fp'; None for the others."""
    return next((name for pattern, name in _RESOURCE_CLASS if pattern.search(resource)), None)


BUSIEST = 0.9
"""A resource within this share of a loop's busiest one is among those that bound it (``model_classes``)."""

_TIES = ("alu", "fp", "load", "store", "fp_move", "dispatch")
"""Of the classes whose loops a resource bounds with equally many others, the one it is given: a loop of one
kind of instruction before ``fp_move``'s mix of loads and stores, loads before stores. znver2's three address
units (Zn2AGU0-2) bound the load, store and fp_move loops alike, three resources each; they are its load
ports, as ECM counts them (Kerncraft's Zen machine files count the AGUs), and were classed ``fp_move`` when
ties followed ``CLASSES``: no load unit, so a compiled loop's load-port time was 0 on a Zen 2 host."""


@functools.lru_cache(maxsize=8)
def model_classes(mcpu: str) -> Mapping[str, str]:
    """Resource → class as the model itself says: each class's calibration loop (``LOOPS``, the counter with
    it) run through llvm-mca with ``mcpu``; the resources within ``BUSIEST`` of its busiest bound it, and a
    resource that bounds several classes' loops belongs to the one whose loop it shares with the fewest others
    (the most specific; ties by ``_TIES``). Names differ by vendor and shared ports exist: Intel's models call
    their units ICXPort0..7, where port 0 and 1 take integer adds and floating-point adds alike
    (icelake-server: the add loop binds ports 0, 1, 5, 6, the floating-point one 0 and 1, so 0 and 1 are
    ``fp``, 5 and 6 ``alu``; 2 and 3 ``load``, 4 ``store``, 7 (store addresses, busy in the loop of loads and
    stores) ``fp_move``); on znver3 it gives what the names say. {} where llvm-mca cannot run."""
    busy: dict[str, set[str]] = {}
    for name, body in LOOPS.items():
        if name == "dispatch":      # the front end's width, no unit
            continue
        try:
            result = mcacpu.run("\n".join(body + ("dec %rcx", "jnz 0")) + "\n", mcpu)
        except OSError:
            return {}
        if result is None or not result.pressure:
            continue
        top = max(p for _, p in result.pressure)
        busy[name] = {r for r, p in result.pressure if top > 0 and p >= BUSIEST * top}
    found = {r for units in busy.values() for r in units}
    return {r: min((c for c in busy if r in busy[c]), key=lambda c: (len(busy[c]), _TIES.index(c)))
            for r in sorted(found)}


def scaled_cycles(result: mcacpu.McaResult, scale: CoreScale) -> tuple[float, str]:
    """llvm-mca's cycles per iteration of a loop on this core. The model's throughput bound is the larger of its
    busiest resource's pressure and its dispatch bound (micro-operations / dispatch width); on this core each
    resource's pressure is scaled by its class's ratio and the dispatch bound by the ``dispatch`` ratio, the
    larger bounds the loop: cycles × scaled bound / model's bound. A loop bound by something else
    (``THROUGHPUT_SLACK``: a latency chain) or without a pressure table keeps its cycles. The second item says
    which class bounds it and by what factor, or why nothing was scaled (for --explain)."""
    if not result.pressure:
        return result.cycles, "no resource table"
    model = max(max(p for _, p in result.pressure), result.dispatch_cycles)
    if model <= 0:
        return result.cycles, "no resource busy"
    if result.cycles > model * (1 + THROUGHPUT_SLACK):
        return result.cycles, "not scaled: bound by a chain, not by a resource"
    bounds = [(scale.class_of(r) or r, p * scale.ratio_of(r)) for r, p in result.pressure]
    bounds.append(("dispatch", result.dispatch_cycles * scale.ratios.get("dispatch", 1.0)))
    name, host = max(bounds, key=lambda nb: nb[1])
    factor = host / model
    return result.cycles * factor, f"x{factor:.3g} ({name} bound)"


# ------------------------------------------------------------------------------------------- measuring

_SOURCE = r"""/* generated by sad calibrate: llvm-mca's model against this core (sad/machine/corescale.py) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) {
    struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + 1e-9 * t.tv_nsec;
}
double buf[1024] __attribute__((aligned(64)));
int main(int argc, char **argv) {
    int k = atoi(argv[1]); long n = atol(argv[2]); double t0;
    if (argc < 3) return 2;
    switch (k) {
    case 0:   /* the clock: a chain of dependent 1-cycle adds */
        t0 = now();
        __asm__ volatile("mov %0, %%rcx\n1:\n.rept @ADDS@\naddq %%rcx, %%r8\n.endr\ndec %%rcx\njnz 1b"
                         :: "r"(n) : "rcx", "r8", "cc");
        t0 = now() - t0; printf("%.9g\n", t0 / (@ADDS@.0 * n)); break;
@CASES@
    }
    return 0;
}
"""


def bodies() -> dict[str, tuple[str, ...]]:
    """Every loop timed, the classes' then the checks', each closed by the counter (what llvm-mca prices)."""
    return {name: body + ("dec %rcx", "jnz 0") for name, body in {**LOOPS, **CHECKS}.items()}


def c_source() -> str:
    """The C program: case 0 the clock, case k the k-th loop of ``bodies`` (seconds per iteration)."""
    cases = []
    clobbers = ", ".join(f'"{c}"' for c in _CLOBBERS)
    for k, body in enumerate(bodies().values(), start=1):
        asm = "\\n".join(i.replace("%", "%%") for i in body[:-1]) + "\\njnz 1b"
        cases.append(f"    case {k}:\n        t0 = now();\n"
                     f'        __asm__ volatile("mov %0, %%rcx\\nmov %1, %%rbx\\nxor %%eax, %%eax\\n'
                     f'movl $0, -8(%%rbx)\\nmovl $0, -16(%%rbx)\\n1:\\n{asm}"\n'
                     f"                         :: \"r\"(n), \"r\"(buf + 512) : {clobbers});\n"
                     f'        t0 = now() - t0; printf("%.9g\\n", t0 / n); break;')
    return _SOURCE.replace("@CASES@", "\n".join(cases)).replace("@ADDS@", str(CLOCK_ADDS))


def applies_here() -> str | None:
    """The -mcpu this calibration measures against (llvm-mca present on an x86-64 host: the model it prices this
    host's loops with, a stand-in or the one its host detection names), else None."""
    if shutil.which("llvm-mca") is None or platform.machine() not in ("x86_64", "AMD64"):
        return None
    return mcacpu.host_model().mcpu


PASSES = 5
"""Passes over every loop at least (``measure``), each loop's fastest of ``RUNS`` runs in each."""
MIN_SPAN_S = 8.0
"""Seconds the passes are spread over at least: longer than the neighbour's bursts seen on these guests."""
RUNS = 3
ITERATIONS = 5_000_000
"""Iterations of one run of a loop (5-10 ms: many short runs catch the moments the core is free)."""


def measure(run: Callable[[Path, int, int], float], budget_s: float) -> CoreScale | None:
    """Time the loops (``run(exe, case, iterations)`` → seconds per iteration, pinned) in passes over all of
    them, the clock's chain among them, until ``PASSES`` passes and ``max(budget_s, MIN_SPAN_S)`` seconds are
    done; per loop the fastest pass (see the module docstring). Priced with the stand-in model; None where
    ``applies_here`` says no or gcc is missing."""
    mcpu = applies_here()
    gcc = shutil.which("gcc") or shutil.which("cc")
    if mcpu is None or gcc is None:
        return None
    named = bodies()
    with tempfile.TemporaryDirectory(prefix="sad-corescale-") as tmp:
        src, exe = Path(tmp) / "scale.c", Path(tmp) / "scale"
        src.write_text(c_source(), encoding="utf-8")
        subprocess.run([gcc, "-O1", str(src), "-o", str(exe)], check=True, capture_output=True)
        passes = _passes(lambda case: min(run(exe, case, ITERATIONS) for _ in range(RUNS)), len(named),
                         max(budget_s, MIN_SPAN_S))
    clock = min(passes[0])
    figures = {}
    for k, (name, body) in enumerate(named.items(), start=1):
        result = mcacpu.run("\n".join(body) + "\n", mcpu)
        if result is None or result.cycles <= 0:
            return None
        fastest = min(passes[k])
        figures[name] = (LoopFigure(fastest / clock, result.cycles, statistics.median(passes[k]) / fastest - 1),
                         result)
    ratios = {name: figures[name][0].measured / figures[name][0].model for name in LOOPS}
    scale = CoreScale(mcpu, ratios, {name: fig for name, (fig, _) in figures.items() if name in LOOPS})
    checks = {name: (fig.measured, scaled_cycles(result, scale)[0]) for name, (fig, result) in figures.items()
              if name in CHECKS}
    return CoreScale(mcpu, ratios, scale.loops, checks, 1 / clock)


def _passes(timed: Callable[[int], float], loops: int, span_s: float) -> list[list[float]]:
    """Per case (0 the clock, 1.. the loops) its seconds per iteration in each pass over all cases."""
    passes: list[list[float]] = [[] for _ in range(loops + 1)]
    started = time.monotonic()
    while len(passes[0]) < PASSES or time.monotonic() - started < span_s:
        for case in range(loops + 1):
            passes[case].append(timed(case))
    return passes


def render_yaml(scale: CoreScale) -> list[str]:
    """The ``mca_scale`` entry of the hierarchy section (YAML lines, indented for it)."""
    lines = [f"  mca_scale:                    # llvm-mca -mcpu={scale.mcpu} against this core "
             "(sad.machine.corescale): cycles per iteration of loops bound by one resource class, measured (fastest "
             "pass; spread: how much slower the median pass ran) / model",
             f"    mcpu: {scale.mcpu}"]
    for name in CLASSES:
        if name in scale.ratios:
            fig = scale.loops.get(name)
            detail = f", measured: {fig.measured:.4g}, model: {fig.model:.4g}, spread: {fig.spread:.1%}" if fig else ""
            lines.append(f"    {name}: {{ratio: {scale.ratios[name]:.4g}{detail}}}")
    for name, (measured, scaled) in sorted(scale.checks.items()):
        lines.append(f"    # check, {name} loop: {measured:.3g} cycles measured, {scaled:.3g} by the scaled model")
    return lines


def from_database(entry: Mapping[str, object]) -> CoreScale:
    """The loaded ``mca_scale`` mapping (already schema-checked) → CoreScale."""
    ratios: dict[str, float] = {}
    loops: dict[str, LoopFigure] = {}
    for name in CLASSES:
        value = entry.get(name)
        if isinstance(value, Mapping):
            ratios[name] = float(value["ratio"])
            if "measured" in value and "model" in value:
                loops[name] = LoopFigure(float(value["measured"]), float(value["model"]),
                                         _share(value.get("spread", 0)))
    return CoreScale(str(entry["mcpu"]), ratios, loops)


def _share(value: object) -> float:
    """'2.2%' / '2.2 %' / 0.022 → 0.022."""
    text = str(value).strip()
    return float(text.rstrip("% ")) / 100 if text.endswith("%") else float(text)

