"""Routine summaries kept across analyses: a routine built once is reused by every later program that holds
the same routine with the same callees, instead of being built again.

Data flow: the pipeline (sad.analysis.pipeline.build_procedures) builds a program's routines callees first;
with a `SummaryStore` it asks `Reuse.inject` before building a routine and `Reuse.record` after. `sad check`
(sad.codebase.routines) keeps one store per process: a file's unit builds the file and every file it calls
into, so without it DLAQR5 was built again for each of DLAQR0, DLAQR3, DLAQR4, DHSEQR and DGEEV (6.6 s each);
with it a codebase costs the sum of its routines.

A summary is exact, not an approximation: it is the routine's own build (its events' counts in its formal
arguments and its unresolved parameters, callees expanded), with everything the build added to the
analysis's shared state (parameters, candidates, diagnostics, tests on formals, character formals, loop
index bounds) replayed on reuse, and its events renumbered to the places (Event.seq) a build in this
program would give them, so that a reused routine gives the same result, byte for byte, as a fresh build.
It is keyed by the routine and, for itself and every routine it reaches, the content of the defining file.
Only what depends on nothing else is reused: a program without a main program (a routine's values may then
depend on how often its callers run it), without COMMON blocks or C globals anywhere in the routine's call
tree, without recursion or message passing in it (sad.analysis.values.ProgramFacts reads those across the
whole program). What a build asks of the rest of the program besides (the constants callers may store in
its arrays, the element rules all its calls agree on) is noted with the answers (sad.analysis.journal), its
callees' included, and a summary is taken in only where the program at hand gives the same answers.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, replace

import networkx as nx
import sympy

from sad import ir
from sad.analysis import recursion
from sad.analysis.buildstate import BuildContext
from sad.analysis.description import Event, ProcedureSAD
from sad.analysis.freesymbols import free_symbols
from sad.analysis.params import Parameter

_UNASKED = object()  # no answer yet (None is an answer)
Canon = tuple[str, int]  # an event's place independent of the program: (its routine, seq within its build)


@dataclass
class Summary:
    """One routine's build, as another program can take it in."""
    own: list[tuple[int, Event]]  # the routine's own events by their place within its build
    counts: list[tuple[Canon, sympy.Expr]]  # every event's count, in the build's order
    seqs: int  # places the build numbered
    diagnostics: list[ir.Diagnostic]
    params: list[tuple[Parameter, sympy.Symbol]]
    candidates: list[tuple[sympy.Symbol, Parameter]]
    formal_branches: list[tuple[sympy.Expr, sympy.Symbol]] | None
    character_formals: set[str]
    index_lower: list[tuple[sympy.Symbol, sympy.Expr]]
    tags: dict[int, str]  # the routines its counts' markers of deferred calls name, by tag (sad.analysis.recursion)
    standins: dict[sympy.Symbol, sympy.Expr]  # the stand-ins its counts keep, with their values (BuildContext.standins)
    # what its build (and its callees') asked of the rest of the program, with the answers
    # (sad.analysis.journal): taken in only where this program answers the same
    context: dict
    made: dict[tuple[int, str], list[tuple[int, Event]]]  # its builder's events by statement (twins), by place
    site_names: int  # the call sites it named probabilities for (BuildContext.site_names)
    deferred: list[tuple[str, tuple, dict]]  # its references run where a call binds its formals (BuildContext)


class SummaryStore:
    """Summaries by key, the least recently used keys dropped past `limit` (they hold whole formulas). A key
    keeps up to VARIANTS summaries, the latest first: one routine built in programs whose callers store
    different constants (DGEMV under a caller that may leave a zero in its A, and under none) has one
    summary for each, and each program takes the one built for programs like it."""

    VARIANTS = 4

    def __init__(self, limit: int = 2000) -> None:
        self.limit = limit
        self._entries: OrderedDict[tuple, list[Summary]] = OrderedDict()
        self.reused = 0

    def get(self, key: tuple) -> list[Summary]:
        """The summaries stored under `key`, the latest first."""
        found = self._entries.get(key, [])
        if found:
            self._entries.move_to_end(key)
        return found

    def put(self, key: tuple, summary: Summary) -> None:
        """Keep `summary` under `key`, first, in place of one built where the program answered alike."""
        others = [old for old in self._entries.get(key, []) if old.context != summary.context]
        self._entries[key] = [summary, *others][:self.VARIANTS]
        self._entries.move_to_end(key)
        while len(self._entries) > self.limit:
            self._entries.popitem(last=False)


