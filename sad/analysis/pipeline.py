"""The analysis pipeline: source files → IR → SAD, with the parameter table and all diagnostics.

Data flow: frontends.load_file for each file (a broken file contributes its diagnostics and nothing else) →
one merged Program → call graph → per-procedure SADs, callees first (sad.analysis.builder) → the program's
SAD (sad.analysis.description.Analysis): the roots' event counts, callees expanded. Machines are not known
here; sad.predict.mapper takes it from there.
"""
from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import networkx as nx
import sympy

from sad import ir
from sad.analysis import calls as expansion
from sad.analysis import standins
from sad.analysis.builder import BuildContext, ProcedureBuilder
from sad.analysis.callgraph import build_call_graph, build_order, components, recursive_cycles, recursive_edges, roots
from sad.analysis.description import Analysis, Event, ProcedureSAD
from sad.analysis.freesymbols import free_symbols
from sad.analysis.inputs import input_problem, tidy
from sad.analysis.params import ParameterTable
from sad.analysis.products import tree_size
from sad.analysis.spelling import respelled
from sad.analysis.spmd import link_pvm_buffers, link_requests
from sad.analysis.summaries import Reuse, SummaryStore
from sad.analysis.values import ProgramFacts, resolve_name
from sad.common.cpuaccounts import charged_to
from sad.frontends import language_of, load_file

__all__ = ["Analysis", "analyze", "analyze_program", "build_procedures", "load_file", "load_program", "source_language",
           "warm_up"]


def source_language(path: str) -> str | None:
    """'fortran', 'c' or None: the frontend a file's suffix selects (headers included)."""
    return language_of(path)


def preprocessor_defines(path: str, defines: dict[str, str]) -> dict[str, str]:
    """The -D definitions that reach the preprocessor (and a compiler) for this file: those that are no
    variable of the program (frontends.macros); {} for a file that is not preprocessed."""
    from sad.frontends.macros import macro_defines
    lang = language_of(path)
    if lang is None or (lang == "fortran" and Path(path).suffix not in (".F", ".fpp", ".F77", ".FOR", ".F90", ".F95",
                                                                        ".F03", ".F08")):
        return {}
    return macro_defines(path, dict(defines), lang)


def macros_read(files: list[str], include_dirs: list[str], defines: dict[str, str], names: set[str]) -> set[str]:
    """Those of ``names`` that the preprocessor expanded or tested in one of the files (their headers included)
    with these -I and -D (frontends.macros.macros_used); files that are not preprocessed are not asked."""
    from sad.frontends.macros import macros_used
    used: set[str] = set()
    for path in files:
        passed = preprocessor_defines(path, defines)
        if names - used and set(passed) & names:
            used |= macros_used(path, include_dirs, passed, language_of(path) or "c") & names
    return used


def warm_up() -> None:
    """Import the frontends and build fparser's statement classes now, e.g. once before worker processes
    are forked, instead of in every worker on its first file."""
    # the C frontend's steps, which its `load` imports on its first file
    import sad.frontends.c.parse
    import sad.frontends.c.preprocess
    import sad.frontends.c.prune
    import sad.frontends.c.unit  # noqa: F401
    from sad.frontends.fortran.parse import classes
    classes()


def load_program(files: list[str], include_dirs: list[str], defines: dict[str, str],
                 loader: Callable[[str, list[str], dict[str, str]], ir.Program] = load_file
                 ) -> tuple[ir.Program, list[str]]:
    """Parse every file (with `loader`: the frontends' load_file, or a caller's memo of it); merge what
    parsed. Returns the program and the files that had errors."""
    merged = ir.Program()
    failed: list[str] = []
    seen: dict[str, ir.Procedure] = {}
    main: ir.Procedure | None = None
    for path in files:
        problem = input_problem(path)
        if problem is not None:
            merged.files.append(path)
            merged.diagnostics.append(ir.Diagnostic(ir.Loc(path, 0), "error", problem))
            failed.append(path)
            continue
        part = loader(path, include_dirs, defines)
        merged.files.append(path)
        part.diagnostics = tidy(path, part.diagnostics)
        merged.diagnostics.extend(part.diagnostics)
        if any(d.severity == "error" for d in part.diagnostics):
            failed.append(path)
        merged.globals.update({k: v for k, v in part.globals.items() if k not in merged.globals})
        for proc in part.procedures:
            key = resolve_name(proc.name)
            if key in seen:
                merged.diagnostics.append(ir.Diagnostic(proc.loc, "warning",
                                                        f"{proc.name} is defined again (first at "
                                                        f"{seen[key].loc}); this definition is ignored"))
                continue
            if _is_main(proc):
                if main is not None:
                    # gfortran rejects the file and a linker two `main`s: summing both would be no program
                    merged.diagnostics.append(ir.Diagnostic(proc.loc, "error",
                                                            f"a second main program {proc.name} (the first, "
                                                            f"{main.name}, is at {main.loc}); it is ignored"))
                    if path not in failed:
                        failed.append(path)
                    continue
                main = proc
            seen[key] = proc
            merged.procedures.append(proc)
    return merged, failed


