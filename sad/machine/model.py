"""The machine database: a YAML file describing one machine, loaded, checked and priced for the mapper.

Data flow: the cost counter emits cost vectors keyed by ``sad.ir.ops`` keys; ``load_machine`` reads a file from
``machine_db/`` (or any path), validates it against ``machine_db/schema.json``, converts every figure with
``sad.machine.units`` and every programming-model expression with ``sad.common.exprparse``; the mapper then asks
``Machine.op_cost(key)`` (seconds per operation) and ``Machine.message_time(primitive, nbytes, nprocs)``.

File format (three levels, see machine_db/schema.json and machine_db/sparc2.yaml; its versions and their
changes are listed in sad.machine.versions)::

    format_version: 4
    name: sparc2
    source: where the numbers come from
    models: {compiler: GNU C 2.7, optimization: -O0}
    processor:
      clock: 40 MHz
      ops: {double: {add: (3 + 1 + 4) cycles, ...}, integer: {...}, real: {...}}
      logical: 4 cycles
      bitop: 4 cycles
      intrinsics: {default: 200 cycles, SQRT: {real: 70 cycles, double: 100 cycles}, ABS: 8 cycles}
      memory: {index: 4 cycles, load: {double: 3 cycles, default: 3 cycles}, store: 3 cycles}
      control: {loop_start: ..., loop_iter: ..., branch: ..., goto: ..., call: ...}
      io: {statement: 50 us, item: 10 us, open: 1 ms}
      library: {malloc: 200 ns, memcpy: {call: 20 ns, byte: 0.1 ns}, qsort: {call: 50 ns, nlogn: 5 ns}}
    communication:
      topology: {kind: hypercube, dimension: 7}
      send_setup: 100 us
      recv_setup: 73 us
      link_bandwidth: 1.67 MB/s
      copy_bandwidth: 5.35 MB/s
    programming_model:
      send: send_setup + b/copy_bandwidth + b/link_bandwidth
      recv: recv_setup + b/copy_bandwidth
      comm: send + recv
      bcast: ceil(log2(P)) * comm

Lookup fallbacks of ``op_cost`` (first figure present wins; None if none):
    <op>.<type>              processor.ops.<type>.<op>
    logical / bitop          processor.logical / processor.bitop
    intrinsic.<NAME>.<type>  intrinsics.<NAME>.<type> -> intrinsics.<NAME>.default -> intrinsics.<NAME>
                             -> intrinsics.default
    index                    memory.index
    load.<type> / store.<type>   memory.load.<type> -> memory.load.default -> memory.load   (same for store)
    load_strided.<type>      memory.load_strided.<type> -> memory.load_strided.default -> memory.load_strided
                             -> then as load.<type> (same for store_strided -> store): a machine without
                             strided figures prices a strided reference as a unit-stride one
    loop_start ... call      control.<key>
    select                   control.select -> control.branch (a machine whose compilers emit no
                             conditional moves prices a select as the branch it compiles to)
    startup                  control.startup (optional: seconds once per program run; None if absent)
    io.<kind>                io.<kind> -> io.statement
    lib.<name>               library.<name>.call -> library.<name> (one call of a C library routine)
    lib.<name>.<unit>        library.<name>.<unit> (its work per byte, per n·log2 n, ...: sad.analysis.libcalls)
    io_item                  io.item
    msg.<kind>               None: messages depend on their size; use message_time(kind, nbytes, nprocs)
    anything else            None
"""
from __future__ import annotations

import difflib
import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import sympy
import yaml

from sad.common.exprparse import ExprError, parse_expr
from sad.ir import ops
from sad.machine.files import available_machines, resolve_path
from sad.machine.hierarchy import Hierarchy, from_database
from sad.machine.schema_cache import known_valid, remember_valid, validity_key
from sad.machine.units import UnitError, parse_bandwidth, parse_frequency, parse_time
from sad.machine.versions import FORMAT_VERSION, VersionError, file_version, upgrade
from sad.machine_db import DB_DIR

if TYPE_CHECKING:
    import jsonschema

