"""Params files: the unresolved parameters going out to a profiler (or a person) and values coming back.

Data flow, out: Analysis.table (sad.analysis.pipeline) → one entry per unresolved parameter with its place, the code
there, a fingerprint of that code and an empty value → YAML, CSV or JSON text (`sad params`).
In: a params file (written by hand or by `sad profile`) → read with yaml.safe_load, every value parsed by the
restricted expression parser (sad.common.exprparse), never eval → {name: sympy value} merged under the -D values
→ the pipeline's overrides and the mapper's bindings (`sad analyze --params`). After the analysis the
entries are checked against it: unknown names, probabilities outside [0, 1], negative counts, code whose
fingerprint changed.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sympy
import yaml

from sad.analysis.bindings import BindingError, bind, evaluate, parse_value
from sad.measure.profile import source_text

if TYPE_CHECKING:
    import jsonschema

FORMAT_VERSION = 1
CONTEXT_LINES = 2  # lines either side of the statement that go into its fingerprint


class ParamsError(ValueError):
    """A params file that cannot be used at all: unreadable, broken YAML, wrong types, bad expressions."""


# ------------------------------------------------------------------------------------------ fingerprints
def _normalize(text: str) -> str:
    return " ".join(text.split())


def fingerprint(path: str, line: int) -> str:
    """sha256 of the statement line and CONTEXT_LINES either side, whitespace-normalized: stable when code
    elsewhere moves it, changed when the code around the parameter is edited."""
    lines = [_normalize(source_text(path, n)) for n in range(line - CONTEXT_LINES, line + CONTEXT_LINES + 1)]
    digest = hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()
    return digest[:12]


# ------------------------------------------------------------------------------------------ export
def export_entries(analysis) -> list[dict[str, Any]]:
    """One entry per unresolved parameter, sorted by name, with an empty value."""
    entries = []
    for p in analysis.table.unresolved():
        entries.append({
            "name": p.name,
            "kind": p.kind,
            "procedure": p.procedure,
            "file": p.file,
            "line": p.line,
            "code": source_text(p.file, p.line).strip(),
            "fingerprint": fingerprint(p.file, p.line),
            "description": p.description,
            "depends_on": list(p.depends_on),
            "default": p.default,
            "value": None,
        })
    return entries


def render(entries: list[dict[str, Any]], fmt: str, header: dict[str, Any]) -> str:
    """Params file entries as text in the format `fmt` (yaml, json or csv)."""
    if fmt == "json":
        return json.dumps({"sad_params": FORMAT_VERSION, **header, "parameters": entries}, indent=1) + "\n"
    if fmt == "csv":
        return _render_csv(entries)
    return _render_yaml(entries, header)


_CSV_FIELDS = ["name", "kind", "procedure", "file", "line", "fingerprint", "depends_on", "default", "value",
               "code"]


def _render_csv(entries: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=_CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for e in entries:
        row = dict(e)
        row["depends_on"] = " ".join(e.get("depends_on") or [])
        row["value"] = "" if e.get("value") is None else e["value"]
        row["default"] = "" if e.get("default") is None else e["default"]
        writer.writerow(row)
    return out.getvalue()


def _render_yaml(entries: list[dict[str, Any]], header: dict[str, Any]) -> str:
    """YAML keyed by parameter name, so that a person can fill in `value:` lines by hand."""
    lines = ["# sad params file: fill in `value:` (a number, or an expression of direct parameters such",
             "# as 0.93 + 12/NPART); entries left null stay unbound. Use: sad analyze ... --params FILE",
             f"sad_params: {FORMAT_VERSION}"]
    if header:
        lines.append(yaml.safe_dump(header, sort_keys=True, default_flow_style=False, width=110).rstrip())
    lines.append("parameters:" if entries else "parameters: {}")   # none left to fill: an empty mapping
    for e in entries:
        body = {k: v for k, v in e.items() if k != "name"}
        text = yaml.safe_dump({e["name"]: body}, sort_keys=False, default_flow_style=False, width=110,
                              allow_unicode=True)
        lines.extend("  " + ln for ln in text.rstrip().splitlines())
    return "\n".join(lines) + "\n"


def write_new(path: str, text: str, force: bool) -> None:
    """Write a file that must not exist yet (unless force): a params file is never rewritten unasked."""
    target = Path(path)
    if target.exists() and not force:
        raise ParamsError(f"{path}: error: exists; not overwritten (use --force to replace it)")
    tmp = target.with_name(f".{target.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(target)


# ------------------------------------------------------------------------------------------ import
@dataclass
class Entry:
    """One parameter of a params file: its value as written and parsed, where it is, and its provenance."""
    name: str
    text: str  # the value as written
    value: sympy.Expr
    where: str  # file:line of the entry in the params file
    fingerprint: str | None = None
    kind: str | None = None
    fit: dict | None = None  # {parameter, range: [low, high], ...} of a value fitted over sizes
    sizes: dict[str, tuple[float, float]] = field(default_factory=dict)  # --size ranges it was measured over

    def measured_ranges(self) -> dict[str, tuple[float, float]]:
        """The sizes the value was measured over: `sizes:` (files since issue 30), else a fit's range."""
        if self.sizes:
            return dict(self.sizes)
        fit = self.fit or {}
        size, span = fit.get("parameter"), fit.get("range")
        if isinstance(size, str) and isinstance(span, list) and len(span) == 2:
            return {size: (float(span[0]), float(span[1]))}
        return {}


