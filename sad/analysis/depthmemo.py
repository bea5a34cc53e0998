"""Remembering values followed under a depth limit, for every depth at which they come out the same.

Data flow: used by sad.analysis.values, whose backtracer follows a value through the values it depends on,
each step one level deeper, and gives up past a limit (a level past `limit` is unknown; calls into
functions and callees are followed only to half of it). Its symbolic runs of a routine (conditional
assignments, sad.analysis.conditional) are remembered, and were remembered per depth: a run asked at
depth 5 and again at depth 6 was run twice. Inside a loop that changes a variable, a run tries the loop's
body, whose tests ask for other variables one level deeper each time, so that CTPMV's runs were asked
2 688 times for 63 values, each time at another depth.

A value whose work never met a limit is the same from any depth at which its deepest step stays within
every limit: from any shallower depth, and from a deeper one while the deepest step stays within the
lowest limit. A `Reach` notes, while a value is worked out, the deepest level asked and whether a limit
was met; a value that met one is remembered for its own depth only, as before.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass
class Reach:
    """The deepest level asked so far and whether a limit stopped anything, in the work under way."""
    deepest: int = 0
    limited: bool = False

    def past(self, depth: int, limit: int) -> bool:
        """Whether `depth` is past `limit` (the work gives up there), noted either way."""
        if depth > self.deepest:
            self.deepest = depth
        if depth > limit:
            self.limited = True
            return True
        return False


@dataclass(frozen=True)
class _Kept(Generic[T]):
    value: T
    depth: int  # the depth it was worked out at
    used: int  # levels below that depth its work asked for


class DepthMemo:
    """Values by key, each valid for the depths where the limits would not change it."""

    def __init__(self, reach: Reach, lowest_limit: int) -> None:
        self._reach = reach
        self._lowest = lowest_limit  # the least limit any step checks (a deeper start must stay within it)
        self._free: dict[object, _Kept] = {}  # worked out without meeting a limit
        self._limited: dict[tuple[object, int], _Kept] = {}  # met one: for its own depth only

    def get(self, key: object, depth: int, work: Callable[[], T]) -> T:
        """The value of `work()` at `depth`, remembered under `key` (everything else it depends on)."""
        reach = self._reach
        kept = self._free.get(key)
        if kept is not None and (depth <= kept.depth or depth + kept.used <= self._lowest):
            reach.past(depth + kept.used, 1 << 30)
            return kept.value
        exact = self._limited.get((key, depth))
        if exact is not None:
            reach.past(depth + exact.used, 1 << 30)
            reach.limited = True
            return exact.value
        outer = (reach.deepest, reach.limited)
        reach.deepest, reach.limited = depth, False
        try:
            value = work()
        finally:
            used, limited = reach.deepest - depth, reach.limited
            reach.deepest, reach.limited = max(outer[0], reach.deepest), outer[1] or limited
        if limited:
            self._limited[(key, depth)] = _Kept(value, depth, used)
        else:
            self._free[key] = _Kept(value, depth, used)  # covers every depth the one it replaces did
        return value

    def snapshot(self) -> tuple[dict, dict]:
        """The remembered values, to put back where a hypothesis they rest on fails (an induction)."""
        return dict(self._free), dict(self._limited)

    def restore(self, saved: tuple[dict, dict]) -> None:
        """Back to what `snapshot` returned."""
        self._free, self._limited = dict(saved[0]), dict(saved[1])