SCHEMA_PATH = DB_DIR / "schema.json"
B, P = sympy.Symbol("b"), sympy.Symbol("P")
"""The message size in bytes and the process count in programming-model expressions."""
COMM_TIMES = ("latency", "send_setup", "recv_setup")
COMM_BANDWIDTHS = ("link_bandwidth", "copy_bandwidth")
MAX_ERRORS = 10
STRIDED_KEYS = {"load_strided": "load", "store_strided": "store"}
"""Strided memory keys and the unit-stride key they fall back to when the machine has no strided figure."""
MAX_NODES = 20000

KeyPath = tuple[str | int, ...]


class MachineError(Exception):
    """A machine file that cannot be used; the message is 'FILE[:LINE]: error: KEY.PATH: what' (one per line)."""


@dataclass(frozen=True, eq=False)
class Machine:
    """A loaded machine database. Figures are exact SI values (seconds, bytes/s, Hz)."""

    name: str
    path: Path
    source: str
    description: str
    models: Mapping[str, str]
    clock_hz: Fraction
    figures: Mapping[str, Fraction]
    """Dotted key path in the file -> value: 'processor.ops.double.mul' -> seconds,
    'communication.link_bandwidth' -> B/s."""
    topology: Mapping[str, object] = field(default_factory=dict)
    primitives: Mapping[str, sympy.Expr] = field(default_factory=dict)
    """Primitive -> expression in the symbols b (bytes) and P (processes), machine figures substituted."""
    expressions: Mapping[str, str] = field(default_factory=dict)
    """Primitive -> the expression text as written in the file."""
    format_version: int = FORMAT_VERSION
    """The format version the file declared (sad.machine.versions); the data was upgraded to the current one."""
    hierarchy: Hierarchy | None = None
    """Measured clock, cache levels and their line costs (machines calibrated on this host), or None."""
    loggp: Mapping[str, Fraction] = field(default_factory=dict)
    """communication.loggp: o_s, o_r, g, L (seconds), O_s, O_r, G (seconds per byte) for sad.predict.timeline."""
    dma: bool = True
    """communication.dma: whether computation goes on while a message is transferred."""
    pipelined: bool = False
    """communication.pipelined: whether a send's transfer follows its copy into the buffer as it fills it."""
    collectives: Mapping[str, str] = field(default_factory=dict)
    """programming_model.collectives: collective -> the algorithm simulated (sad.predict.collectives)."""
    cores: int = 0
    """communication.cores: the cores the processes of a run share (one node); 0: one processor each."""

    def op_cost(self, key: str) -> float | None:
        """Seconds for one operation ``key`` (a sad.ir.ops key), or None if the machine does not price it."""
        found = self.resolve(key)
        return None if found is None else float(found[1])

    def resolve(self, key: str) -> tuple[str, Fraction] | None:
        """(figure path used, exact seconds) for ``key`` after the documented fallbacks, or None."""
        for path in _candidates(key):
            if path in self.figures:
                return path, self.figures[path]
        return None

    def message_time(self, primitive: str, nbytes: object, nprocs: object) -> sympy.Expr:
        """Seconds for one ``primitive`` ('send' or 'msg.send') of ``nbytes`` bytes among ``nprocs`` processes.

        nbytes, nprocs: numbers or sympy expressions (a symbolic size gives a symbolic time).
        Raises MachineError if the machine has no such primitive.
        """
        name = primitive.lower().removeprefix("msg.")
        expr = self.primitives.get(name)
        if expr is None:
            known = ", ".join(sorted(self.primitives)) or "none"
            raise MachineError(f"{self.path}: error: programming_model: no primitive '{name}' (known: {known})")
        return expr.xreplace({B: _to_sympy(nbytes), P: _to_sympy(nprocs)})

    @property
    def models_text(self) -> str:
        """The `models:` fields as report headers show them: `compiler GNU C 2.7, optimization -O0`."""
        return ", ".join(f"{k} {v}" for k, v in self.models.items())

    def summary(self) -> str:
        """A few lines describing the machine for reports."""
        lines = [f"machine {self.name} ({self.path})"]
        if self.description:
            lines.append(f"  {self.description.strip().splitlines()[0]}")
        lines.append("  models: " + ", ".join(f"{k} {v}" for k, v in self.models.items()))
        lines.append(f"  clock: {_fmt_number(self.clock_hz / 10**6)} MHz ({_fmt_time(1 / self.clock_hz)} per cycle)")
        shown = [k for k in ("add.double", "mul.double", "div.double", "add.integer", "load.double",
                             "loop_iter", "branch", "call", "intrinsic.SQRT.double")]
        own = [k for k in ("load_strided.double", "startup")          # shown only when priced by its own figure
               if (found := self.resolve(k)) is not None and found[0].split(".")[2] == k.split(".")[0]]
        priced = [(k, found[1]) for k in shown + own if (found := self.resolve(k)) is not None]
        lines.append("  processor: " + ", ".join(f"{k} {_fmt_time(seconds)}" for k, seconds in priced))
        if self.topology:
            lines.append("  communication: " + _describe_topology(self.topology) + "".join(
                f", {k} {_fmt_figure(k, self.figures[f'communication.{k}'])}"
                for k in COMM_TIMES + COMM_BANDWIDTHS if f"communication.{k}" in self.figures))
        for name, text in self.expressions.items():
            lines.append(f"  {name}(b, P) = {text}")
        lines.append("  source: " + " ".join(self.source.split())[:200])
        return "\n".join(lines)