@dataclass
class ParamsFile:
    """A params file as read: its path and entries."""
    path: str
    entries: list[Entry] = field(default_factory=list)
    header: dict[str, Any] = field(default_factory=dict)

    def values(self) -> dict[str, sympy.Expr]:
        """Parameter name → value of every entry."""
        return {e.name: e.value for e in self.entries}


def load(path: str) -> ParamsFile:
    """Read and type-check a params file (YAML, JSON or CSV). Raises ParamsError naming file:line."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ParamsError(f"{path}: error: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    if path.endswith(".csv"):
        return _load_csv(path, text)
    return _load_yaml(path, text)


def _load_yaml(path: str, text: str) -> ParamsFile:
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else path
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ParamsError(f"{where}: error: not valid YAML: {problem}") from None
    if not isinstance(data, dict) or root is None:
        raise ParamsError(f"{path}:1: error: expected a mapping with a `parameters:` key, or NAME: value lines")
    if "parameters" not in data and "sad_params" not in data:
        data, root = {"parameters": data}, yaml.MappingNode("tag:yaml.org,2002:map",
                                                           [(yaml.ScalarNode("tag:yaml.org,2002:str",
                                                                             "parameters"), root)])
    _validate_schema(path, data, root)
    params_node = _child(root, "parameters")
    params = data.get("parameters")
    if params is None and "parameters" in data:
        params = {}          # `parameters:` with nothing under it: a program whose counts need no value
    if params is None:
        raise ParamsError(f"{path}:1: error: no `parameters:` key")
    result = ParamsFile(path, header={k: v for k, v in data.items() if k != "parameters"})
    if isinstance(params, list):  # the JSON export's shape: a list of {name, value, ...}
        for k, (item, node) in enumerate(zip(params, params_node.value)):
            where = f"{path}:{node.start_mark.line + 1}"
            if not isinstance(item, dict) or not isinstance(item.get("name"), str):
                raise ParamsError(f"{where}: error: parameters[{k}] must be a mapping with a `name`")
            _add(result, item["name"], item, where)
        return result
    if not isinstance(params, dict):
        raise ParamsError(f"{path}:{params_node.start_mark.line + 1}: error: `parameters` must be a mapping "
                          f"of NAME: value or NAME: {{value: ...}}")
    for key_node, _value_node in params_node.value:
        name = key_node.value
        where = f"{path}:{key_node.start_mark.line + 1}"
        _add(result, name, params.get(name) if name in params else _scalar(key_node, params), where)
    return result


@lru_cache(maxsize=1)
def _schema_validator() -> jsonschema.Draft202012Validator:
    import jsonschema  # here, not at the top: `sad analyze` without --params need not import it
    schema = json.loads((Path(__file__).with_name("params_schema.json")).read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _validate_schema(path: str, data: dict, root) -> None:
    """The file's keys against params_schema.json (the machinery used for machine files): an unknown key
    (`valeu: 40`) is an error naming the key and its line."""
    errors = sorted(_schema_validator().iter_errors(data),
                    key=lambda e: (e.validator != "additionalProperties", list(map(str, e.absolute_path))))
    for error in errors:
        # for oneOf/anyOf, the most specific reason is in the context
        leaf = error
        while leaf.context:  # prefer an unknown key, then the deepest reason
            leaf = min(leaf.context, key=lambda e: (e.validator != "additionalProperties",
                                                    -len(e.absolute_path)))
        where = list(leaf.absolute_path)
        line = _line_of(root, where)
        if leaf.validator == "additionalProperties":
            extra = sorted(set(leaf.instance) - set(leaf.schema.get("properties", {})))
            key = extra[0] if extra else "?"
            line = _line_of(root, [*where, key])
            known = sorted(leaf.schema.get("properties", {}))
            raise ParamsError(f"{path}:{line}: error: {'.'.join(map(str, [*where, key]))}: unknown key "
                              f"'{key}' (known: {', '.join(known)})")
        # wrong types are left to _add, whose messages say what a value may be


def _line_of(node, where: list) -> int:
    """1-based line of the YAML node at a key path (the deepest one found)."""
    line = node.start_mark.line + 1 if node is not None and node.start_mark else 1
    for key in where:
        if isinstance(node, yaml.MappingNode):
            found = next(((k, v) for k, v in node.value if k.value == str(key)), None)
            if found is None:
                return line
            line, node = found[0].start_mark.line + 1, found[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
            line = node.start_mark.line + 1
        else:
            return line
    return line


def _scalar(key_node, params):
    for key in params:
        if str(key) == key_node.value:
            return params[key]
    return None


def _child(node, key: str):
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if k.value == key:
                return v
    return None


def _add(result: ParamsFile, name: Any, item: Any, where: str) -> None:
    if not isinstance(name, str) or not name:
        raise ParamsError(f"{where}: error: parameter names must be strings, got {name!r}")
    if isinstance(item, dict):
        value, fp, kind = item.get("value"), item.get("fingerprint"), item.get("kind")
        if fp is not None and not isinstance(fp, str):
            raise ParamsError(f"{where}: error: {name}: fingerprint must be a string")
    else:
        value, fp, kind = item, None, None
    if value is None or value == "":
        return  # left empty: stays unbound
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ParamsError(f"{where}: error: {name}: value must be a number or an expression string, "
                          f"got {type(value).__name__}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ParamsError(f"{where}: error: {name}: value is not finite")
    text = repr(value) if isinstance(value, float) else str(value)
    try:
        parsed = parse_value(text)
    except BindingError as exc:
        raise ParamsError(f"{where}: error: {name}: {exc}") from None
    if any(e.name == name for e in result.entries):
        raise ParamsError(f"{where}: error: {name} is given twice")
    fit = item.get("fit") if isinstance(item, dict) and isinstance(item.get("fit"), dict) else None
    sizes: dict = item["sizes"] if isinstance(item, dict) and isinstance(item.get("sizes"), dict) else {}
    ranges = {str(k): (float(v[0]), float(v[1])) for k, v in sizes.items()
              if isinstance(v, list) and len(v) == 2 and all(isinstance(x, (int, float)) for x in v)}
    result.entries.append(Entry(name, text, parsed, where, fp, kind if isinstance(kind, str) else None, fit,
                                ranges))


def _load_csv(path: str, text: str) -> ParamsFile:
    result = ParamsFile(path)
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames or "name" not in reader.fieldnames or "value" not in reader.fieldnames:
        raise ParamsError(f"{path}:1: error: a CSV params file needs `name` and `value` columns")
    for row_no, row in enumerate(reader, start=2):
        item = {"value": (row.get("value") or "").strip() or None,
                "fingerprint": (row.get("fingerprint") or "").strip() or None, "kind": row.get("kind")}
        _add(result, (row.get("name") or "").strip(), item, f"{path}:{row_no}")
    return result


# ------------------------------------------------------------------------------------------ checks
@dataclass
class Problem:
    """A finding in a params file, an error or a warning."""
    severity: str  # warning | error
    message: str

    def __str__(self) -> str:
        return self.message.replace(": ", f": {self.severity}: ", 1)


def check(params: ParamsFile, analysis, bindings: dict[str, sympy.Expr], from_command_line: set[str]
          ) -> list[Problem]:
    """What is wrong with the entries, given the analysis: unknown names (warning), names in a value that
    are no parameter (error), probabilities outside [0, 1] and negative counts (error), code whose
    fingerprint no longer matches (warning), entries that -D overrides (note as warning)."""
    problems: list[Problem] = []
    table = analysis.table
    known = {p.name for p in table} | set(bindings)
    for e in params.entries:
        param = table.get(e.name)
        if e.name in from_command_line:
            problems.append(Problem("warning", f"{e.where}: {e.name}: -D on the command line wins over "
                                               f"the params file"))
            continue
        if param is None:
            problems.append(Problem("warning", f"{e.where}: {e.name}: no parameter of that name in the "
                                               f"analysis; ignored"))
            continue
        strangers = sorted(s.name for s in e.value.free_symbols if s.name not in known)
        if strangers:
            problems.append(Problem("error", f"{e.where}: {e.name}: value '{e.text}' mentions "
                                             f"{', '.join(strangers)}, which is no parameter of the analysis"))
            continue
        problems.extend(_range(e, param, bindings))
        problems.extend(_extrapolation(e, bindings))
        if e.fingerprint and e.fingerprint != fingerprint(param.file, param.line):
            problems.append(Problem("warning", f"{e.where}: {e.name}: the code at {param.file}:{param.line} "
                                               f"changed since this value was measured (fingerprint "
                                               f"{e.fingerprint}, now {fingerprint(param.file, param.line)})"))
    return problems


def check_defines(analysis, raw: dict[str, str], defines: dict[str, sympy.Expr],
                  bindings: dict[str, sympy.Expr]) -> list[Problem]:
    """The same checks as for a params file's entries, for the -D values: one validation for both."""
    problems: list[Problem] = []
    for name in sorted(defines):
        param = analysis.table.get(name)
        if param is not None:
            entry = Entry(name, raw.get(name, str(defines[name])), defines[name],
                          f"sad: -D {name}={raw.get(name, defines[name])}")
            problems.extend(_range(entry, param, bindings))
            problems.extend(_integer(entry, analysis.table.symbol(name), bindings))
    return problems


