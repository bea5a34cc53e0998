"""Library mode for one file: every routine it defines is an entry, its formal arguments parameters.

Data flow: a unit (the file and the codebase files defining what it calls, sad.codebase.sources) → the
pipeline's per-procedure SADs (sad.analysis.pipeline.build_procedures: callees expanded, formals left as
symbols `PROC.ARG`) → for each routine of the file its blocks priced on the machine (sad.predict.mapper) → a
time formula, its value at each reference point and its complexity class (sad.codebase.points). Routines
of the dependency files are expanded into their callers but reported by their own file's unit.

Everything returned is plain data (strings, numbers, lists), so that it can be cached on disk, shipped
between processes and compared with a baseline written by another version of the code.
"""
from __future__ import annotations

import hashlib
import math
import os
import pickle
from functools import lru_cache
from pathlib import Path

import sympy

from sad import ir
from sad.analysis import standins
from sad.analysis.description import group_blocks
from sad.analysis.freesymbols import free_symbols
from sad.analysis.pipeline import build_procedures, load_file, load_program, root_counts, warm_up
from sad.analysis.products import interned, times, total
from sad.analysis.summaries import SummaryStore
from sad.analysis.values import resolve_name
from sad.codebase.formulas import Family, complexity, early_trips, evaluate
from sad.codebase.options import code_of, combinations, option_values
from sad.codebase.points import Point, PointSet, values_at
from sad.codebase.results import Options, Routine, Unit, UnitResult
from sad.codebase.sources import SourceFile, included_files, scan
from sad.common.cpuaccounts import charged_to
from sad.common.formulatext import CHECK_LIMIT, formula_text
from sad.common.strprinter import QuickStrPrinter
from sad.machine.model import load_machine
from sad.predict.mapper import op_cost_name, price

# Terms in sympy's canonical argument order (deterministic, independent of hashing) rather than sorted for
# display: sorting the terms of every formula cost more than pricing it. Numbers without trailing zeros also
# when a routine's time is one number (sympy prints a Float alone with all 15 digits, 1.75000000000000e-7).
_PRINTER = QuickStrPrinter({"order": "none", "full_prec": False})


@lru_cache(maxsize=4)
def _machine(path: str):
    return load_machine(path)


def machine_of(options: Options):
    """The machine database of a run, loaded once per process."""
    return _machine(options.machine)


def prepare(options: Options) -> None:
    """What every worker sets up on its first units, done once before workers are forked: the frontends and
    fparser's tables, the machine, and numpy (a formula with a sum is evaluated at the reference points with
    it). Not what only some files need (lambdify's namespace, sympy.simplify's modules: 1 s together): this
    runs before any worker starts, so it adds to the run's wall time, while a worker that needs them loads
    them alongside the others (none of the generated codebase's files does)."""
    warm_up()
    machine_of(options)
    import numpy  # noqa: F401


def analyze_unit(unit: Unit, options: Options) -> UnitResult:
    """The routines of `unit.path` in library mode, with the diagnostics that fall in that file. Files are
    opened by absolute path (a Dask worker's working directory is not the client's) and reported by the
    paths the user gave."""
    source = unit.located(unit.path)

    def load(path: str, include_dirs: list[str], defines: dict[str, str]) -> ir.Program:
        if path == source and not unit.loaded_by_others:
            return load_file(path, include_dirs, defines)  # no other unit needs its parse: none is kept
        with charged_to(path):   # a parse kept for later units counts to its file under a time limit
            return _parsed(path, include_dirs, defines)

    files = [source, *map(unit.located, unit.deps)]
    program, _failed = load_program(files, list(options.include), dict(options.defines), load)
    ctx, _graph = build_procedures(program, summaries=(_summaries(options), _digests(files, options), {source}))
    machine = machine_of(options)
    roots = []
    for proc in program.procedures:
        if proc.loc.file != source or proc.kind == "blockdata":
            continue
        built = ctx.built.get(resolve_name(proc.name))
        if built is not None:
            roots.append((proc, root_counts(ctx, built)))
    # the parameters' kinds once every root's counts are made: a deferred callee that no caller bound gets
    # its named call cost there (CTPRFB in CTPMLQT), which read before would have been priced as a size
    kinds_known = _kinds(ctx)
    leaving = _leaving(ctx)
    derived = standins.choices(ctx.table)
    routines, unknown = [], []
    for proc, counts in roots:
        routine, names = _routine(proc, unit.path, counts, machine, kinds_known, leaving, options.points,
                                  ctx.facts.character_formals, ctx.facts.logical_formals(proc), derived)
        routines.append(routine)
        unknown += [_unknown_symbol(proc, name) for name in names]
    prefix = unit.root.rstrip(os.sep) + os.sep if unit.root else None
    # The builder may report one place once per path that reaches it: each diagnostic once.
    diagnostics = sorted({(d.loc.line, d.loc.col, d.severity, d.message.replace(prefix, "") if prefix else d.message)
                          for d in [*program.diagnostics, *ctx.diagnostics, *unknown] if d.loc.file == source})
    return UnitResult(unit.path, unit.lines, sorted(routines, key=lambda r: (r.line, r.name)),
                      [{"file": unit.path, "line": line, "col": col, "severity": severity, "message": message}
                       for line, col, severity, message in diagnostics])