def _once(diagnostics: list[ir.Diagnostic]) -> list[ir.Diagnostic]:
    """Each diagnostic once, in order of first appearance: the builder reaches one statement once per path
    (the arms a C `a || b || c` condition is lowered to), and one note per statement is enough."""
    seen: set[tuple[ir.Loc, str, str]] = set()
    out = []
    for d in diagnostics:
        key = (d.loc, d.severity, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def _is_main(proc: ir.Procedure) -> bool:
    return proc.kind == "program" or (proc.language == "c" and proc.name == "main")


def build_procedures(program: ir.Program, overrides: dict[str, sympy.Expr] | None = None,
                     summaries: tuple[SummaryStore, dict[str, str], set[str]] | None = None,
                     generic_data: bool = True) -> tuple[BuildContext, nx.DiGraph]:
    """Every procedure's SAD per entry (callees expanded, formals as symbols), callees first, in
    ``ctx.built``, and the call graph; a procedure whose build fails gets an internal-error diagnostic
    and no SAD. With `summaries` (a store, each file's digest, the files always built), a routine built
    by an earlier program is taken from the store (sad.analysis.summaries). `generic_data`: tests of data
    decided by the generic-data model (sad.analysis.genericdata)."""
    link_pvm_buffers(program)
    link_requests(program)
    facts = ProgramFacts.gather(program, generic_data)
    table = ParameterTable()
    ctx = BuildContext(facts, table, dict(overrides or {}))
    ctx.build_deferring = lambda name: _build_deferring(ctx, name)
    graph = build_call_graph(program)
    sccs = components(graph)
    ctx.recursive_calls = recursive_edges(graph, sccs)
    ctx.cycles = recursive_cycles(graph, sccs)
    facts.recursive = set(ctx.cycles)
    reuse = Reuse(summaries[0], ctx, graph, summaries[1], summaries[2]) if summaries else None
    for name in build_order(graph, sccs):
        proc = facts.procs.get(name)
        if proc is None or proc.kind == "blockdata":
            continue
        depth = nesting_depth(proc.body)
        if depth > _NESTING_LIMIT:
            ctx.diagnostics.append(ir.Diagnostic(proc.loc, "error",
                                                 f"{proc.name} not analyzed: statements nested {depth} deep, "
                                                 f"more than the {_NESTING_LIMIT} sad handles"))
            continue
        try:
            with charged_to(proc.loc.file):   # a time limit counts each file's routines on their own
                _build_one(ctx, reuse, name, proc)
        except RecursionError:
            ctx.diagnostics.append(ir.Diagnostic(proc.loc, "error",
                                                 f"internal error while analyzing {proc.name}: recursion "
                                                 "too deep"))
        except Exception as exc:  # a bug of ours must not take the other procedures down
            ctx.diagnostics.append(ir.Diagnostic(proc.loc, "error",
                                                 f"internal error while analyzing {proc.name}: "
                                                 f"{type(exc).__name__}: {exc}"))
    return ctx, graph


def _build_one(ctx: BuildContext, reuse: Reuse | None, name: str, proc: ir.Procedure) -> None:
    """One routine's SAD into ``ctx.built``: taken in from an earlier program's summary, else built."""
    # whether a summary may be taken in asks the value backtracer as deep as a build does (DLARRE's
    # element rules followed 55 conditional definitions: past Python's default limit)
    with _deep_recursion():
        if reuse is not None and reuse.inject(name, proc):
            return
    mark = reuse.mark() if reuse is not None else None
    builder = ProcedureBuilder(ctx, proc)
    with _deep_recursion():
        ctx.built[name] = builder.build()
    ctx.first_made[name] = builder.made  # outside a cycle, for a deferring build made where a caller needs it
    if reuse is not None and mark is not None:
        reuse.record(name, mark)
    if name in ctx.cycles:
        _build_activations(ctx, name)


# Nodes up to which a root's counts are written with the choices its stand-ins keep put back (`sad analyze`
# shows a routine as a formula of its formals), as many as a call binds
ROOT_PUT_BACK = expansion.BIND_LIMIT


def root_counts(ctx: BuildContext, built: ProcedureSAD, put_back_within: int = 0) -> dict[Event, sympy.Expr]:
    """A routine's counts as the SAD of a root: calls into recursion that no caller bound, counted by the
    activation counts of their routine's first build (sad.analysis.recursion); the stand-ins no call bound
    put back within `put_back_within` nodes, else named (sad.analysis.standins.named)."""
    counts = ProcedureBuilder(ctx, built.procedure).calls.pending_recursion(built.counts)
    return standins.named(ctx, built.procedure, counts, put_back_within)


def _build_activations(ctx: BuildContext, name: str) -> None:
    """Once every routine of `name`'s cycle of calls is built: their activation builds, which a call with
    known arguments unrolls (sad.analysis.recursion). What they add to the diagnostics that the first builds
    said already is not said twice; a failed activation build leaves the cycle to its activation counts."""
    cycle = ctx.cycles.get(name)
    if cycle is None or any(m not in ctx.built for m in cycle) or name in ctx.activations:
        return
    said = len(ctx.diagnostics)
    for member in sorted(cycle):
        try:
            builder = ProcedureBuilder(ctx, ctx.built[member].procedure, activation=True)
            with _deep_recursion():
                built = builder.build()
            # the routine's own events are the first build's where they are alike: a line is one event,
            # whether a call unrolls the recursion or counts its activations as a parameter
            same = builder.twins(ctx.first_made.get(member, {}))
            counts = {same.get(e, e): n for e, n in built.counts.items()}
            ctx.activations[member] = ProcedureSAD(built.procedure, counts)
        except Exception as exc:  # the first build stands: its callers count activations as parameters
            ctx.activations.pop(member, None)
            ctx.note(ctx.built[member].procedure.loc, f"{ctx.built[member].procedure.name}'s recursion is not "
                                                      f"unrolled on known arguments: {type(exc).__name__}: {exc}")
    _drop_repeats(ctx, said)


def _build_deferring(ctx: BuildContext, name: str) -> ProcedureSAD | None:
    """A routine whose counts are past what a call binds (sad.analysis.calls.BIND_LIMIT: DSYTRD's, its
    blocked loop's sums of DLATRD's and DSYR2K's counts with its block size stood in, 1.6 million nodes)
    and that a caller may call with numbers: its deferring build, with its calls of subroutines whose
    arguments are not numbers kept as markers (sad.analysis.recursion), small, which such a caller binds and
    expands call by call from the callees' own counts. Built where such a call first needs it (sad.analysis.calls,
    through ctx.build_deferring): a routine no caller passes numbers (STREVC in `sad check`) never pays for it.
    The first build stays the routine's own SAD (as a root, and for callers that pass what is not numbers);
    a failed deferring build leaves callers to it (None)."""
    if name in ctx.deferring or name in ctx.deferring_failed:
        return ctx.deferring.get(name)
    built = ctx.built[name]
    proc = built.procedure
    if proc.kind != "subroutine" or name in ctx.cycles or not ctx.formal_symbols(name):
        return None
    size = ctx.count_sizes.get(name)
    if size is None:
        size = ctx.count_sizes[name] = tree_size(built.counts.values())
    if size <= expansion.BIND_LIMIT:
        return None
    said = len(ctx.diagnostics)
    ctx.deferring_failed.add(name)  # while it builds, and for good where it fails
    try:
        builder = ProcedureBuilder(ctx, proc, deferring=True)
        with _deep_recursion():
            second = builder.build()
        same = builder.twins(ctx.first_made.get(name, {}))
        ctx.deferring[name] = ProcedureSAD(proc, {same.get(e, e): n for e, n in second.counts.items()})
        ctx.deferring_failed.discard(name)
    except Exception as exc:  # the first build stands
        ctx.note(proc.loc, f"{proc.name}'s calls are not deferred to its callers' numbers: {type(exc).__name__}: "
                           f"{exc}")
    _drop_repeats(ctx, said)
    return ctx.deferring.get(name)


def _drop_repeats(ctx: BuildContext, said: int) -> None:
    """Drop the diagnostics after the first `said` that repeat one of those (a second build of a routine says
    again what its first build said)."""
    old = ctx.diagnostics[:said]
    ctx.diagnostics[said:] = [d for d in ctx.diagnostics[said:] if d not in old]


_NESTING_LIMIT = 200  # statement nesting the builder's recursion is sized for (the corpus needs under 10)
_FRAMES_PER_LEVEL = 24  # Python frames one nesting level of IF/DO takes in the builder, sympy included


def nesting_depth(body: list[ir.Stmt]) -> int:
    """How deep statement lists nest (a DO in an IF in a DO is 3), without recursion."""
    deepest = 0
    stack = [(body, 0)]
    while stack:
        stmts, depth = stack.pop()
        deepest = max(deepest, depth)
        for stmt in stmts:
            stack.extend((inner, depth + 1) for inner in ir.child_bodies(stmt))
    return deepest


_RECURSION_LOCK = threading.Lock()
_RECURSION_USERS = [0, 0]  # builds inside _deep_recursion now, the limit before the first of them


@contextlib.contextmanager
def _deep_recursion():
    """The builder recurses once per nested statement list; Python's default limit (1000 frames) stops
    it near 40 levels of IF blocks, which generated and mutated code reaches. The limit is raised while
    any build runs and restored by the last one (builds may run in threads of a worker)."""
    with _RECURSION_LOCK:
        if _RECURSION_USERS[0] == 0:
            _RECURSION_USERS[1] = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_RECURSION_USERS[1], _NESTING_LIMIT * _FRAMES_PER_LEVEL))
        _RECURSION_USERS[0] += 1
    try:
        yield
    finally:
        with _RECURSION_LOCK:
            _RECURSION_USERS[0] -= 1
            if _RECURSION_USERS[0] == 0:
                sys.setrecursionlimit(_RECURSION_USERS[1])