def _candidates(key: str) -> list[str]:
    """Figure paths to try, in order, for an operation key."""
    parts = ops.split(key)
    head, n = parts[0], len(parts)
    if n == 2 and head in ops.ARITH_KEYS and parts[1] in ops.DATA_TYPES:
        return [f"processor.ops.{parts[1]}.{head}"]
    if n == 1 and head in ("logical", "bitop"):
        return [f"processor.{head}"]
    if key == "select":
        return ["processor.control.select", "processor.control.branch"]
    if n == 1 and head in ops.CONTROL_KEYS:
        return [f"processor.control.{head}"]
    if key == "index":
        return ["processor.memory.index"]
    if key == "startup":
        return ["processor.control.startup"]
    if n == 2 and head in STRIDED_KEYS and parts[1] in ops.DATA_TYPES:
        unit = STRIDED_KEYS[head]
        return ([f"processor.memory.{head}.{parts[1]}", f"processor.memory.{head}.default",
                 f"processor.memory.{head}"] + _candidates(f"{unit}.{parts[1]}"))
    if n == 2 and head in ops.MEMORY_KEYS and parts[1] in ops.DATA_TYPES:
        base = f"processor.memory.{head}"
        return [f"{base}.{parts[1]}", f"{base}.default", base]
    if head == "intrinsic" and n in (2, 3):
        base = f"processor.intrinsics.{parts[1].upper()}"
        typed = [f"{base}.{parts[2]}"] if n == 3 and parts[2] in ops.DATA_TYPES else []
        return typed + [f"{base}.default", base, "processor.intrinsics.default"]
    if head == "io" and n == 2:
        return [f"processor.io.{parts[1]}", "processor.io.statement"]
    if head == "lib" and n == 2:
        return [f"processor.library.{parts[1]}.call", f"processor.library.{parts[1]}"]
    if head == "lib" and n == 3:
        return [f"processor.library.{parts[1]}.{parts[2]}"]
    if key == "io_item":
        return ["processor.io.item"]
    return []


def _to_sympy(value: object) -> sympy.Expr:
    if isinstance(value, sympy.Basic):
        return value
    if isinstance(value, bool):
        raise TypeError(f"expected a number or sympy expression, got {value!r}")
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    if isinstance(value, float):
        return sympy.Float(value)
    if isinstance(value, str):
        return parse_expr(value)
    raise TypeError(f"expected a number or sympy expression, got {type(value).__name__}")


# ---------------------------------------------------------------------------------------------- loading


