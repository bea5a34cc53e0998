"""The IR as JSON, both ways: `sad ir` writes it, tests and tools read it back into a `Program`.

Data flow: frontends → Program → `to_jsonable` → JSON text (`sad ir`); JSON text → `from_jsonable` → the
same Program (equal node for node), so a test can start from a stored IR fixture instead of a source file.
Every node is a dict whose "node" key names its class (a dict field, keyed by the program's names, is read
as a mapping whatever its keys); a `Loc` is {"file", "line", "col"}; a complex
constant is {"re", "im"}; fields marked `serialize: False` (frontend-private annotations) are left out.
"""
from __future__ import annotations

import dataclasses
import json
from typing import Any

from sad.ir import nodes
from sad.ir.nodes import Const, Loc, Program, Variable

# Every class that can appear under "node": the IR's dataclasses (Loc is written inline).
NODE_CLASSES: dict[str, type] = {
    name: cls for name, cls in vars(nodes).items()
    if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls is not Loc
}


def to_jsonable(node: Any) -> Any:
    """Plain data for `sad ir`: every node becomes a dict with its class under "node"."""
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        out: dict[str, Any] = {"node": type(node).__name__}
        for f in dataclasses.fields(node):
            if not f.metadata.get("serialize", True):
                continue
            value = getattr(node, f.name)
            if f.name == "loc" and isinstance(value, Loc):
                out["loc"] = {"file": value.file, "line": value.line, "col": value.col}
            else:
                out[f.name] = to_jsonable(value)
        return out
    if isinstance(node, dict):
        return {str(k): to_jsonable(v) for k, v in node.items()}
    if isinstance(node, (list, tuple)):
        return [to_jsonable(v) for v in node]
    if isinstance(node, complex):
        return {"re": node.real, "im": node.imag}
    return node


class IRFormatError(ValueError):
    """The JSON is not an IR dump (an unknown node kind, a missing field)."""


def from_jsonable(data: Any) -> Any:
    """Rebuild nodes from `to_jsonable`'s output (a Program, or any node or list of nodes)."""
    if isinstance(data, list):
        return [from_jsonable(item) for item in data]
    if not isinstance(data, dict):
        return data
    if "node" not in data:
        return {key: from_jsonable(value) for key, value in data.items()}
    kind = data["node"]
    cls = NODE_CLASSES.get(kind)
    if cls is None:
        raise IRFormatError(f"unknown IR node kind {kind!r}")
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            continue
        kwargs[f.name] = _field_value(cls, f.name, data[f.name])
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise IRFormatError(f"{kind}: {exc}") from None


def _field_value(cls: type, name: str, value: Any) -> Any:
    if isinstance(value, dict) and name in _mapping_fields(cls):
        # keyed by the program's names: a variable called `node` is a key here, not a node's class
        return {key: from_jsonable(item) for key, item in value.items()}
    if name == "loc" and isinstance(value, dict):
        return Loc(value["file"], value["line"], value.get("col", 0))
    if cls is Const and name == "value" and isinstance(value, dict):
        return complex(value["re"], value["im"])
    if cls is Variable and name == "dims" and value is not None:
        return [tuple(from_jsonable(bound) for bound in dim) for dim in value]
    return from_jsonable(value)


def _mapping_fields(cls: type) -> frozenset[str]:
    """The fields of a node class declared as dicts (Procedure.variables, Program.globals, ...)."""
    found = _MAPPINGS.get(cls)
    if found is None:
        found = _MAPPINGS[cls] = frozenset(f.name for f in dataclasses.fields(cls)
                                           if str(f.type).replace("typing.", "").lower().startswith("dict"))
    return found


_MAPPINGS: dict[type, frozenset[str]] = {}


def dumps(program: Program) -> str:
    """The text `sad ir` prints."""
    return json.dumps(to_jsonable(program), indent=1)


def loads(text: str) -> Program:
    """A Program from the text `sad ir` printed."""
    program = from_jsonable(json.loads(text))
    if not isinstance(program, Program):
        raise IRFormatError("the JSON does not hold an IR Program")
    return program
