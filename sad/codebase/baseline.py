"""Baselines: the routines' predicted times stored once, and today's code compared with them.

Data flow: a run's results (sad.codebase.runner) → a baseline file (JSON: per routine its time formula, its
value at each reference point, its complexity class, its file and line) → on a later run, per routine present
in both, each reference point present in both: the ratio new/old, and the complexity classes → regressions
(grown; failing when over --fail-over or when the class grew), improvements, new and removed routines. A
routine whose calls into other files were priced by name in one run and not the other (its analysis passed
--timeout there: sad.codebase.runner) is not compared: the two times do not count the same work.

Routines are matched by name, so a routine that moves to another file or line is still the same routine; a
name defined in several files (two C programs' `main`) is matched by name@file.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from sad import __version__
from sad.codebase.results import Routine, UnitResult

FORMAT = "sad-check-baseline/1"
_GROWTH = 1e-9  # relative growth below this is rounding, not a change


class BaselineError(ValueError):
    """A baseline file that cannot be read."""


@dataclass
class Change:
    """A routine's time that changed between the baseline and this run, at one point or in class."""
    routine: str
    file: str
    line: int
    point: str | None  # None for a change of complexity class only
    old: float | None
    new: float | None
    old_class: str
    new_class: str
    level: str  # error (fails the check), warning (grew, under the threshold), note (improved)

    @property
    def ratio(self) -> float | None:
        """new/old, or None when either is missing or the old value is 0."""
        if self.old is None or self.new is None or self.old == 0:
            return None
        return self.new / self.old

    def to_jsonable(self) -> dict:
        """This change as a JSON object (ratio included)."""
        return {"routine": self.routine, "file": self.file, "line": self.line, "point": self.point,
                "old": self.old, "new": self.new, "ratio": self.ratio, "old_class": self.old_class,
                "new_class": self.new_class, "level": self.level}


@dataclass
class Comparison:
    """A run compared with a saved baseline: regressions, improvements, new and removed routines."""
    baseline: str
    regressions: list[Change] = field(default_factory=list)
    improvements: list[Change] = field(default_factory=list)
    new: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    not_compared: list[str] = field(default_factory=list)  # calls priced by name in one run only

    @property
    def failing(self) -> list[Change]:
        """The regressions at error level, which make the check fail."""
        return [c for c in self.regressions if c.level == "error"]

    def to_jsonable(self) -> dict:
        """The comparison as a JSON object."""
        return {"baseline": self.baseline, "regressions": [c.to_jsonable() for c in self.regressions],
                "improvements": [c.to_jsonable() for c in self.improvements], "new": self.new,
                "removed": self.removed, "not_compared": self.not_compared}


def routine_keys(results: list[UnitResult]) -> dict[str, Routine]:
    """Routine key → routine: the name, or name@file when several files define the name."""
    routines = [r for result in results for r in result.routines]
    seen: dict[str, int] = {}
    for r in routines:
        seen[r.name] = seen.get(r.name, 0) + 1
    return {(r.name if seen[r.name] == 1 else f"{r.name}@{r.file}"): r for r in routines}


def to_jsonable(results: list[UnitResult], machine: str, points: dict) -> dict:
    """The baseline document: every routine's time formula and values at the reference points."""
    routines = routine_keys(results)
    return {"format": FORMAT, "sad_version": __version__, "machine": machine, "points": points,
            "routines": {key: {"name": r.name, "file": r.file, "line": r.line, "time": r.time,
                               "subexpressions": r.subexpressions, "points": r.points, "complexity": r.complexity,
                               "named_calls": r.named_calls}
                         for key, r in sorted(routines.items())}}


def save(path: str, results: list[UnitResult], machine: str, points: dict) -> None:
    """Write a baseline file (sorted keys: the same results give the same bytes)."""
    Path(path).write_text(json.dumps(to_jsonable(results, machine, points), indent=1, sort_keys=True) + "\n")


def load(path: str) -> dict:
    """Read a baseline file; BaselineError names what is wrong with it."""
    try:
        data = json.loads(Path(path).read_text())
    except OSError as exc:
        raise BaselineError(f"{path}: error: cannot read the baseline: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise BaselineError(f"{path}:{exc.lineno}: error: not a JSON baseline: {exc.msg}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("routines"), dict):
        raise BaselineError(f"{path}:1: error: not a sad check baseline (format {FORMAT!r} expected)")
    return data


def compare(baseline: dict, path: str, results: list[UnitResult], fail_over: float | None,
            warn_only: bool = False) -> Comparison:
    """Today's routines against the baseline's; `fail_over` is the relative growth (0.05 for 5 %) past
    which a regression fails the check (None: only a grown complexity class fails); `warn_only`: none fails."""
    old_routines: dict[str, dict] = baseline["routines"]
    current = routine_keys(results)
    comparison = Comparison(path, new=sorted(k for k in current if k not in old_routines),
                            removed=sorted(k for k in old_routines if k not in current))
    for key in sorted(current.keys() & old_routines.keys()):
        new, old = current[key], old_routines[key]
        if new.named_calls != old.get("named_calls", []):
            comparison.not_compared.append(key)
            continue
        old_class = str(old.get("complexity", "?"))
        grew_class = class_grew(old_class, new.complexity) and not warn_only
        for point in sorted(new.points.keys() & (old.get("points") or {}).keys()):
            before, after = old["points"][point], new.points[point]
            if before is None or after is None:
                continue
            change = Change(key, new.file, new.line, point, before, after, old_class, new.complexity, "warning")
            if after > before * (1 + _GROWTH):
                failing = grew_class or (fail_over is not None and after > before * (1 + fail_over)
                                         and not warn_only)
                change.level = "error" if failing else "warning"
                comparison.regressions.append(change)
            elif after < before * (1 - _GROWTH):
                change.level = "note"
                comparison.improvements.append(change)
        if class_grew(old_class, new.complexity) and not any(c.routine == key for c in comparison.regressions):
            comparison.regressions.append(Change(key, new.file, new.line, None, None, None, old_class,
                                                 new.complexity, "error" if grew_class else "warning"))
    return comparison


def class_grew(old: str, new: str) -> bool:
    """The complexity class grew (n → n^2); False when either is unknown."""
    return _order(new) > _order(old) >= 0


def _order(klass: str) -> int:
    """1 → 0, n → 1, n^k → k; -1 when unknown."""
    if klass == "1":
        return 0
    if klass == "n":
        return 1
    if klass.startswith("n^") and klass[2:].isdigit():
        return int(klass[2:])
    return -1
