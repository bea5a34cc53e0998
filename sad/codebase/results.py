"""What `sad check` knows of one file: its unit of work (the file and the codebase files it may call), the
options a result depends on, and the result — routines with their time formulas and values, diagnostics.

Plain data only (strings, numbers, lists), so that results are cached on disk, shipped between processes
and compared with a baseline written by another version of the code; and cheap to import, so that a run
whose results are all cached loads no analysis. The analysis itself is sad.codebase.routines.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, fields

from sad.codebase.points import PointSet


@dataclass(frozen=True)
class Options:
    """What a result depends on besides the sources (part of the cache key)."""
    machine: str  # a resolved path of the machine database
    points: PointSet
    include: tuple[str, ...] = ()
    defines: tuple[tuple[str, str], ...] = ()

    def to_jsonable(self) -> dict:
        """The options as a JSON object (part of the cache key and of the report)."""
        return {"machine": self.machine, "points": self.points.to_jsonable(), "include": list(self.include),
                "defines": [list(d) for d in self.defines]}


@dataclass(frozen=True)
class Unit:
    """One unit of work of `sad check`: a file, the files it depends on, and its cache key."""
    path: str  # as shown in reports (relative to `root` when given so)
    deps: tuple[str, ...]
    lines: int
    key: str = ""
    root: str = ""  # the directory relative paths start from (a worker's own may differ)
    loaded_by_others: bool = False  # another unit loads this file too (its routines are called there)

    def located(self, path: str) -> str:
        """`path` resolved against the unit's root directory (absolute paths unchanged)."""
        return path if not self.root or os.path.isabs(path) else os.path.join(self.root, path)


@dataclass
class Routine:
    """The check's result for one routine: its time formula, parameters, class and values at the points."""
    name: str
    file: str
    line: int
    language: str
    kind: str
    time: str  # seconds per call, a formula (sympy syntax) in the routine's parameters and subexpressions
    parameters: dict[str, str]  # symbol → kind (value, loop_count, branch_probability, call_cost, op_cost)
    points: dict[str, float | None]  # reference point name → seconds per call
    complexity: str  # 1, n, n^2, … in the value parameters together; ? when it cannot be read off
    unseen_calls: list[str] = field(default_factory=list)
    # [name, text] of the parts `time` names (_E1, _E2, …), in definition order: set when the formula written
    # out in full would be long (sad.common.formulatext)
    subexpressions: list[list[str]] = field(default_factory=list)
    # library mode's options (sad.codebase.options): symbol → the values the routine tests it against, and
    # per combination of them ("SIDE=L UPLO=U") the seconds per call at each reference point
    options: dict[str, list[str]] = field(default_factory=dict)
    by_option: dict[str, dict[str, float | None]] = field(default_factory=dict)
    # calls into routines of other files of the codebase priced by name (C_<callee>) because expanding them
    # passed --timeout (sad.codebase.runner); empty when every callee found was expanded
    named_calls: list[str] = field(default_factory=list)

    def to_jsonable(self) -> dict:
        """The routine as a JSON object: dataclasses.asdict's result (every field; the dicts and the list
        copied, their items are strings and numbers), without its recursive deep copy."""
        return {f.name: _copied(getattr(self, f.name)) for f in fields(self)}


def _copied(value):
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    return list(value) if isinstance(value, list) else value


@dataclass
class UnitResult:
    """The routines and diagnostics of one analyzed file (what the cache stores)."""
    path: str
    lines: int
    routines: list[Routine]
    diagnostics: list[dict]
    seconds: float = 0.0  # wall time of the analysis (not part of any output)
    cached: bool = False

    def to_jsonable(self) -> dict:
        """The unit's result as a JSON object (what the cache stores)."""
        return {"path": self.path, "lines": self.lines, "routines": [r.to_jsonable() for r in self.routines],
                "diagnostics": self.diagnostics}

    @classmethod
    def from_jsonable(cls, data: dict) -> UnitResult:
        """A unit result read back from `to_jsonable`'s form."""
        return cls(data["path"], data["lines"], [Routine(**r) for r in data["routines"]], data["diagnostics"])
