"""Values with units in machine files: "25 ns", "(3 + 1 + 9) cycles", "1.67 MB/s", "40 MHz" -> exact numbers.

Data flow: ``sad.machine.model`` hands every figure of a machine file to this module and stores the result in SI
units (seconds, bytes per second, hertz) as ``fractions.Fraction``; the mapper later multiplies op counts by them.

Conventions (those of the reference tables): a plain number is seconds (resp. bytes/s, Hz); 1 MB = 10^6 bytes
(pint's SI prefixes; "MiB" is 2^20); "N cycles" is N times the processor's clock period. The number part may be
a constant expression parsed by ``sad.common.exprparse`` ("(2 + 1 + 4) cycles", "1/2.36 us"), which keeps figures
derivable and exact.

Units are looked up with ``pint``. pint never evaluates Python: ``parse_units`` tokenises with the standard
``tokenize`` module and folds tokens with its own small evaluator (``pint.pint_eval.build_eval_tree``); the
only ``eval(`` in pint 0.25 is in its test-suite helpers (checked). In addition only a strict unit pattern
(letters, ``/``, ``*``, ``^digit``) ever reaches pint.

pint's answer for a unit text (its factor to the root units and the root units) is remembered in
``$XDG_CACHE_HOME/sad/units.json`` (default ``~/.cache/sad``), stamped with pint's definitions file: importing
pint (with numpy and, where installed, dask) was a third of the start-up of every `sad analyze`, for the
same dozen units each time. Another pint installation (a changed definitions file) starts a fresh table; an
unwritable cache only means asking pint every time.
"""
from __future__ import annotations

import math
import re
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from sad.common.cachefiles import package_stamp, read_json, write_json
from sad.common.exprparse import ExprError, parse_expr

if TYPE_CHECKING:
    import pint

Number = int | float | Fraction
UNITS_FILE = "units.json"  # under sad.common.cachefiles.cache_home()

_SIMPLE = re.compile(r"^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(.*?)\s*$")
_GENERAL = re.compile(r"^\s*(.*[\d).])\s+(\S.*?)\s*$")
_UNIT = re.compile(r"^[A-Za-zµμ_]+\d?(?:\s*[/*]\s*[A-Za-zµμ_]+\d?|\^\d)*$")
_CYCLES = {"cycle", "cycles", "clock", "clocks", "clk"}
_KIND_ROOT = {"time": "second", "bandwidth": "bit / second", "frequency": "1 / second"}
_KIND_EXAMPLE = {"time": "'25 ns'", "bandwidth": "'1.67 MB/s'", "frequency": "'40 MHz'"}
_KIND_PER_BIT = {"time": Fraction(1), "bandwidth": Fraction(1, 8), "frequency": Fraction(1)}


class UnitError(ValueError):
    """A value that is not a number with a unit of the expected dimension."""


@lru_cache(maxsize=1)
def _registry() -> pint.UnitRegistry:
    # The parsed unit definitions are cached on disk by pint (its user cache folder): building the registry
    # from its text costs over a second at every start of the command otherwise. A cache folder that cannot be
    # made (a read-only home, XDG_CACHE_HOME naming a file) only costs that second.
    import pint
    try:
        return pint.UnitRegistry(cache_folder=":auto:")
    except OSError:
        return pint.UnitRegistry()


def _root_units(unit: str) -> tuple[Fraction, str] | None:
    """pint's (factor, root units) for a unit text, None when pint does not know it; remembered on disk
    (see the module docstring). Unknown units are not remembered: their error comes from pint each time."""
    table = _known_units()
    known = table["units"].get(unit)
    if known is not None:
        return Fraction(known[0]), known[1]
    import pint
    registry = _registry()
    try:
        factor, root = registry.get_root_units(registry.parse_units(unit))
    except (pint.errors.PintError, AttributeError, TypeError, ValueError, SyntaxError):
        return None
    text = repr(float(factor))  # type: ignore[arg-type]  # pint's factor: a float
    answer = (Fraction(text), str(root))
    table["units"][unit] = [text, answer[1]]
    write_json(UNITS_FILE, table)
    return answer


@lru_cache(maxsize=1)
def _known_units() -> dict:
    """The remembered table {"pint": stamp, "units": {text: [factor, root]}}, empty for another pint."""
    stamp = _pint_stamp()
    table = read_json(UNITS_FILE)
    if isinstance(table, dict) and table.get("pint") == stamp and isinstance(table.get("units"), dict) and all(
            isinstance(v, list) and len(v) == 2 and all(isinstance(x, str) for x in v)
            for v in table["units"].values()):
        return table
    return {"pint": stamp, "units": {}}


