"""Commands that describe what sad ships: `sad machines` (the bundled machine databases) and `sad schema`
(the JSON Schemas of the reports' JSON).

Data flow: machine_db/*.yaml → sad.machine.model.load_machine (validated, as a command would load it) → one
entry per machine; sad/schemas/*.json (package data) → stdout. Registered through sad.cli.main.COMMAND_MODULES.
"""
from __future__ import annotations

import json
import sys
import textwrap
from importlib import resources

SCHEMAS = ("analyze", "check", "sweep")


def register(sub, add_common) -> None:
    """Register `sad machines` and `sad schema` with the command-line parser."""
    machines = sub.add_parser("machines", help="list the bundled machine databases",
                              description="The machine databases shipped with sad (usable as --machine NAME): "
                              "name, description, the levels they describe (processor, memory hierarchy, "
                              "communication, programming model), their models and the source of their figures.")
    machines.add_argument("--format", choices=("text", "json"), default="text")
    machines.set_defaults(func=cmd_machines)
    schema = sub.add_parser("schema", help="print the JSON Schema of a report's JSON (analyze, check, sweep)",
                            description="The JSON Schema (draft 2020-12) that the --format json output of a "
                            "command follows; without NAME, the names and where the files are installed.")
    schema.add_argument("name", nargs="?", choices=SCHEMAS, metavar="NAME", help=" | ".join(SCHEMAS))
    schema.set_defaults(func=cmd_schema)


def levels(machine) -> list[str]:
    """The levels a machine database describes, in the design's order."""
    found = ["processor"]
    if machine.hierarchy is not None:
        found.append("memory hierarchy")
    if machine.topology or any(k.startswith("communication.") for k in machine.figures):
        found.append("communication")
    if machine.primitives:
        found.append("programming model")
    return found


def cmd_machines(args) -> int:
    """`sad machines`: the bundled machine databases."""
    from sad.machine.files import available_machines
    from sad.machine.model import MachineError, load_machine
    entries: list[dict] = []
    for name in available_machines():
        try:
            machine = load_machine(name)
        except MachineError as exc:  # a broken bundled file is a defect of sad: say so, list the others
            print(str(exc), file=sys.stderr)
            continue
        entries.append({"name": machine.name, "description": machine.description.strip(),
                        "levels": levels(machine), "models": dict(machine.models),
                        "source": " ".join(machine.source.split())})
    if args.format == "json":
        sys.stdout.write(json.dumps(entries, indent=2) + "\n")
        return 0 if len(entries) == len(available_machines()) else 3
    width = max((len(e["name"]) for e in entries), default=4)
    for e in entries:
        pad = " " * (width + 2)
        print(f"{e['name']:<{width}}  {e['description']}")
        print(f"{pad}levels: {', '.join(e['levels'])}")
        print(f"{pad}models: " + ", ".join(f"{k} {v}" for k, v in e["models"].items()))
        print(textwrap.fill(f"source: {e['source']}", 110, initial_indent=pad, subsequent_indent=pad + "  "))
    return 0 if len(entries) == len(available_machines()) else 3


def schema_text(name: str) -> str:
    """The JSON Schema of `sad NAME --format json` (package data sad/schemas/NAME.json)."""
    return resources.files("sad").joinpath("schemas", f"{name}.json").read_text(encoding="utf-8")


def cmd_schema(args) -> int:
    """`sad schema [NAME]`: a report's JSON Schema, or the list of them."""
    if args.name:
        sys.stdout.write(schema_text(args.name))
        return 0
    for name in SCHEMAS:
        print(f"{name:<8} {resources.files('sad').joinpath('schemas', f'{name}.json')}")
    return 0
