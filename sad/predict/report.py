"""Reports: the analysis and the prediction as text for people and as JSON for programs.

Data flow: the last step. Takes the Analysis and its blocks (sad.analysis.description) and the Prediction
(sad.predict.mapper), and for an SPMD program with NPROCS bound its ranks simulated together
(sad.predict.simulated), and renders them; it computes nothing new. The JSON shape is documented in the README and
kept stable; everything is sorted so that the same input gives the same bytes.
"""
from __future__ import annotations

import json
from collections import Counter
from typing import Any

import sympy

from sad import __version__
from sad.analysis.description import Analysis
from sad.analysis.params import Parameter
from sad.common import timetext
from sad.common.english import plural
from sad.common.formulatext import named_parts
from sad.common.numbertext import number
from sad.common.strprinter import QuickStrPrinter
from sad.predict import timelinetext
from sad.predict.mapper import Prediction, bind, evaluate, excluded_text
from sad.predict.simulated import Simulated
from sad.predict.termorder import ordered_terms


def formula(expr: sympy.Expr, digits: int = 6) -> str:
    """A formula as text, machine figures rounded to `digits` significant digits."""
    return _PRINTER.doprint(_for_printing(expr, digits))


def short_formula(expr: sympy.Expr, width: int, digits: int = 6) -> str:
    """`formula(expr, digits)` cut to `width` characters (… marking a cut), as the text report shows it. The
    same text, but of a long sum only the leading terms are printed (md1's operation counts are 2 000
    characters each, 96 of them shown)."""
    return _short(_PRINTER.leading(_for_printing(expr, digits), width), width)


def _for_printing(expr: sympy.Expr, digits: int) -> sympy.Basic:
    """expr with its Floats rounded (itself if it has none), the printer's memo kept within its limit."""
    if len(_PRINTER.memo) > _MEMO_LIMIT:
        _PRINTER.memo.clear()
    return _rounded(sympy.sympify(expr), digits, _ROUNDED.setdefault(digits, {}))


class _Printer(QuickStrPrinter):
    """sympy's str printer (`sstr(expr, full_prec=False)`, the same text) remembering the text of every
    subexpression it printed: a report prints the same pieces (md1's NCELL Piecewise, a loop count) in
    hundreds of formulas, and sympy's printer, which orders the terms of every Add again, was most of the
    report's time. The str printer's output for a subexpression does not depend on where it stands
    (parentheses are added by the caller), so the remembered text is the text it would print again."""

    def __init__(self) -> None:
        super().__init__({"full_prec": False})
        self.memo: dict[sympy.Basic, str] = {}

    def _print(self, expr, **kwargs) -> str:
        if kwargs or not isinstance(expr, sympy.Basic):
            return super()._print(expr, **kwargs)
        text = self.memo.get(expr)
        if text is None:
            text = self.memo[expr] = super()._print(expr)
        return text

    def leading(self, expr: sympy.Basic, width: int) -> str:
        """The text of expr, or a prefix of it longer than `width` characters. A sum is printed by sympy's own
        _print_Add over its first k terms in sympy's order (k doubling until the text is long enough): the
        terms are joined one after the other, so that text is the start of the whole sum's."""
        if not isinstance(expr, sympy.Add) or expr in self.memo:
            return self.doprint(expr)
        terms = self._as_ordered_terms(expr)
        k = 1
        while True:
            self._leading = (expr, terms[:k])
            try:
                text = super()._print_Add(expr)
            finally:
                self._leading = None
            if len(text) > width or k >= len(terms):
                return text
            k *= 2

    _leading: tuple[sympy.Basic, list] | None = None

    def _as_ordered_terms(self, expr, order=None):
        if self._leading is not None and self._leading[0] is expr:
            return self._leading[1]
        if (order or self.order) is None and isinstance(expr, sympy.Add):
            return ordered_terms(expr)   # sympy's order, without its evalf per coefficient
        return super()._as_ordered_terms(expr, order=order)