def analyze_program(program: ir.Program, overrides: dict[str, sympy.Expr] | None = None,
                    generic_data: bool = True) -> Analysis:
    """Analyze an IR program: the SAD's event counts summed over its roots, parameters, diagnostics. An
    override's name may spell a Fortran name in any case (sad.analysis.spelling). `generic_data`: tests of
    floating-point data decided by the generic-data model (sad.analysis.genericdata), each listed in
    Analysis.generic_decisions."""
    ctx, graph = build_procedures(program, respelled(overrides or {}, program), generic_data=generic_data)
    counts: dict[Event, sympy.Expr] = {}
    root_procs = roots(program, graph)
    for root in root_procs:
        built = ctx.built.get(resolve_name(root.name))
        if built is None:
            continue
        for event, count in root_counts(ctx, built, ROOT_PUT_BACK).items():
            counts[event] = counts.get(event, 0) + count
    _register_used(ctx, counts)
    failed = [p for key, p in sorted(ctx.facts.procs.items()) if key not in ctx.built and p.kind != "blockdata"]
    return Analysis(program, counts, ctx.table, _once([*program.diagnostics, *ctx.diagnostics]),
                    [r.name for r in root_procs], internal_errors=[p.name for p in failed],
                    failed_files=sorted({p.loc.file for p in failed}), generic_decisions=ctx.generic_decisions)