def _pint_stamp() -> str:
    """Which pint answers: its unit definitions file's path, size and time, found without importing it."""
    return package_stamp("pint", "default_en.txt")


def parse_time(value: object, clock_hz: Number | None = None, allow_negative: bool = False) -> Fraction:
    """Seconds from "25 ns", "3 cycles" (needs clock_hz), "1e-6" or a plain number (seconds)."""
    return parse_quantity(value, "time", clock_hz, allow_negative)


def parse_bandwidth(value: object, allow_negative: bool = False) -> Fraction:
    """Bytes per second from "1.67 MB/s" (1 MB = 10^6 bytes), "10 Mbit/s" or a plain number (bytes/s)."""
    return parse_quantity(value, "bandwidth", None, allow_negative)


def parse_frequency(value: object, allow_negative: bool = False) -> Fraction:
    """Hertz from "40 MHz" or a plain number (Hz)."""
    return parse_quantity(value, "frequency", None, allow_negative)


def parse_quantity(value: object, kind: str, clock_hz: Number | None = None,
                   allow_negative: bool = False) -> Fraction:
    """The value of ``value`` in SI units of ``kind`` ("time" | "bandwidth" | "frequency"), exactly."""
    if kind not in _KIND_ROOT:
        raise ValueError(f"unknown quantity kind {kind!r}")
    number, unit = _split(value, kind)
    result = number * _unit_factor(unit, kind, clock_hz, value)
    if result < 0 and not allow_negative:
        raise UnitError(f"negative {kind} '{_show(value)}'")
    return result


def _show(value: object) -> str:
    return str(value).strip()


def _split(value: object, kind: str) -> tuple[Fraction, str]:
    """(number, unit text) of a figure; a plain number has unit ''."""
    if isinstance(value, bool) or value is None:
        raise UnitError(f"expected a {kind} such as {_KIND_EXAMPLE[kind]}, got {value!r}")
    if isinstance(value, (int, Fraction)):
        return Fraction(value), ""
    if isinstance(value, float):
        if not math.isfinite(value):
            raise UnitError(f"{kind} must be finite, got {value!r}")
        return Fraction(repr(value)), ""
    if not isinstance(value, str):
        raise UnitError(f"expected a {kind} such as {_KIND_EXAMPLE[kind]}, got {type(value).__name__}")
    simple = _SIMPLE.match(value)
    if simple and (not simple.group(2) or _UNIT.match(simple.group(2))):
        return Fraction(simple.group(1)), simple.group(2)
    general = _GENERAL.match(value)
    if general and _UNIT.match(general.group(2)):
        return _constant(general.group(1), value), general.group(2)
    return _constant(value, value), ""


def _constant(text: str, value: str) -> Fraction:
    try:
        expr = parse_expr(text, names=set())
    except ExprError as exc:
        raise UnitError(f"bad value '{value.strip()}': {exc.message}") from None
    if not expr.is_Rational:
        expr = expr.evalf(30)
        if not expr.is_Float:
            raise UnitError(f"bad value '{value.strip()}': not a real number")
        return Fraction(str(expr))
    return Fraction(int(expr.p), int(expr.q))


def _unit_factor(unit: str, kind: str, clock_hz: Number | None, value: object) -> Fraction:
    """Factor from ``unit`` to the SI unit of ``kind``; '' is 1; cycles need the clock."""
    if not unit:
        return Fraction(1)
    if unit.lower() in _CYCLES:
        if kind != "time":
            raise UnitError(f"'{_show(value)}' is a time, expected a {kind} such as {_KIND_EXAMPLE[kind]}")
        if not clock_hz:
            raise UnitError(f"'{_show(value)}' is in cycles but no processor clock is given")
        return 1 / Fraction(clock_hz)
    answer = _root_units(unit.replace("μ", "µ"))
    if answer is None:
        raise UnitError(f"unknown unit '{unit}' in '{_show(value)}'")
    factor, root = answer
    if root != _KIND_ROOT[kind]:
        raise UnitError(f"'{_show(value)}' is {_describe(root)}, expected a {kind} such as {_KIND_EXAMPLE[kind]}")
    return factor * _KIND_PER_BIT[kind]


def _describe(root: str) -> str:
    for kind, text in _KIND_ROOT.items():
        if root == text:
            return f"a {kind}"
    return f"in units of '{root}'"