def load_machine(name_or_path: str | Path) -> Machine:
    """Load, validate and convert a machine file (cached per file and modification time)."""
    path = resolve_path(name_or_path)
    try:
        stat = path.stat()
    except OSError as exc:
        if path.parent == DB_DIR:  # a name, not a path: say so without the tool's install path
            shipped = available_machines()
            close = difflib.get_close_matches(path.stem.lower(), shipped, n=1, cutoff=0.6)
            hint = f"did you mean '{close[0]}'? " if close else ""
            raise MachineError(f"sad: error: unknown machine '{name_or_path}': {hint}(shipped machines: "
                               f"{', '.join(shipped)}; or give the path of a YAML file)") from None
        raise MachineError(f"{path}: error: cannot read machine file: {exc.strerror}") from None
    return _load_cached(str(path.resolve()), str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=64)
def _load_cached(resolved: str, shown: str, mtime_ns: int, size: int) -> Machine:
    return _Loader(Path(shown)).load()


@lru_cache(maxsize=1)
def _schema_text() -> str:
    return SCHEMA_PATH.read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    import jsonschema  # only for a file not known valid (sad.machine.schema_cache): a tenth of a second
    return jsonschema.Draft202012Validator(json.loads(_schema_text()))


# libyaml's parser with PyYAML's safe constructor and resolver when PyYAML was built with it: the same
# nodes, marks and values as yaml.SafeLoader, about 15 times faster (30 ms of every `sad analyze` for sparc2).
_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader:
    """One load of one file; collects errors with their key paths and lines."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines: dict[KeyPath, int] = {}
        self.errors: list[tuple[int, str]] = []
        self.visited = 0
        self.declared = FORMAT_VERSION  # the file's format_version, set by upgrade()
        self.text = ""  # the file's text, set by read_yaml()

    # -- reporting
    def error(self, where: KeyPath, message: str, line: int | None = None) -> None:
        line = line or self.line_of(where)
        dotted = ".".join(str(p) for p in where)
        prefix = f"{self.path}:{line}" if line else f"{self.path}"
        self.errors.append((line or 0, f"{prefix}: error: {dotted + ': ' if dotted else ''}{message}"))

    def line_of(self, where: KeyPath) -> int | None:
        for end in range(len(where), -1, -1):
            if where[:end] in self.lines:
                return self.lines[where[:end]]
        return None

    def raise_errors(self) -> None:
        if self.errors:
            ordered = [text for _, text in sorted(self.errors, key=lambda e: e[0])]
            more = len(ordered) - MAX_ERRORS
            message = "\n".join(ordered[:MAX_ERRORS]) + (f"\n({more} more errors)" if more > 0 else "")
            raise MachineError(message)

    # -- stages
    def load(self) -> Machine:
        data = self.read_yaml()
        data = self.upgrade(data)
        self.validate(data)
        machine = self.convert(data)
        self.raise_errors()
        return machine

    def read_yaml(self) -> dict:
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise MachineError(f"{self.path}: error: cannot read machine file: {exc}") from None
        self.text = text
        try:
            data = self.compose_and_construct(_FAST_LOADER)
        except yaml.YAMLError as exc:
            if _FAST_LOADER is yaml.SafeLoader:
                raise MachineError(self.yaml_message(exc)) from None
            # libyaml words its errors differently: the message is the pure-Python parser's, as always
            self.lines, self.visited = {}, 0
            try:
                data = self.compose_and_construct(yaml.SafeLoader)
            except yaml.YAMLError as exc:
                raise MachineError(self.yaml_message(exc)) from None
        if not isinstance(data, dict):
            raise MachineError(f"{self.path}: error: a machine file must be a YAML mapping "
                               f"(name, source, models, processor, ...), got {type(data).__name__}")
        return data

    def compose_and_construct(self, loader_class) -> Any:
        """The document, in two steps (what yaml.safe_load does) to keep the node marks for line numbers."""
        loader = loader_class(self.text)
        try:
            node = loader.get_single_node()
            if node is not None:
                self.record_lines(node, ())
                self.raise_errors()
            return loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()

    def yaml_message(self, exc: yaml.YAMLError) -> str:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        where = f"{self.path}:{mark.line + 1}" if mark else f"{self.path}"
        problem = getattr(exc, "problem", None) or str(exc)
        context = getattr(exc, "context_mark", None)
        if context is not None and mark is not None and context.line != mark.line:
            problem += f" ({getattr(exc, 'context', None) or 'started'} at line {context.line + 1})"
        return f"{where}: error: invalid YAML: {problem}"

    def record_lines(self, node: yaml.Node, where: KeyPath, stack: frozenset[int] = frozenset()) -> None:
        """Line of every key path; duplicate keys are errors (PyYAML would silently keep the last).

        Aliases are followed, but a self-containing alias or an alias bomb (more than MAX_NODES nodes) is
        rejected before anything walks the constructed data."""
        self.visited += 1
        if self.visited > MAX_NODES or id(node) in stack:
            mark = node.start_mark.line + 1
            raise MachineError(f"{self.path}:{mark}: error: {'.'.join(map(str, where))}: "
                               "YAML too large or recursive (aliases)")
        stack = stack | {id(node)}
        self.lines.setdefault(where, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            seen: set[str] = set()
            for key_node, value_node in node.value:
                key = str(key_node.value)
                child = where + (key,)
                if key in seen:
                    self.error(child, "duplicate key", line=key_node.start_mark.line + 1)
                    continue
                seen.add(key)
                self.lines[child] = key_node.start_mark.line + 1
                self.record_lines(value_node, child, stack)
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                self.lines[where + (i,)] = item.start_mark.line + 1
                self.record_lines(item, where + (i,), stack)

    def upgrade(self, data: dict) -> dict:
        """Refuse a format_version this sad cannot read (before the schema, which a newer file may not
        follow); bring an older file to the current format."""
        try:
            self.declared = file_version(data)
            return upgrade(data)
        except VersionError as exc:
            raise MachineError(f"{self.path}:{self.line_of(('format_version',))}: error: format_version: {exc}"
                               ) from None

    def validate(self, data: dict) -> None:
        """Check the data against the schema, unless these very bytes passed this schema before."""
        key = validity_key(self.text, _schema_text())
        if known_valid(key):
            return
        for err in _validator().iter_errors(data):
            self.schema_error(err)
        self.raise_errors()
        remember_valid(key)

    def schema_error(self, err: jsonschema.ValidationError) -> None:
        where: KeyPath = tuple(err.absolute_path)
        if err.validator == "additionalProperties":
            allowed = set(err.schema.get("properties", {}))
            patterns = list(err.schema.get("patternProperties", {}))
            for key in err.instance:
                if key not in allowed and not _matches_any(key, patterns):
                    hint = _unknown_key_hint(where, allowed, patterns)
                    self.error(where + (key,), f"unknown key{hint}")
        elif err.validator == "required":
            missing = [k for k in err.validator_value if k not in err.instance]
            for key in missing:
                self.error(where, f"missing required key '{key}'")
        elif err.validator == "anyOf" and isinstance(err.instance, dict):
            for sub in err.context or []:
                if sub.validator != "type":
                    self.schema_error(sub)
        elif err.validator == "anyOf":
            self.error(where, f"expected a figure ('25 ns') or a mapping by data type, got {_brief(err.instance)}")
        elif err.validator == "type":
            self.error(where, f"expected {_type_words(err.validator_value)}, got {_brief(err.instance)}")
        elif err.validator == "dependentRequired":
            self.error(where, "a programming_model needs a communication level")
        else:
            self.error(where, err.message)

    def convert(self, data: dict) -> Machine:
        proc = data["processor"]
        clock = self.figure(("processor", "clock"), proc["clock"], "frequency")
        if clock == 0:
            self.error(("processor", "clock"), "clock must be positive")
        self.raise_errors()
        figures: dict[str, Fraction] = {}
        for where, value in _leaves(proc, ("processor",)):
            if where != ("processor", "clock"):
                self.store(figures, where, self.figure(where, value, "time", clock))
        comm = data.get("communication") or {}
        for key in COMM_TIMES + COMM_BANDWIDTHS:
            if key in comm:
                kind = "bandwidth" if key in COMM_BANDWIDTHS else "time"
                figure = self.figure(("communication", key), comm[key], kind, clock)
                self.store(figures, ("communication", key), figure)
        loggp: dict[str, Fraction] = {}
        for key, value in (comm.get("loggp") or {}).items():
            figure = self.figure(("communication", "loggp", key), value, "time", clock)
            self.store(loggp, (key,), figure)
            self.store(figures, ("communication", "loggp", key), figure)
        self.raise_errors()
        topology = _topology(comm.get("topology")) if comm else {}
        model = dict(data.get("programming_model") or {})
        collectives = model.pop("collectives", None) or {}
        texts = {k: str(v) for k, v in model.items()}
        primitives = self.primitives(texts, figures, topology)
        hierarchy = None
        if data.get("hierarchy"):
            self.check_chain_wait(data["hierarchy"])
            hierarchy = from_database(data["hierarchy"], lambda v: float(self.figure(("hierarchy",), v, "time") or 0),
                                      lambda v: float(self.figure(("hierarchy", "clock"), v, "frequency") or 0))
        self.raise_errors()
        return Machine(
            name=data["name"], path=self.path, source=data["source"], description=data.get("description", ""),
            models=MappingProxyType(dict(data["models"])), clock_hz=clock or Fraction(0),
            figures=MappingProxyType(figures), topology=MappingProxyType(topology),
            primitives=MappingProxyType(primitives), expressions=MappingProxyType(texts),
            format_version=self.declared, hierarchy=hierarchy, loggp=MappingProxyType(loggp),
            dma=bool(comm.get("dma", True)), pipelined=bool(comm.get("pipelined", False)),
            collectives=MappingProxyType(dict(collectives)),
            cores=int(comm.get("cores", 0) or 0))

    def check_chain_wait(self, section: dict) -> None:
        """Every level `hierarchy.chain_wait` names is one of the hierarchy's levels (a misspelt name would
        leave that level's waits at 0 without a word)."""
        names = [str(level.get("name")) for level in section.get("levels") or [] if isinstance(level, dict)]
        for name in section.get("chain_wait") or {}:
            if str(name) not in names:
                self.error(("hierarchy", "chain_wait", name), f"no level named '{name}' (levels: {', '.join(names)})")

    def figure(self, where: KeyPath, value: object, kind: str, clock: Fraction | None = None) -> Fraction | None:
        try:
            if kind == "time":
                return parse_time(value, clock)
            if kind == "bandwidth":
                result = parse_bandwidth(value)
                if result == 0:
                    raise UnitError(f"bandwidth must be positive, got '{value}'")
                return result
            return parse_frequency(value)
        except UnitError as exc:
            self.error(where, str(exc))
            return None

    @staticmethod
    def store(figures: dict[str, Fraction], where: KeyPath, value: Fraction | None) -> None:
        if value is not None:
            figures[".".join(str(p) for p in where)] = value

    def primitives(self, texts: dict[str, str], figures: dict[str, Fraction],
                   topology: Mapping[str, object]) -> dict[str, sympy.Expr]:
        """Parse each primitive, substitute figures and other primitives (no cycles), check it is a time."""
        values = {k: sympy.Rational(v.numerator, v.denominator)
                  for k, v in ((p.split(".")[-1], figures[p]) for p in figures if p.startswith("communication."))}
        values.update({k: sympy.Integer(v) for k, v in topology.items() if k in ("nodes", "diameter")})
        clash = set(texts) & (set(values) | {"b", "P"})
        for name in sorted(clash):
            self.error(("programming_model", name), f"primitive name '{name}' clashes with a parameter")
        names = set(values) | set(texts) | {"b", "P"}
        parsed: dict[str, sympy.Expr] = {}
        for name, text in texts.items():
            try:
                parsed[name] = parse_expr(text, names=names)
            except ExprError as exc:
                known = ", ".join(sorted(set(values) | {"b", "P"}))
                self.error(("programming_model", name), f"{exc.message} in '{text}' (parameters: {known})")
        self.raise_errors()
        resolved = self.substitute(parsed, values)
        for name, expr in resolved.items():
            self.check_time(name, expr)
        self.raise_errors()
        return resolved

    def substitute(self, parsed: dict[str, sympy.Expr], values: dict[str, sympy.Expr]) -> dict[str, sympy.Expr]:
        resolved: dict[str, sympy.Expr] = {}

        def visit(name: str, stack: tuple[str, ...]) -> sympy.Expr | None:
            if name in resolved:
                return resolved[name]
            if name in stack:
                self.error(("programming_model", name), "circular definition: " + " -> ".join(stack + (name,)))
                return None
            mapping = {sympy.Symbol(k): v for k, v in values.items()}
            for sym in parsed[name].free_symbols:
                if sym.name in parsed:
                    inner = visit(sym.name, stack + (name,))
                    if inner is None:
                        return None
                    mapping[sym] = inner
            resolved[name] = parsed[name].xreplace(mapping)
            return resolved[name]

        for name in parsed:
            visit(name, ())
        return resolved

    def check_time(self, name: str, expr: sympy.Expr) -> None:
        """Evaluate at a few (b, P) points: the result must be a finite, non-negative number of seconds."""
        for nbytes, nprocs in ((0, 1), (1024, 2), (10**6, 1024)):
            try:
                value = complex(expr.xreplace({B: sympy.Integer(nbytes), P: sympy.Integer(nprocs)}).evalf())
            except (TypeError, ValueError):
                self.error(("programming_model", name), f"does not evaluate to a number at b={nbytes}, P={nprocs}")
                return
            if value.imag != 0 or not math.isfinite(value.real) or value.real < 0:
                self.error(("programming_model", name),
                           f"evaluates to {value.real if value.imag == 0 else value} s at b={nbytes}, P={nprocs}: "
                           "expected a finite non-negative time")
                return