@dataclass
class _Mark:
    seq: int
    diagnostics: int
    params: int
    candidates: int
    character_formals: set[str]
    index_lower: int


class Reuse:
    """The summaries of one program's build: which routines may be reused, and the events' places.

    `digests` maps each file of the program to its content's digest (its INCLUDE files' too); routines of
    the files in `fresh` are always built (their diagnostics are the unit's own report)."""

    def __init__(self, store: SummaryStore, ctx: BuildContext, graph: nx.DiGraph, digests: dict[str, str],
                 fresh: set[str]) -> None:
        self.store = store
        self.ctx = ctx
        self.graph = graph
        self.digests = digests
        self.fresh = fresh
        program = ctx.facts.program
        self.enabled = ctx.facts.main is None and not program.globals and not ctx.overrides
        self.places: dict[Event, Canon] = {}  # identity-hashed events → their places, and back
        self.contexts: dict[str, dict] = {}  # what each routine's summary asked of the program (journal)
        self.events: dict[Canon, Event] = {}
        self._keys: dict[str, tuple | None] = {}
        self.answers: dict[tuple, object] = {}  # this program's answer to each question asked (_same_answers)

    def key(self, name: str) -> tuple | None:
        """The routine's key: for it and each routine it reaches, the defining file's digest; None when
        it may not be reused."""
        if name in self._keys:
            return self._keys[name]
        key: tuple | None = None
        if self.enabled:
            reached = sorted(nx.descendants(self.graph, name) | {name})
            parts: list[tuple[str, str | None, str | None]] = []
            for callee in reached:
                proc = self.ctx.facts.procs.get(callee)
                if proc is None:
                    parts.append((callee, None, None))
                    continue
                digest = self.digests.get(proc.loc.file)
                if digest is None or proc.language != "fortran" or proc.commons or callee in self.ctx.cycles:
                    parts = []
                    break
                parts.append((callee, proc.name, digest))
            key = (name, tuple(parts)) if parts else None
        self._keys[name] = key
        return key

    def inject(self, name: str, proc: ir.Procedure) -> bool:
        """Take the routine's summary into this program instead of building it; False when there is none."""
        if proc.loc.file in self.fresh:
            return False
        key = self.key(name)
        summary = next((summary for summary in (self.store.get(key) if key is not None else [])
                        if self._takes(name, summary)), None)
        if summary is None:
            return False
        ctx = self.ctx
        base = ctx.seq
        ctx.seq += summary.seqs
        for rel, template in summary.own:
            event = replace(template, seq=base + rel)
            self.events[(name, rel)] = event
            self.places[event] = (name, rel)
        tags = {old: ctx.tag(key) for old, key in summary.tags.items()}
        ctx.built[name] = ProcedureSAD(proc, {self.events[place]: recursion.retagged(count, tags)
                                              if tags and self.events[place].role == "recurse" else count
                                              for place, count in summary.counts})
        for diagnostic in summary.diagnostics:
            if diagnostic not in ctx.diagnostics:
                ctx.diagnostics.append(diagnostic)
        for param, symbol in summary.params:
            ctx.table.add(param, symbol)
        for symbol, candidate in summary.candidates:
            ctx.candidates.setdefault(symbol, candidate)
        if summary.formal_branches is not None:
            ctx.formal_branches[name] = list(summary.formal_branches)
        ctx.facts.character_formals |= summary.character_formals
        ctx.facts.index_lower.update(summary.index_lower)
        if summary.standins:
            ctx.standins[name] = dict(summary.standins)
        ctx.first_made[name] = {statement: [self.events.get((name, rel)) or replace(template, seq=base + rel)
                                            for rel, template in events]
                                for statement, events in summary.made.items()}
        if summary.site_names:
            ctx.site_names[name] = summary.site_names
        if summary.deferred:
            ctx.deferred[name] = list(summary.deferred)
        self.contexts[name] = summary.context
        self.store.reused += 1
        return True

    def _takes(self, name: str, summary: Summary) -> bool:
        """Whether the summary can be taken in here: the events its counts count are placed in this program,
        and the program answers what its builds asked alike."""
        return all(place[0] == name or place in self.events for place, _ in summary.counts) \
            and self._same_answers(summary.context)

    def _same_answers(self, context: dict) -> bool:
        """Whether this program answers every question the summary's builds asked of theirs as they did.
        Each question is put to the program once: its answer is a fact of the program's text, and a
        caller's summary asks again every question of its callees' (on the 194-file LAPACK sample 34 461
        questions, 30 CPU s, were put to the programs)."""
        for question, answer in context.items():
            given = self.answers.get(question, _UNASKED)
            if given is _UNASKED:
                given = self.answers[question] = self.ctx.facts.asked_again(question, self.ctx.table,
                                                                            self.ctx.overrides)
            if given != answer:
                return False
        return True

    def mark(self) -> _Mark:
        """The shared state before a build (what `record` compares with)."""
        ctx = self.ctx
        ctx.facts.journal.open()
        return _Mark(ctx.seq, len(ctx.diagnostics), len(ctx.table.entries()), len(ctx.candidates),
                     set(ctx.facts.character_formals), len(ctx.facts.index_lower))

    def record(self, name: str, mark: _Mark) -> None:
        """After a build: place its events, and keep its summary when it may be reused."""
        ctx = self.ctx
        context = ctx.facts.journal.close()
        for callee in sorted(nx.descendants(self.graph, name)):
            for question, answer in self.contexts.get(callee, {}).items():
                context.setdefault(question, answer)
        self.contexts[name] = context
        built = ctx.built[name]
        seqs = ctx.seq - mark.seq
        own: list[tuple[int, Event]] = []
        counts: list[tuple[Canon, sympy.Expr]] = []
        complete = True
        for event, count in built.counts.items():
            if mark.seq < event.seq <= ctx.seq:
                place = (name, event.seq - mark.seq)
                self.places[event] = place
                self.events[place] = event
                own.append((place[1], event))
            else:
                found = self.places.get(event)
                if found is None:
                    complete = False
                    continue
                place = found
            complete = complete and event.message is None
            counts.append((place, count))
        key = self.key(name)
        if key is None or not complete:
            return
        entries = ctx.table.entries()
        # the parameters its counts name that an earlier build registered (the first registration of a
        # name wins: a build that finds its formal registered adds nothing), and those it registered
        named = {symbol for count in built.counts.values() for symbol in free_symbols(count)}
        params = [entry for entry in entries[:mark.params] if entry[1] in named] + entries[mark.params:]
        names = {symbol.name for symbol in named}
        self.store.put(key, Summary(
            own, counts, seqs, ctx.diagnostics[mark.diagnostics:], params,
            list(ctx.candidates.items())[mark.candidates:],
            list(ctx.formal_branches[name]) if name in ctx.formal_branches else None,
            (ctx.facts.character_formals - mark.character_formals) | (ctx.facts.character_formals & names),
            list(ctx.facts.index_lower.items())[mark.index_lower:],
            {tag: ctx.recursion_tags[tag][0] for event, count in built.counts.items() if event.role == "recurse"
             for tag in recursion.tags_in(count)},  # markers are counts of recursion events only
            dict(ctx.standins.get(name, {})), context,
            {statement: [(event.seq - mark.seq, event) for event in events]
             for statement, events in ctx.first_made.get(name, {}).items()}, ctx.site_names.get(name, 0),
            list(ctx.deferred.get(name, []))))