_PARSED: dict[tuple, bytes] = {}


def _parsed(path: str, include_dirs: list[str], defines: dict[str, str]) -> ir.Program:
    """The frontends' parse of a file, once per process: a file is loaded by its own unit and by every unit
    that calls into it (GEMM's unit parses AXPY's file too). Kept pickled (about 130 bytes per source
    line): the first unit gets the parse itself, every later one a fresh copy of it as parsed (a build may
    change it). Keyed by the contents of the file and of the files it includes besides the options, so an
    edited file or header is parsed again (a size and modification time would miss an edit within the file
    system's time granularity)."""
    try:
        source = _scanned(path)
    except OSError:
        return load_file(path, include_dirs, defines)  # the frontend words the error
    headers = [f"{name}:{header.digest if header else 'absent'}"
               for name, header in included_files(source, tuple(include_dirs))]
    key = (path, source.digest, tuple(headers), tuple(include_dirs), tuple(sorted(defines.items())))
    kept = _PARSED.get(key)
    if kept is None:  # the first unit gets the parse itself, the others copies of it as it was then
        program = load_file(path, include_dirs, defines)
        _PARSED[key] = pickle.dumps(program, pickle.HIGHEST_PROTOCOL)
        return program
    try:
        return pickle.loads(kept)
    except Exception:  # a memo must not fail a unit: the file is parsed again
        # Added for an EOFError "Ran out of input" in a Dask worker's unit; it came again with this guard in
        # place, so its source is elsewhere (runner.check_unit analyzes a failed unit once more).
        _PARSED.pop(key, None)
        return load_file(path, include_dirs, defines)


_SUMMARIES: dict[tuple, SummaryStore] = {}


def _summaries(options: Options) -> SummaryStore:
    """The routines built so far in this process, for the include path and macros of a run: a routine a
    unit built is taken in by every later unit calling it (sad.analysis.summaries)."""
    key = (options.include, options.defines)
    store = _SUMMARIES.get(key)
    if store is None:
        store = _SUMMARIES[key] = SummaryStore()
    return store


def _digests(files: list[str], options: Options) -> dict[str, str]:
    """Each loaded file's content digest, with those of the files it includes (a summary's key)."""
    digests = {}
    for path in files:
        try:
            source = _scanned(path)
        except OSError:
            continue
        headers = [f"{name}:{header.digest if header else 'absent'}"
                   for name, header in included_files(source, tuple(options.include))]
        digests[path] = hashlib.sha256("\0".join([source.digest, *headers]).encode()).hexdigest()
    return digests


_SCANS: dict[tuple[str, str], SourceFile] = {}


def _scanned(path: str) -> SourceFile:
    """sources.scan(path), once per process for each content of the file: a file is read and hashed for
    every unit that loads it, but its names and includes are looked for only once (scan is a function of
    the path and the content)."""
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    known = _SCANS.get((path, digest))
    if known is None:
        known = scan(path)
        _SCANS[(known.path, known.digest)] = known
    return known


_PRICES: dict[int, tuple[object, dict[frozenset, tuple[sympy.Expr, frozenset[str]]]]] = {}


def _price(cost, machine) -> tuple[sympy.Expr, frozenset[str]]:
    """A block's seconds on the machine and the operations it does not price, once per process for each
    cost vector (the blocks of all routines share a few hundred)."""
    owner, table = _PRICES.get(id(machine), (None, {}))
    if owner is not machine:  # a new machine, or another object at a reused id
        table = {}
        _PRICES[id(machine)] = (machine, table)
    key = frozenset(cost.items())
    if key not in table:
        missing: set[str] = set()
        table[key] = (price(cost, machine, missing), frozenset(missing))
    return table[key]


def _kinds(ctx) -> dict[str, tuple[str, float | None]]:
    kinds: dict[str, tuple[str, float | None]] = {p.name: (p.kind, p.default) for p in ctx.table}
    for param in ctx.candidates.values():
        kinds.setdefault(param.name, (param.kind, param.default))
    return kinds


def _leaving(ctx) -> dict[str, sympy.Expr]:
    """The trips of each loop left early → the flow leaving it per trip (Parameter.leaving)."""
    params = [*ctx.table, *ctx.candidates.values()]
    return {p.name: p.leaving for p in params if p.kind == "loop_count" and p.leaving is not None}


