"""Figures a calibration could not measure: derived from the in-core operation classes and the memory hierarchy.

Data flow: sad.machine.calibrate measures every microbenchmark (sad.machine.microbench) in rounds; a figure whose
median stays below ``RESOLUTION_CYCLES`` of a clock cycle (the subtraction of its loop overhead and other
operations ate it: a busy core, or an optimizer that removed the work) is passed here after the hierarchy is
measured (sad.machine.hierarchy: latency and throughput of add / mul / div / select, the seconds per line each
level serves, the clock) → ``derivation`` gives the figure from what it is made of, with the rule written next to it
in the machine file and in a warning → sad.machine.calibrate renders it. A figure is never written as 0 ns.
"""
from __future__ import annotations

from dataclasses import dataclass

from sad.machine import hierarchy as hier
from sad.machine import microbench as mb

RESOLUTION_CYCLES = 0.05
"""A measured figure below this fraction of a clock cycle is not a measurement (no instruction is that cheap
even at four per cycle): it is derived instead."""

_SIMPLE = ("add", "sub", "neg", "assign", "compare", "convert")
"""Operations that issue as one simple instruction: priced as an add of their class (throughput)."""


@dataclass(frozen=True)
class Derived:
    """A figure given by a rule instead of a measurement: seconds and the rule, said in words."""
    seconds: float
    how: str


def clock_hz(hierarchy: hier.HierarchyCalibration | None, os_clock_hz: float | None) -> float:
    """The clock to measure resolution by: the measured one, else the OS's, else 1 GHz."""
    if hierarchy is not None and hierarchy.clock.seconds > 0:
        return hierarchy.clock.seconds          # Measured(...) of the clock holds Hz in ``seconds``
    return os_clock_hz or 1e9


def resolution_s(clock: float) -> float:
    """The smallest figure taken as measured, in seconds."""
    return RESOLUTION_CYCLES / clock


def _throughput(h: hier.HierarchyCalibration | None, key: str) -> Derived | None:
    if h is None or key not in h.ops or h.ops[key][1].seconds <= 0:
        return None
    return Derived(h.ops[key][1].seconds, f"throughput of {key} (hierarchy.ops)")


def _level_of(h: hier.HierarchyCalibration, nbytes: int) -> str:
    for cache in h.caches:
        if nbytes <= cache.size_bytes * hier.FIT_FRACTION:
            return f"L{cache.level}"
    return "memory"


def _per_element(h: hier.HierarchyCalibration | None, store: bool, nbytes: int, elem: int,
                 per_line: bool = False) -> Derived | None:
    """A reference of a walk over ``nbytes``: the seconds per line of the level that holds them, per element
    (sequential: line / elements per line; ``per_line``: one element per line)."""
    if h is None:
        return None
    level = _level_of(h, nbytes)
    table = h.write if store else h.read
    if level not in table or table[level].seconds <= 0:
        return None
    line = h.caches[0].line_bytes if h.caches else hier.LINE_BYTES
    share = 1.0 if per_line else elem / line
    what = "write" if store else "read"
    return Derived(table[level].seconds * share,
                   f"{what} per line from {level} (hierarchy.levels)" + ("" if per_line else f" x {elem}/{line} B"))


def derivation(name: str, h: hier.HierarchyCalibration | None, clock: float) -> Derived:
    """The derived figure of microbenchmark ``name`` (a microbench figure name); at worst one clock cycle, the
    least any operation an optimizer keeps costs, named as such."""
    parts = name.split(".")
    found: Derived | None = None
    if parts[0] == "ops" and len(parts) == 3:
        kind = "integer" if parts[1] in ("integer", "logical") else "double"
        op = parts[2]
        if op in _SIMPLE:
            found = _throughput(h, f"add.{kind}")
        elif op in ("mul", "div"):
            found = _throughput(h, f"{op}.{kind}")
        elif op == "mod" and kind == "integer":
            found = _throughput(h, "div.integer")
    elif name in ("logical", "bitop", "memory.index"):
        found = _throughput(h, "add.integer")
    elif parts[0] == "intrinsics" and parts[1] in ("MAX", "MIN"):
        found = _throughput(h, "select.double")
    elif parts[0] == "intrinsics" and parts[1] == "ABS":
        found = _throughput(h, "add.integer" if parts[2] == "integer" else "add.double")
    elif parts[0] == "memory" or name == "aux.load1.double":
        found = _memory(name, h)
    if found is not None and found.seconds >= resolution_s(clock):
        return found
    return Derived(1 / clock, "one clock cycle (no rule derives this figure from the hierarchy)")


def _memory(name: str, h: hier.HierarchyCalibration | None) -> Derived | None:
    bench = next((b for b in mb.benches() if b.figure == name), None)
    if bench is None:
        return None
    store = ".store" in name
    elem, nbytes = bench.elem_bytes, bench.size_kb * 1024
    if name in ("memory.load.integer", "memory.store.integer"):   # sized as doubles, walks 4-byte integers
        elem, nbytes = 4, nbytes // 2
    return _per_element(h, store, nbytes, elem, per_line=bench.stride * bench.elem_bytes >= mb.LINE_BYTES)
