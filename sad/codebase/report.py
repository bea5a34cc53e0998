"""What `sad check` prints: one report object rendered as text, JSON, SARIF 2.1.0 or Markdown.

Data flow: a run's results (sad.codebase.runner) and the comparison with a baseline (sad.codebase.baseline)
→ `build()`: one JSON-able dict (every list sorted; no timings, no cache statistics, so that a warm run, a
parallel run and a Dask run print the same bytes as a cold serial one) → `render(report, format)`.
"""
from __future__ import annotations

import json

from sad import __version__
from sad.codebase.baseline import Comparison
from sad.codebase.results import UnitResult
from sad.codebase.sarif import to_sarif
from sad.codebase.wording import change_message, place, seconds
from sad.common.english import plural

FORMATS = ("text", "json", "sarif", "markdown")


def build(results: list[UnitResult], machine: str, points: dict, comparison: Comparison | None,
          fail_over: float | None) -> dict:
    """The report of a check: routines, diagnostics, comparison with the baseline and a summary."""
    routines = sorted(({**_routine(r)} for result in results for r in result.routines),
                      key=lambda r: (r["file"], r["line"], r["name"]))
    diagnostics = sorted((d for result in results for d in result.diagnostics),
                         key=lambda d: (d["file"], d["line"], d["col"], d["severity"], d["message"]))
    summary = {"files": len(results), "lines": sum(r.lines for r in results), "routines": len(routines),
               "errors": sum(d["severity"] == "error" for d in diagnostics),
               "warnings": sum(d["severity"] == "warning" for d in diagnostics),
               "files_with_errors": len({d["file"] for d in diagnostics if d["severity"] == "error"})}
    report = {"sad_version": __version__, "machine": machine, "points": points, "fail_over": fail_over,
              "summary": summary, "routines": routines, "diagnostics": diagnostics, "comparison": None}
    if comparison is not None:
        report["comparison"] = comparison.to_jsonable()
        summary.update(regressions=len(comparison.regressions), failing=len(comparison.failing),
                       improvements=len(comparison.improvements), new=len(comparison.new),
                       removed=len(comparison.removed), not_compared=len(comparison.not_compared))
    return report


def _routine(r) -> dict:
    return {"name": r.name, "file": r.file, "line": r.line, "language": r.language, "kind": r.kind,
            "time": r.time, "points": r.points, "complexity": r.complexity, "parameters": r.parameters,
            "unseen_calls": r.unseen_calls, "named_calls": r.named_calls, "subexpressions": r.subexpressions,
            "options": r.options, "by_option": r.by_option}


def render(report: dict, fmt: str) -> str:
    """The report in the requested format (text, json, sarif, markdown)."""
    if fmt == "json":
        return json.dumps(report, indent=1, sort_keys=True) + "\n"
    if fmt == "sarif":
        return json.dumps(to_sarif(report), indent=1, sort_keys=True) + "\n"
    if fmt == "markdown":
        return to_markdown(report)
    return to_text(report)


def to_text(report: dict) -> str:
    """The report as text for a terminal."""
    s = report["summary"]
    names = list(report["points"]["points"])
    out = [f"sad {report['sad_version']} check: {plural(s['files'], 'file')}, {plural(s['lines'], 'line')}, "
           f"{plural(s['routines'], 'routine')} on {report['machine']}; reference points: {', '.join(names)}", ""]
    rows = [("routine", "where", "class", *names)]
    for r in report["routines"]:
        rows.append((r["name"], f"{r['file']}:{r['line']}", r["complexity"],
                     *(seconds(r["points"].get(n)) for n in names)))
        # library mode's options: the routine's time for each combination of the values it tests
        rows += [(f"  {label}", "", "", *(seconds(times.get(n)) for n in names))
                 for label, times in sorted(r.get("by_option", {}).items())]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out += ["  ".join(cell.ljust(w) if i < 3 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
            .rstrip() for row in rows]
    comparison = report["comparison"]
    if comparison is not None:
        out += ["", f"Against {comparison['baseline']}: {plural(s['regressions'], 'regression')} ({s['failing']}"
                f" failing{_threshold(report)}), {plural(s['improvements'], 'improvement')}, {s['new']} new, "
                f"{plural(s['removed'], 'removed routine')}"]
        for c in comparison["regressions"] + comparison["improvements"]:
            out.append(f"{c['file']}:{c['line']}: {c['level']}: {change_message(c)}")
        if comparison["new"]:
            out.append("new routines: " + ", ".join(comparison["new"]))
        if comparison["removed"]:
            out.append("removed routines: " + ", ".join(comparison["removed"]))
        if comparison["not_compared"]:
            out.append(f"not compared ({_NOT_COMPARED}): " + ", ".join(comparison["not_compared"]))
    if s["errors"] or s["warnings"]:
        out += ["", f"{plural(s['errors'], 'error')} in {plural(s['files_with_errors'], 'file')}, "
                f"{plural(s['warnings'], 'warning')} (listed on stderr)"]
    return "\n".join(out) + "\n"


_NOT_COMPARED = "calls into other files priced by name in one of the two runs, past --timeout"


def _threshold(report: dict) -> str:
    return f" over {report['fail_over'] * 100:g}%" if report["fail_over"] is not None else ""


def to_markdown(report: dict) -> str:
    """A pull-request comment: the verdict first, then the regressions, then what is new or gone."""
    s = report["summary"]
    comparison = report["comparison"]
    out = ["## sad check", ""]
    if comparison is None:
        out.append(f"{plural(s['routines'], 'routine')} in {plural(s['files'], 'file')} ({plural(s['lines'], 'line')})"
                   f" on `{report['machine']}`; no baseline given.")
    else:
        verdict = "❌ failing" if s["failing"] else "✅ passing"
        out.append(f"**{verdict}**: {plural(s['regressions'], 'regression')} ({s['failing']} failing"
                   f"{_threshold(report)}), {plural(s['improvements'], 'improvement')}, {s['new']} new and "
                   f"{plural(s['removed'], 'removed routine')} against `{comparison['baseline']}`; "
                   f"{plural(s['routines'], 'routine')} in {plural(s['files'], 'file')} on `{report['machine']}`.")
        changes = comparison["regressions"] + comparison["improvements"]
        if changes:
            out += ["", "| | routine | where | point | old | new | ratio | class |",
                    "|---|---|---|---|---|---|---|---|"]
            out += [_markdown_row(c) for c in changes]
        for title, names in (("New routines", comparison["new"]), ("Removed routines", comparison["removed"]),
                             (f"Not compared ({_NOT_COMPARED})", comparison["not_compared"])):
            if names:
                out += ["", f"{title}: " + ", ".join(f"`{n}`" for n in names)]
    if s["errors"]:
        out += ["", f"{plural(s['errors'], 'error')} in {plural(s['files_with_errors'], 'file')}:", ""]
        out += [f"- `{place(d)}`: {d['message']}" for d in report["diagnostics"]
                if d["severity"] == "error"][:50]
    return "\n".join(out) + "\n"


def _markdown_row(c: dict) -> str:
    mark = {"error": "❌", "warning": "⚠️", "note": "✔️"}[c["level"]]
    klass = c["new_class"] if c["old_class"] == c["new_class"] else f"{c['old_class']} → {c['new_class']}"
    ratio = f"×{c['ratio']:.3f}" if c["ratio"] is not None else "-"
    return (f"| {mark} | `{c['routine']}` | `{c['file']}:{c['line']}` | {c['point'] or '-'} | {seconds(c['old'])} "
            f"| {seconds(c['new'])} | {ratio} | {klass} |")