# ---------------------------------------------------------------------------------------------- helpers


def _leaves(node: object, where: KeyPath) -> Iterable[tuple[KeyPath, object]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, where + (str(key),))
    else:
        yield where, node


def _topology(spec: Mapping[str, Any] | None) -> dict[str, Any]:
    """Topology with its node count and diameter (hops), for reports and expressions."""
    if not spec:
        return {}
    kind = spec["kind"]
    dims = list(spec.get("dims", []))
    if kind == "hypercube":
        d = int(spec["dimension"])
        nodes, diameter = 2 ** d, d
    elif kind in ("mesh", "torus"):
        nodes = math.prod(dims)
        diameter = sum(n - 1 for n in dims) if kind == "mesh" else sum(n // 2 for n in dims)
    else:
        nodes = int(spec["nodes"])
        diameter = nodes // 2 if kind == "ring" else (1 if nodes > 1 else 0)
    return {**spec, "nodes": nodes, "diameter": diameter}


def _describe_topology(topology: Mapping[str, Any]) -> str:
    kind = topology["kind"]
    if kind == "hypercube":
        shape = f"dimension {topology['dimension']}"
    elif "dims" in topology:
        shape = " x ".join(str(n) for n in topology["dims"])
    else:
        shape = ""
    return f"{kind} {shape} ({topology['nodes']} nodes, diameter {topology['diameter']})".replace("  ", " ")


def _matches_any(key: object, patterns: list[str]) -> bool:
    return isinstance(key, str) and any(re.search(p, key) for p in patterns)


def _unknown_key_hint(where: KeyPath, allowed: set[str], patterns: list[str]) -> str:
    if where and where[-1] == "intrinsics":
        return " (intrinsics are named by their upper-case Fortran generic name, e.g. SQRT, or 'default')"
    if allowed:
        return " (allowed: " + ", ".join(sorted(allowed)) + ")"
    return ""


def _brief(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _type_words(types: object) -> str:
    words = {"string": "a string", "number": "a number", "object": "a mapping", "integer": "an integer",
             "array": "a list"}
    items = types if isinstance(types, list) else [types]
    return " or ".join(words.get(str(t), str(t)) for t in items)


def _fmt_number(value: Fraction | float) -> str:
    return f"{float(value):.4g}"


def _fmt_time(seconds: Fraction | float) -> str:
    s = float(seconds)
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if abs(s) >= scale:
            return f"{s / scale:.4g} {unit}"
    return f"{s / 1e-9:.4g} ns"


def _fmt_figure(key: str, value: Fraction) -> str:
    return f"{float(value) / 1e6:.4g} MB/s" if key in COMM_BANDWIDTHS else _fmt_time(value)
