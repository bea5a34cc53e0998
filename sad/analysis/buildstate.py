"""What the pieces of one SAD build share: the program-wide context and the per-region event counts.

Data flow: sad.analysis.pipeline creates one `BuildContext` per program and builds procedures callees first;
each procedure's builder (sad.analysis.builder) fills `RegionResult`s, one per statement list, with the
help of the naming (sad.analysis.naming), control-edge (sad.analysis.jumps), branch (sad.analysis.branches)
and call-expansion (sad.analysis.calls) modules, which all read this context.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import sympy

from sad import ir
from sad.analysis.description import Event, ProcedureSAD
from sad.analysis.params import Parameter, ParameterTable
from sad.analysis.products import EXPANSION_LIMIT, expand, expanded_terms, is_number, multiplied_out
from sad.analysis.values import ProgramFacts, ValueResolver

# Where a control edge goes: a statement of the region by index (cfg.END past its end) or out of the
# region to a label ("esc", label); "@return" and "@stop" are the labels of RETURN and STOP.
Target = int | tuple[str, str]


@dataclass
class BuildContext:
    """What every procedure's build shares: program facts, parameters met, SADs built so far."""
    facts: ProgramFacts
    table: ParameterTable
    overrides: dict[str, sympy.Expr]
    built: dict[str, ProcedureSAD] = field(default_factory=dict)
    recursive_calls: set[tuple[str, str]] = field(default_factory=set)
    cycles: dict[str, frozenset[str]] = field(default_factory=dict)
    candidates: dict[sympy.Symbol, Parameter] = field(default_factory=dict)
    # per routine (linkage name): its exact indicators on formal arguments with the probability each stands
    # for at a call site that cannot bind the argument (data passed in: sad.analysis.calls)
    formal_branches: dict[str, list[tuple[sympy.Expr, sympy.Symbol]]] = field(default_factory=dict)
    diagnostics: list[ir.Diagnostic] = field(default_factory=list)
    seq: int = 0
    # per routine (linkage name): the call sites whose probabilities were named (P_X_IN_ROUTINE_n,
    # sad.analysis.calls), numbered in the routine, not in the program, so that a name does not depend on
    # what else the program holds (a summary taken into another program keeps its names)
    site_names: dict[str, int] = field(default_factory=dict)
    # a callee's counts bound to one call's actual values, by (callee, formal → value) (sad.analysis.calls)
    bindings: dict[tuple[str, frozenset, bool], tuple[dict, dict]] = field(default_factory=dict)
    # the tree size of each built routine's counts, by linkage name (sad.analysis.calls' expansion budget)
    count_sizes: dict[str, int] = field(default_factory=dict)
    # the symbols in each built routine's counts, by linkage name (sad.analysis.calls' traced functions)
    count_symbols: dict[str, frozenset] = field(default_factory=dict)
    # per routine: the references of functions whose arguments are its formals, to run where a call binds
    # them (callee, argument values, the reference's own probability symbols → the callee's parameters)
    deferred: dict[str, list[tuple[str, tuple, dict]]] = field(default_factory=dict)
    # per routine: the stand-ins of loop-invariant choices its counts keep (sad.analysis.standins), with their
    # values in its formals, bound at each call (sad.analysis.calls)
    standins: dict[str, dict[sympy.Symbol, sympy.Expr]] = field(default_factory=dict)
    # tests of data decided by the generic-data model: (where, the comparison, its value), in order
    generic_decisions: list[tuple[ir.Loc, str, bool | None]] = field(default_factory=list)
    # per routine on a cycle of calls: its activation build (sad.analysis.recursion), formals as symbols
    activations: dict[str, ProcedureSAD] = field(default_factory=dict)
    # per routine whose counts are past what a call binds (sad.analysis.calls.BIND_LIMIT): its deferring
    # build, its calls of subroutines with arguments not known as numbers kept as markers (sad.analysis.pipeline)
    deferring: dict[str, ProcedureSAD] = field(default_factory=dict)
    deferring_failed: set[str] = field(default_factory=set)  # routines with no deferring build (or one building)
    # makes a routine's deferring build where a call first needs it (set by sad.analysis.pipeline); None: none
    build_deferring: Callable[[str], ProcedureSAD | None] | None = None
    # the routines markers name (recursive ones, and callees deferred to where their arguments are known),
    # by tag: (linkage name, its formals' symbols in marker order)
    recursion_tags: list[tuple[str, tuple[sympy.Symbol, ...]]] = field(default_factory=list)
    # the events the first build of each routine on a cycle made, by (statement id, role), in order
    first_made: dict[str, dict[tuple[int, str], list[Event]]] = field(default_factory=dict)

    def tag(self, key: str) -> int:
        """The number that names routine `key` in markers of calls (sad.analysis.recursion), with the symbols
        of its formals as bound there."""
        for tag, (known, _) in enumerate(self.recursion_tags):
            if known == key:
                return tag
        if key in self.cycles:
            self._register_formals(key)
        self.recursion_tags.append((key, self.formal_symbols(key)))
        return len(self.recursion_tags) - 1

    def _register_formals(self, key: str) -> None:
        """A recursive routine's scalar integer and character inputs, registered as its activation build
        registers them when it reads them (sad.analysis.values): a marker carries the values of the formals
        registered when its tag is made, and DLAQZ0's activation build calls DLAQZ3 before DLAQZ3's own
        activation build has read its formals (the marker passed nothing, and the recursion was not unrolled)."""
        proc = self.facts.procs[key]
        modified = self.facts.modified
        assert modified is not None  # made with the program's facts
        resolver = ValueResolver(self.facts, proc, self.table, self.overrides, activation=True)
        for pos, formal in enumerate(proc.formals):
            decl = proc.variables.get(formal)
            if decl is None or decl.dims or decl.type not in ("integer", "character") \
                    or modified.may_modify(key, pos):  # an output (FACT's R): no value passed in
                continue
            resolver.formal_argument(formal, decl.type)

    def formal_symbols(self, key: str) -> tuple[sympy.Symbol, ...]:
        """The symbols of routine `key`'s formals that have one, in the order of its formals."""
        proc = self.facts.procs[key]
        formals = [self.table.symbol(self.facts.storage_name(proc, f)) for f in proc.formals]
        # and the symbols a call binds for the first element of an array holding a stored constant
        # (sad.analysis.storedelements, once a test has asked for them): markers of deferred calls carry them
        elements = self.facts.first_element_symbols(proc)
        # and those of the elements at constant subscripts it reads of an array formal (DGEMQR's T(2))
        passed = [symbol for _, _, symbol in self.facts.passed_element_symbols(proc, self.table)]
        return tuple(s for s in formals if s is not None) + tuple(elements) + tuple(passed)

    def next_seq(self) -> int:
        """The next sequence number of this analysis (unique parameter places)."""
        self.seq += 1
        return self.seq

    def generic_decision(self, loc: ir.Loc, shown: str, value: bool | None) -> None:
        """Record (once, with a note) a test of data decided by the generic-data model
        (sad.analysis.genericdata)."""
        decision = (loc, shown, value)
        if decision in self.generic_decisions:
            return
        self.generic_decisions.append(decision)
        verdict = "decided" if value is None else f"taken as {'true' if value else 'false'}"
        self.note(loc, f"{shown} {verdict} for generic data (the generic-data "
                       f"assumption: data equal no other value and have an ordinary magnitude; "
                       f"--no-generic-data keeps it a probability)")

    def note(self, loc: ir.Loc, message: str) -> None:
        """Record a note diagnostic at `loc`."""
        self.diagnostics.append(ir.Diagnostic(loc, "note", message))

    def warn(self, loc: ir.Loc, message: str) -> None:
        """Record a warning diagnostic at `loc`."""
        self.diagnostics.append(ir.Diagnostic(loc, "warning", message))