_PRINTER = _Printer()
_MEMO_LIMIT = 200_000  # subexpressions remembered (a long `sad check` prints many programs' formulas)
_ROUNDED: dict[int, dict] = {}


def _rounded(expr: sympy.Basic, digits: int, memo: dict) -> sympy.Basic:
    """expr with every Float rounded to `digits` significant digits (shared subexpressions once).

    A subexpression without Floats is returned as itself, not as the equal object met first (the memo's key):
    its parent, seeing an argument that is not its own, would be built again for nothing."""
    if isinstance(expr, sympy.Float):
        return sympy.Float(expr, digits)
    if not expr.args:
        return expr
    done = memo.get(expr)
    if done is None:
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        args = [_rounded(a, digits, memo) for a in expr.args]
        done = _UNCHANGED if all(new is old for new, old in zip(args, expr.args)) else expr.func(*args)
        memo[expr] = done
    return expr if done is _UNCHANGED else done


_UNCHANGED: Any = object()   # memo entry of a subexpression with no Float in it


def parameter_value(param: Parameter, bindings: dict[str, sympy.Expr]) -> Any:
    """The value at the bound point: a number when the bindings make it one (a fitted `0.93 + 12/NPART`
    with NPART bound is its number there), else the formula."""
    value = _raw_value(param, bindings)
    if value is None:
        return None
    if not value.is_Number:
        number = evaluate(bind(value, bindings))
        if number is None:
            return formula(value)
        value = sympy.Float(number)
    raw = _raw_value(param, bindings)
    if value.is_Integer or (value.is_Float and float(value).is_integer() and abs(value) < 2**53
                            and not (raw is not None and raw.is_Float)):
        return int(value)
    return float(value)


def _raw_value(param: Parameter, bindings: dict[str, sympy.Expr]) -> sympy.Expr | None:
    value = bindings.get(param.name, param.value)
    return None if value is None else sympy.sympify(value)


def parameter_expression(param: Parameter, bindings: dict[str, sympy.Expr]) -> str | None:
    """The formula behind a value that is not a plain number (a fit, a derived value), else None."""
    value = _raw_value(param, bindings)
    return None if value is None or value.is_Number else formula(value)