def _register_used(ctx: BuildContext, counts: dict[Event, sympy.Expr]) -> None:
    """Keep the loop counts, probabilities and call costs that the final SAD mentions; drop formals that
    every call site bound."""
    names = {s.name for count in counts.values() for s in free_symbols(count)}
    names |= {key[5:] for event in counts for key in event.cost if key.startswith("cost:")}
    names |= {s.name for event in counts if event.message is not None for s in event.message.free_symbols}
    for symbol, param in sorted(ctx.candidates.items(), key=lambda kv: kv[0].name):
        if symbol.name in names:
            ctx.table.add(param, symbol)
    ctx.table.prune(lambda p: p.cls != "unresolved" or p.name in names)


def analyze(files: list[str], include_dirs: list[str] | None = None, defines: dict[str, str] | None = None,
            overrides: dict[str, sympy.Expr] | None = None, generic_data: bool = True) -> Analysis:
    """Load source files with the frontends and analyze them as one program (`generic_data`: see
    analyze_program)."""
    program, failed = load_program(files, list(include_dirs or []), dict(defines or {}))
    analysis = analyze_program(program, overrides, generic_data)
    # A file our analysis failed on is as unusable as one with syntax errors: no command trusts it.
    analysis.failed_files = sorted(set(failed) | set(analysis.failed_files))
    analysis.include_dirs, analysis.defines = list(include_dirs or []), dict(defines or {})
    return analysis
