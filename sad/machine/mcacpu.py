"""Which of llvm-mca's scheduling models prices this host's core.

Data flow: ``llvm-mca --version`` (the host CPU LLVM recognizes) and /proc/cpuinfo (vendor, family) →
``host_model``: the ``-mcpu`` sad.predict.compiled passes to llvm-mca, and a note when it is not the host's own;
``run``: llvm-mca on a loop body with that model → cycles per iteration, latencies, the pressure on each of the
model's resources (what sad.predict.compiled prices loops with and sad.machine.corescale calibrates against this
core). It sits with the machine because `sad calibrate` runs it too.

``-mcpu=native`` is the host's model only where this LLVM knows the core. An LLVM older than the core (LLVM 14 on
an AMD family 26, Zen 5) says "Host CPU: (unknown)" and falls back to its generic x86-64 model, which is no
core's: it prices gcc -O0's loop of a 1-D three-point stencil (a jacobi-1d written for issue 27, 2000 doubles,
in L1) at 8.1 cycles per iteration where it runs in 4.4 (pinned, median of 5; znver3: 5.7), and a loop of two
int-to-double conversions and two divisions at 44 cycles where znver3 gives 10. On the 12 kernels written for
issue 27 (benchmarks/devkernels2) the median error went from 23.9 % to 17.1 % at -O0 with znver3 in place of
the generic model. The newest model of the same vendor's line is the nearer one: a core keeps its predecessor's
ports and latencies more than any generic model does (AMD family 23 and later: the highest ``znverN`` this
LLVM has; Intel: the newest of its big cores it lists). A warning names the model used.

Where LLVM does name a model, it is the one its host detection picks, which for a core newer than the LLVM is
the nearest it has, said without a warning: LLVM 14 names an AMD family 25 model 17 (Zen 4) "znver3", whose
model does one store a cycle where the core does two. Which is why `sad calibrate` measures llvm-mca's model
against the core on every x86-64 host (sad.machine.corescale), not only where LLVM says it does not know it.
"""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

# Intel's big cores, newest first (LLVM's names): the first one this llvm-mca knows prices an unknown Intel core
_INTEL = ("sapphirerapids", "alderlake", "rocketlake", "icelake-server", "tigerlake", "icelake-client",
          "cascadelake", "skylake-avx512", "skylake", "broadwell", "haswell")


@dataclass(frozen=True)
class McaModel:
    """The -mcpu given to llvm-mca and, when it is not the host's own model, why (for a warning)."""
    mcpu: str
    note: str = ""


@lru_cache(maxsize=1)
def host_model() -> McaModel:
    """The scheduling model of this host's core (see the module docstring)."""
    try:
        version = subprocess.run(["llvm-mca", "--version"], capture_output=True, text=True, check=False).stdout
    except OSError:
        return McaModel("native")
    found = re.search(r"Host CPU:\s*(\S+)", version)
    if found is None:
        return McaModel("native")
    if found.group(1) != "(unknown)":
        # the name, not "native": a machine file's mca_scale says which model it was measured against
        return McaModel(found.group(1))
    vendor, family = _cpu_identity(Path("/proc/cpuinfo"))
    choice = substitute(vendor, family, _known_models())
    if choice is None:
        return McaModel("native", f"llvm-mca does not know this host's core ({vendor} family {family}) and has "
                                  "no model of its line: its generic x86-64 model prices the compiled loops")
    return McaModel(choice, f"llvm-mca does not know this host's core ({vendor} family {family}): its {choice} "
                            "model, the newest of the same line it has, prices the compiled loops")


def substitute(vendor: str, family: int, known: set[str]) -> str | None:
    """The model for an unknown core: AMD family >= 23 (Zen) the highest znverN known, Intel the newest big
    core known; None when none fits."""
    if vendor == "AuthenticAMD" and family >= 0x17:
        zen = sorted((int(m.group(1)), name) for name in known if (m := re.fullmatch(r"znver(\d+)", name)))
        return zen[-1][1] if zen else None
    if vendor == "GenuineIntel":
        return next((name for name in _INTEL if name in known), None)
    return None


def _cpu_identity(cpuinfo: Path) -> tuple[str, int]:
    """(vendor_id, cpu family) of the first processor, ("", 0) where the OS does not say."""
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "", 0
    vendor = re.search(r"^vendor_id\s*:\s*(\S+)", text, re.M)
    family = re.search(r"^cpu family\s*:\s*(\d+)", text, re.M)
    return (vendor.group(1) if vendor else "", int(family.group(1)) if family else 0)


def _known_models() -> set[str]:
    """The CPUs this llvm-mca has a model for (``-mcpu=help``)."""
    proc = subprocess.run(["llvm-mca", "-mtriple=x86_64", "-mcpu=help"], input="", capture_output=True, text=True,
                          check=False)
    listing = (proc.stdout + proc.stderr).split("Available features", 1)[0]
    return set(re.findall(r"^\s+([a-z][\w.-]*)\s+- Select the", listing, re.M))


MCA_ITERATIONS = 200
"""Iterations llvm-mca simulates: enough for the steady state of a loop body."""