def parameter_rows(analysis: Analysis, bindings: dict[str, sympy.Expr],
                   extra: list[Parameter], origins: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """One row per parameter; `bound_by` says where a bound value came from (`-D`, `params`)."""
    origins = origins or {}
    rows = []
    for param in sorted(list(analysis.table) + extra, key=lambda p: p.name):
        bound = param.name in bindings
        rows.append({
            "name": param.name, "class": param.cls, "kind": param.kind, "file": param.file,
            "line": param.line, "procedure": param.procedure,
            "value": parameter_value(param, bindings),
            "expression": parameter_expression(param, bindings),
            "bound": bound,
            "bound_by": (origins.get(param.name, "-D") if bound else None),
            "description": param.description,
            "default": param.default,
        })
    return rows


def to_json(analysis: Analysis, prediction: Prediction, machine, bindings: dict[str, sympy.Expr],
            extra: list[Parameter], origins: dict[str, str] | None = None,
            simulated: Simulated | None = None) -> str:
    """The analysis and prediction as the JSON document (sorted: same input, same bytes). Its formulas are
    printed together at the end, so that the long ones name the parts they share (`subexpressions`)."""
    total = prediction.time_value
    model, figures = priced_by(prediction, simulated)
    slots = _Slots()
    doc: dict[str, Any] = {
        "sad_version": __version__,
        "files": list(analysis.program.files),
        "roots": analysis.roots,
        "machine": {"name": machine.name, "path": str(machine.path), "models": dict(machine.models)},
        "time": slots.add(prediction.time, 15),
        "model": model,
        "time_s": figures[0],
        "computation": slots.add(prediction.computation, 15),
        "communication": slots.add(prediction.communication, 15),
        "computation_s": figures[1],
        "communication_s": figures[2],
        "wait_s": figures[3],
        "per_rank": {"time_s": total, "computation_s": prediction.computation_value,
                     "communication_s": prediction.communication_value, "rank": _rank_json(prediction)},
        "rank": _rank_json(prediction) if model != "timeline" else _simulated_rank_json(simulated),
        "timeline": _timeline_json(simulated),
        "unbound": prediction.unbound,
        **({"unevaluated": prediction.unevaluated} if prediction.unevaluated else {}),
        **({"excluded_calls": prediction.excluded} if prediction.excluded else {}),  # unpriced, left out of time_s
        "startup_s": prediction.startup,
        "parameters": parameter_rows(analysis, bindings, extra, origins),
        "blocks": [{
            "procedure": bt.block.procedure, "file": bt.block.file, "first_line": bt.block.first_line,
            "last_line": bt.block.last_line, "kind": bt.block.kind, "count": slots.add(bt.block.count),
            "count_value": bt.count_value,
            "cost": {k: _plain(v) for k, v in sorted(bt.block.cost.items()) if v},
            "seconds_each": slots.add(bt.seconds_each, 15),
            "time_s": bt.time_value,
            "share": (bt.time_value / total) if (total and bt.time_value is not None) else None,
            **_message_json(bt, slots),
        } for bt in prediction.blocks],
        "procedures": [{"name": name, "time_s": t, "share": (t / total) if (total and t is not None) else None}
                       for name, t in prediction.by_procedure.items()],
        "operations": {k: slots.add(v) for k, v in prediction.operations.items()},
        **({"innermost_loops": {"total": cov.total, "compiled_code": cov.compiled,
                                "operation_classes": cov.operation_classes, "removed_by_compiler": cov.removed,
                                "command": cov.command,
                                "summary": cov.summary()}}
           if (cov := prediction.loop_coverage) is not None else {}),
        "subexpressions": [],
        "diagnostics": [{"file": d.loc.file, "line": d.loc.line, "col": d.loc.col, "severity": d.severity,
                         "message": d.message} for d in analysis.diagnostics],
        "generic_data": [{"file": loc.file, "line": loc.line, "test": test, "value": value}
                         for loc, test, value in analysis.generic_decisions],
    }
    texts, doc["subexpressions"] = slots.printed()
    return json.dumps(_filled(doc, texts), indent=2, sort_keys=False) + "\n"


class _Slot(int):
    """Where a formula's text goes in the document: its index among the document's formulas."""


class _Slots:
    """The formulas of one document, rounded as they are added and printed together."""

    def __init__(self) -> None:
        self.exprs: list[sympy.Basic] = []

    def add(self, expr: sympy.Expr, digits: int = 6) -> _Slot:
        self.exprs.append(_for_printing(expr, digits))
        return _Slot(len(self.exprs) - 1)

    def printed(self) -> tuple[list[str], list[list[str]]]:
        """Each formula's text, and the [name, text] of the parts the long ones name (sad.common.formulatext)."""
        definitions, exprs = named_parts(self.exprs)
        return [_PRINTER.doprint(e) for e in exprs], [[s.name, _PRINTER.doprint(v)] for s, v in definitions]


def _filled(value: Any, texts: list[str]) -> Any:
    """The document with each slot replaced by its formula's text."""
    if isinstance(value, _Slot):
        return texts[value]
    if isinstance(value, dict):
        return {k: _filled(v, texts) for k, v in value.items()}
    if isinstance(value, list):
        return [_filled(v, texts) for v in value]
    return value


def _message_json(bt, slots: _Slots) -> dict[str, Any]:
    msg = bt.block.message
    if msg is None:
        return {}
    return {"primitive": msg.primitive, "call": msg.name, "bytes": slots.add(msg.bytes, 15),
            "partner": msg.partner}


def priced_by(prediction: Prediction, simulated: Simulated | None
              ) -> tuple[str, tuple[float | None, float | None, float | None, float | None]]:
    """Which model priced the time ("timeline": the ranks simulated together; "traced alone": the traced
    ranks each priced alone, where the simulation failed and the formula has no number; else "formula") and
    its time, computation, communication and wait (None where the model has none)."""
    split = simulated.split() if simulated is not None else None
    if simulated is not None and split is not None:
        return "timeline", (simulated.time, *split)
    if simulated is not None and simulated.alone is not None and prediction.time_value is None:
        alone = simulated.alone
        return "traced alone", (alone.time, alone.compute[alone.slowest] + simulated.startup,
                                alone.communicate[alone.slowest], None)
    return "formula", (prediction.time_value, prediction.computation_value, prediction.communication_value, None)


def _simulated_rank_json(simulated: Simulated | None) -> dict[str, Any] | None:
    result = simulated.result if simulated is not None else None
    if simulated is None or result is None:
        return None
    return {"rank": result.slowest, "nprocs": simulated.nprocs,
            "note": f"slowest of {simulated.nprocs} ranks simulated together",
            "fastest_s": min(result.end) + simulated.startup}


def _timeline_json(simulated: Simulated | None) -> dict[str, Any] | None:
    if simulated is None:
        return None
    result = simulated.result
    doc: dict[str, Any] = {"nprocs": simulated.nprocs, "simulated": result is not None,
                           "failure": simulated.failure, "notes": simulated.notes}
    if result is None:
        return doc
    comp, comm, wait = simulated.split() or (None, None, None)
    return {**doc, "time_s": simulated.time, "slowest": result.slowest, "computation_s": comp,
            "communication_s": comm, "wait_s": wait, "messages": result.messages,
            "classes": timelinetext.classes_json(result), "critical_path": timelinetext.path_json(result)}


def _rank_json(prediction: Prediction) -> dict[str, Any] | None:
    choice = prediction.rank
    if choice is None:
        return None
    return {"rank": choice.rank, "nprocs": choice.nprocs, "note": choice.note, "fastest_s": choice.fastest}


def _plain(v):
    return int(v) if float(v).is_integer() else float(v)


def seconds(value: float | None) -> str:
    """A time with a readable unit (s, ms, µs, ns); '?' if unknown."""
    return timetext.seconds(value)


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _short_middle(text: str, width: int) -> str:
    """A `dir/file:line` place cut in its directories, so that both the start of the path and the file name
    with the line stay readable (`corpus/…/md1.f:162`); the file name is never cut, even past `width`."""
    if len(text) <= width:
        return text
    head, slash, name = text.rpartition("/")
    if not slash or len(name) + 2 >= width:
        return ("…/" if slash else "") + name
    keep = width - len(name) - 2  # room left for the start of the directories, "…" and "/"
    return head[:keep] + "…/" + name


def to_text(analysis: Analysis, prediction: Prediction, machine, bindings: dict[str, sympy.Expr],
            extra: list[Parameter], top: int = 10, origins: dict[str, str] | None = None,
            simulated: Simulated | None = None) -> str:
    """The analysis and prediction as text: totals, dominant blocks, parameters (an SPMD program's ranks
    simulated together first, when they were: sad.predict.simulated)."""
    out: list[str] = []
    files = ", ".join(analysis.program.files)
    models = ", ".join(f"{k} {v}" for k, v in machine.models.items())
    out.append(f"sad {__version__}: {files} on {machine.name}" + (f" ({models})" if models else ""))
    out.append("")
    rows = parameter_rows(analysis, bindings, extra, origins)
    unresolved = [r for r in rows if r["class"] == "unresolved"]
    kinds = Counter(r["kind"] for r in unresolved)
    procs = sorted({bt.block.procedure for bt in prediction.blocks})
    out.append(f"SAD = Σ_i ∏X ∏P S[block i] over {plural(len(prediction.blocks), 'block')} in "
               f"{plural(len(procs), 'procedure')}; {plural(len(unresolved), 'unresolved parameter')}"
               + (" (" + ", ".join(plural(n, k.replace('_', ' ')) for k, n in sorted(kinds.items())) + ")"
                  if kinds else ""))
    out.append("")
    out.append("Operation counts (closed form of the SAD):")
    for key, expr in list(prediction.operations.items()):
        out.append(f"  {key:<24} {short_formula(expr, 96)}")
    out.append("")
    out.append("Parameters:")
    places = [f"{r['file']}:{r['line']}" if r["line"] else r["file"] for r in rows]
    wide = max([28, *(len(_short_middle(w, 48)) for w in places)])  # up to 48 columns before a path is cut
    out.append(f"  {'name':<28} {'class':<10} {'kind':<18} {'where':<{wide}} value")
    for r, where in zip(rows, places):
        value = ("unbound" if r["value"] is None else f"{r['value']:.6g}" if isinstance(r["value"], float)
                 else str(r["value"]))
        value += f"  ({r['bound_by']})" if r["bound"] else ""
        out.append(f"  {r['name']:<28} {r['class']:<10} {r['kind']:<18} {_short_middle(where, 48):<{wide}} "
                   f"{_short(value, 40)}")
    if analysis.generic_decisions:
        out.append(f"  {generic_summary(analysis)}")
    out.append("")
    out.append("Predicted time:")
    out.extend(simulated_lines(simulated, prediction))
    out.append(f"  T = {short_formula(prediction.time, 2000, 4)}")
    if prediction.startup:
        out.append(f"  (includes the machine's start-up of a run: {seconds(prediction.startup)})")
    if prediction.time_value is not None:
        note = excluded_text(prediction.excluded) if prediction.excluded else "all parameters bound"
        out.append(f"  T = {seconds(prediction.time_value)}  ({note})")
    else:
        if prediction.unbound:
            out.append(f"  unbound: {', '.join(prediction.unbound)}")
            out.append("  bind them with -D NAME=VALUE (or --params FILE) for a number")
        if prediction.unevaluated:
            out.append(f"  not evaluated: {', '.join(prediction.unevaluated)}: a function's result sad could not "
                       "work out at these values (sad runs a function only up to an I/O statement, an array or an "
                       "intrinsic it does not have); no number")
        if prediction.excluded:
            out.append(f"  and the {excluded_text(prediction.excluded)}")
    out.extend(_spmd_lines(prediction))
    if prediction.loop_coverage is not None:
        out.append(f"  {prediction.loop_coverage.summary()}")
    out.append("")
    out.extend(_dominant(prediction, top))
    return "\n".join(out) + "\n"


def simulated_lines(simulated: Simulated | None, prediction: Prediction) -> list[str]:
    """The time of the ranks simulated together and its split, before the per-rank formula; or why they
    could not be (the formula, each rank priced alone, or the traced ranks priced alone is then the
    prediction: `priced_by`)."""
    if simulated is None:
        return []
    split = simulated.split()
    if simulated.result is None or split is None:
        model, figures = priced_by(prediction, simulated)
        alone = simulated.alone
        if model != "traced alone" or alone is None:
            return [f"  NPROCS = {simulated.nprocs}: the ranks could not be simulated together ({simulated.failure}); "
                    "the time is the per-rank formula below (each rank priced alone, no waits)"]
        return [f"  NPROCS = {simulated.nprocs}: the ranks could not be simulated together ({simulated.failure}); "
                "the time is the traced ranks each priced alone:",
                f"  T = {seconds(figures[0])}  (traced ranks priced alone; slowest: rank {alone.slowest})"]
    result = simulated.result
    comp, comm, wait = split
    fastest = min(result.end) + simulated.startup
    return [f"  T = {seconds(simulated.time)}  (NPROCS = {simulated.nprocs}: the ranks simulated together with "
            "the machine's LogGP figures, as `sad timeline`)",
            f"  slowest: rank {result.slowest} of {simulated.nprocs}; computation {seconds(comp)}, communication "
            f"{seconds(comm)}, wait {seconds(wait)}; the fastest ends at {seconds(fastest)}",
            "  Each rank priced alone (the per-rank formula: no waits, no overlap; the time when NPROCS is unbound):"]


def simulated_explained(simulated: Simulated) -> str:
    """`--explain` of the ranks simulated together: the classes of ranks and the critical path."""
    result = simulated.result
    if result is None:
        return ""
    lines = [f"Ranks simulated together (NPROCS = {simulated.nprocs}, {result.messages} messages; ranks with the "
             "same split are one class):", *timelinetext.class_lines(result), "",
             f"Critical path (ends at rank {result.slowest}; compute, send / recv overheads, transfers, link queues"
             + (f"; the run with {result.folded[0]} of {result.folded[1]} equal trips" if result.folded else "")
             + "):", *timelinetext.path_lines(result)]
    return "\n".join(lines) + "\n"


def _spmd_lines(prediction: Prediction) -> list[str]:
    """Computation and communication apart, as PerPreT tabulates them, and the rank the figures are for."""
    if prediction.communication == 0 and prediction.rank is None:
        return []
    comp, comm = prediction.computation_value, prediction.communication_value
    lines = [f"  computation   T_comp = {short_formula(prediction.computation, 1000, 4)}",
             f"  communication T_comm = {short_formula(prediction.communication, 1000, 4)}"]
    if comp is not None and comm is not None:
        lines.append(f"  T_comp = {seconds(comp)}, T_comm = {seconds(comm)}")
    choice = prediction.rank
    if choice is not None:
        if choice.rank is not None:
            spread = f"; the fastest takes {seconds(choice.fastest)}" if choice.fastest is not None else ""
            lines.append(f"  rank {choice.rank} ({choice.note}{spread})")
        else:
            lines.append(f"  ranks: {choice.note}")
    return lines


def _dominant(prediction: Prediction, top: int) -> list[str]:
    total = prediction.time_value
    if total is None:
        return ["Dominant blocks: bind every parameter to rank the blocks by time."]
    lines = [f"Dominant blocks (top {top} of {len(prediction.blocks)}):",
             f"  {'share':>7} {'time':>10} {'count':>12}  block"]
    ranked = sorted(prediction.blocks, key=lambda bt: (-(bt.time_value or 0.0), bt.block.file,
                                                       bt.block.first_line))
    for bt in ranked[:top]:
        share = 100.0 * (bt.time_value or 0.0) / total if total else 0.0
        count = number(bt.count_value) if bt.count_value is not None else "?"
        lines.append(f"  {share:6.1f}% {seconds(bt.time_value):>10} {count:>12}  {bt.block.where} "
                     f"{bt.block.procedure} ({bt.block.kind})")
    lines.append("")
    lines.append("By procedure:")
    for name, t in sorted(prediction.by_procedure.items(), key=lambda kv: -(kv[1] or 0.0)):
        share = 100.0 * (t or 0.0) / total if total else 0.0
        lines.append(f"  {share:6.1f}% {seconds(t):>10}  {name}")
    return lines


def generic_summary(analysis: Analysis) -> str:
    """How many tests of data the generic-data assumption decided (sad.analysis.genericdata)."""
    return (f"{plural(len(analysis.generic_decisions), 'test')} of data decided by the generic-data assumption "
            f"(listed by --explain; --no-generic-data keeps them as probabilities)")


def generic_list(analysis: Analysis) -> str:
    """Every test of data the generic-data assumption decided, with where and the value taken."""
    out = [generic_summary(analysis) + ":"]
    for loc, test, value in analysis.generic_decisions:
        verdict = "decided" if value is None else ("true" if value else "false")
        out.append(f"  {loc}: {test}: {verdict}")
    return "\n".join(out) + "\n"
