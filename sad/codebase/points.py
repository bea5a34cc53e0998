"""Reference points: where a routine's time formula is evaluated so that two versions can be compared.

Data flow: `--at NAME=V,...` options, or the `points:` of a config file (`.sad-check.yaml` at the top of
the checked tree, or `--config FILE`), else one point named `default` → per routine, each point's values
for the symbols of its formula, the rest from the defaults per parameter kind → seconds; and the formula's
complexity class in its size parameters.

A point's name matches a symbol by its full name (`DGEMM.M`) or by the part after the routine's dot (`M`,
then in any case: `N` binds C's `n` too), so one point serves every routine with a formal of that name.
Defaults per parameter kind (documented in the README, overridable under `defaults:` in the config file):

    value 100 (a formal argument or a value read at run time), loop_count 10, branch_probability the
    branch's own 1/arms, call_cost 1e-6 s (a routine outside the codebase), op_cost 1e-9 s.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import sympy
import yaml

from sad.analysis.counting import evaluate_sums
from sad.common.exprparse import ExprError, parse_expr

DEFAULTS: dict[str, float] = {"value": 100.0, "loop_count": 10.0, "call_cost": 1e-6, "op_cost": 1e-9}
CONFIG_NAME = ".sad-check.yaml"
# Sizes at which the complexity class is read off: every value parameter at n1, then at n2.
_N1, _N2 = 1000.0, 2000.0


class PointError(ValueError):
    """A reference point or config file that cannot be read; the message names where."""


@dataclass(frozen=True)
class Point:
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


def point_set(at: list[str], config: str | None, roots: list[str]) -> PointSet:
    """--at wins over a config file; a config file is --config or .sad-check.yaml in a checked directory."""
    if config is None:
        for root in roots:
            candidate = Path(root) / CONFIG_NAME
            if Path(root).is_dir() and candidate.is_file():
                config = str(candidate)
                break
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


def evaluate(expr: sympy.Expr, values: dict[str, float]) -> float | None:
    """The formula's value with every symbol bound; None if it does not evaluate to a finite number."""
    number: float | None
    try:
        number = _numeric(expr, values)
    except _Fallback:
        number = _sympy_value(expr, values)
    except (ValueError, ZeroDivisionError, OverflowError, KeyError, TypeError):
        return None
    return number if number is not None and math.isfinite(number) else None


class _Fallback(Exception):
    """A node the float walk does not know: evaluate the whole formula with sympy instead."""


_RELATIONS = {sympy.Lt: lambda a, b: a < b, sympy.Le: lambda a, b: a <= b, sympy.Gt: lambda a, b: a > b,
              sympy.Ge: lambda a, b: a >= b, sympy.Eq: lambda a, b: a == b, sympy.Ne: lambda a, b: a != b}


def _numeric(e: sympy.Basic, v: dict[str, float]) -> float:
    """A float walk over the formula's tree: rebuilding a large formula with numbers (xreplace) makes
    sympy re-evaluate every Max and Piecewise on the way, a hundred times slower. Reference points are
    floats anyway; anything unusual (sums, intrinsics) falls back to sympy."""
    if e.is_Number:
        return float(e)
    if e.is_Symbol:
        return float(v[e.name])
    if e.is_Add:
        return math.fsum(_numeric(a, v) for a in e.args)
    if e.is_Mul:
        return math.prod(_numeric(a, v) for a in e.args)
    if e.is_Pow:
        return _numeric(e.base, v) ** _numeric(e.exp, v)
    if isinstance(e, sympy.Max):
        return max(_numeric(a, v) for a in e.args)
    if isinstance(e, sympy.Min):
        return min(_numeric(a, v) for a in e.args)
    if isinstance(e, sympy.floor):
        return float(math.floor(_numeric(e.args[0], v)))
    if isinstance(e, sympy.ceiling):
        return float(math.ceil(_numeric(e.args[0], v)))
    if isinstance(e, sympy.Piecewise):
        for value, cond in e.args:
            if _truth(cond, v):
                return _numeric(value, v)
        raise _Fallback
    raise _Fallback


def _truth(c: sympy.Basic, v: dict[str, float]) -> bool:
    if c is sympy.true:
        return True
    if c is sympy.false:
        return False
    op = _RELATIONS.get(type(c))
    if op is not None:
        return op(_numeric(c.args[0], v), _numeric(c.args[1], v))
    if isinstance(c, sympy.And):
        return all(_truth(a, v) for a in c.args)
    if isinstance(c, sympy.Or):
        return any(_truth(a, v) for a in c.args)
    if isinstance(c, sympy.Not):
        return not _truth(c.args[0], v)
    raise _Fallback


def _sympy_value(expr: sympy.Expr, values: dict[str, float]) -> float | None:
    subs = {s: sympy.Float(values[s.name], 15) for s in expr.free_symbols if s.name in values}
    bound = expr.xreplace(subs)
    if bound.has(sympy.Sum):
        bound = evaluate_sums(bound)
    try:
        return float(bound)
    except (TypeError, ValueError):
        return None


def complexity(expr: sympy.Expr, base: dict[str, float], sizes: list[str]) -> str:
    """The growth of the formula when every size parameter grows together: `1`, `n`, `n^2`, … read off
    the ratio of its values at n = 1000 and n = 2000 (exponent rounded to the nearest integer)."""
    if not sizes:
        return "1"
    lo = evaluate(expr, {**base, **{name: _N1 for name in sizes}})
    hi = evaluate(expr, {**base, **{name: _N2 for name in sizes}})
    if lo is None or hi is None or lo <= 0 or hi <= 0:
        return "?"
    exponent = round(math.log2(hi / lo))
    return "1" if exponent <= 0 else ("n" if exponent == 1 else f"n^{exponent}")