def outside_sizes(params: ParamsFile, bindings: dict[str, sympy.Expr],
                  swept: dict[str, tuple[float, float]] | None = None) -> list[Problem]:
    """Warnings for the values used at sizes they were not measured at (`swept`: the ranges a sweep or a
    tuning runs a size over): what analyze, check-counts, validate, sweep, compare and tune all say."""
    problems: list[Problem] = []
    for e in params.entries:
        problems.extend(_extrapolation(e, bindings, swept))
    return problems


def _integer(e: Entry, symbol: sympy.Symbol | None, bindings: dict[str, sympy.Expr]) -> list[Problem]:
    """A variable declared INTEGER (C int, long, ...) holds whole numbers: `-D N=0.5` would count loops a
    compiled program never runs."""
    if symbol is None or not symbol.is_integer:
        return []
    value = evaluate(bind(e.value, bindings))
    if value is None or not math.isfinite(value) or float(value).is_integer():
        return []
    return [Problem("error", f"{e.where}: {e.name} is an integer variable in the source; {value:g} is not "
                             "an integer")]


def _extrapolation(e: Entry, bindings: dict[str, sympy.Expr],
                   swept: dict[str, tuple[float, float]] | None = None) -> list[Problem]:
    """A value used outside the sizes it was measured at is an extrapolation (a count measured at N = 16
    and used at N = 512 may be 100 times too low): say so. A fitted model that does not depend on its size
    parameter, measured over a range, is taken at its word."""
    problems = []
    fit = e.fit or {}
    for size, (low, high) in sorted(e.measured_ranges().items()):
        if fit.get("parameter") == size and low < high and size not in {s.name for s in e.value.free_symbols}:
            continue
        if swept and size in swept:
            first, last = swept[size]
            used = f"swept over {size} {first:g}..{last:g}"
        elif size in bindings:
            at = evaluate(bind(bindings[size], bindings))
            if at is None:
                continue
            first = last = at
            used = f"evaluated at {size}={at:g}"
        else:
            continue
        if low * (1 - 1e-9) <= first and last <= high * (1 + 1e-9):
            continue
        measured = f"fitted over {size} {low:g}..{high:g}" if fit.get("parameter") == size else \
            (f"measured at {size}={low:g} only" if low == high else f"measured over {size} {low:g}..{high:g}")
        problems.append(Problem("warning", f"{e.where}: {e.name}: {measured}, {used}: an extrapolation "
                                           f"(measure that size with sad profile to be sure)"))
    return problems


def _range(e: Entry, param, bindings: dict[str, sympy.Expr]) -> list[Problem]:
    value = evaluate(bind(e.value, bindings))
    if value is None:
        return []  # an expression of parameters still unbound: checked when they are
    if param.kind == "branch_probability" and not (-1e-12 <= value <= 1 + 1e-12):
        return [Problem("error", f"{e.where}: {e.name}: probability {value:g} outside [0, 1]")]
    if param.kind in ("loop_count", "call_cost") and value < 0:
        return [Problem("error", f"{e.where}: {e.name}: {param.kind.replace('_', ' ')} {value:g} is negative")]
    return []