@dataclass(frozen=True)
class McaResult:
    """llvm-mca's analysis of a loop body: cycles per iteration and per-instruction latencies."""
    cycles: float                   # per iteration, steady state: port throughput and register dependencies
    latencies: tuple[int, ...]      # per instruction, llvm-mca's scheduling model
    block_rthroughput: float        # the throughput bound alone (no dependencies)
    pressure: tuple[tuple[str, float], ...] = ()
    """(resource of the model, e.g. Zn3Store, cycles it is busy per iteration): the busiest unit of each
    resource group (``Resource pressure per iteration``)."""
    dispatch_cycles: float = 0.0
    """Micro-operations per iteration / the model's dispatch width: the front end's bound (0: not reported)."""


def run(text: str, mcpu: str, iterations: int = MCA_ITERATIONS) -> McaResult | None:
    """llvm-mca with ``-mcpu`` on the instructions ``text`` (one per line, jumps with numeric targets), or None
    if it cannot read them. Loads in flight are bounded by the reorder buffer, not by the model's load queue
    (``load_queue_flag``)."""
    proc = subprocess.run(["llvm-mca", f"-mcpu={mcpu}", f"-iterations={iterations}", *load_queue_flag(mcpu)],
                          input=text, capture_output=True, text=True, check=False)
    total = re.search(r"^Total Cycles:\s+(\d+)", proc.stdout, re.M)
    rthroughput = re.search(r"^Block RThroughput:\s+([\d.]+)", proc.stdout, re.M)
    if proc.returncode != 0 or total is None:
        return None
    table = proc.stdout.split("Instructions:", 2)[-1] if "[6]" in proc.stdout else ""
    latencies = tuple(int(m.group(1)) for m in re.finditer(r"^\s*\d+\s+(\d+)\s+[\d.]+\s", table, re.M))
    uops = re.search(r"^Total uOps:\s+(\d+)", proc.stdout, re.M)
    width = re.search(r"^Dispatch Width:\s+(\d+)", proc.stdout, re.M)
    dispatch = int(uops.group(1)) / iterations / int(width.group(1)) if uops and width and int(width.group(1)) else 0.0
    return McaResult(int(total.group(1)) / iterations, latencies,
                     float(rthroughput.group(1)) if rthroughput else 0.0, _pressure(proc.stdout), dispatch)


@lru_cache(maxsize=8)
def rob_entries(mcpu: str) -> int | None:
    """Entries of the core's reorder buffer in llvm-mca's scheduling model ``mcpu`` (``Total ROB Entries``), None
    if llvm-mca does not say: how many instructions the core keeps in flight."""
    try:
        proc = subprocess.run(["llvm-mca", f"-mcpu={mcpu}", "-retire-stats", "-iterations=1"], input="nop\n",
                              capture_output=True, text=True, check=False)
    except OSError:
        return None
    found = re.search(r"Total ROB Entries:\s+(\d+)", proc.stdout)
    return int(found.group(1)) if proc.returncode == 0 and found else None


def load_queue_flag(mcpu: str) -> list[str]:
    """``-lqueue=<reorder buffer entries>``: the loads a loop keeps in flight bounded by the reorder buffer alone.

    Why: llvm-mca's load/store unit holds a load's queue entry until the load retires, as Intel's load buffer does.
    AMD's Zen cores free the entry once the load has its data and follow the load to retirement in a separate,
    larger structure (Chips and Cheese, "AMD's Zen 4, Part 2: Memory Subsystem and Conclusion", 2022, counted 136
    loads in flight on Zen 4, well beyond its published queue). LLVM 14's znver3 model sets a queue of 72 entries,
    so a body of many loads stopped at 72 in flight: gcc -O0's Livermore 7 (equation of state, 27 loads an
    iteration, about 2.7 iterations in flight) at 21.9 cycles an iteration, 36 % of them stalled on the queue;
    bounded by the reorder buffer alone 18.2; measured 13 on a Zen 3 host (AMD EPYC, family 25 model 1, pinned,
    fastest of five runs). Models without a load queue (znver1, znver2, LLVM 14's Intel models) are unchanged:
    every load holds a reorder-buffer entry anyway, so a queue of that size never binds. The store queue stays the
    model's: a store keeps its entry past retirement, until it is written to the cache, on every core."""
    rob = rob_entries(mcpu)
    return [f"-lqueue={rob}"] if rob else []


def _pressure(report: str) -> tuple[tuple[str, float], ...]:
    """(resource name, busiest unit's cycles per iteration) from llvm-mca's resource tables, by name."""
    names = dict(re.findall(r"^\[(\d+)(?:\.\d+)?\]\s+-\s+(\S+)", report.split("Resource pressure", 1)[0], re.M))
    found = re.search(r"^Resource pressure per iteration:\n(.*)\n(.*)$", report, re.M)
    if not found:
        return ()
    heads = re.findall(r"\[(\d+)(?:\.\d+)?\]", found.group(1))
    values = found.group(2).split()
    busiest: dict[str, float] = {}
    for head, value in zip(heads, values):
        name = names.get(head, head)
        busiest[name] = max(busiest.get(name, 0.0), 0.0 if value == "-" else float(value))
    return tuple(sorted(busiest.items()))
