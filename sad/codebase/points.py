"""Reference points: where a routine's time formula is evaluated so that two versions can be compared.

Data flow: `--at NAME=V,...` options, or the `points:` of a config file (`.sad-check.yaml` in a checked
directory or above it up to the repository's root, or `--config FILE`), else one point named `default` →
per routine, each point's values for the symbols of its formula, the rest from the defaults per parameter
kind (the formulas are evaluated by sad.codebase.formulas).

A point's name matches a symbol by its full name (`DGEMM.M`) or by the part after the routine's dot (`M`,
then in any case: `N` binds C's `n` too), so one point serves every routine with a formal of that name.
Defaults per parameter kind (documented in the README, overridable under `defaults:` in the config file):

    value 100 (a formal argument or a value read at run time; a LOGICAL one tested as it is is true, as any
    value but 0), loop_count 10, branch_probability the branch's own 1/arms, call_cost 1e-6 s (a routine
    outside the codebase), op_cost 1e-9 s.

The trips of a loop left early by a jump are derived from its exits instead, when the point does not give
them (sad.codebase.formulas.early_trips): the loop falls through 1 - X·q times per entry, which 10 trips and
an exit of probability 1/2 would make negative.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import yaml

DEFAULTS: dict[str, float] = {"value": 100.0, "loop_count": 10.0, "call_cost": 1e-6, "op_cost": 1e-9}
CONFIG_NAME = ".sad-check.yaml"


class PointError(ValueError):
    """A reference point or config file that cannot be read; the message names where."""


@dataclass(frozen=True)
class Point:
    """A named reference point: parameter values at which routine times are evaluated."""
    name: str
    values: tuple[tuple[str, float], ...]

    def lookup(self, symbol: str) -> float | None:
        """The value for `symbol`: by its full name, else by the name after the routine's dot, else by that
        name in any case (so that `N` also binds C's `n`)."""
        short = symbol.rsplit(".", 1)[-1]
        table = dict(self.values)
        for key in (symbol, short):
            if key in table:
                return table[key]
        folded = {name.upper(): value for name, value in sorted(self.values)}
        return folded.get(short.upper())


@dataclass(frozen=True)
class PointSet:
    """The reference points of a check, and default values for parameters no point names."""
    points: tuple[Point, ...]
    defaults: tuple[tuple[str, float], ...] = field(default_factory=lambda: tuple(sorted(DEFAULTS.items())))

    def default(self, kind: str) -> float | None:
        """The default value for an unresolved parameter of `kind` (value, loop_count, ...), or None."""
        return dict(self.defaults).get(kind)

    def to_jsonable(self) -> dict:
        """The point set as a JSON object (point name → values, and the defaults)."""
        return {"points": {p.name: dict(p.values) for p in self.points}, "defaults": dict(self.defaults)}


def parse_at(text: str, ordinal: int) -> Point:
    """`--at NAME=V,NAME=V` (optionally `LABEL:NAME=V,...`) → a point named LABEL or `at<ordinal>`."""
    label = f"at{ordinal}"
    if ":" in text.split("=", 1)[0]:
        label, text = text.split(":", 1)
    values: dict[str, float] = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise PointError(f"--at {text}: '{item}' is not NAME=VALUE")
        values[name.strip()] = _number(value.strip(), f"--at {item}")
    return Point(label.strip(), tuple(sorted(values.items())))


def _number(text: str, where: str) -> float:
    from sad.common.exprparse import ExprError, parse_expr  # sympy: only when a value is given
    try:
        expr = parse_expr(text)
    except ExprError as exc:
        raise PointError(f"{where}: {exc}") from None
    if expr.free_symbols:
        raise PointError(f"{where}: a reference value must be a number")
    return float(expr)


def load_config(path: str) -> PointSet:
    """`points: {NAME: {SYM: V, ...}, ...}` and `defaults: {KIND: V}` from a YAML file (safe loading)."""
    try:
        data = yaml.safe_load(Path(path).read_text()) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise PointError(f"{path}: error: {exc}") from None
    if not isinstance(data, dict):
        raise PointError(f"{path}:1: error: expected a mapping with 'points' and 'defaults'")
    points = []
    for label, values in sorted((data.get("points") or {}).items()):
        if not isinstance(values, dict):
            raise PointError(f"{path}: error: points.{label}: expected a mapping NAME: VALUE")
        points.append(Point(str(label), tuple(sorted((str(k), _number(str(v), f"{path}: points.{label}.{k}"))
                                                     for k, v in values.items()))))
    defaults = dict(DEFAULTS)
    for kind, value in (data.get("defaults") or {}).items():
        if kind not in DEFAULTS:
            raise PointError(f"{path}: error: defaults.{kind}: unknown kind (one of {', '.join(DEFAULTS)})")
        defaults[kind] = _number(str(value), f"{path}: defaults.{kind}")
    return PointSet(tuple(points) or (Point("default", ()),), tuple(sorted(defaults.items())))


def find_config(paths: list[str]) -> str | None:
    """The .sad-check.yaml that applies to the checked paths, found as ruff and gcovr find theirs: from each
    path (a directory, or a file's directory) upward, up to the repository's root (a directory holding .git)
    or the file system's root; the first path's nearest one wins."""
    for path in paths:
        here = Path(path).resolve()
        directory = here if here.is_dir() else here.parent
        for candidate_dir in (directory, *directory.parents):
            candidate = candidate_dir / CONFIG_NAME
            if candidate.is_file():
                return os.path.relpath(candidate) if candidate.is_relative_to(Path.cwd()) else str(candidate)
            if (candidate_dir / ".git").exists():
                break
    return None


def point_set(at: list[str], config: str | None, roots: list[str]) -> PointSet:
    """--at wins over a config file; a config file is --config or the .sad-check.yaml find_config finds."""
    if config is None:
        config = find_config(roots)
    base = load_config(config) if config else PointSet((Point("default", ()),))
    if at:
        return PointSet(tuple(parse_at(text, i + 1) for i, text in enumerate(at)), base.defaults)
    return base


def values_at(point: Point, points: PointSet, kinds: dict[str, tuple[str, float | None]]) -> dict[str, float]:
    """Every symbol's value at a point: the point's own, else its kind's default (a probability's
    default is the branch's own 1/arms)."""
    out: dict[str, float] = {}
    for name, (kind, own_default) in kinds.items():
        value = point.lookup(name)
        if value is None:
            value = own_default if kind == "branch_probability" and own_default is not None \
                else points.default(kind)
        out[name] = value if value is not None else 0.0
    return out