@dataclass
class RegionResult:
    """Event counts per entry into a statement list, the flow that falls out of its end, and the flow
    that leaves it by jumps to labels outside it."""
    counts: dict[Event, sympy.Expr] = field(default_factory=dict)
    fallthrough: sympy.Expr = sympy.Integer(1)
    escapes: dict[str, sympy.Expr] = field(default_factory=dict)

    def add(self, event: Event, count: sympy.Expr) -> None:
        """Add `count` executions of `event` (zero counts are not stored)."""
        if not is_number(count, 0):
            known = self.counts.get(event)
            # a first count is stored as it is: 0 + count is count itself (sympy drops the identity)
            self.counts[event] = count if known is None else known + count


def expanded(expr: sympy.Expr | int) -> sympy.Expr:
    """An edge weight in expanded form (atoms as they are). A sum of products of numbers, symbols and their
    integer powers (an IF's 1 - P_A_IF1, P_A_IF1·P_A_IF2) is expanded already: sympy.expand would give
    it back as it is. A weight that would multiply out to more than EXPANSION_LIMIT terms is kept as it is
    (its value is the same)."""
    expr = sympy.sympify(expr)
    if multiplied_out(expr):
        return expr
    if expanded_terms(expr, EXPANSION_LIMIT) > EXPANSION_LIMIT:
        return expr
    return expand(expr)