class _Derive:
    """Completes a point's values with the named stand-ins' (sad.analysis.standins.choices): each choice a
    function of the formals, valued from the values the point gives them, as the formula with the choice
    written out would be."""

    def __init__(self, formulas: dict[str, sympy.Expr]) -> None:
        self.formulas = formulas

    def symbols(self) -> set[sympy.Symbol]:
        """The symbols the stand-ins' formulas need values for."""
        return set().union(*(free_symbols(f) for f in self.formulas.values())) if self.formulas else set()

    def __call__(self, values: dict[str, float]) -> dict[str, float]:
        for name, formula in self.formulas.items():
            number = evaluate(formula, values)
            values[name] = number if number is not None else math.nan  # nan: the time has no value there
        return values


def _point_values(point: Point, points: PointSet, kinds: dict, known: dict, leaving: dict) -> dict[str, float]:
    """Every symbol's value at a point (sad.codebase.points.values_at), the trips of loops left early
    derived from their exits where the point does not give them (formulas.early_trips)."""
    values = values_at(point, points, kinds)
    mine = {name: q for name, q in leaving.items() if name in values}
    if not mine:
        return values
    unbound = {name for name in mine if point.lookup(name) is None}

    def default(name: str) -> float:
        return values_at(point, points, {name: known.get(name, ("value", None))})[name]
    return early_trips(values, mine, unbound, points.default("loop_count") or 0.0, default)


def _unknown_symbol(proc: ir.Procedure, name: str) -> ir.Diagnostic:
    """The warning for a symbol of a routine's time that no parameter table knows: an analysis symbol that
    leaked out of the build (a loop's stand-in, sad.analysis.standins), valued at the points as a size is
    (a figure of 50 s once came from one such symbol, valued silently)."""
    return ir.Diagnostic(proc.loc, "warning", f"{proc.name}: symbol {name} of its time is no known parameter; "
                                              f"valued as a size at the reference points")


def _routine(proc: ir.Procedure, shown: str, counts, machine, known: dict, leaving: dict,
             points: PointSet, characters: set[str] | frozenset[str] = frozenset(),
             logicals: frozenset[str] = frozenset(), derived: dict[str, sympy.Expr] | None = None
             ) -> tuple[Routine, list[str]]:
    """The routine's time formula and its values; and the symbols of it that `known` lacks (valued as sizes).
    The symbols `derived` names are valued from their formulas (_Derive)."""
    missing: set[str] = set()
    per_count: dict[sympy.Expr, list[sympy.Expr]] = {}
    for block in group_blocks(counts):
        seconds, unpriced = _price(block.cost, machine)
        missing |= unpriced
        per_count.setdefault(block.count, []).append(seconds)
    time = total([times(count, interned(sympy.Add(*each))) for count, each in per_count.items()])
    op_costs = {op_cost_name(k) for k in missing}
    derive = _Derive({s.name: derived[s.name] for s in sorted(free_symbols(time), key=lambda s: s.name)
                      if derived and s.name in derived})
    kinds, unknown = {}, []
    for symbol in sorted(free_symbols(time) | derive.symbols(), key=lambda s: s.name):
        if symbol.name in op_costs:
            kinds[symbol.name] = ("op_cost", None)
        elif symbol.name in known:
            kinds[symbol.name] = known[symbol.name]
        else:  # valued as a size at the points, as a formal is: told (_unknown_symbol), never silent
            kinds[symbol.name] = ("value", None)
            unknown.append(symbol.name)
    at = [_point_values(point, points, kinds, known, leaving) for point in points.points]
    options = option_values(sympy.Tuple(time, *derive.formulas.values()), set(characters), logicals)
    for bound in at:  # an option's value: the first the routine tests it against, not a size's default
        bound.update({name: float(code_of(letters[0])) for name, letters in options.items()})
        derive(bound)
    # at each point, the evaluations for the options' values share what the options do not change (and
    # the stand-ins whose choices test an option)
    varying = frozenset(s for s in free_symbols(time) if s.name in options or (
        s.name in derive.formulas and {o.name for o in free_symbols(derive.formulas[s.name])} & options.keys()))
    families = [Family(varying) for _ in at]
    values = {point.name: evaluate(time, bound, family=family)
              for point, bound, family in zip(points.points, at, families)}
    by_option = {label: {point.name: evaluate(time, derive({**bound, **codes}), family=family)
                         for point, bound, family in zip(points.points, at, families)}
                 for label, codes in combinations(options)}
    base = at[0]
    sizes = [name for name, (kind, _) in kinds.items()
             if kind == "value" and name not in options and name not in derive.formulas]
    text, parts = formula_text(time, _PRINTER, CHECK_LIMIT)
    return Routine(proc.name, shown, proc.loc.line, proc.language, proc.kind, text,
                   {name: kind for name, (kind, _) in kinds.items()}, values,
                   complexity(time, base, sizes, derive),
                   sorted(name[2:] for name, (kind, _) in kinds.items()
                          if kind == "call_cost" and name.startswith("C_")),
                   [[name, value] for name, value in parts], options, by_option), unknown

