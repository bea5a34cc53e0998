"""Remembering values followed under a depth limit, for every depth at which they come out the same.

Data flow: used by sad.analysis.values, whose backtracer follows a value through the values it depends on,
each step one level deeper, and gives up past a limit (a level past `limit` is unknown; calls into
functions and callees are followed only to half of it). Its symbolic runs of a routine (conditional
assignments, sad.analysis.conditional) are remembered, and were remembered per depth: a run asked at
depth 5 and again at depth 6 was run twice. Inside a loop that changes a variable, a run tries the loop's
body, whose tests ask for other variables one level deeper each time, so that CTPMV's runs were asked
2 688 times for 63 values, each time at another depth.

A value whose work never met a limit is the same from any depth at which every limit its steps check still
passes: from any shallower depth, and from a deeper one up to the least room a check left below its own limit.
A `Reach` notes, while a value is worked out, whether a limit was met and that least room; a value that met
one is remembered for its own depth only, as before. Judging a deeper start by the lowest limit any step might
check (half the backtracer's, for calls) instead of by the checks the work made recomputed most of DGEJSV's
runs: 69 900 runs for a few dozen uses, its build 56 → 14 s.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")
_NO_LIMIT = 1 << 30


@dataclass
class Reach:
    """Whether a limit stopped anything, and the least room any check left below its limit (limit - depth),
    in the work under way."""
    limited: bool = False
    room: int = _NO_LIMIT

    def past(self, depth: int, limit: int) -> bool:
        """Whether `depth` is past `limit` (the work gives up there), noted either way."""
        if limit - depth < self.room:
            self.room = limit - depth
        if depth > limit:
            self.limited = True
            return True
        return False


@dataclass(frozen=True)
class _Kept(Generic[T]):
    value: T
    depth: int  # the depth it was worked out at
    # the deepest start at which every limit its work checked would still pass (each check's limit less its
    # level below the start, the least of them): from there on, the same work would meet a limit
    reach: int


class DepthMemo:
    """Values by key, each valid for the depths where the limits would not change it."""

    def __init__(self, reach: Reach) -> None:
        self._reach = reach
        self._free: dict[object, _Kept] = {}  # worked out without meeting a limit
        self._limited: dict[tuple[object, int], _Kept] = {}  # met one: for its own depth only

    def get(self, key: object, depth: int, work: Callable[[], T]) -> T:
        """The value of `work()` at `depth`, remembered under `key` (everything else it depends on)."""
        reach = self._reach
        kept = self._free.get(key)
        if kept is not None and depth <= kept.reach:  # (no shallower start meets a limit: reach >= depth)
            self._replayed(kept, depth)
            return kept.value
        exact = self._limited.get((key, depth))
        if exact is not None:
            self._replayed(exact, depth)
            reach.limited = True
            return exact.value
        outer = (reach.limited, reach.room)
        reach.limited, reach.room = False, _NO_LIMIT
        try:
            value = work()
        finally:
            limited, room = reach.limited, reach.room
            reach.limited, reach.room = outer[0] or limited, min(outer[1], room)
        if limited:
            self._limited[(key, depth)] = _Kept(value, depth, depth + room)
        else:
            self._free[key] = _Kept(value, depth, depth + room)  # covers every depth the one it replaces did
        return value

    def _replayed(self, kept: _Kept, depth: int) -> None:
        """What a remembered value's work would have noted, started at `depth`: the room its checks would
        leave there."""
        self._reach.room = min(self._reach.room, kept.reach - depth)

    def snapshot(self) -> tuple[dict, dict]:
        """The remembered values, to put back where a hypothesis they rest on fails (an induction)."""
        return dict(self._free), dict(self._limited)

    def restore(self, saved: tuple[dict, dict]) -> None:
        """Back to what `snapshot` returned."""
        self._free, self._limited = dict(saved[0]), dict(saved[1])
